/**
 * Page content as callers give it — Markdown, HTML or ProseMirror JSON —
 * turned into one checked ProseMirror document, or a 400 naming the field
 * (and, for JSON, the offending node).
 */
import { Effect } from "effect"
import { checkDoc, htmlToDoc, markdownToDoc } from "../../richtext/RichText.ts"
import { LiveDocuments } from "../LiveDocuments.ts"
import { reject } from "../../runtime/Rejection.ts"
import type { PageRow, SpaceRow } from "./WikiRecords.ts"
import type { PageRight } from "./WikiRoles.ts"
import { pageSummary, type ProseMirrorJson, type WikiPageView } from "./WikiViews.ts"

export interface ContentInput {
  readonly markdown?: string
  readonly html?: string
  readonly content?: ProseMirrorJson
}

const convert = (field: string, run: () => ProseMirrorJson) =>
  Effect.try({
    try: run,
    catch: (error) =>
      reject("invalid", `Invalid ${field}: ${(error as Error).message}`, [{ path: field, message: (error as Error).message }])
  })

/** The document the input describes; `undefined` when it gives none. `prefix` is where the fields sit (e.g. "body"). */
export const contentFrom = (input: ContentInput, prefix = "body") =>
  Effect.gen(function* () {
    const given = (["markdown", "html", "content"] as const).filter((field) => input[field] !== undefined)
    if (given.length > 1) {
      return yield* reject("invalid", "Give the content once: markdown, html or content", [
        { path: `${prefix}.${given[1]}`, message: `not together with ${given[0]}` }
      ])
    }
    if (input.markdown !== undefined) return yield* convert(`${prefix}.markdown`, () => markdownToDoc(input.markdown!))
    if (input.html !== undefined) return yield* convert(`${prefix}.html`, () => htmlToDoc(input.html!))
    if (input.content !== undefined) {
      const checked = checkDoc(input.content)
      if (checked._tag === "Invalid") {
        const path = checked.path === "" ? `${prefix}.content` : `${prefix}.content.${checked.path}`
        return yield* reject("invalid", `Invalid content at ${path}: ${checked.message}`, [{ path, message: checked.message }])
      }
      return checked.doc
    }
    return undefined
  })

/** The page with its current content (from the live document, so it includes what editors typed). */
export const readPage = (access: { readonly page: PageRow; readonly space: SpaceRow; readonly right: PageRight }) =>
  Effect.gen(function* () {
    const snapshot = yield* (yield* LiveDocuments).snapshot(access.page.id)
    return {
      ...pageSummary(access.page),
      spaceKey: access.space.key,
      content: snapshot.content,
      text: snapshot.text,
      markdown: snapshot.markdown,
      // Archived pages (or pages of an archived space) are read-only for everyone.
      access: access.right === "edit" && access.page.archivedAt === null && access.space.archivedAt === null ? "edit" : "read"
    } satisfies WikiPageView
  })
