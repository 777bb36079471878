/**
 * Links between pages, found in a page's content: link marks whose href
 * names a page id (`…/pages/<id>`, or the bare id), and mention nodes of
 * pages. Kept in `wiki_page_links` for backlinks.
 */
import { Effect } from "effect"
import { query } from "../../persistence/Sql.ts"
import type { ProseMirrorJson } from "./WikiViews.ts"

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi

/** Page ids the content points at (candidates: not checked to exist). */
export const linkedIds = (doc: ProseMirrorJson): ReadonlySet<string> => {
  const ids = new Set<string>()
  const visit = (node: ProseMirrorJson, depth: number) => {
    if (depth > 200) return
    for (const mark of node.marks ?? []) {
      const href = mark.type === "link" ? mark.attrs?.href : undefined
      if (typeof href === "string") for (const match of href.matchAll(UUID)) ids.add(match[0].toLowerCase())
    }
    if (node.type === "mention" && typeof node.attrs?.id === "string")
      for (const match of node.attrs.id.matchAll(UUID)) ids.add(match[0].toLowerCase())
    for (const child of node.content ?? []) visit(child, depth + 1)
  }
  visit(doc, 0)
  return ids
}

/** Replaces the outgoing links of a page with those of its current content (pages of the same workspace only). */
export const recordLinks = (pageId: string, workspaceId: string, doc: ProseMirrorJson) =>
  Effect.gen(function* () {
    const candidates = [...linkedIds(doc)].filter((id) => id !== pageId)
    yield* query("DELETE FROM wiki_page_links WHERE source_page_id = $1", [pageId])
    if (candidates.length === 0) return
    yield* query(
      `INSERT INTO wiki_page_links (source_page_id, target_page_id, workspace_id)
       SELECT $1, id, $2 FROM wiki_pages WHERE id = ANY($3::text[]) AND workspace_id = $2
       ON CONFLICT DO NOTHING`,
      [pageId, workspaceId, candidates]
    )
  })
