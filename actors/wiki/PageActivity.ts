/**
 * Page activity: who read and who edited which page, when. Views are one row
 * each; edits are folded per page, editor and minute (typing reports a change
 * about once a second). Dashboards, the home screen and public-wiki analytics
 * read these facts; nothing else depends on them, so a failed write is logged
 * and never fails the read or edit that caused it.
 */
import { Effect } from "effect"
import { query, type Sql } from "../../persistence/Sql.ts"

export type ViewSource = "app" | "public"

const logged =
  (what: string) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>) =>
    effect.pipe(
      Effect.asVoid,
      Effect.catchCause((cause) => Effect.logWarning(`wiki activity: could not record ${what}`, cause))
    )

/**
 * Records that `userId` (or an anonymous public visitor) read the page. No-op
 * for an unknown page, or when the workspace turned page-view tracking off.
 */
export const recordView = (input: {
  readonly pageId: string
  readonly userId: string | null
  readonly visitorId?: string | null
  readonly source: ViewSource
}): Effect.Effect<void, never, Sql> =>
  query(
    `INSERT INTO wiki_page_views (id, page_id, space_id, workspace_id, user_id, visitor_id, source)
     SELECT $1, p.id, p.space_id, p.workspace_id, $3, $4, $5 FROM wiki_pages p
      WHERE p.id = $2
        AND NOT EXISTS (SELECT 1 FROM wiki_settings w WHERE w.workspace_id = p.workspace_id AND NOT w.track_page_views)`,
    [crypto.randomUUID(), input.pageId, input.userId, input.visitorId ?? null, input.source]
  ).pipe(logged("a page view"))

/**
 * Records that a signed-in user read a page in the app: the editing
 * engineer's getWikiPage calls this after its access check.
 */
export const recordPageView = (pageId: string, userId: string): Effect.Effect<void, never, Sql> =>
  recordView({ pageId, userId, source: "app" })

/** Records one change of a page's content by each of `userIds` ('' when nobody can be named). */
export const recordEdit = (pageId: string, userIds: ReadonlyArray<string>): Effect.Effect<void, never, Sql> =>
  query(
    `INSERT INTO wiki_page_edits (page_id, space_id, workspace_id, user_id, minute)
     SELECT p.id, p.space_id, p.workspace_id, u.user_id, date_trunc('minute', now())
       FROM wiki_pages p, unnest($2::text[]) AS u(user_id)
      WHERE p.id = $1
     ON CONFLICT (page_id, user_id, minute) DO UPDATE SET changes = wiki_page_edits.changes + 1`,
    [pageId, userIds.length === 0 ? [""] : [...new Set(userIds)]]
  ).pipe(logged("a page edit"))
