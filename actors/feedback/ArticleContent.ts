/**
 * Long-form feedback content (milestone articles, changelog entries) on the
 * wiki's rich-text schema: callers give Markdown, HTML or ProseMirror JSON,
 * we keep the checked ProseMirror document and answer all three forms.
 * Off-schema JSON is refused with 400 naming the node (`contentFrom`).
 */
import { Effect, Schema } from "effect"
import { docToHtml, docToMarkdown, type ProseMirrorNode } from "../../richtext/RichText.ts"
import { reject } from "../../runtime/Rejection.ts"
import { contentFrom } from "../wiki/PageContent.ts"
import { ProseMirrorNode as ProseMirrorJson } from "../wiki/WikiViews.ts"

export { ProseMirrorJson }

/** At most 500k characters of Markdown or HTML, like a wiki page. */
const Source = Schema.String.check(Schema.isMaxLength(500_000))

/** The ways callers give rich text: exactly one of them. */
export const RichTextInput = {
  markdown: Schema.optionalKey(Source.annotate({ description: "Markdown (CommonMark + tables, task lists)" })),
  html: Schema.optionalKey(Source.annotate({ description: "HTML; unknown tags are dropped, their text kept" })),
  content: Schema.optionalKey(ProseMirrorJson)
}

export interface RichTextGiven {
  readonly markdown?: string
  readonly html?: string
  readonly content?: typeof ProseMirrorJson.Type
}

/** The checked document of exactly one given form; 400 naming the field (and node) otherwise. */
export const richTextFrom = (input: RichTextGiven, prefix = "body") =>
  Effect.flatMap(contentFrom(input, prefix), (doc) =>
    doc === undefined
      ? Effect.fail(
          reject("invalid", "Give the content as markdown, html or content (ProseMirror JSON)", [
            { path: `${prefix}.markdown`, message: "one of markdown, html or content is required" }
          ])
        )
      : Effect.succeed(doc as ProseMirrorNode)
  )

export const RenderedArticle = Schema.Struct({
  content: ProseMirrorJson,
  markdown: Schema.String,
  html: Schema.String
})

/** The three forms of a stored document. */
export const rendered = (doc: ProseMirrorNode) => ({ content: doc, markdown: docToMarkdown(doc), html: docToHtml(doc) })
