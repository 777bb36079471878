/**
 * Reads across a whole workspace's hierarchy that no single space, folder or
 * list actor answers: folder listings, short-id resolution, name search, the
 * archive, status usage, custom-field usage and tags. Each statement shows
 * only the spaces the viewer may see (`visibleSpace`).
 */
import { Effect, Schema } from "effect"
import * as SqlSchema from "../../persistence/SqlSchema.ts"
import { visibleSpace, type ArchivedFilter, type Viewer } from "./StructureReads.ts"

const Visible = { workspaceId: Schema.String, userId: Schema.String, admin: Schema.Boolean }
const visibleParams = (r: { readonly workspaceId: string; readonly userId: string; readonly admin: boolean }) => [
  r.workspaceId,
  r.userId,
  r.admin
]
const ArchivedFilterSchema = Schema.Literals(["exclude", "include", "only"])

const findFolders = SqlSchema.findAll({
  Request: Schema.Struct({ ...Visible, archived: ArchivedFilterSchema }),
  Result: Schema.Struct({
    id: Schema.String,
    shortId: Schema.String,
    name: Schema.String,
    spaceId: Schema.String,
    space: Schema.String,
    lists: Schema.Number,
    archived: Schema.Boolean
  }),
  execute: (r) => [
    `SELECT f.id, f.short_id AS "shortId", f.name, s.id AS "spaceId", s.name AS space, f.archived_at IS NOT NULL AS archived,
            (SELECT count(*)::int FROM pm_lists l WHERE l.folder_id = f.id AND l.deleted_at IS NULL AND l.archived_at IS NULL) AS lists
       FROM pm_folders f JOIN pm_spaces s ON s.id = f.space_id
      WHERE f.workspace_id = $1 AND f.deleted_at IS NULL AND s.deleted_at IS NULL AND ${visibleSpace("s", 2, 3)}
        AND ${r.archived === "include" ? "TRUE" : r.archived === "only" ? "f.archived_at IS NOT NULL" : "f.archived_at IS NULL AND s.archived_at IS NULL"}
      ORDER BY s.position, f.position, f.created_at`,
    visibleParams(r)
  ]
})

/** Every folder of the workspace the viewer may see, with its space and number of unarchived lists. */
export const workspaceFolders = (workspaceId: string, viewer: Viewer, archived: ArchivedFilter) =>
  findFolders({ workspaceId, userId: viewer.userId, admin: viewer.admin, archived })

const ShortIdKind = Schema.Literals(["space", "folder", "list", "task"])
export type ShortIdKind = typeof ShortIdKind.Type
const tableOf: Record<ShortIdKind, string> = { space: "pm_spaces", folder: "pm_folders", list: "pm_lists", task: "pm_tasks" }

const findByShortId = SqlSchema.findOne({
  Request: Schema.Struct({ kind: ShortIdKind, workspaceId: Schema.String, shortId: Schema.String }),
  Result: Schema.Struct({ id: Schema.String }),
  execute: (r) => [
    `SELECT id FROM ${tableOf[r.kind]} WHERE workspace_id = $1 AND short_id = $2 AND deleted_at IS NULL`,
    [r.workspaceId, r.shortId]
  ]
})

/** The id of the `kind` (not deleted) with this short id in the workspace, whoever may see it. */
export const idByShortId = (kind: ShortIdKind, workspaceId: string, shortId: string) =>
  Effect.map(findByShortId({ kind, workspaceId, shortId }), (row) => row?.id)

const findPlaceNames = SqlSchema.findOne({
  Request: Schema.Struct({ spaceId: Schema.String, folderId: Schema.String, listId: Schema.String, taskId: Schema.String }),
  Result: Schema.Struct({
    space: Schema.String,
    folder: Schema.NullOr(Schema.String),
    list: Schema.NullOr(Schema.String),
    name: Schema.String
  }),
  execute: (r) => [
    `SELECT s.name AS space, f.name AS folder, l.name AS list,
            COALESCE((SELECT name FROM pm_tasks WHERE id = $4), l.name, f.name, s.name) AS name
       FROM pm_spaces s LEFT JOIN pm_folders f ON f.id = $2 LEFT JOIN pm_lists l ON l.id = $3 WHERE s.id = $1`,
    [r.spaceId, r.folderId, r.listId, r.taskId]
  ]
})

/** The names along a place (space, folder, list, task) and the name of the deepest one. */
export const placeNames = (place: {
  readonly spaceId: string
  readonly folderId: string | null
  readonly listId: string | null
  readonly taskId?: string | null | undefined
}) => findPlaceNames({ spaceId: place.spaceId, folderId: place.folderId ?? "", listId: place.listId ?? "", taskId: place.taskId ?? "" })

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`)

const findByName = SqlSchema.findAll({
  Request: Schema.Struct({
    ...Visible,
    types: Schema.Array(Schema.String),
    text: Schema.String,
    includeArchived: Schema.Boolean,
    limit: Schema.Number
  }),
  Result: Schema.Struct({
    type: ShortIdKind,
    id: Schema.String,
    shortId: Schema.String,
    name: Schema.String,
    space: Schema.String,
    folder: Schema.NullOr(Schema.String),
    list: Schema.NullOr(Schema.String),
    archived: Schema.Boolean
  }),
  execute: (r) => [
    `SELECT * FROM (
       SELECT 'space' AS type, s.id, s.short_id AS "shortId", s.name, s.name AS space, NULL::text AS folder, NULL::text AS list, s.archived_at IS NOT NULL AS archived
         FROM pm_spaces s WHERE s.workspace_id = $1 AND s.deleted_at IS NULL AND ${visibleSpace("s", 2, 3)}
       UNION ALL
       SELECT 'folder', f.id, f.short_id, f.name, s.name, NULL, NULL, f.archived_at IS NOT NULL OR s.archived_at IS NOT NULL
         FROM pm_folders f JOIN pm_spaces s ON s.id = f.space_id WHERE f.workspace_id = $1 AND f.deleted_at IS NULL AND s.deleted_at IS NULL AND ${visibleSpace("s", 2, 3)}
       UNION ALL
       SELECT 'list', l.id, l.short_id, l.name, s.name, f.name, NULL, l.archived_at IS NOT NULL OR s.archived_at IS NOT NULL
         FROM pm_lists l JOIN pm_spaces s ON s.id = l.space_id LEFT JOIN pm_folders f ON f.id = l.folder_id
        WHERE l.workspace_id = $1 AND l.deleted_at IS NULL AND s.deleted_at IS NULL AND ${visibleSpace("s", 2, 3)}
       UNION ALL
       SELECT 'task', t.id, t.short_id, t.name, s.name, f.name, l.name, t.archived_at IS NOT NULL OR l.archived_at IS NOT NULL OR s.archived_at IS NOT NULL
         FROM pm_tasks t JOIN pm_lists l ON l.id = t.list_id JOIN pm_spaces s ON s.id = t.space_id LEFT JOIN pm_folders f ON f.id = l.folder_id
        WHERE t.workspace_id = $1 AND t.deleted_at IS NULL AND l.deleted_at IS NULL AND s.deleted_at IS NULL AND ${visibleSpace("s", 2, 3)}
     ) x
     WHERE x.type = ANY($4::text[]) AND lower(x.name) LIKE $5 ESCAPE '\\' AND ($6::boolean OR NOT x.archived)
     ORDER BY CASE WHEN lower(x.name) = $7 THEN 0 WHEN lower(x.name) LIKE $8 ESCAPE '\\' THEN 1 ELSE 2 END, length(x.name), lower(x.name), x.id
     LIMIT $9`,
    [...visibleParams(r), r.types, `%${escapeLike(r.text)}%`, r.includeArchived, r.text, `${escapeLike(r.text)}%`, r.limit]
  ]
})

/**
 * Spaces, folders, lists and tasks whose name contains `text` (lower case):
 * exact matches first, then prefixes, then the rest, shorter names first.
 */
export const searchByName = (
  workspaceId: string,
  viewer: Viewer,
  search: { readonly types: ReadonlyArray<string>; readonly text: string; readonly includeArchived: boolean; readonly limit: number }
) => findByName({ workspaceId, userId: viewer.userId, admin: viewer.admin, ...search })

const findArchivedFolders = SqlSchema.findAll({
  Request: Schema.Struct(Visible),
  Result: Schema.Struct({
    id: Schema.String,
    shortId: Schema.String,
    name: Schema.String,
    space: Schema.String,
    archivedAt: Schema.NullOr(Schema.String)
  }),
  execute: (r) => [
    `SELECT f.id, f.short_id AS "shortId", f.name, s.name AS space, f.archived_at AS "archivedAt" FROM pm_folders f JOIN pm_spaces s ON s.id = f.space_id
      WHERE f.workspace_id = $1 AND f.deleted_at IS NULL AND f.archived_at IS NOT NULL AND s.deleted_at IS NULL AND ${visibleSpace("s", 2, 3)}
      ORDER BY f.archived_at DESC`,
    visibleParams(r)
  ]
})

/** The archived folders the viewer may see, last archived first. */
export const archivedFolders = (workspaceId: string, viewer: Viewer) =>
  findArchivedFolders({ workspaceId, userId: viewer.userId, admin: viewer.admin })

const countArchivedTasks = SqlSchema.findOne({
  Request: Schema.Struct(Visible),
  Result: Schema.Struct({ n: Schema.Number }),
  execute: (r) => [
    `SELECT count(*)::int AS n FROM pm_tasks t JOIN pm_spaces s ON s.id = t.space_id
      WHERE t.workspace_id = $1 AND t.deleted_at IS NULL AND t.archived_at IS NOT NULL AND s.deleted_at IS NULL AND ${visibleSpace("s", 2, 3)}`,
    visibleParams(r)
  ]
})

/** How many archived (not deleted) tasks the viewer may see. */
export const archivedTaskCount = (workspaceId: string, viewer: Viewer) =>
  Effect.map(countArchivedTasks({ workspaceId, userId: viewer.userId, admin: viewer.admin }), (row) => row?.n ?? 0)

const countByStatus = SqlSchema.findAll({
  Request: Schema.Struct(Visible),
  Result: Schema.Struct({ status: Schema.String, n: Schema.Number }),
  execute: (r) => [
    `SELECT lower(t.status) AS status, count(*)::int AS n FROM pm_tasks t JOIN pm_spaces s ON s.id = t.space_id
      WHERE t.workspace_id = $1 AND t.deleted_at IS NULL AND t.archived_at IS NULL AND s.deleted_at IS NULL AND ${visibleSpace("s", 2, 3)}
      GROUP BY lower(t.status)`,
    visibleParams(r)
  ]
})

/** Unarchived tasks the viewer may see, counted by status name (lower case). */
export const taskCountsByStatus = (workspaceId: string, viewer: Viewer) =>
  Effect.map(
    countByStatus({ workspaceId, userId: viewer.userId, admin: viewer.admin }),
    (rows) => new Map(rows.map((row) => [row.status, row.n] as const))
  )

const countFieldValues = SqlSchema.findAll({
  Request: Schema.Array(Schema.String),
  Result: Schema.Struct({ fieldId: Schema.String, n: Schema.Number }),
  execute: (fieldIds) => [
    `SELECT v.field_id AS "fieldId", count(*)::int AS n FROM pm_task_custom_values v JOIN pm_tasks t ON t.id = v.task_id
      WHERE v.field_id = ANY($1::text[]) AND t.deleted_at IS NULL GROUP BY v.field_id`,
    [fieldIds]
  ]
})

/** How many (not deleted) tasks have a value for each of these custom fields. */
export const fieldValueCounts = (fieldIds: ReadonlyArray<string>) =>
  fieldIds.length === 0
    ? Effect.succeed(new Map<string, number>())
    : Effect.map(countFieldValues(fieldIds), (rows) => new Map(rows.map((row) => [row.fieldId, row.n] as const)))

const findTags = SqlSchema.findAll({
  Request: Schema.Struct(Visible),
  Result: Schema.Struct({
    id: Schema.String,
    name: Schema.String,
    color: Schema.String,
    spaceId: Schema.String,
    space: Schema.String,
    tasks: Schema.Number
  }),
  execute: (r) => [
    `SELECT g.id, g.name, g.color, s.id AS "spaceId", s.name AS space,
            (SELECT count(*)::int FROM pm_task_tags tt JOIN pm_tasks t ON t.id = tt.task_id WHERE tt.tag_id = g.id AND t.deleted_at IS NULL) AS tasks
       FROM pm_tags g JOIN pm_spaces s ON s.id = g.space_id
      WHERE g.workspace_id = $1 AND s.deleted_at IS NULL AND ${visibleSpace("s", 2, 3)}
      ORDER BY lower(g.name), s.position`,
    visibleParams(r)
  ]
})

/** Every tag of the spaces the viewer may see, with how many (not deleted) tasks carry it. */
export const workspaceTags = (workspaceId: string, viewer: Viewer) => findTags({ workspaceId, userId: viewer.userId, admin: viewer.admin })

const findVisibleSpaces = SqlSchema.findAll({
  Request: Schema.Struct({ ...Visible, spaceIds: Schema.Array(Schema.String) }),
  Result: Schema.Struct({ id: Schema.String }),
  execute: (r) => [
    `SELECT s.id FROM pm_spaces s
      WHERE s.workspace_id = $1 AND s.id = ANY($4::text[]) AND ${visibleSpace("s", 2, 3)}`,
    [...visibleParams(r), r.spaceIds]
  ]
})

/** Which of these spaces (deleted ones too) are in the workspace and visible to the viewer. */
export const visibleSpaceIds = (workspaceId: string, viewer: Viewer, spaceIds: ReadonlyArray<string>) =>
  Effect.map(
    findVisibleSpaces({ workspaceId, userId: viewer.userId, admin: viewer.admin, spaceIds }),
    (rows) => new Set(rows.map((row) => row.id))
  )

const findAllVisibleSpaces = SqlSchema.findAll({
  Request: Schema.Struct(Visible),
  Result: Schema.Struct({ id: Schema.String }),
  execute: (r) => [
    `SELECT s.id FROM pm_spaces s WHERE s.workspace_id = $1 AND s.deleted_at IS NULL AND ${visibleSpace("s", 2, 3)}`,
    visibleParams(r)
  ]
})

/** Every (not deleted, archived or not) space of the workspace the viewer may see. */
export const spacesVisibleTo = (workspaceId: string, viewer: Viewer) =>
  Effect.map(
    findAllVisibleSpaces({ workspaceId, userId: viewer.userId, admin: viewer.admin }),
    (rows) => new Set(rows.map((row) => row.id))
  )
