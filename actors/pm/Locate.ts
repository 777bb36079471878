/**
 * Where an entity of the work hierarchy sits: its workspace, space, folder,
 * list — what access checks and change paths need. Deleted entities (and
 * those under a deleted ancestor, which deletion marks too) are not found.
 */
import { Effect } from "effect"
import { query, type Sql, type SqlError } from "../../persistence/Sql.ts"
import { PlaceNotFound, TaskNotFound } from "./PmErrors.ts"
import { normalizeShortId } from "./ShortIds.ts"
import { TaskRefNotFound } from "./WorkErrors.ts"

export interface Located {
  readonly workspaceId: string
  readonly spaceId: string
  readonly folderId: string | null
  readonly listId: string | null
  readonly taskId: string | null
  /** The space is private: only its members and workspace admins see anything in it. */
  readonly isPrivate: boolean
  readonly archived: boolean
}

type Row = {
  workspaceId: string
  spaceId: string
  folderId: string | null
  listId: string | null
  taskId: string | null
  isPrivate: boolean
  archived: boolean
}

const one = (text: string, params: ReadonlyArray<unknown>, what: string): Effect.Effect<Located, PlaceNotFound | SqlError, Sql> =>
  Effect.flatMap(query<Row>(text, params), (rows) => (rows[0] ? Effect.succeed(rows[0]) : Effect.fail(new PlaceNotFound({ what }))))

export const locateSpace = (spaceId: string) =>
  one(
    `SELECT workspace_id AS "workspaceId", id AS "spaceId", NULL AS "folderId", NULL AS "listId", NULL AS "taskId",
            is_private AS "isPrivate", archived_at IS NOT NULL AS archived
       FROM pm_spaces WHERE id = $1 AND deleted_at IS NULL`,
    [spaceId],
    "space"
  )

export const locateFolder = (folderId: string) =>
  one(
    `SELECT f.workspace_id AS "workspaceId", f.space_id AS "spaceId", f.id AS "folderId", NULL AS "listId", NULL AS "taskId",
            s.is_private AS "isPrivate", f.archived_at IS NOT NULL AS archived
       FROM pm_folders f JOIN pm_spaces s ON s.id = f.space_id
      WHERE f.id = $1 AND f.deleted_at IS NULL AND s.deleted_at IS NULL`,
    [folderId],
    "folder"
  )

export const locateList = (listId: string) =>
  one(
    `SELECT l.workspace_id AS "workspaceId", l.space_id AS "spaceId", l.folder_id AS "folderId", l.id AS "listId", NULL AS "taskId",
            s.is_private AS "isPrivate", l.archived_at IS NOT NULL AS archived
       FROM pm_lists l JOIN pm_spaces s ON s.id = l.space_id
      WHERE l.id = $1 AND l.deleted_at IS NULL AND s.deleted_at IS NULL`,
    [listId],
    "list"
  )

const taskSelect = `SELECT t.workspace_id AS "workspaceId", t.space_id AS "spaceId", l.folder_id AS "folderId", t.list_id AS "listId",
            t.id AS "taskId", s.is_private AS "isPrivate", t.archived_at IS NOT NULL AS archived
       FROM pm_tasks t JOIN pm_lists l ON l.id = t.list_id JOIN pm_spaces s ON s.id = t.space_id`

/** A task; `deleted: true` finds tasks in the trash (and only those). */
export const locateTask = (taskId: string, options: { readonly deleted?: boolean } = {}) =>
  one(
    `${taskSelect} WHERE t.id = $1 AND ${options.deleted ? "t.deleted_at IS NOT NULL" : "t.deleted_at IS NULL"}
        AND l.deleted_at IS NULL AND s.deleted_at IS NULL`,
    [taskId],
    "task"
  )

/** `locateTask` for messages that declare `TaskNotFound`. */
export const findTask = (taskId: string) => Effect.catchTag(locateTask(taskId), "PlaceNotFound", () => Effect.fail(new TaskNotFound()))

export const locateTaskByShortId = (workspaceId: string, shortId: string) =>
  one(
    `${taskSelect} WHERE t.workspace_id = $1 AND t.short_id = $2 AND t.deleted_at IS NULL AND l.deleted_at IS NULL AND s.deleted_at IS NULL`,
    [workspaceId, normalizeShortId(shortId)],
    "task"
  )

/** A task by UUID or short id, within one workspace (other workspaces' tasks are not found). */
export const locateTaskRef = (workspaceId: string, ref: string) =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(ref)
    ? Effect.flatMap(locateTask(ref.toLowerCase()), (located) =>
        located.workspaceId === workspaceId ? Effect.succeed(located) : Effect.fail(new TaskRefNotFound({ ref }))
      )
    : Effect.catchTag(locateTaskByShortId(workspaceId, ref), "PlaceNotFound", () =>
        Effect.fail(new TaskRefNotFound({ ref, field: "taskId" }))
      )

/** The scope (space, folder or list) a property belongs to. */
export const locateScope = (scopeType: "space" | "folder" | "list", scopeId: string) =>
  scopeType === "space" ? locateSpace(scopeId) : scopeType === "folder" ? locateFolder(scopeId) : locateList(scopeId)
