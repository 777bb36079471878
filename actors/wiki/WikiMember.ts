/**
 * One user's own wiki state: pinned (favorite) pages, personal settings and
 * recent searches. The actor (one per user id) serializes the user's writes
 * and keeps the rules (no duplicate favorite, bounded lists); its state is its
 * rows (`wiki_favorites`, `wiki_user_settings`, `wiki_recent_searches`),
 * which the readers (home screen, search) join directly.
 * Whether the user may see a page is checked by the caller before asking.
 */
import { Effect, Schema } from "effect"
import { orDieSql, Sql, query } from "../../persistence/Sql.ts"
import { WikiFavoriteExists, WikiFavoriteNotFound, WikiRecentSearchNotFound, WikiTooManyFavorites } from "./WikiErrors.ts"
import * as SqlSchema from "../../persistence/SqlSchema.ts"
import { Actor } from "../../runtime/Actor.ts"

/** At most this many favorites per user and workspace. */
export const MAX_FAVORITES = 500
/** Recent searches kept per user and workspace. */
export const MAX_RECENT_SEARCHES = 20

export const Theme = Schema.Literals(["system", "light", "dark"])
export const EditMode = Schema.Literals(["edit", "read"]).annotate({ description: "Whether pages open in editing or reading mode" })

export const UserSettings = Schema.Struct({
  theme: Theme,
  fullWidth: Schema.Boolean.annotate({ description: "Pages use the full window width" }),
  spellcheck: Schema.Boolean,
  defaultEditMode: EditMode,
  saveSearchHistory: Schema.Boolean.annotate({ description: "Remember this user's searches (recent searches)" }),
  updatedAt: Schema.NullOr(Schema.String)
}).annotate({ identifier: "WikiUserSettings" })
export type UserSettings = typeof UserSettings.Type

export const UserSettingsPatch = Schema.Struct({
  theme: Schema.optionalKey(Theme),
  fullWidth: Schema.optionalKey(Schema.Boolean),
  spellcheck: Schema.optionalKey(Schema.Boolean),
  defaultEditMode: Schema.optionalKey(EditMode),
  saveSearchHistory: Schema.optionalKey(Schema.Boolean)
})

export const defaultUserSettings: UserSettings = {
  theme: "system",
  fullWidth: false,
  spellcheck: true,
  defaultEditMode: "edit",
  saveSearchHistory: true,
  updatedAt: null
}

const FavoriteRecord = Schema.Struct({ pageId: Schema.String, workspaceId: Schema.String, createdAt: Schema.String })

const transaction = <A, E, R>(body: Effect.Effect<A, E, R>) => Sql.use((sql) => sql.transaction(body))

const toSettings = (row: Record<string, any> | undefined): UserSettings =>
  row === undefined
    ? defaultUserSettings
    : {
        theme: row.theme,
        fullWidth: row.full_width,
        spellcheck: row.spellcheck,
        defaultEditMode: row.default_edit_mode,
        saveSearchHistory: row.save_search_history,
        updatedAt: row.updated_at
      }

export const userSettingsOf = (userId: string) =>
  Effect.map(query("SELECT * FROM wiki_user_settings WHERE user_id = $1", [userId]), (rows) => toSettings(rows[0]))

export const WikiMember = Actor<{}>()({
  kind: "wikiMember",
  state: Schema.Struct({}),
  initial: () => ({}),
  messages: {
    addFavorite: {
      payload: Schema.Struct({ pageId: Schema.String, workspaceId: Schema.String }),
      success: FavoriteRecord,
      error: Schema.Union([WikiFavoriteExists, WikiTooManyFavorites])
    },
    removeFavorite: { payload: Schema.Struct({ pageId: Schema.String }), success: Schema.Void, error: WikiFavoriteNotFound },
    updateSettings: { payload: UserSettingsPatch, success: UserSettings, error: Schema.Never },
    recordSearch: {
      payload: Schema.Struct({
        workspaceId: Schema.String,
        query: Schema.String,
        filters: Schema.Record(Schema.String, Schema.String),
        resultCount: Schema.Number
      }),
      success: Schema.Void,
      error: Schema.Never
    },
    deleteSearch: { payload: Schema.Struct({ searchId: Schema.String }), success: Schema.Void, error: WikiRecentSearchNotFound },
    clearSearches: {
      payload: Schema.Struct({ workspaceId: Schema.String }),
      success: Schema.Struct({ deleted: Schema.Number }),
      error: Schema.Never
    }
  },
  handlers: {
    addFavorite: ({ pageId, workspaceId }, ctx) =>
      orDieSql(
        transaction(
          Effect.gen(function* () {
            const userId = ctx.address.id
            const existing = yield* query("SELECT 1 FROM wiki_favorites WHERE user_id = $1 AND page_id = $2", [userId, pageId])
            if (existing.length > 0) return yield* new WikiFavoriteExists()
            const [{ count }] = yield* query<{ count: number }>(
              "SELECT count(*)::int AS count FROM wiki_favorites WHERE user_id = $1 AND workspace_id = $2",
              [userId, workspaceId]
            )
            if (count >= MAX_FAVORITES) return yield* new WikiTooManyFavorites({ max: MAX_FAVORITES })
            const rows = yield* query<{ created_at: string }>(
              "INSERT INTO wiki_favorites (user_id, page_id, workspace_id) VALUES ($1, $2, $3) RETURNING created_at",
              [userId, pageId, workspaceId]
            )
            return { pageId, workspaceId, createdAt: rows[0]!.created_at }
          })
        )
      ),
    removeFavorite: ({ pageId }, ctx) =>
      orDieSql(
        Effect.gen(function* () {
          const rows = yield* query("DELETE FROM wiki_favorites WHERE user_id = $1 AND page_id = $2 RETURNING page_id", [
            ctx.address.id,
            pageId
          ])
          if (rows.length === 0) return yield* new WikiFavoriteNotFound()
        })
      ),
    updateSettings: (patch, ctx) =>
      orDieSql(
        Effect.gen(function* () {
          const current = toSettings((yield* query("SELECT * FROM wiki_user_settings WHERE user_id = $1", [ctx.address.id]))[0])
          const next = { ...current, ...patch }
          const rows = yield* query(
            `INSERT INTO wiki_user_settings (user_id, theme, full_width, spellcheck, default_edit_mode, save_search_history, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, now())
           ON CONFLICT (user_id) DO UPDATE SET theme = $2, full_width = $3, spellcheck = $4, default_edit_mode = $5,
             save_search_history = $6, updated_at = now()
           RETURNING *`,
            [ctx.address.id, next.theme, next.fullWidth, next.spellcheck, next.defaultEditMode, next.saveSearchHistory]
          )
          // Turning history off forgets what was kept.
          if (!next.saveSearchHistory) yield* query("DELETE FROM wiki_recent_searches WHERE user_id = $1", [ctx.address.id])
          return toSettings(rows[0])
        })
      ),
    recordSearch: ({ workspaceId, query: text, filters, resultCount }, ctx) =>
      orDieSql(
        transaction(
          Effect.gen(function* () {
            const userId = ctx.address.id
            const settings = toSettings((yield* query("SELECT * FROM wiki_user_settings WHERE user_id = $1", [userId]))[0])
            if (!settings.saveSearchHistory) return
            yield* query(
              `INSERT INTO wiki_recent_searches (id, user_id, workspace_id, query, filters, result_count)
           VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (user_id, workspace_id, lower(query))
           DO UPDATE SET query = $4, filters = $5, result_count = $6, searched_at = now()`,
              [crypto.randomUUID(), userId, workspaceId, text, filters, resultCount]
            )
            yield* query(
              `DELETE FROM wiki_recent_searches WHERE user_id = $1 AND workspace_id = $2 AND id NOT IN (
             SELECT id FROM wiki_recent_searches WHERE user_id = $1 AND workspace_id = $2 ORDER BY searched_at DESC, id LIMIT $3)`,
              [userId, workspaceId, MAX_RECENT_SEARCHES]
            )
          })
        )
      ),
    deleteSearch: ({ searchId }, ctx) =>
      orDieSql(
        Effect.gen(function* () {
          const rows = yield* query("DELETE FROM wiki_recent_searches WHERE user_id = $1 AND id = $2 RETURNING id", [
            ctx.address.id,
            searchId
          ])
          if (rows.length === 0) return yield* new WikiRecentSearchNotFound()
        })
      ),
    clearSearches: ({ workspaceId }, ctx) =>
      orDieSql(
        Effect.map(
          query("DELETE FROM wiki_recent_searches WHERE user_id = $1 AND workspace_id = $2 RETURNING id", [ctx.address.id, workspaceId]),
          (rows) => ({ deleted: rows.length })
        )
      )
  }
})

const findRecentSearches = SqlSchema.findAll({
  Request: Schema.Struct({ userId: Schema.String, workspaceId: Schema.String, limit: Schema.Number }),
  Result: Schema.Struct({
    id: Schema.String,
    query: Schema.String,
    filters: Schema.Record(Schema.String, Schema.String),
    resultCount: Schema.Number,
    searchedAt: Schema.String
  }),
  execute: (r) => [
    `SELECT id, query, filters, result_count AS "resultCount", searched_at AS "searchedAt" FROM wiki_recent_searches
      WHERE user_id = $1 AND workspace_id = $2 ORDER BY searched_at DESC, id LIMIT $3`,
    [r.userId, r.workspaceId, r.limit]
  ]
})

/** The member's recent searches in a workspace, newest first. */
export const recentSearchesOf = (userId: string, workspaceId: string, limit: number) => findRecentSearches({ userId, workspaceId, limit })

const findSearchWorkspace = SqlSchema.findOne({
  Request: Schema.Struct({ searchId: Schema.String, userId: Schema.String }),
  Result: Schema.Struct({ workspaceId: Schema.String }),
  execute: (r) => [`SELECT workspace_id AS "workspaceId" FROM wiki_recent_searches WHERE id = $1 AND user_id = $2`, [r.searchId, r.userId]]
})

/** The workspace of one of the member's recent searches, if it is theirs. */
export const recentSearchWorkspace = (userId: string, searchId: string) =>
  Effect.map(findSearchWorkspace({ searchId, userId }), (row) => row?.workspaceId)
