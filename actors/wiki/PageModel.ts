/**
 * A wiki page as its actor keeps it in memory: the page's row (its metadata
 * as the API shows it), its permission entries, and its ancestors with their
 * restrictions, which narrow who may see the page. So one ask answers the
 * page's metadata, its breadcrumbs, its permissions and, with the space's
 * and the workspace's actors, every access check, without SQL.
 *
 * The content is not kept: it lives in the page's live document.
 * Rebuilt from the rows on activation and whenever a write makes it stale
 * (the writers invalidate the pages whose row, ancestors or restrictions
 * they changed: see `WikiStaleness`).
 */
import { Effect, Schema } from "effect"
import { pagePermissionsOf, pageChainOf } from "./WikiQueries.ts"
import { PagePermissionRecord, PageRecord } from "./WikiRecords.ts"
import { PageRestriction } from "./WikiRoles.ts"

export const AncestorNode = Schema.Struct({
  id: Schema.String,
  title: Schema.String,
  slug: Schema.String,
  icon: Schema.NullOr(Schema.String),
  restriction: PageRestriction,
  /** Its permission entries when it is restricted (they apply to this page too). */
  entries: Schema.Array(PagePermissionRecord)
})
export type AncestorNode = typeof AncestorNode.Type

export const PageModel = Schema.Struct({
  page: PageRecord,
  entries: Schema.Array(PagePermissionRecord),
  /** Nearest first. */
  ancestors: Schema.Array(AncestorNode)
})
export type PageModel = typeof PageModel.Type

/** `null`: no such page (yet, or any more). */
export const rebuildPage = (pageId: string) =>
  Effect.gen(function* () {
    const [page, ...ancestors] = yield* pageChainOf(pageId)
    if (page === undefined) return null
    const restricted = ancestors.filter((node) => node.restriction !== "open").map((node) => node.id)
    const entries = yield* pagePermissionsOf([page.id, ...restricted])
    return {
      page,
      entries: entries.get(page.id) ?? [],
      ancestors: ancestors.map((node) => ({
        id: node.id,
        title: node.title,
        slug: node.slug,
        icon: node.icon,
        restriction: node.restriction,
        entries: node.restriction === "open" ? [] : (entries.get(node.id) ?? [])
      }))
    } satisfies PageModel
  })
