/**
 * pm tag "Views (Lite)" (11): views at every level — the workspace, or a
 * space, folder or list named by name — created, read, changed and applied
 * by names: columns by their names (built-in ones such as "Status" or "Due
 * date", custom fields by name), views by name, short id (V-3) or id,
 * assignees by e-mail. Unknown names answer 404 naming them; ambiguous ones
 * 409 listing the candidates. A view reference needs no workspace: the
 * caller's workspaces are searched. Same view model and actor as "Resource
 * Views".
 */
import { Effect, Schema } from "effect"
import { Name } from "../../actors/Fields.ts"
import { membersByEmail, userRefs } from "../../actors/pm/Members.ts"
import { resolveFolder, resolveListInWorkspace, resolveSpace } from "../../actors/pm/NameResolution.ts"
import { PmViews } from "../../actors/pm/PlanningActors.ts"
import { ViewType } from "../../actors/pm/ReferenceData.ts"
import type { TaskCriteria } from "../../actors/pm/TaskCriteria.ts"
import {
  type BuiltinColumn,
  builtinColumns,
  fieldsAtScope,
  SortDirection,
  type View,
  viewsInWorkspace,
  type ViewScopeType,
  ViewSettings
} from "../../actors/pm/ViewRecords.ts"
import * as PlaceNames from "../../actors/pm/PlaceNames.ts"
import { applyView } from "../../actors/pm/ViewTasks.ts"
import { send } from "../../actors/pm/WorkActor.ts"
import { DateTime, Priority } from "../../actors/pm/WorkRecords.ts"
import { reject } from "../../runtime/Rejection.ts"
import { type RequestContext, tagGroup } from "../Operation.ts"
import { listWhere, LiteTask, NameRef, toLite, WorkspaceRef } from "./LiteShared.ts"
import { onView } from "./ResourceViews.ts"

import { visibleWorkspaceIds } from "./Viewers.ts"
import { inWorkspace, onFolder, onList, onSpace, orDieSql } from "./WorkAccess.ts"
import { viewsLiteExamples } from "./ViewsLite.examples.ts"
const read = ["tasks:read"]
const write = ["tasks:write"]

type Minimum = "viewer" | "member"

// ---------------------------------------------------------------------------
// Scopes by names

export interface Where {
  readonly space?: string
  readonly folder?: string
  readonly list?: string
}

const invalid = (path: string, message: string) => reject("invalid", `Invalid ${path}: ${message}`, [{ path, message }])

/** The level a Lite request names: a list, a folder or a space by name (short id or id), or the workspace when none is named. */
export const liteScope = (context: RequestContext, workspaceId: string, where: Where, minimum: Minimum, prefix: string) =>
  Effect.gen(function* () {
    const caller = yield* inWorkspace(context, workspaceId)
    if (where.space === undefined) {
      if (where.folder !== undefined) return yield* invalid(`${prefix}.space`, "name the space of the folder")
      if (where.list === undefined) {
        yield* inWorkspace(context, workspaceId, minimum)
        return { scopeType: "workspace" as ViewScopeType, scopeId: workspaceId, label: "workspace", spaceId: null as string | null }
      }
      const list = yield* orDieSql(resolveListInWorkspace(workspaceId, caller.viewer, where.list, `${prefix}.list`))
      yield* onList(context, list.id, minimum)
      return {
        scopeType: "list" as ViewScopeType,
        scopeId: list.id,
        label: (yield* orDieSql(scopeLabels([{ scopeType: "list", scopeId: list.id }]))).get(list.id)!,
        spaceId: list.spaceId as string | null
      }
    }
    const space = yield* orDieSql(resolveSpace(workspaceId, caller.viewer, where.space, `${prefix}.space`))
    const folder = where.folder === undefined ? undefined : yield* orDieSql(resolveFolder(space.id, where.folder, `${prefix}.folder`))
    if (where.list !== undefined) {
      const list = yield* listWhere(workspaceId, caller.viewer, space.id, folder?.id, { ...where, list: where.list }, prefix)
      yield* onList(context, list.id, minimum)
      return {
        scopeType: "list" as ViewScopeType,
        scopeId: list.id,
        label: `list ${space.name} / ${list.folderName ? `${list.folderName} / ` : ""}${list.name}`,
        spaceId: space.id as string | null
      }
    }
    if (folder !== undefined) {
      yield* onFolder(context, folder.id, minimum)
      return {
        scopeType: "folder" as ViewScopeType,
        scopeId: folder.id,
        label: `folder ${space.name} / ${folder.name}`,
        spaceId: space.id as string | null
      }
    }
    yield* onSpace(context, space.id, minimum)
    return { scopeType: "space" as ViewScopeType, scopeId: space.id, label: `space ${space.name}`, spaceId: space.id as string | null }
  })

/** "workspace", "space Eng", "folder Eng / Q4", "list Eng / Q4 / Backlog" for each scope. */
export const scopeLabels = (scopes: ReadonlyArray<{ readonly scopeType: ViewScopeType; readonly scopeId: string }>) =>
  Effect.gen(function* () {
    const of = (type: ViewScopeType) => [...new Set(scopes.filter((s) => s.scopeType === type).map((s) => s.scopeId))]
    const labels = new Map<string, string>()
    for (const s of scopes) if (s.scopeType === "workspace") labels.set(s.scopeId, "workspace")
    for (const r of (yield* PlaceNames.spaceNames(of("space"))).values()) labels.set(r.id, `space ${r.name}`)
    for (const r of (yield* PlaceNames.folderNames(of("folder"))).values()) labels.set(r.id, `folder ${r.space} / ${r.name}`)
    for (const r of (yield* PlaceNames.listNames(of("list"))).values())
      labels.set(r.id, `list ${r.space} / ${r.folder ? `${r.folder} / ` : ""}${r.name}`)
    return labels
  })

// ---------------------------------------------------------------------------
// Views by names

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const SHORT = /^V-\d{1,9}$/i

const hasWhere = (where: Where) => where.space !== undefined || where.folder !== undefined || where.list !== undefined

/**
 * The view `ref` names — its id, short id (V-3) or name; a name is looked up
 * at the level `where` names, else across the workspace — with `minimum` at
 * its scope. Without a workspace, the caller's workspaces are searched (an
 * API key has one). 404 naming `viewRef`, or 409 listing the candidates.
 */
const viewByRef = (context: RequestContext, workspaceId: string | undefined, ref: string, where: Where, minimum: Minimum, prefix: string) =>
  Effect.gen(function* () {
    if (workspaceId !== undefined) yield* inWorkspace(context, workspaceId)
    const workspaceIds = workspaceId !== undefined ? [workspaceId] : yield* visibleWorkspaceIds(context)
    let scope: Effect.Success<ReturnType<typeof liteScope>> | undefined
    if (hasWhere(where)) {
      if (workspaceIds.length !== 1) return yield* invalid(`${prefix}.workspaceId`, "name the workspace of the space, folder or list")
      scope = yield* liteScope(context, workspaceIds[0]!, where, "viewer", prefix)
    }
    const all: Array<View> = []
    for (const id of workspaceIds) {
      const caller = yield* inWorkspace(context, id)
      all.push(...(yield* orDieSql(viewsInWorkspace(id, caller.viewer))))
    }
    const trimmed = ref.trim()
    const matches = UUID.test(trimmed)
      ? all.filter((v) => v.id === trimmed.toLowerCase())
      : SHORT.test(trimmed)
        ? all.filter((v) => v.shortId === trimmed.toUpperCase())
        : all.filter(
            (v) =>
              v.name.toLowerCase() === trimmed.toLowerCase() &&
              (scope === undefined || (v.scopeType === scope.scopeType && v.scopeId === scope.scopeId))
          )
    if (matches.length === 0) {
      return yield* reject("not_found", `No view named "${trimmed}"${scope ? ` at ${scope.label}` : ""}`, [
        { path: "path.viewRef", message: `no view named "${trimmed}"` }
      ])
    }
    if (matches.length > 1) {
      const labels = yield* orDieSql(scopeLabels(matches))
      const describe = (v: View) => `${v.name} (${v.shortId}, ${labels.get(v.scopeId) ?? v.scopeType})`
      return yield* reject(
        "conflict",
        `"${trimmed}" names ${matches.length} views: ${matches.map(describe).join("; ")}. Name the space, folder or list, or use the short id.`,
        matches.map((v) => ({ path: "path.viewRef", message: `candidate: ${describe(v)} [${v.id}]` }))
      )
    }
    return yield* onView(context, matches[0]!.workspaceId, matches[0]!.id, minimum)
  })

const aliases: Record<string, BuiltinColumn> = {
  assignee: "assignees",
  tag: "tags",
  estimate: "timeEstimate",
  "time estimate": "timeEstimate",
  created: "createdAt",
  updated: "updatedAt",
  closed: "closedAt",
  due: "dueDate",
  start: "startDate",
  id: "shortId",
  "short id": "shortId",
  vote: "votes",
  subtask: "subtasks",
  creator: "createdBy"
}

/** A column by its name: a built-in column (by name or key), else a custom field applying at the view's scope. */
const columnByName = (fields: ReadonlyArray<{ id: string; name: string }>, name: string, path: string) => {
  const n = name.trim().toLowerCase()
  const builtin =
    (Object.entries(builtinColumns) as Array<[BuiltinColumn, string]>).find(
      ([key, label]) => key.toLowerCase() === n || label.toLowerCase() === n
    )?.[0] ?? aliases[n]
  if (builtin !== undefined) return Effect.succeed(builtin as string)
  const custom = fields.filter((f) => f.name.toLowerCase() === n)
  if (custom.length === 1) return Effect.succeed(`cf:${custom[0]!.id}`)
  if (custom.length > 1) {
    return Effect.fail(
      reject(
        "conflict",
        `"${name}" names ${custom.length} custom fields here`,
        custom.map((f) => ({ path, message: `candidate: ${f.name} [${f.id}]` }))
      )
    )
  }
  return Effect.fail(
    reject(
      "not_found",
      `No column named "${name}" here; columns: ${[...Object.values(builtinColumns), ...fields.map((f) => f.name)].join(", ")}`,
      [{ path, message: `no column named "${name}"` }]
    )
  )
}

const columnsFor = (view: { workspaceId: string; scopeType: ViewScopeType; scopeId: string }) =>
  orDieSql(fieldsAtScope(view.workspaceId, view.scopeType, view.scopeId))

// ---------------------------------------------------------------------------
// Lite shapes

const LiteCriteriaFields = {
  statuses: Schema.optionalKey(Schema.Array(Name(64)).check(Schema.isMaxLength(50))),
  priorities: Schema.optionalKey(Schema.Array(Priority).check(Schema.isMaxLength(4))),
  assignees: Schema.optionalKey(
    Schema.Array(
      Schema.String.check(Schema.isMaxLength(254), Schema.isPattern(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, { expected: "an e-mail address" }))
    )
      .check(Schema.isMaxLength(50))
      .annotate({ description: "E-mail addresses" })
  ),
  tags: Schema.optionalKey(Schema.Array(Name(64)).check(Schema.isMaxLength(50))),
  q: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(200))),
  dueAfter: Schema.optionalKey(DateTime),
  dueBefore: Schema.optionalKey(DateTime),
  createdAfter: Schema.optionalKey(DateTime),
  createdBefore: Schema.optionalKey(DateTime),
  includeClosed: Schema.optionalKey(Schema.Boolean),
  overdue: Schema.optionalKey(Schema.Boolean),
  subtasks: Schema.optionalKey(Schema.Literals(["include", "exclude"]))
}
const LiteCriteria = Schema.Struct(LiteCriteriaFields).annotate({
  identifier: "LiteTaskCriteria",
  description: "Task criteria with assignees by e-mail"
})
type LiteCriteria = typeof LiteCriteria.Type

const LiteView = Schema.Struct({
  id: Schema.String,
  shortId: Schema.String,
  name: Schema.String,
  type: ViewType,
  scope: Schema.String.annotate({
    description: '"workspace", or "space <name>", "folder <space> / <folder>", "list <space> / [<folder> /] <list>"'
  }),
  isPrivate: Schema.Boolean,
  columns: Schema.Array(Schema.Struct({ name: Schema.String, width: Schema.NullOr(Schema.Number) })),
  groupBy: Schema.NullOr(
    Schema.Struct({ column: Schema.String, direction: SortDirection, collapsed: Schema.Array(Schema.String), showEmpty: Schema.Boolean })
  ),
  sortBy: Schema.Array(Schema.Struct({ column: Schema.String, direction: SortDirection })),
  filters: LiteCriteria,
  settings: ViewSettings
}).annotate({ identifier: "LiteView", description: "A view with names instead of ids" })
type LiteView = typeof LiteView.Type

/** Views with names: their scope, columns, grouping and sort by name, assignees by e-mail. */
const toLiteViews = (views: ReadonlyArray<View>) =>
  Effect.gen(function* () {
    const labels = yield* scopeLabels(views)
    const fieldIds = [
      ...new Set(
        views
          .flatMap((v) => [...v.columns.map((c) => c.field), ...v.sortBy.map((s) => s.field), ...(v.groupBy ? [v.groupBy.field] : [])])
          .filter((f) => f.startsWith("cf:"))
          .map((f) => f.slice(3))
      )
    ]
    const fieldNames = new Map([...(yield* PlaceNames.fieldNames(fieldIds)).values()].map((r) => [r.id, r.name] as const))
    const users = yield* userRefs(views.flatMap((v) => v.filters.assigneeIds ?? []))
    const label = (field: string) =>
      field.startsWith("cf:") ? (fieldNames.get(field.slice(3)) ?? field) : (builtinColumns[field as BuiltinColumn] ?? field)
    return views.map((view): LiteView => {
      const { assigneeIds, ...criteria } = view.filters
      return {
        id: view.id,
        shortId: view.shortId,
        name: view.name,
        type: view.type,
        scope: labels.get(view.scopeId) ?? view.scopeType,
        isPrivate: view.isPrivate,
        columns: view.columns.map((c) => ({ name: label(c.field), width: c.width })),
        groupBy: view.groupBy
          ? {
              column: label(view.groupBy.field),
              direction: view.groupBy.direction,
              collapsed: view.groupBy.collapsed,
              showEmpty: view.groupBy.showEmpty
            }
          : null,
        sortBy: view.sortBy.map((s) => ({ column: label(s.field), direction: s.direction })),
        filters: { ...criteria, ...(assigneeIds ? { assignees: assigneeIds.map((id) => users.get(id)?.email ?? id) } : {}) },
        settings: view.settings
      }
    })
  })

const toLiteView = (view: View) => Effect.map(orDieSql(toLiteViews([view])), (items) => items[0]!)

/** Lite criteria → stored criteria (e-mails → member ids; 404 naming an unknown e-mail). */
const criteriaOf = (workspaceId: string, criteria: LiteCriteria | undefined, prefix: string) =>
  Effect.gen(function* () {
    if (criteria === undefined) return undefined
    const { assignees, ...rest } = criteria
    if (assignees === undefined) return rest as TaskCriteria
    const users = yield* orDieSql(membersByEmail(workspaceId, assignees, `${prefix}.assignees`))
    return { ...rest, assigneeIds: users.map((u) => u.id) } as TaskCriteria
  })

const SortKeys = Schema.Array(Schema.Struct({ column: NameRef, direction: Schema.optionalKey(SortDirection) })).check(Schema.isMaxLength(5))

const sortOf = (fields: ReadonlyArray<{ id: string; name: string }>, sortBy: typeof SortKeys.Type, prefix: string) =>
  Effect.forEach(sortBy, (s, index) =>
    Effect.map(columnByName(fields, s.column, `${prefix}.${index}.column`), (field) => ({
      field,
      direction: s.direction ?? ("asc" as const)
    }))
  )

// ---------------------------------------------------------------------------
// Requests

const WhereFields = { space: Schema.optionalKey(NameRef), folder: Schema.optionalKey(NameRef), list: Schema.optionalKey(NameRef) }
const Ref = Schema.Struct({
  viewRef: Schema.String.check(Schema.isMaxLength(200), Schema.isPattern(/\S/, { expected: "a view name, short id (V-3) or id" }))
})
const RefQuery = Schema.Struct({ workspaceId: WorkspaceRef, ...WhereFields })
/** With a view reference, the workspace is optional: without it the caller's workspaces are searched. */
const OptionalWorkspace = Schema.optionalKey(
  WorkspaceRef.annotate({ description: "The view's workspace (default: searched across the caller's workspaces)" })
)
const ByRefQuery = Schema.Struct({ workspaceId: OptionalWorkspace, ...WhereFields })
const whereOf = (w: Where): Where => ({
  ...(w.space !== undefined ? { space: w.space } : {}),
  ...(w.folder !== undefined ? { folder: w.folder } : {}),
  ...(w.list !== undefined ? { list: w.list } : {})
})

const { operation } = tagGroup("pm", "Views (Lite)", viewsLiteExamples)

export const viewsLiteOperations = [
  operation({
    operationId: "createViewLite",
    method: "POST",
    path: "/v1/lite/views",
    summary: "Create a view of the workspace, or of a space, folder or list named by name, with columns by name",
    description:
      "No space, folder or list: a workspace-level view. Columns are built-in names (Name, ID, Status, Assignees, Priority, Due date, Start date, Time estimate, Tags, List, Date created, Date updated, Date closed, Created by, Subtasks, Votes) or custom field names.",
    auth: "both",
    scopes: write,
    body: Schema.Struct({
      workspaceId: WorkspaceRef,
      ...WhereFields,
      name: Name(100),
      type: Schema.optionalKey(ViewType.annotate({ description: "Default list" })),
      columns: Schema.optionalKey(Schema.Array(NameRef).check(Schema.isMaxLength(60))),
      groupBy: Schema.optionalKey(Schema.NullOr(NameRef)),
      sortBy: Schema.optionalKey(SortKeys),
      filters: Schema.optionalKey(LiteCriteria),
      isPrivate: Schema.optionalKey(Schema.Boolean)
    }),
    responses: {
      201: { description: "Created", schema: LiteView },
      404: { description: "An unknown space, folder, list, column or e-mail" },
      409: { description: "Ambiguous name, or a view of that name exists there" }
    },
    handler: ({ body }, context) =>
      Effect.gen(function* () {
        const scope = yield* liteScope(context, body.workspaceId, whereOf(body), "member", "body")
        const caller = yield* inWorkspace(context, body.workspaceId, "member")
        const fields = yield* columnsFor({ workspaceId: body.workspaceId, ...scope })
        const columns =
          body.columns === undefined
            ? undefined
            : yield* Effect.forEach(body.columns, (name, i) =>
                Effect.map(columnByName(fields, name, `body.columns.${i}`), (field) => ({ field }))
              )
        const groupBy =
          body.groupBy === undefined
            ? undefined
            : body.groupBy === null
              ? null
              : { field: yield* columnByName(fields, body.groupBy, "body.groupBy") }
        const sortBy = body.sortBy === undefined ? undefined : yield* sortOf(fields, body.sortBy, "body.sortBy")
        const filters = yield* criteriaOf(body.workspaceId, body.filters, "body.filters")
        const view = yield* send(PmViews, body.workspaceId, "createView", caller.userId, {
          scopeType: scope.scopeType,
          scopeId: scope.scopeId,
          name: body.name,
          type: body.type ?? "list",
          ...(columns ? { columns } : {}),
          ...(groupBy !== undefined ? { groupBy } : {}),
          ...(sortBy ? { sortBy } : {}),
          ...(filters ? { filters } : {}),
          ...(body.isPrivate !== undefined ? { isPrivate: body.isPrivate } : {})
        })
        return yield* toLiteView(view)
      })
  }),
  operation({
    operationId: "listViewsLite",
    method: "GET",
    path: "/v1/lite/views",
    summary: "Views with names: those of the space, folder or list named, or every view of the workspace at every level",
    auth: "both",
    scopes: read,
    query: RefQuery,
    responses: { 200: { description: "Views", schema: Schema.Struct({ items: Schema.Array(LiteView) }) } },
    handler: ({ query: q }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, q.workspaceId)
        const all = yield* orDieSql(viewsInWorkspace(q.workspaceId, caller.viewer))
        const where = whereOf(q)
        const scope = hasWhere(where) ? yield* liteScope(context, q.workspaceId, where, "viewer", "query") : undefined
        const items = scope ? all.filter((v) => v.scopeType === scope.scopeType && v.scopeId === scope.scopeId) : all
        return { items: yield* orDieSql(toLiteViews(items)) }
      })
  }),
  operation({
    operationId: "getViewLite",
    method: "GET",
    path: "/v1/lite/views/{viewRef}",
    summary: "A view by name, short id (V-3) or id, with names",
    auth: "both",
    scopes: read,
    params: Ref,
    query: ByRefQuery,
    responses: {
      200: { description: "The view", schema: LiteView },
      404: { description: "No such view" },
      409: { description: "Several views have that name; name the level or use the short id" }
    },
    handler: ({ params, query: q }, context) =>
      Effect.gen(function* () {
        const { view } = yield* viewByRef(context, q.workspaceId, params.viewRef, whereOf(q), "viewer", "query")
        return yield* toLiteView(view)
      })
  }),
  operation({
    operationId: "updateViewLite",
    method: "PATCH",
    path: "/v1/lite/views/{viewRef}",
    summary: "Rename a view, change its type, criteria or privacy",
    auth: "both",
    scopes: write,
    params: Ref,
    body: Schema.Struct({
      workspaceId: OptionalWorkspace,
      ...WhereFields,
      newName: Schema.optionalKey(Name(100)),
      type: Schema.optionalKey(ViewType),
      filters: Schema.optionalKey(LiteCriteria),
      isPrivate: Schema.optionalKey(Schema.Boolean),
      settings: Schema.optionalKey(ViewSettings)
    }),
    responses: { 200: { description: "Updated", schema: LiteView } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { caller, view } = yield* viewByRef(context, body.workspaceId, params.viewRef, whereOf(body), "member", "body")
        const filters = yield* criteriaOf(view.workspaceId, body.filters, "body.filters")
        const updated = yield* send(PmViews, view.workspaceId, "updateView", caller.userId, {
          viewId: view.id,
          ...(body.newName !== undefined ? { name: body.newName } : {}),
          ...(body.type !== undefined ? { type: body.type } : {}),
          ...(filters !== undefined ? { filters } : {}),
          ...(body.isPrivate !== undefined ? { isPrivate: body.isPrivate } : {}),
          ...(body.settings !== undefined ? { settings: body.settings } : {})
        })
        return yield* toLiteView(updated)
      })
  }),
  operation({
    operationId: "deleteViewLite",
    method: "DELETE",
    path: "/v1/lite/views/{viewRef}",
    summary: "Delete a view by name, short id or id (its creator, or an admin for a shared view)",
    auth: "both",
    scopes: write,
    params: Ref,
    query: ByRefQuery,
    responses: { 204: { description: "Deleted" } },
    handler: ({ params, query: q }, context) =>
      Effect.gen(function* () {
        const { caller, view } = yield* viewByRef(context, q.workspaceId, params.viewRef, whereOf(q), "member", "query")
        yield* send(PmViews, view.workspaceId, "deleteView", caller.userId, { viewId: view.id, admin: caller.admin })
      })
  }),
  operation({
    operationId: "setViewColumnsLite",
    method: "PUT",
    path: "/v1/lite/views/{viewRef}/columns",
    summary: "Set the columns a view shows, by name, in display order (others are hidden)",
    auth: "both",
    scopes: write,
    params: Ref,
    body: Schema.Struct({
      workspaceId: OptionalWorkspace,
      ...WhereFields,
      columns: Schema.Array(NameRef).check(Schema.isMinLength(1), Schema.isMaxLength(60)),
      widths: Schema.optionalKey(
        Schema.Record(Schema.String, Schema.Int.check(Schema.isBetween({ minimum: 40, maximum: 2000 }))).annotate({
          description: "Pixels by column name"
        })
      )
    }),
    responses: { 200: { description: "Updated", schema: LiteView }, 404: { description: "An unknown column" } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { caller, view } = yield* viewByRef(context, body.workspaceId, params.viewRef, whereOf(body), "member", "body")
        const fields = yield* columnsFor(view)
        const widths = new Map(Object.entries(body.widths ?? {}).map(([name, width]) => [name.trim().toLowerCase(), width] as const))
        const columns = yield* Effect.forEach(body.columns, (name, i) =>
          Effect.map(columnByName(fields, name, `body.columns.${i}`), (field) => ({
            field,
            width: widths.get(name.trim().toLowerCase()) ?? view.columns.find((c) => c.field === field)?.width ?? null
          }))
        )
        for (const name of widths.keys()) {
          if (!body.columns.some((c) => c.trim().toLowerCase() === name))
            return yield* invalid(`body.widths.${name}`, "not one of the columns")
        }
        const updated = yield* send(PmViews, view.workspaceId, "updateView", caller.userId, { viewId: view.id, columns })
        return yield* toLiteView(updated)
      })
  }),
  operation({
    operationId: "moveViewColumnLite",
    method: "POST",
    path: "/v1/lite/views/{viewRef}/columns/move",
    summary: "Move one column (by name) to a position, or before or after another; a hidden column is shown there",
    auth: "both",
    scopes: write,
    params: Ref,
    body: Schema.Struct({
      workspaceId: OptionalWorkspace,
      ...WhereFields,
      column: NameRef,
      position: Schema.optionalKey(
        Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 60 })).annotate({ description: "1 is the first column" })
      ),
      before: Schema.optionalKey(NameRef),
      after: Schema.optionalKey(NameRef)
    }),
    responses: { 200: { description: "Moved", schema: LiteView } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const given = [body.position, body.before, body.after].filter((v) => v !== undefined).length
        if (given !== 1) return yield* invalid("body.position", "give exactly one of position, before, after")
        const { caller, view } = yield* viewByRef(context, body.workspaceId, params.viewRef, whereOf(body), "member", "body")
        const fields = yield* columnsFor(view)
        const field = yield* columnByName(fields, body.column, "body.column")
        const rest = view.columns.filter((c) => c.field !== field)
        let toIndex = (body.position ?? 1) - 1
        for (const key of ["before", "after"] as const) {
          const anchorName = body[key]
          if (anchorName === undefined) continue
          const anchor = yield* columnByName(fields, anchorName, `body.${key}`)
          const index = rest.findIndex((c) => c.field === anchor)
          if (index < 0)
            return yield* reject("not_found", `The view does not show "${anchorName}"`, [
              { path: `body.${key}`, message: "not a shown column" }
            ])
          toIndex = key === "before" ? index : index + 1
        }
        const updated = yield* send(PmViews, view.workspaceId, "moveViewColumn", caller.userId, { viewId: view.id, field, toIndex })
        return yield* toLiteView(updated)
      })
  }),
  operation({
    operationId: "setViewGroupingLite",
    method: "PUT",
    path: "/v1/lite/views/{viewRef}/grouping",
    summary:
      "Group a view by a column (Status, Priority, Assignees, Tags, List, Due date, Created by, or a dropdown/labels/checkbox/users/rating field), or not at all",
    auth: "both",
    scopes: write,
    params: Ref,
    body: Schema.Struct({
      workspaceId: OptionalWorkspace,
      ...WhereFields,
      groupBy: Schema.NullOr(NameRef),
      direction: Schema.optionalKey(SortDirection),
      collapsed: Schema.optionalKey(
        Schema.Array(Schema.String.check(Schema.isMaxLength(200)))
          .check(Schema.isMaxLength(200))
          .annotate({ description: "Groups shown collapsed, by name" })
      ),
      showEmpty: Schema.optionalKey(Schema.Boolean)
    }),
    responses: { 200: { description: "Updated", schema: LiteView }, 400: { description: "That column cannot group" } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { caller, view } = yield* viewByRef(context, body.workspaceId, params.viewRef, whereOf(body), "member", "body")
        const fields = yield* columnsFor(view)
        const groupBy =
          body.groupBy === null
            ? null
            : {
                field: yield* columnByName(fields, body.groupBy, "body.groupBy"),
                ...(body.direction ? { direction: body.direction } : {}),
                ...(body.collapsed ? { collapsed: body.collapsed.map((c) => c.trim()) } : {}),
                ...(body.showEmpty !== undefined ? { showEmpty: body.showEmpty } : {})
              }
        const updated = yield* send(PmViews, view.workspaceId, "updateView", caller.userId, { viewId: view.id, groupBy })
        return yield* toLiteView(updated)
      })
  }),
  operation({
    operationId: "setViewSortLite",
    method: "PUT",
    path: "/v1/lite/views/{viewRef}/sort",
    summary: "Sort a view by up to 5 columns by name (an empty list: manual order)",
    auth: "both",
    scopes: write,
    params: Ref,
    body: Schema.Struct({ workspaceId: OptionalWorkspace, ...WhereFields, sortBy: SortKeys }),
    responses: { 200: { description: "Updated", schema: LiteView }, 400: { description: "That column cannot sort" } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { caller, view } = yield* viewByRef(context, body.workspaceId, params.viewRef, whereOf(body), "member", "body")
        const sortBy = yield* sortOf(yield* columnsFor(view), body.sortBy, "body.sortBy")
        const updated = yield* send(PmViews, view.workspaceId, "updateView", caller.userId, { viewId: view.id, sortBy })
        return yield* toLiteView(updated)
      })
  }),
  operation({
    operationId: "duplicateViewLite",
    method: "POST",
    path: "/v1/lite/views/{viewRef}/duplicate",
    summary: "Copy a view, to the same level or another one named by name (`to: {}` is the workspace level)",
    description: "Custom field columns that do not apply at the target are left out (listed in droppedColumns).",
    auth: "both",
    scopes: write,
    params: Ref,
    body: Schema.Struct({
      workspaceId: OptionalWorkspace,
      ...WhereFields,
      name: Schema.optionalKey(Name(100).annotate({ description: 'Default "<name> (copy)"' })),
      to: Schema.optionalKey(Schema.Struct(WhereFields)),
      isPrivate: Schema.optionalKey(Schema.Boolean)
    }),
    responses: { 201: { description: "Copied", schema: Schema.Struct({ view: LiteView, droppedColumns: Schema.Array(Schema.String) }) } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { view } = yield* viewByRef(context, body.workspaceId, params.viewRef, whereOf(body), "viewer", "body")
        const target =
          body.to === undefined
            ? { scopeType: view.scopeType, scopeId: view.scopeId }
            : yield* liteScope(context, view.workspaceId, whereOf(body.to), "member", "body.to")
        const caller = yield* inWorkspace(context, view.workspaceId, "member")
        const fieldNames = new Map<string, string>((yield* columnsFor(view)).map((f) => [`cf:${f.id}`, f.name]))
        const copied = yield* send(PmViews, view.workspaceId, "duplicateView", caller.userId, {
          viewId: view.id,
          scopeType: target.scopeType,
          scopeId: target.scopeId,
          ...(body.name !== undefined ? { name: body.name } : {}),
          ...(body.isPrivate !== undefined ? { isPrivate: body.isPrivate } : {})
        })
        return { view: yield* toLiteView(copied.view), droppedColumns: copied.droppedFields.map((f) => fieldNames.get(f) ?? f) }
      })
  }),
  operation({
    operationId: "getViewTasksLite",
    method: "GET",
    path: "/v1/lite/views/{viewRef}/tasks",
    summary: "Apply a view: its scope's tasks meeting its criteria, sorted and grouped as it says, with names",
    description:
      "Grouped views answer `groups` (a task with several assignees or tags shows in each of their groups); ungrouped ones `tasks`. Up to `limit` tasks (default 100, at most 500).",
    auth: "both",
    scopes: read,
    params: Ref,
    query: Schema.Struct({
      ...ByRefQuery.fields,
      limit: Schema.optionalKey(Schema.FiniteFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 500 })))
    }),
    responses: {
      200: {
        description: "The view's tasks",
        schema: Schema.Struct({
          view: Schema.String,
          total: Schema.Number,
          truncated: Schema.Boolean,
          tasks: Schema.Array(LiteTask),
          groups: Schema.NullOr(
            Schema.Array(
              Schema.Struct({
                key: Schema.String,
                label: Schema.String,
                count: Schema.Number,
                collapsed: Schema.Boolean,
                tasks: Schema.Array(LiteTask)
              })
            )
          )
        })
      }
    },
    handler: ({ params, query: q }, context) =>
      Effect.gen(function* () {
        const { caller, view } = yield* viewByRef(context, q.workspaceId, params.viewRef, whereOf(q), "viewer", "query")
        const applied = yield* orDieSql(applyView(view, caller.viewer, q.limit ?? 100))
        const lite = new Map((yield* orDieSql(toLite(applied.tasks))).map((t) => [t.id, t] as const))
        const asLite = (tasks: ReadonlyArray<{ id: string }>) => tasks.map((t) => lite.get(t.id)!)
        return {
          view: view.name,
          total: applied.total,
          truncated: applied.truncated,
          tasks: asLite(applied.tasks),
          groups:
            applied.groups === null
              ? null
              : applied.groups.map((g) => ({ key: g.key, label: g.label, count: g.count, collapsed: g.collapsed, tasks: asLite(g.tasks) }))
        }
      })
  })
]
