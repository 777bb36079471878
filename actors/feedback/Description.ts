/**
 * A feature request's description as callers give it — Markdown, or
 * ProseMirror JSON on the wiki's rich-text schema — turned into the stored
 * trio: the checked document, the Markdown (kept as written, so it reads back
 * unchanged) and the plain text search reads. A document off the schema is a
 * 400 naming the node.
 */
import { Effect } from "effect"
import { checkDoc, docToMarkdown, docToText, emptyDoc, markdownToDoc } from "../../richtext/RichText.ts"
import { reject } from "../../runtime/Rejection.ts"
import type { ProseMirrorJson } from "../wiki/WikiViews.ts"

export interface Description {
  readonly content: ProseMirrorJson
  readonly markdown: string
  readonly text: string
}

export const emptyDescription = (): Description => ({ content: emptyDoc(), markdown: "", text: "" })

const invalid = (path: string, message: string) => reject("invalid", `Invalid ${path}: ${message}`, [{ path, message }])

/** From Markdown (`markdownField`) or ProseMirror JSON (`contentField`); at most one of them. */
export const descriptionFrom = (
  input: { readonly markdown?: string | undefined; readonly content?: ProseMirrorJson | undefined },
  fields: { readonly markdown: string; readonly content: string }
): Effect.Effect<Description | undefined, ReturnType<typeof reject>> => {
  if (input.markdown !== undefined && input.content !== undefined) {
    return Effect.fail(invalid(fields.content, `give the description once, not together with ${fields.markdown}`))
  }
  if (input.markdown !== undefined) {
    const markdown = input.markdown
    return Effect.try({
      try: () => {
        const content = markdownToDoc(markdown)
        return { content, markdown, text: docToText(content) }
      },
      catch: (error) => invalid(fields.markdown, (error as Error).message)
    })
  }
  if (input.content !== undefined) {
    const checked = checkDoc(input.content)
    if (checked._tag === "Invalid") {
      return Effect.fail(invalid(checked.path === "" ? fields.content : `${fields.content}.${checked.path}`, checked.message))
    }
    return Effect.succeed({ content: checked.doc, markdown: docToMarkdown(checked.doc).replace(/\n+$/, ""), text: docToText(checked.doc) })
  }
  return Effect.succeed(undefined)
}
