/**
 * Favorites: a user's starred spaces, folders, lists and tasks in a
 * workspace. The user's `PmPersonal` actor is the single writer of their
 * rows in `pm_favorites`. Favorites are personal, so they make no change
 * events (nobody else's activity or live stream needs them). Reads show
 * only what the user may still see: deleted items, and items in a private
 * space they left, drop out of the list (archived ones stay, marked).
 */
import { Effect, Schema } from "effect"
import { query } from "../../persistence/Sql.ts"
import * as SqlSchema from "../../persistence/SqlSchema.ts"
import { Id, Timestamp } from "../Fields.ts"
import { command } from "./WorkActor.ts"
import { locateFolder, locateList, locateSpace, locateTask } from "./Locate.ts"
import { AlreadyFavorite, FavoriteNotFound, FavoritesPersonal, PlaceNotFound, PlaceOutsideWorkspace, TooManyFavorites } from "./PmErrors.ts"
import { type Viewer, visibleSpace } from "./StructureReads.ts"

export const MAX_FAVORITES = 500

export const FavoriteType = Schema.Literals(["space", "folder", "list", "task"])
export type FavoriteType = typeof FavoriteType.Type

export const Favorite = Schema.Struct({
  id: Id,
  type: FavoriteType,
  entityId: Id,
  workspaceId: Id,
  name: Schema.String,
  shortId: Schema.String,
  spaceId: Id,
  path: Schema.String.annotate({ description: "Where it is: space / folder / list names" }),
  archived: Schema.Boolean,
  position: Schema.Number,
  addedAt: Timestamp
}).annotate({ identifier: "Favorite", description: "A starred space, folder, list or task of the caller." })
export type Favorite = typeof Favorite.Type

export const locateEntity = (type: FavoriteType, entityId: string) =>
  type === "space"
    ? locateSpace(entityId)
    : type === "folder"
      ? locateFolder(entityId)
      : type === "list"
        ? locateList(entityId)
        : locateTask(entityId)

type Row = Omit<Favorite, "path" | "archived"> & { space: string; folder: string | null; list: string | null; archivedAt: string | null }

/** The user's favorites in the workspace that they may see, in their order (optionally one type, or one id). */
export const favoritesOf = (workspaceId: string, viewer: Viewer, filter: { readonly type?: FavoriteType; readonly id?: string } = {}) =>
  Effect.map(
    query<Row>(
      `SELECT * FROM (
         SELECT f.id, f.entity_type AS type, f.entity_id AS "entityId", f.workspace_id AS "workspaceId", f.position, f.created_at AS "addedAt",
                s.name, s.short_id AS "shortId", s.id AS "spaceId", s.name AS space, NULL::text AS folder, NULL::text AS list, s.archived_at AS "archivedAt"
           FROM pm_favorites f JOIN pm_spaces s ON s.id = f.entity_id
          WHERE f.entity_type = 'space' AND s.deleted_at IS NULL AND ${visibleSpace("s", 2, 3)} AND f.user_id = $2 AND f.workspace_id = $1
         UNION ALL
         SELECT f.id, f.entity_type, f.entity_id, f.workspace_id, f.position, f.created_at,
                fo.name, fo.short_id, s.id, s.name, NULL, NULL, COALESCE(fo.archived_at, s.archived_at)
           FROM pm_favorites f JOIN pm_folders fo ON fo.id = f.entity_id JOIN pm_spaces s ON s.id = fo.space_id
          WHERE f.entity_type = 'folder' AND fo.deleted_at IS NULL AND s.deleted_at IS NULL AND ${visibleSpace("s", 2, 3)} AND f.user_id = $2 AND f.workspace_id = $1
         UNION ALL
         SELECT f.id, f.entity_type, f.entity_id, f.workspace_id, f.position, f.created_at,
                l.name, l.short_id, s.id, s.name, fo.name, NULL, COALESCE(l.archived_at, fo.archived_at, s.archived_at)
           FROM pm_favorites f JOIN pm_lists l ON l.id = f.entity_id JOIN pm_spaces s ON s.id = l.space_id LEFT JOIN pm_folders fo ON fo.id = l.folder_id
          WHERE f.entity_type = 'list' AND l.deleted_at IS NULL AND s.deleted_at IS NULL AND ${visibleSpace("s", 2, 3)} AND f.user_id = $2 AND f.workspace_id = $1
         UNION ALL
         SELECT f.id, f.entity_type, f.entity_id, f.workspace_id, f.position, f.created_at,
                t.name, t.short_id, s.id, s.name, fo.name, l.name, COALESCE(t.archived_at, l.archived_at, s.archived_at)
           FROM pm_favorites f JOIN pm_tasks t ON t.id = f.entity_id JOIN pm_lists l ON l.id = t.list_id JOIN pm_spaces s ON s.id = t.space_id
                LEFT JOIN pm_folders fo ON fo.id = l.folder_id
          WHERE f.entity_type = 'task' AND t.deleted_at IS NULL AND l.deleted_at IS NULL AND s.deleted_at IS NULL AND ${visibleSpace("s", 2, 3)}
            AND f.user_id = $2 AND f.workspace_id = $1
       ) x
       WHERE ($4::text IS NULL OR x.type = $4) AND ($5::text IS NULL OR x.id = $5)
       ORDER BY x.position, x."addedAt", x.id`,
      [workspaceId, viewer.userId, viewer.admin, filter.type ?? null, filter.id ?? null]
    ),
    (rows) =>
      rows.map(
        ({ space, folder, list, archivedAt, ...row }): Favorite => ({
          ...row,
          path: [space, folder, list].filter((part): part is string => part !== null).join(" / "),
          archived: archivedAt !== null
        })
      )
  )

const own = (by: string, userId: string) => (by === userId ? Effect.void : Effect.fail(new FavoritesPersonal()))

const AddRefused = Schema.Union([FavoritesPersonal, PlaceNotFound, PlaceOutsideWorkspace, TooManyFavorites, AlreadyFavorite])
const RemoveRefused = Schema.Union([FavoritesPersonal, FavoriteNotFound])

export const favoriteCommands = {
  addFavorite: command(
    Schema.Struct({ workspaceId: Id, type: FavoriteType, entityId: Id }),
    Schema.Struct({ id: Id }),
    AddRefused,
    (input, by, userId) =>
      Effect.gen(function* () {
        yield* own(by, userId)
        const located = yield* locateEntity(input.type, input.entityId).pipe(
          Effect.catchTag("PlaceNotFound", () => Effect.fail(new PlaceNotFound({ what: input.type })))
        )
        if (located.workspaceId !== input.workspaceId) return yield* new PlaceOutsideWorkspace({ what: input.type, field: "body.id" })
        const count = yield* query<{ n: number }>(`SELECT count(*)::int AS n FROM pm_favorites WHERE user_id = $1 AND workspace_id = $2`, [
          userId,
          input.workspaceId
        ])
        if (count[0]!.n >= MAX_FAVORITES) return yield* new TooManyFavorites({ max: MAX_FAVORITES })
        const id = crypto.randomUUID()
        const inserted = yield* query(
          `INSERT INTO pm_favorites (id, user_id, workspace_id, entity_type, entity_id, position)
         SELECT $1, $2, $3, $4, $5, COALESCE(MAX(position), 0) + 1 FROM pm_favorites WHERE user_id = $2 AND workspace_id = $3
         ON CONFLICT (user_id, entity_type, entity_id) DO NOTHING RETURNING id`,
          [id, userId, input.workspaceId, input.type, input.entityId]
        )
        if (inserted.length === 0) return yield* new AlreadyFavorite({ what: input.type })
        return { result: { id }, changes: [] }
      })
  ),

  removeFavorite: command(Schema.Struct({ favoriteId: Id }), Schema.Void, RemoveRefused, (input, by, userId) =>
    Effect.gen(function* () {
      yield* own(by, userId)
      const removed = yield* query(`DELETE FROM pm_favorites WHERE id = $1 AND user_id = $2 RETURNING id`, [input.favoriteId, userId])
      if (removed.length === 0) return yield* new FavoriteNotFound()
      return { result: undefined, changes: [] }
    })
  ),

  /** The user's order of their workspaces (those left out keep their place after the listed ones). */
  setWorkspaceOrder: command(Schema.Struct({ workspaceIds: Schema.Array(Id) }), Schema.Void, FavoritesPersonal, (input, by, userId) =>
    Effect.gen(function* () {
      yield* own(by, userId)
      yield* query(`DELETE FROM pm_workspace_order WHERE user_id = $1`, [userId])
      for (const [index, workspaceId] of input.workspaceIds.entries()) {
        yield* query(`INSERT INTO pm_workspace_order (user_id, workspace_id, position) VALUES ($1, $2, $3)`, [
          userId,
          workspaceId,
          index + 1
        ])
      }
      return { result: undefined, changes: [] }
    })
  )
}

/** The favorite's workspace (undefined: no favorite of this user has that id). */
export const favoriteWorkspace = (userId: string, favoriteId: string) =>
  Effect.map(
    query<{ workspaceId: string }>(`SELECT workspace_id AS "workspaceId" FROM pm_favorites WHERE id = $1 AND user_id = $2`, [
      favoriteId,
      userId
    ]),
    (rows) => rows[0]?.workspaceId
  )

const findWorkspaceOrder = SqlSchema.findAll({
  Request: Schema.String,
  Result: Schema.Struct({ workspaceId: Schema.String, position: Schema.Number }),
  execute: (userId) => [`SELECT workspace_id AS "workspaceId", position FROM pm_workspace_order WHERE user_id = $1`, [userId]]
})

/** The user's own order of their workspaces: position by workspace id (the ones never placed are absent). */
export const workspaceOrderOf = (userId: string) =>
  Effect.map(findWorkspaceOrder(userId), (rows) => new Map(rows.map((row) => [row.workspaceId, row.position] as const)))
