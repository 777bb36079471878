/**
 * wiki tag "Wiki Home" (1): the home screen of a workspace's wiki in one
 * call — the default home space, the spaces the caller can see, their
 * favorites, what they viewed and edited lately, and what changed lately
 * across the wiki. Only pages the caller may read.
 */
import { Effect, Schema } from "effect"
import { Id } from "../../actors/Fields.ts"
import { usersByIds } from "../../actors/identity/IdentityQueries.ts"
import { PageRef, pageRefOf } from "../../actors/wiki/DiscoveryViews.ts"
import { readerOf, visibleTo } from "../../actors/wiki/VisiblePages.ts"
import { callerOf } from "../../actors/wiki/WikiAccess.ts"
import { wikiSettingsOf } from "../../actors/wiki/WikiSettings.ts"
import { query } from "../../persistence/Sql.ts"
import { principalOf } from "../Access.ts"
import { tagGroup } from "../Operation.ts"
import { favoritesOf } from "./WikiFavorites.ts"
import { wikiHomeExamples } from "./WikiHome.examples.ts"
const LIST = 10

const SpaceCard = Schema.Struct({
  id: Schema.String,
  key: Schema.String,
  name: Schema.String,
  icon: Schema.NullOr(Schema.String),
  pageCount: Schema.Number,
  lastUpdatedAt: Schema.NullOr(Schema.String)
}).annotate({ identifier: "WikiHomeSpace" })

const Home = Schema.Struct({
  workspaceId: Schema.String,
  homeSpace: Schema.NullOr(SpaceCard).annotate({
    description: "The workspace's default home space (Wiki Settings), when the caller can see it"
  }),
  spaces: Schema.Array(SpaceCard),
  favorites: Schema.Array(Schema.Struct({ ...PageRef.fields, addedAt: Schema.String })),
  recentlyViewed: Schema.Array(Schema.Struct({ ...PageRef.fields, viewedAt: Schema.String })),
  recentlyEdited: Schema.Array(Schema.Struct({ ...PageRef.fields, editedAt: Schema.String })).annotate({
    description: "Pages the caller edited lately"
  }),
  recentlyUpdated: Schema.Array(
    Schema.Struct({
      ...PageRef.fields,
      updatedAt: Schema.String,
      updatedBy: Schema.Struct({ userId: Schema.String, name: Schema.String })
    })
  ),
  totals: Schema.Struct({ spaces: Schema.Number, pages: Schema.Number })
}).annotate({ identifier: "WikiHome" })

const { operation } = tagGroup("wiki", "Wiki Home", wikiHomeExamples)

export const wikiHomeOperations = [
  operation({
    operationId: "getWikiHome",
    method: "GET",
    path: "/v1/home",
    summary: "The wiki home screen: spaces, favorites, recent views, edits and updates",
    auth: "both",
    scopes: ["wiki:read"],
    query: Schema.Struct({ workspaceId: Id }),
    responses: { 200: { description: "Home screen", schema: Home } },
    handler: ({ query: q }, context) =>
      Effect.gen(function* () {
        const caller = callerOf(yield* principalOf(context))
        const reader = yield* readerOf(caller, q.workspaceId)
        // Each query names the caller as $1 and the list length as $2; the visibility CTEs follow.
        const visible = visibleTo(reader, 3)
        const withVisible = <R extends object>(sql: string) =>
          query<R>(`WITH RECURSIVE ${visible.ctes} ${sql}`, [caller.userId, LIST, ...visible.params])
        const visibleOnly = visibleTo(reader, 1)
        const spaces = yield* query<Record<string, any>>(
          `WITH RECURSIVE ${visibleOnly.ctes}
           SELECT s.id, s.key, s.name, s.icon,
                  (SELECT count(*) FROM visible_pages p WHERE p.space_id = s.id)::int AS page_count,
                  (SELECT max(p.updated_at) FROM visible_pages p WHERE p.space_id = s.id) AS last_updated_at
             FROM visible_spaces s ORDER BY lower(s.name), s.id`,
          visibleOnly.params
        )
        const viewed = yield* withVisible<Record<string, any>>(
          `SELECT p.id, p.title, p.slug, p.icon, p.space_id, s.key AS space_key, s.name AS space_name, v.viewed_at
             FROM (SELECT page_id, max(viewed_at) AS viewed_at FROM wiki_page_views WHERE user_id = $1 GROUP BY page_id) v
             JOIN visible_pages p ON p.id = v.page_id JOIN wiki_spaces s ON s.id = p.space_id
            ORDER BY v.viewed_at DESC, p.id LIMIT $2`
        )
        const edited = yield* withVisible<Record<string, any>>(
          `SELECT p.id, p.title, p.slug, p.icon, p.space_id, s.key AS space_key, s.name AS space_name, e.edited_at
             FROM (SELECT page_id, max(minute) AS edited_at FROM wiki_page_edits WHERE user_id = $1 GROUP BY page_id) e
             JOIN visible_pages p ON p.id = e.page_id JOIN wiki_spaces s ON s.id = p.space_id
            ORDER BY e.edited_at DESC, p.id LIMIT $2`
        )
        const afterLimit = visibleTo(reader, 2)
        const updated = yield* query<Record<string, any>>(
          `WITH RECURSIVE ${afterLimit.ctes}
           SELECT p.id, p.title, p.slug, p.icon, p.space_id, s.key AS space_key, s.name AS space_name, p.updated_at, p.updated_by
             FROM visible_pages p JOIN wiki_spaces s ON s.id = p.space_id
            ORDER BY p.updated_at DESC, p.id LIMIT $1`,
          [LIST, ...afterLimit.params]
        )
        const favorites = yield* favoritesOf(reader, LIST)
        const settings = yield* wikiSettingsOf(q.workspaceId)
        const names = yield* usersByIds([...new Set(updated.map((row) => row.updated_by as string))])
        const cards = spaces.map((row) => ({
          id: row.id as string,
          key: row.key as string,
          name: row.name as string,
          icon: (row.icon ?? null) as string | null,
          pageCount: row.page_count as number,
          lastUpdatedAt: (row.last_updated_at ?? null) as string | null
        }))
        return {
          workspaceId: q.workspaceId,
          homeSpace: cards.find((card) => card.id === settings.defaultHomeSpaceId) ?? null,
          spaces: cards,
          favorites,
          recentlyViewed: viewed.map((row) => ({ ...pageRefOf(row), viewedAt: row.viewed_at as string })),
          recentlyEdited: edited.map((row) => ({ ...pageRefOf(row), editedAt: row.edited_at as string })),
          recentlyUpdated: updated.map((row) => ({
            ...pageRefOf(row),
            updatedAt: row.updated_at as string,
            updatedBy: { userId: row.updated_by as string, name: names.get(row.updated_by)?.name ?? "" }
          })),
          totals: { spaces: cards.length, pages: cards.reduce((sum, card) => sum + card.pageCount, 0) }
        }
      }).pipe(Effect.catchTag("SqlError", Effect.die))
  })
]
