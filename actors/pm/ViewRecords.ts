/**
 * Views: a saved way of showing the tasks of a workspace, space, folder or
 * list — a type (list, board, calendar, table …), the columns in display
 * order, a grouping, a sort and task criteria. The vocabulary of columns,
 * how a view reads back, and which views a user may see (shared ones with
 * their scope; private ones by their creator only).
 */
import { Effect, Schema } from "effect"
import { Id, Timestamp } from "../Fields.ts"
import { query, type Sql, type SqlError } from "../../persistence/Sql.ts"
import { ViewNotFound } from "./PlanningErrors.ts"
import type { PlaceNotFound } from "./PmErrors.ts"
import { availableFields, fieldColumns } from "./CustomFields.ts"
import { locateScope } from "./Locate.ts"
import { ViewType } from "./ReferenceData.ts"
import { visibleSpace, type Viewer } from "./StructureReads.ts"
import { TaskCriteria } from "./TaskCriteria.ts"
import type { CustomField, FieldType } from "./WorkRecords.ts"

export const ViewScopeType = Schema.Literals(["workspace", "space", "folder", "list"]).annotate({
  description: "The level a view (or dashboard) belongs to"
})
export type ViewScopeType = typeof ViewScopeType.Type

/** Built-in columns: key → display name. Custom fields are columns `cf:<field id>`. */
export const builtinColumns = {
  name: "Name",
  shortId: "ID",
  status: "Status",
  assignees: "Assignees",
  priority: "Priority",
  dueDate: "Due date",
  startDate: "Start date",
  timeEstimate: "Time estimate",
  tags: "Tags",
  list: "List",
  createdAt: "Date created",
  updatedAt: "Date updated",
  closedAt: "Date closed",
  createdBy: "Created by",
  subtasks: "Subtasks",
  votes: "Votes"
} as const
export type BuiltinColumn = keyof typeof builtinColumns

export const groupableColumns: ReadonlyArray<BuiltinColumn> = ["status", "priority", "assignees", "tags", "list", "dueDate", "createdBy"]
export const sortableColumns: ReadonlyArray<BuiltinColumn> = [
  "name",
  "shortId",
  "status",
  "priority",
  "dueDate",
  "startDate",
  "timeEstimate",
  "createdAt",
  "updatedAt",
  "closedAt",
  "subtasks",
  "votes"
]
export const groupableFieldTypes: ReadonlyArray<FieldType> = ["dropdown", "labels", "checkbox", "users", "rating"]
export const sortableFieldTypes: ReadonlyArray<FieldType> = [
  "text",
  "number",
  "date",
  "dropdown",
  "checkbox",
  "email",
  "url",
  "currency",
  "phone",
  "rating"
]

const keys = Object.keys(builtinColumns).join("|")
const uuid = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
export const ColumnField = Schema.String.check(
  Schema.isPattern(new RegExp(`^(?:${keys}|cf:${uuid})$`), {
    expected: `a column (${Object.keys(builtinColumns).join(", ")}, or cf:<custom field id>)`
  })
).annotate({ examples: ["status", "cf:7c8d9e0f-1a2b-4c3d-8e5f-6a7b8c9d0e1f"] })

export const ViewColumn = Schema.Struct({
  field: ColumnField,
  width: Schema.optionalKey(Schema.NullOr(Schema.Int.check(Schema.isBetween({ minimum: 40, maximum: 2000 })))).annotate({
    description: "Pixels; null for automatic"
  })
}).annotate({ identifier: "ViewColumn" })
export type ViewColumn = typeof ViewColumn.Type

export const SortDirection = Schema.Literals(["asc", "desc"])

export const ViewGrouping = Schema.Struct({
  field: ColumnField,
  direction: Schema.optionalKey(SortDirection),
  collapsed: Schema.optionalKey(
    Schema.Array(Schema.String.check(Schema.isMaxLength(200)))
      .check(Schema.isMaxLength(200))
      .annotate({ description: "Keys of the groups shown collapsed" })
  ),
  showEmpty: Schema.optionalKey(Schema.Boolean.annotate({ description: "Show groups without tasks (statuses, priorities)" }))
}).annotate({ identifier: "ViewGrouping" })
export type ViewGrouping = typeof ViewGrouping.Type

export const ViewSort = Schema.Struct({ field: ColumnField, direction: SortDirection }).annotate({ identifier: "ViewSort" })
export type ViewSort = typeof ViewSort.Type

export const ViewSettings = Schema.Struct({
  dateField: Schema.optionalKey(
    Schema.Literals(["dueDate", "startDate"]).annotate({ description: "The date calendar and timeline views place tasks on" })
  ),
  wrapText: Schema.optionalKey(Schema.Boolean)
}).annotate({ identifier: "ViewSettings" })
export type ViewSettings = typeof ViewSettings.Type

export const View = Schema.Struct({
  id: Id,
  workspaceId: Id,
  shortId: Schema.String,
  scopeType: ViewScopeType,
  scopeId: Id,
  spaceId: Schema.NullOr(Id),
  name: Schema.String,
  type: ViewType,
  columns: Schema.Array(Schema.Struct({ field: Schema.String, width: Schema.NullOr(Schema.Number) })),
  groupBy: Schema.NullOr(
    Schema.Struct({ field: Schema.String, direction: SortDirection, collapsed: Schema.Array(Schema.String), showEmpty: Schema.Boolean })
  ),
  sortBy: Schema.Array(ViewSort),
  filters: TaskCriteria,
  settings: ViewSettings,
  isPrivate: Schema.Boolean,
  position: Schema.Number,
  createdBy: Id,
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotate({ identifier: "View" })
export type View = typeof View.Type

type Step<A, E> = Effect.Effect<A, E | SqlError, Sql>

export const viewColumns = `v.id, v.workspace_id AS "workspaceId", v.short_id AS "shortId", v.scope_type AS "scopeType", v.scope_id AS "scopeId",
  v.space_id AS "spaceId", v.name, v.type, v.columns, v.group_by AS "groupBy", v.sort_by AS "sortBy", v.filters, v.settings,
  v.is_private AS "isPrivate", v.position, v.created_by AS "createdBy", v.created_at AS "createdAt", v.updated_at AS "updatedAt"`

/** SQL: the scope of view `v` still exists (its space, folder or list not deleted). */
export const scopeAlive = (alias: string) => `(
  (${alias}.scope_type = 'workspace')
  OR (${alias}.scope_type = 'space' AND EXISTS (SELECT 1 FROM pm_spaces x WHERE x.id = ${alias}.scope_id AND x.deleted_at IS NULL))
  OR (${alias}.scope_type = 'folder' AND EXISTS (SELECT 1 FROM pm_folders x JOIN pm_spaces y ON y.id = x.space_id WHERE x.id = ${alias}.scope_id AND x.deleted_at IS NULL AND y.deleted_at IS NULL))
  OR (${alias}.scope_type = 'list' AND EXISTS (SELECT 1 FROM pm_lists x JOIN pm_spaces y ON y.id = x.space_id WHERE x.id = ${alias}.scope_id AND x.deleted_at IS NULL AND y.deleted_at IS NULL)))`

/** Where a view's or dashboard's scope sits; `PlaceNotFound` when it is gone. */
const locateViewScope = (scopeType: Exclude<ViewScopeType, "workspace">, scopeId: string) => locateScope(scopeType, scopeId)

/** Fields that may be columns at a scope: those of the chain, or every field of the workspace at workspace level. */
export const fieldsAtScope = (
  workspaceId: string,
  scopeType: ViewScopeType,
  scopeId: string
): Step<ReadonlyArray<CustomField>, PlaceNotFound> =>
  scopeType === "workspace"
    ? query<CustomField>(`SELECT ${fieldColumns} FROM pm_custom_fields WHERE workspace_id = $1 ORDER BY position, created_at`, [
        workspaceId
      ])
    : Effect.flatMap(locateViewScope(scopeType, scopeId), (at) =>
        availableFields({ spaceId: at.spaceId, folderId: at.folderId, listId: at.listId })
      )

const fieldIdOf = (field: string) => (field.startsWith("cf:") ? field.slice(3) : undefined)

/** A view as stored, with columns whose custom field is gone left out. */
export const present = (row: any, liveFieldIds: ReadonlySet<string>): View => {
  const alive = (field: string) => {
    const id = fieldIdOf(field)
    return id === undefined || liveFieldIds.has(id)
  }
  const group = row.groupBy as ViewGrouping | null
  return {
    ...row,
    columns: (row.columns as Array<ViewColumn>).filter((c) => alive(c.field)).map((c) => ({ field: c.field, width: c.width ?? null })),
    groupBy:
      group && alive(group.field)
        ? { field: group.field, direction: group.direction ?? "asc", collapsed: group.collapsed ?? [], showEmpty: group.showEmpty ?? false }
        : null,
    sortBy: (row.sortBy as Array<ViewSort>).filter((s) => alive(s.field)),
    filters: row.filters ?? {},
    settings: row.settings ?? {}
  }
}

const presentAll = (rows: ReadonlyArray<any>) =>
  Effect.gen(function* () {
    const referenced = [
      ...new Set(
        rows
          .flatMap((r) => [
            ...(r.columns as Array<ViewColumn>).map((c) => c.field),
            ...(r.sortBy as Array<ViewSort>).map((s) => s.field),
            ...(r.groupBy ? [r.groupBy.field as string] : [])
          ])
          .map(fieldIdOf)
          .filter((id): id is string => id !== undefined)
      )
    ]
    const live =
      referenced.length === 0
        ? []
        : yield* query<{ id: string }>(`SELECT id FROM pm_custom_fields WHERE id = ANY($1::text[])`, [referenced])
    const ids = new Set(live.map((r) => r.id))
    return rows.map((row) => present(row, ids))
  })

/** A view the user may see (its scope alive; private ones only their creator's), else 404. */
export const getView = (viewId: string, userId: string): Step<View, ViewNotFound> =>
  Effect.gen(function* () {
    const rows = yield* query<any>(
      `SELECT ${viewColumns} FROM pm_views v WHERE v.id = $1 AND ${scopeAlive("v")} AND (NOT v.is_private OR v.created_by = $2)`,
      [viewId, userId]
    )
    if (rows[0] === undefined) return yield* new ViewNotFound()
    return (yield* presentAll(rows))[0]!
  })

/** Views of one scope the user may see, in order. */
export const viewsAt = (scopeType: ViewScopeType, scopeId: string, userId: string) =>
  Effect.flatMap(
    query<any>(
      `SELECT ${viewColumns} FROM pm_views v WHERE v.scope_type = $1 AND v.scope_id = $2 AND (NOT v.is_private OR v.created_by = $3)
        ORDER BY v.position, v.created_at, v.id`,
      [scopeType, scopeId, userId]
    ),
    presentAll
  )

/** Every view of the workspace the viewer may see (visible spaces, live scopes, shared or their own). */
export const viewsInWorkspace = (workspaceId: string, viewer: Viewer) =>
  Effect.flatMap(
    query<any>(
      `SELECT ${viewColumns} FROM pm_views v LEFT JOIN pm_spaces s ON s.id = v.space_id
        WHERE v.workspace_id = $1 AND (NOT v.is_private OR v.created_by = $2) AND ${scopeAlive("v")}
          AND (v.space_id IS NULL OR ${visibleSpace("s", 2, 3)})
        ORDER BY v.scope_type, v.position, v.created_at, v.id`,
      [workspaceId, viewer.userId, viewer.admin]
    ),
    presentAll
  )

/** The scope row of a view: its space (for access and change paths) and folder/list ids. */
export const scopeChain = (workspaceId: string, scopeType: ViewScopeType, scopeId: string) =>
  scopeType === "workspace"
    ? Effect.succeed({ workspaceId, spaceId: null as string | null, folderId: null as string | null, listId: null as string | null })
    : Effect.map(locateViewScope(scopeType, scopeId), (at) => ({
        workspaceId: at.workspaceId,
        spaceId: at.spaceId as string | null,
        folderId: at.folderId,
        listId: at.listId
      }))
