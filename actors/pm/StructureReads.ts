/**
 * Reads of the work hierarchy: spaces, folders and lists as the API shows
 * them, the tree, counts, and which spaces a user may see (a private space
 * only to its members and workspace admins).
 */
import { Effect } from "effect"
import { query } from "../../persistence/Sql.ts"
import { PlaceNotFound } from "./PmErrors.ts"
import { effectiveStatusJoin } from "./Statuses.ts"
import { ShortIdNotFound } from "./WorkErrors.ts"
import { type Folder, featuresOf, type List, type Space, type TaskDefaults } from "./WorkRecords.ts"

export const spaceColumns = `s.id, s.workspace_id AS "workspaceId", s.short_id AS "shortId", s.name, s.description, s.color,
  s.is_private AS "isPrivate", s.position, s.features, s.task_defaults AS "taskDefaults", s.archived_at AS "archivedAt",
  s.created_by AS "createdBy", s.created_at AS "createdAt", s.updated_at AS "updatedAt"`

export const folderColumns = `f.id, f.workspace_id AS "workspaceId", f.space_id AS "spaceId", f.short_id AS "shortId", f.name, f.description, f.color,
  f.position, EXISTS (SELECT 1 FROM pm_statuses st WHERE st.scope_type = 'folder' AND st.scope_id = f.id) AS "ownStatuses",
  f.archived_at AS "archivedAt", f.created_by AS "createdBy", f.created_at AS "createdAt", f.updated_at AS "updatedAt"`

export const listColumns = `l.id, l.workspace_id AS "workspaceId", l.space_id AS "spaceId", l.folder_id AS "folderId", l.short_id AS "shortId",
  l.name, l.description, l.color, l.priority, l.start_date AS "startDate", l.due_date AS "dueDate", l.owner_id AS "ownerId",
  l.task_defaults AS "taskDefaults", l.position,
  EXISTS (SELECT 1 FROM pm_statuses st WHERE st.scope_type = 'list' AND st.scope_id = l.id) AS "ownStatuses",
  l.archived_at AS "archivedAt", l.created_by AS "createdBy", l.created_at AS "createdAt", l.updated_at AS "updatedAt"`

type Archivable = { archivedAt: string | null }

export const toSpace = (row: Omit<Space, "archived"> & Archivable): Space => ({
  ...row,
  features: featuresOf(row.features),
  taskDefaults: (row.taskDefaults ?? {}) as TaskDefaults,
  archived: row.archivedAt !== null
})
export const toFolder = (row: Omit<Folder, "archived"> & Archivable): Folder => ({ ...row, archived: row.archivedAt !== null })
export const toList = (row: Omit<List, "archived"> & Archivable): List => ({
  ...row,
  taskDefaults: (row.taskDefaults ?? {}) as TaskDefaults,
  archived: row.archivedAt !== null
})

/** SQL condition: space `alias` is visible to user `$userParam` (`$adminParam`: the user is a workspace admin). */
export const visibleSpace = (alias: string, userParam: number, adminParam: number) =>
  `(NOT ${alias}.is_private OR $${adminParam}::boolean OR EXISTS (SELECT 1 FROM pm_space_members m WHERE m.space_id = ${alias}.id AND m.user_id = $${userParam}))`

export interface Viewer {
  readonly userId: string
  /** Workspace admins and owners see private spaces too. */
  readonly admin: boolean
}

/** Which archived items a listing shows. */
export type ArchivedFilter = "exclude" | "include" | "only"
const archivedCondition = (alias: string, filter: ArchivedFilter = "exclude") =>
  filter === "include" ? "TRUE" : filter === "only" ? `${alias}.archived_at IS NOT NULL` : `${alias}.archived_at IS NULL`

export const getSpace = (spaceId: string) =>
  Effect.flatMap(query<any>(`SELECT ${spaceColumns} FROM pm_spaces s WHERE s.id = $1 AND s.deleted_at IS NULL`, [spaceId]), (rows) =>
    rows[0] ? Effect.succeed(toSpace(rows[0])) : Effect.fail(new PlaceNotFound({ what: "space" }))
  )

export const listSpaces = (workspaceId: string, viewer: Viewer, archived: ArchivedFilter = "exclude") =>
  Effect.map(
    query<any>(
      `SELECT ${spaceColumns} FROM pm_spaces s WHERE s.workspace_id = $1 AND s.deleted_at IS NULL AND ${archivedCondition("s", archived)}
          AND ${visibleSpace("s", 2, 3)} ORDER BY s.position, s.created_at`,
      [workspaceId, viewer.userId, viewer.admin]
    ),
    (rows) => rows.map(toSpace)
  )

export const getSpaceByShortId = (workspaceId: string, shortId: string, viewer: Viewer) =>
  Effect.flatMap(
    query<any>(
      `SELECT ${spaceColumns} FROM pm_spaces s WHERE s.workspace_id = $1 AND s.short_id = $2 AND s.deleted_at IS NULL AND ${visibleSpace("s", 3, 4)}`,
      [workspaceId, shortId.toUpperCase(), viewer.userId, viewer.admin]
    ),
    (rows) => (rows[0] ? Effect.succeed(toSpace(rows[0])) : Effect.fail(new ShortIdNotFound({ what: "space", shortId })))
  )

export const getFolder = (folderId: string) =>
  Effect.flatMap(query<any>(`SELECT ${folderColumns} FROM pm_folders f WHERE f.id = $1 AND f.deleted_at IS NULL`, [folderId]), (rows) =>
    rows[0] ? Effect.succeed(toFolder(rows[0])) : Effect.fail(new PlaceNotFound({ what: "folder" }))
  )

export const listFolders = (spaceId: string, archived: ArchivedFilter = "exclude") =>
  Effect.map(
    query<any>(
      `SELECT ${folderColumns} FROM pm_folders f WHERE f.space_id = $1 AND f.deleted_at IS NULL AND ${archivedCondition("f", archived)} ORDER BY f.position, f.created_at`,
      [spaceId]
    ),
    (rows) => rows.map(toFolder)
  )

export const getFolderByShortId = (workspaceId: string, shortId: string) =>
  Effect.flatMap(
    query<any>(`SELECT ${folderColumns} FROM pm_folders f WHERE f.workspace_id = $1 AND f.short_id = $2 AND f.deleted_at IS NULL`, [
      workspaceId,
      shortId.toUpperCase()
    ]),
    (rows) => (rows[0] ? Effect.succeed(toFolder(rows[0])) : Effect.fail(new ShortIdNotFound({ what: "folder", shortId })))
  )

export const getList = (listId: string) =>
  Effect.flatMap(query<any>(`SELECT ${listColumns} FROM pm_lists l WHERE l.id = $1 AND l.deleted_at IS NULL`, [listId]), (rows) =>
    rows[0] ? Effect.succeed(toList(rows[0])) : Effect.fail(new PlaceNotFound({ what: "list" }))
  )

export const getListByShortId = (workspaceId: string, shortId: string) =>
  Effect.flatMap(
    query<any>(`SELECT ${listColumns} FROM pm_lists l WHERE l.workspace_id = $1 AND l.short_id = $2 AND l.deleted_at IS NULL`, [
      workspaceId,
      shortId.toUpperCase()
    ]),
    (rows) => (rows[0] ? Effect.succeed(toList(rows[0])) : Effect.fail(new ShortIdNotFound({ what: "list", shortId })))
  )

/** Lists directly in a space (`folderId` null) or in a folder. */
export const listLists = (where: { readonly spaceId: string; readonly folderId: string | null }, archived: ArchivedFilter = "exclude") =>
  Effect.map(
    query<any>(
      where.folderId === null
        ? `SELECT ${listColumns} FROM pm_lists l WHERE l.space_id = $1 AND l.folder_id IS NULL AND l.deleted_at IS NULL AND ${archivedCondition("l", archived)} ORDER BY l.position, l.created_at`
        : `SELECT ${listColumns} FROM pm_lists l WHERE l.folder_id = $1 AND l.deleted_at IS NULL AND ${archivedCondition("l", archived)} ORDER BY l.position, l.created_at`,
      [where.folderId ?? where.spaceId]
    ),
    (rows) => rows.map(toList)
  )

/** Every list of the workspace the viewer may see, with its place in the tree. */
export const listAllLists = (workspaceId: string, viewer: Viewer, archived: ArchivedFilter = "exclude") =>
  Effect.map(
    query<any>(
      `SELECT ${listColumns}, s.name AS "spaceName", f.name AS "folderName"
         FROM pm_lists l JOIN pm_spaces s ON s.id = l.space_id LEFT JOIN pm_folders f ON f.id = l.folder_id
        WHERE l.workspace_id = $1 AND l.deleted_at IS NULL AND s.deleted_at IS NULL AND ${archivedCondition("l", archived)}
          AND ${visibleSpace("s", 2, 3)}
        ORDER BY s.position, f.position NULLS FIRST, l.position, l.created_at`,
      [workspaceId, viewer.userId, viewer.admin]
    ),
    (rows) => rows.map(({ spaceName, folderName, ...row }) => ({ ...toList(row), spaceName, folderName: folderName ?? null }))
  )

export interface TaskCounts {
  readonly total: number
  readonly open: number
  readonly active: number
  readonly done: number
  readonly closed: number
  readonly overdue: number
}

/**
 * SQL: task counts by status type per list (`list_id`, total, open, active,
 * done, closed, overdue) for the tasks of `t`/`l` matching `where`; tasks
 * whose status is no longer defined count as open. Tasks are grouped by list
 * and status name first, so each group looks its status up once.
 */
const countsByListSql = (where: string) => `
  SELECT g.list_id, sum(g.count)::int AS total,
         COALESCE(sum(g.count) FILTER (WHERE COALESCE(st.type, 'open') = 'open'), 0)::int AS open,
         COALESCE(sum(g.count) FILTER (WHERE st.type = 'active'), 0)::int AS active,
         COALESCE(sum(g.count) FILTER (WHERE st.type = 'done'), 0)::int AS done,
         COALESCE(sum(g.count) FILTER (WHERE st.type = 'closed'), 0)::int AS closed,
         sum(g.overdue)::int AS overdue
    FROM (SELECT t.list_id, lower(t.status) AS status, count(*) AS count,
                 count(*) FILTER (WHERE t.due_date < now() AND t.closed_at IS NULL) AS overdue
            FROM pm_tasks t JOIN pm_lists l ON l.id = t.list_id
           WHERE ${where} AND t.deleted_at IS NULL AND t.archived_at IS NULL AND l.deleted_at IS NULL
           GROUP BY t.list_id, lower(t.status)) g
    JOIN pm_lists l ON l.id = g.list_id ${effectiveStatusJoin("l", "g.status")}
   GROUP BY g.list_id`

type CountsRow = TaskCounts & { readonly listId: string }
const countsOfRow = ({ total, open, active, done, closed, overdue }: TaskCounts): TaskCounts => ({
  total,
  open,
  active,
  done,
  closed,
  overdue
})

/**
 * Task counts by status type for every list of a scope (tasks whose status
 * is no longer defined count as open). Archived and deleted tasks excluded. One statement.
 */
export const taskCountsByList = (column: "space_id" | "list_id" | "folder_id", id: string) =>
  Effect.map(
    query<CountsRow>(
      `SELECT c.list_id AS "listId", c.total, c.open, c.active, c.done, c.closed, c.overdue
         FROM (${countsByListSql(`${column === "folder_id" ? "l.folder_id" : `t.${column}`} = $1`)}) c`,
      [id]
    ),
    (rows) => new Map(rows.map((row) => [row.listId, countsOfRow(row)] as const))
  )

export const sumCounts = (counts: Iterable<TaskCounts>): TaskCounts => {
  const total = { total: 0, open: 0, active: 0, done: 0, closed: 0, overdue: 0 }
  for (const c of counts) for (const key of Object.keys(total) as Array<keyof TaskCounts>) total[key] += c[key]
  return total
}

const emptyCounts: TaskCounts = { total: 0, open: 0, active: 0, done: 0, closed: 0, overdue: 0 }
export const countsOf = (counts: Map<string, TaskCounts>, listId: string) => counts.get(listId) ?? emptyCounts

/** A space as a tree: its folders with their lists, then its folderless lists, each with task counts. One statement. */
export const spaceTree = (space: Space, archived: ArchivedFilter = "exclude") =>
  Effect.gen(function* () {
    const rows = yield* query<
      CountsRow & { kind: "folder" | "list"; id: string; shortId: string; name: string; archived: boolean; folderId: string | null }
    >(
      `WITH counts AS (${countsByListSql("t.space_id = $1")})
       SELECT 'folder' AS kind, f.id, f.short_id AS "shortId", f.name, f.archived_at IS NOT NULL AS archived, NULL::text AS "folderId",
              0 AS total, 0 AS open, 0 AS active, 0 AS done, 0 AS closed, 0 AS overdue, f.position, f.created_at
         FROM pm_folders f WHERE f.space_id = $1 AND f.deleted_at IS NULL AND ${archivedCondition("f", archived)}
       UNION ALL
       SELECT 'list', l.id, l.short_id, l.name, l.archived_at IS NOT NULL, l.folder_id,
              COALESCE(c.total, 0), COALESCE(c.open, 0), COALESCE(c.active, 0), COALESCE(c.done, 0), COALESCE(c.closed, 0), COALESCE(c.overdue, 0),
              l.position, l.created_at
         FROM pm_lists l LEFT JOIN counts c ON c.list_id = l.id
        WHERE l.space_id = $1 AND l.deleted_at IS NULL AND ${archivedCondition("l", archived)}
        ORDER BY position, created_at`,
      [space.id]
    )
    const lists = rows.filter((row) => row.kind === "list")
    const listNode = (list: (typeof rows)[number]) => ({
      id: list.id,
      shortId: list.shortId,
      name: list.name,
      archived: list.archived,
      taskCounts: countsOfRow(list)
    })
    return {
      id: space.id,
      shortId: space.shortId,
      name: space.name,
      isPrivate: space.isPrivate,
      archived: space.archived,
      folders: rows
        .filter((row) => row.kind === "folder")
        .map((folder) => ({
          id: folder.id,
          shortId: folder.shortId,
          name: folder.name,
          archived: folder.archived,
          lists: lists.filter((l) => l.folderId === folder.id).map(listNode)
        })),
      lists: lists.filter((l) => l.folderId === null).map(listNode)
    }
  })
