/**
 * The view commands of a workspace (run by its views actor, so names, short
 * ids and positions are assigned without races). Every configuration is
 * checked against the scope: custom field columns must apply there, grouping
 * and sorting only by fields that can group or sort, criteria with real
 * dates and member assignees.
 */
import { Effect, Schema } from "effect"
import { Id, Name } from "../Fields.ts"
import { query } from "../../persistence/Sql.ts"
import { change } from "./Changes.ts"
import { DeleteByCreatorOrAdmin, InvalidFieldValue, NameTaken, PrivacyByCreatorOnly, ViewNotFound } from "./PlanningErrors.ts"
import { NotWorkspaceMembers, PlaceNotFound } from "./PmErrors.ts"
import { ViewType } from "./ReferenceData.ts"
import { checkCriteria, TaskCriteria } from "./TaskCriteria.ts"
import {
  type BuiltinColumn,
  builtinColumns,
  ColumnField,
  fieldsAtScope,
  getView,
  groupableColumns,
  groupableFieldTypes,
  scopeChain,
  sortableColumns,
  sortableFieldTypes,
  View,
  ViewColumn,
  ViewGrouping,
  ViewScopeType,
  ViewSettings,
  ViewSort
} from "./ViewRecords.ts"
import { command } from "./WorkActor.ts"

const invalid = (field: string, problem: string) => new InvalidFieldValue({ field, problem })

/** How a view shows its tasks; each part left out keeps its value (or the type's default). */
export const ViewConfig = Schema.Struct({
  columns: Schema.optionalKey(
    Schema.Array(ViewColumn).check(Schema.isMaxLength(60)).annotate({ description: "Shown columns, in display order" })
  ),
  groupBy: Schema.optionalKey(Schema.NullOr(ViewGrouping).annotate({ description: "null: no grouping" })),
  sortBy: Schema.optionalKey(Schema.Array(ViewSort).check(Schema.isMaxLength(5))),
  filters: Schema.optionalKey(TaskCriteria),
  settings: Schema.optionalKey(ViewSettings)
})
export type ViewConfig = typeof ViewConfig.Type

export const ViewInput = Schema.Struct({
  scopeType: ViewScopeType,
  scopeId: Id,
  name: Name(100),
  type: ViewType,
  isPrivate: Schema.optionalKey(Schema.Boolean.annotate({ description: "Only its creator sees it (default false)" })),
  ...ViewConfig.fields
})
export type ViewInput = typeof ViewInput.Type

export const ViewPatch = Schema.Struct({
  name: Schema.optionalKey(Name(100)),
  type: Schema.optionalKey(ViewType),
  isPrivate: Schema.optionalKey(Schema.Boolean),
  position: Schema.optionalKey(Schema.Finite),
  ...ViewConfig.fields
})

export const ViewDuplicate = Schema.Struct({
  viewId: Id,
  name: Schema.optionalKey(Name(100)),
  scopeType: Schema.optionalKey(ViewScopeType),
  scopeId: Schema.optionalKey(Id),
  isPrivate: Schema.optionalKey(Schema.Boolean)
})

export const ViewCopy = Schema.Struct({ view: View, droppedFields: Schema.Array(Schema.String) })

/** What a new view of a type shows when not told otherwise. */
const defaultsFor = (type: ViewType): { columns: Array<ViewColumn>; groupBy: ViewGrouping | null } => {
  const columns = (fields: ReadonlyArray<BuiltinColumn>) => fields.map((field) => ({ field }))
  switch (type) {
    case "board":
      return { columns: columns(["name", "assignees", "priority", "dueDate"]), groupBy: { field: "status" } }
    case "list":
      return { columns: columns(["name", "status", "assignees", "priority", "dueDate"]), groupBy: { field: "status" } }
    case "table":
      return { columns: columns(["name", "status", "assignees", "priority", "dueDate", "timeEstimate", "tags"]), groupBy: null }
    case "calendar":
    case "timeline":
    case "gantt":
      return { columns: columns(["name", "status", "startDate", "dueDate"]), groupBy: null }
    default:
      return { columns: columns(["name", "status", "assignees", "dueDate"]), groupBy: null }
  }
}

/** Checks a configuration against the fields of its scope; returns it normalized. */
export const checkConfig = (workspaceId: string, scopeType: ViewScopeType, scopeId: string, config: ViewConfig, prefix: string) =>
  Effect.gen(function* () {
    const fields = new Map((yield* fieldsAtScope(workspaceId, scopeType, scopeId)).map((f) => [f.id, f] as const))
    const fieldOf = (field: string, path: string) => {
      if (!field.startsWith("cf:")) return Effect.succeed(undefined)
      const found = fields.get(field.slice(3))
      return found ? Effect.succeed(found) : Effect.fail(invalid(path, "no such custom field applies here"))
    }
    const out: { -readonly [K in keyof ViewConfig]: ViewConfig[K] } = {}
    if (config.columns !== undefined) {
      const seen = new Set<string>()
      for (const [index, column] of config.columns.entries()) {
        yield* fieldOf(column.field, `${prefix}.columns.${index}.field`)
        if (seen.has(column.field)) return yield* invalid(`${prefix}.columns.${index}.field`, "listed twice")
        seen.add(column.field)
      }
      out.columns = config.columns.map((c) => ({ field: c.field, width: c.width ?? null }))
    }
    if (config.groupBy !== undefined) {
      if (config.groupBy !== null) {
        const path = `${prefix}.groupBy.field`
        const field = yield* fieldOf(config.groupBy.field, path)
        if (field ? !groupableFieldTypes.includes(field.type) : !groupableColumns.includes(config.groupBy.field as BuiltinColumn)) {
          return yield* invalid(
            path,
            `cannot group by ${field ? `a ${field.type} field` : config.groupBy.field}; groups: ${groupableColumns.join(", ")} or a ${groupableFieldTypes.join("/")} custom field`
          )
        }
      }
      out.groupBy = config.groupBy
    }
    if (config.sortBy !== undefined) {
      if (config.sortBy.length > 5) return yield* invalid(`${prefix}.sortBy`, "at most 5 sort keys")
      const seen = new Set<string>()
      for (const [index, sort] of config.sortBy.entries()) {
        const path = `${prefix}.sortBy.${index}.field`
        const field = yield* fieldOf(sort.field, path)
        if (field ? !sortableFieldTypes.includes(field.type) : !sortableColumns.includes(sort.field as BuiltinColumn)) {
          return yield* invalid(path, `cannot sort by ${field ? `a ${field.type} field` : sort.field}`)
        }
        if (seen.has(sort.field)) return yield* invalid(path, "listed twice")
        seen.add(sort.field)
      }
      out.sortBy = config.sortBy
    }
    if (config.filters !== undefined) out.filters = yield* checkCriteria(workspaceId, config.filters, `${prefix}.filters`)
    if (config.settings !== undefined) out.settings = config.settings
    return out
  })

/** Names are unique per scope among the views the user sees (the shared ones and their own). */
const nameTaken = (scopeType: ViewScopeType, scopeId: string, name: string, by: string, except = "") =>
  Effect.flatMap(
    query(
      `SELECT 1 FROM pm_views WHERE scope_type = $1 AND scope_id = $2 AND lower(name) = lower($3) AND id <> $4 AND (NOT is_private OR created_by = $5)`,
      [scopeType, scopeId, name.trim(), except, by]
    ),
    (rows) => (rows.length > 0 ? Effect.fail(new NameTaken({ what: "view", name: name.trim(), where: "here" })) : Effect.void)
  )

const nextShortId = (workspaceId: string) =>
  Effect.map(
    query<{ value: number }>(
      `INSERT INTO pm_short_id_counters (workspace_id, prefix, next_value) VALUES ($1, 'V', 2)
       ON CONFLICT (workspace_id, prefix) DO UPDATE SET next_value = pm_short_id_counters.next_value + 1
       RETURNING next_value - 1 AS value`,
      [workspaceId]
    ),
    (rows) => `V-${rows[0]!.value}`
  )

const whereOf = (chain: { workspaceId: string; spaceId: string | null; listId: string | null }) => ({
  workspaceId: chain.workspaceId,
  spaceId: chain.spaceId,
  listId: chain.listId
})

/** What the change log says about a view: a private view's name stays private. */
const described = (view: Pick<View, "name" | "type" | "scopeType" | "scopeId" | "isPrivate">) =>
  view.isPrivate
    ? { private: true, type: view.type, scopeType: view.scopeType }
    : { name: view.name, type: view.type, scopeType: view.scopeType, scopeId: view.scopeId }

const viewOfWorkspace = (workspaceId: string, viewId: string, by: string) =>
  Effect.flatMap(getView(viewId, by), (view) => (view.workspaceId === workspaceId ? Effect.succeed(view) : Effect.fail(new ViewNotFound())))

const insertView = (workspaceId: string, input: ViewInput, config: ViewConfig, by: string) =>
  Effect.gen(function* () {
    const chain = yield* scopeChain(workspaceId, input.scopeType, input.scopeId)
    if (chain.workspaceId !== workspaceId) return yield* new PlaceNotFound({ what: input.scopeType, field: "body.scopeId" })
    yield* nameTaken(input.scopeType, input.scopeId, input.name, by)
    const defaults = defaultsFor(input.type)
    const id = crypto.randomUUID()
    const shortId = yield* nextShortId(workspaceId)
    const position = yield* query<{ next: number }>(
      `SELECT COALESCE(max(position), 0) + 1 AS next FROM pm_views WHERE scope_type = $1 AND scope_id = $2`,
      [input.scopeType, input.scopeId]
    )
    yield* query(
      `INSERT INTO pm_views (id, workspace_id, short_id, scope_type, scope_id, space_id, name, type, columns, group_by, sort_by, filters, settings, is_private, position, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
      [
        id,
        workspaceId,
        shortId,
        input.scopeType,
        input.scopeId,
        chain.spaceId,
        input.name.trim(),
        input.type,
        config.columns ?? defaults.columns,
        config.groupBy !== undefined ? config.groupBy : defaults.groupBy,
        config.sortBy ?? [],
        config.filters ?? {},
        config.settings ?? {},
        input.isPrivate ?? false,
        Number(position[0]!.next),
        by
      ]
    )
    const view = yield* getView(id, by)
    return { view, change: change(whereOf(chain), "view.created", id, described(view), by) }
  })

/** What a view command may refuse with. */
const ViewRefused = Schema.Union([
  ViewNotFound,
  PlaceNotFound,
  NameTaken,
  PrivacyByCreatorOnly,
  DeleteByCreatorOrAdmin,
  InvalidFieldValue,
  NotWorkspaceMembers
])

export const viewCommands = {
  createView: command(ViewInput, View, ViewRefused, (input, by, workspaceId) =>
    Effect.gen(function* () {
      const config = yield* checkConfig(workspaceId, input.scopeType, input.scopeId, input, "body")
      const { view, change } = yield* insertView(workspaceId, input, config, by)
      return { result: view, changes: [change] }
    })
  ),

  updateView: command(Schema.Struct({ viewId: Id, ...ViewPatch.fields }), View, ViewRefused, (input, by, workspaceId) =>
    Effect.gen(function* () {
      const view = yield* viewOfWorkspace(workspaceId, input.viewId, by)
      if (input.isPrivate !== undefined && input.isPrivate !== view.isPrivate && view.createdBy !== by) {
        return yield* new PrivacyByCreatorOnly({ what: "view" })
      }
      const config = yield* checkConfig(workspaceId, view.scopeType, view.scopeId, input, "body")
      if (input.name !== undefined) yield* nameTaken(view.scopeType, view.scopeId, input.name, by, view.id)
      yield* query(
        `UPDATE pm_views SET name = $2, type = $3, columns = $4, group_by = $5, sort_by = $6, filters = $7, settings = $8, is_private = $9, position = $10, updated_at = now()
          WHERE id = $1`,
        [
          view.id,
          input.name?.trim() ?? view.name,
          input.type ?? view.type,
          config.columns ?? view.columns,
          config.groupBy !== undefined ? config.groupBy : view.groupBy,
          config.sortBy ?? view.sortBy,
          config.filters ?? view.filters,
          config.settings ? { ...view.settings, ...config.settings } : view.settings,
          input.isPrivate ?? view.isPrivate,
          input.position ?? view.position
        ]
      )
      const updated = yield* getView(view.id, by)
      const chain = yield* scopeChain(workspaceId, view.scopeType, view.scopeId)
      const { viewId: _v, ...patch } = input
      return {
        result: updated,
        changes: [change(whereOf(chain), "view.updated", view.id, { ...described(updated), changed: Object.keys(patch) }, by)]
      }
    })
  ),

  /** Moves one column to `toIndex` (0-based; past the end means last), adding it when the view does not show it yet. */
  moveViewColumn: command(
    Schema.Struct({ viewId: Id, field: ColumnField, toIndex: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)) }),
    View,
    ViewRefused,
    (input, by, workspaceId) =>
      Effect.gen(function* () {
        const view = yield* viewOfWorkspace(workspaceId, input.viewId, by)
        const existing = view.columns.find((c) => c.field === input.field)
        const rest = view.columns.filter((c) => c.field !== input.field)
        const columns = [...rest]
        columns.splice(Math.min(input.toIndex, rest.length), 0, existing ?? { field: input.field, width: null })
        const config = yield* checkConfig(workspaceId, view.scopeType, view.scopeId, { columns }, "body")
        yield* query(`UPDATE pm_views SET columns = $2, updated_at = now() WHERE id = $1`, [view.id, config.columns])
        const chain = yield* scopeChain(workspaceId, view.scopeType, view.scopeId)
        return {
          result: yield* getView(view.id, by),
          changes: [change(whereOf(chain), "view.updated", view.id, { ...described(view), changed: ["columns"] }, by)]
        }
      })
  ),

  /** Copies a view (to another scope when named); custom field columns that do not apply there are left out. */
  duplicateView: command(ViewDuplicate, ViewCopy, ViewRefused, (input, by, workspaceId) =>
    Effect.gen(function* () {
      const source = yield* viewOfWorkspace(workspaceId, input.viewId, by)
      const scopeType = input.scopeType ?? source.scopeType
      const scopeId = input.scopeId ?? source.scopeId
      const available = new Set((yield* fieldsAtScope(workspaceId, scopeType, scopeId)).map((f) => `cf:${f.id}`))
      const keeps = (field: string) => !field.startsWith("cf:") || available.has(field)
      const dropped = [
        ...new Set(
          [
            ...source.columns.map((c) => c.field),
            ...source.sortBy.map((s) => s.field),
            ...(source.groupBy ? [source.groupBy.field] : [])
          ].filter((f) => !keeps(f))
        )
      ]
      let name = input.name?.trim()
      if (name === undefined) {
        const taken = new Set(
          (yield* query<{ name: string }>(
            `SELECT lower(name) AS name FROM pm_views WHERE scope_type = $1 AND scope_id = $2 AND (NOT is_private OR created_by = $3)`,
            [scopeType, scopeId, by]
          )).map((r) => r.name)
        )
        name = `${source.name} (copy)`
        for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${source.name} (copy ${n})`
      }
      const config: ViewConfig = {
        columns: source.columns.filter((c) => keeps(c.field)),
        groupBy: source.groupBy && keeps(source.groupBy.field) ? source.groupBy : null,
        sortBy: source.sortBy.filter((s) => keeps(s.field)),
        filters: source.filters,
        settings: source.settings
      }
      const { view, change } = yield* insertView(
        workspaceId,
        { scopeType, scopeId, name, type: source.type, isPrivate: input.isPrivate ?? source.isPrivate },
        config,
        by
      )
      return { result: { view, droppedFields: dropped }, changes: [change] }
    })
  ),

  /** Deletes a view: its creator may, and workspace admins may delete shared ones. */
  deleteView: command(Schema.Struct({ viewId: Id, admin: Schema.Boolean }), Schema.Void, ViewRefused, (input, by, workspaceId) =>
    Effect.gen(function* () {
      const view = yield* viewOfWorkspace(workspaceId, input.viewId, by)
      if (view.createdBy !== by && !input.admin) return yield* new DeleteByCreatorOrAdmin({ what: "view" })
      yield* query(`DELETE FROM pm_views WHERE id = $1`, [view.id])
      const chain = yield* scopeChain(workspaceId, view.scopeType, view.scopeId)
      return { result: undefined, changes: [change(whereOf(chain), "view.deleted", view.id, described(view), by)] }
    })
  )
}

export const columnLabel = (field: string, fieldNames: ReadonlyMap<string, string>) =>
  field.startsWith("cf:") ? (fieldNames.get(field.slice(3)) ?? field) : (builtinColumns[field as BuiltinColumn] ?? field)
