/**
 * Reads of one space (or folder) that its actor's memory does not hold: list
 * names and folder count for its task counts, its private members, who has tasks in
 * it, and what in it is archived or matches a name.
 */
import { Effect, Schema } from "effect"
import { query } from "../../persistence/Sql.ts"
import * as SqlSchema from "../../persistence/SqlSchema.ts"
import { folderColumns, listColumns, toFolder, toList } from "./StructureReads.ts"

const findListNames = SqlSchema.findAll({
  Request: Schema.Struct({ in: Schema.Literals(["space", "folder"]), id: Schema.String }),
  Result: Schema.Struct({ id: Schema.String, name: Schema.String }),
  execute: (r) => [
    `SELECT id, name FROM pm_lists WHERE ${r.in === "space" ? "space_id" : "folder_id"} = $1 AND deleted_at IS NULL AND archived_at IS NULL ORDER BY position`,
    [r.id]
  ]
})

/** The unarchived lists of a space (in any folder) or of a folder, in order. */
export const listNames = (spaceId: string) => findListNames({ in: "space", id: spaceId })
export const folderListNames = (folderId: string) => findListNames({ in: "folder", id: folderId })

const countFolders = SqlSchema.findOne({
  Request: Schema.String,
  Result: Schema.Struct({ n: Schema.Number }),
  execute: (spaceId) => [
    "SELECT count(*)::int AS n FROM pm_folders WHERE space_id = $1 AND deleted_at IS NULL AND archived_at IS NULL",
    [spaceId]
  ]
})

/** How many unarchived folders the space has. */
export const folderCount = (spaceId: string) => Effect.map(countFolders(spaceId), (row) => row?.n ?? 0)

const findMembers = SqlSchema.findAll({
  Request: Schema.String,
  Result: Schema.Struct({ userId: Schema.String, addedAt: Schema.String }),
  execute: (spaceId) => [
    `SELECT user_id AS "userId", added_at AS "addedAt" FROM pm_space_members WHERE space_id = $1 ORDER BY added_at, user_id`,
    [spaceId]
  ]
})

/** A private space's members, first added first. */
export const spaceMembers = (spaceId: string) => findMembers(spaceId)

const findWorkload = SqlSchema.findAll({
  Request: Schema.String,
  Result: Schema.Struct({
    userId: Schema.String,
    openTasks: Schema.Number,
    totalTasks: Schema.Number,
    openEstimateMinutes: Schema.Number,
    overdueTasks: Schema.Number
  }),
  execute: (spaceId) => [
    `SELECT a.user_id AS "userId", count(*) FILTER (WHERE t.closed_at IS NULL)::int AS "openTasks", count(*)::int AS "totalTasks",
            COALESCE(sum(t.time_estimate_minutes) FILTER (WHERE t.closed_at IS NULL), 0)::int AS "openEstimateMinutes",
            count(*) FILTER (WHERE t.closed_at IS NULL AND t.due_date < now())::int AS "overdueTasks"
       FROM pm_task_assignees a JOIN pm_tasks t ON t.id = a.task_id
      WHERE t.space_id = $1 AND t.deleted_at IS NULL AND t.archived_at IS NULL
      GROUP BY a.user_id ORDER BY "openTasks" DESC, a.user_id`,
    [spaceId]
  ]
})

/** Per assignee of the space's unarchived tasks: open, total, open estimate and overdue; most open tasks first. */
export const workload = (spaceId: string) => findWorkload(spaceId)

// Folder and list rows keep the columns and row mapping every structure read shares (StructureReads).

/** The space's archived lists, last archived first. */
export const archivedLists = (spaceId: string) =>
  Effect.map(
    query<any>(
      `SELECT ${listColumns} FROM pm_lists l WHERE l.space_id = $1 AND l.deleted_at IS NULL AND l.archived_at IS NOT NULL ORDER BY l.archived_at DESC`,
      [spaceId]
    ),
    (rows) => rows.map(toList)
  )

const likePattern = (text: string) =>
  `%${text
    .trim()
    .toLowerCase()
    .replace(/[\\%_]/g, (c) => `\\${c}`)}%`

/** The space's folders and lists whose name contains `text`, at most `limit` of each, in order. */
export const searchFoldersAndLists = (spaceId: string, text: string, limit: number) =>
  Effect.gen(function* () {
    const pattern = likePattern(text)
    const folders = yield* query<any>(
      `SELECT ${folderColumns} FROM pm_folders f WHERE f.space_id = $1 AND f.deleted_at IS NULL AND lower(f.name) LIKE $2 ORDER BY f.position LIMIT $3`,
      [spaceId, pattern, limit]
    )
    const lists = yield* query<any>(
      `SELECT ${listColumns} FROM pm_lists l WHERE l.space_id = $1 AND l.deleted_at IS NULL AND lower(l.name) LIKE $2 ORDER BY l.position LIMIT $3`,
      [spaceId, pattern, limit]
    )
    return { folders: folders.map(toFolder), lists: lists.map(toList) }
  })
