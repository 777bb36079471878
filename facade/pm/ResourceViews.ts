/**
 * pm tag "Resource Views" (4): views of the workspace, a space, a folder or a
 * list — their type, column order (and widths), grouping, sorting and task
 * criteria. Shared views are seen by everyone who sees their scope; private
 * ones only by their creator. Writes go through the workspace's views actor.
 */
import { Effect, Schema } from "effect"
import { Id } from "../../actors/Fields.ts"
import { PmViews } from "../../actors/pm/PlanningActors.ts"
import { ViewInput, ViewPatch } from "../../actors/pm/ViewCommands.ts"
import { getView, View, viewsAt, viewsInWorkspace, ViewScopeType } from "../../actors/pm/ViewRecords.ts"
import { send } from "../../actors/pm/WorkActor.ts"
import { Items } from "../../actors/pm/WorkRecords.ts"
import { reject } from "../../runtime/Rejection.ts"
import { type RequestContext, tagGroup } from "../Operation.ts"

import { inWorkspace, onScope, orDieSql } from "./WorkAccess.ts"
import { resourceViewsExamples } from "./ResourceViews.examples.ts"
export { exampleView } from "./ResourceViews.examples.ts"

type Minimum = "viewer" | "member"

/**
 * The caller at a scope of `workspaceId`: the workspace itself, or a space,
 * folder or list of it they may see (404 naming `path` otherwise), with
 * `minimum` there.
 */
export const onViewScope = (
  context: RequestContext,
  workspaceId: string,
  scopeType: ViewScopeType,
  scopeId: string,
  minimum: Minimum,
  path: string
) =>
  Effect.gen(function* () {
    const caller = yield* inWorkspace(context, workspaceId, "viewer")
    if (scopeType === "workspace") {
      if (scopeId !== workspaceId) return yield* reject("not_found", "No such workspace", [{ path, message: "not this workspace" }])
      return yield* inWorkspace(context, workspaceId, minimum)
    }
    const at = yield* onScope(context, scopeType, scopeId, "viewer").pipe(
      Effect.mapError((e) =>
        e._tag === "Rejection" && e.code === "not_found" ? reject("not_found", `No such ${scopeType}`, [{ path, message: "not found" }]) : e
      )
    )
    if (at.at.workspaceId !== workspaceId) return yield* reject("not_found", `No such ${scopeType}`, [{ path, message: "not found" }])
    if (minimum === "member" && caller.role === "viewer") return yield* reject("forbidden", "Requires the member role in this workspace")
    return at
  })

/** A view of `workspaceId` the caller may see, with `minimum` at its scope; 404 otherwise. */
export const onView = (context: RequestContext, workspaceId: string, viewId: string, minimum: Minimum) =>
  Effect.gen(function* () {
    const caller = yield* inWorkspace(context, workspaceId, "viewer")
    const view = yield* orDieSql(getView(viewId, caller.userId))
    if (view.workspaceId !== workspaceId) return yield* reject("not_found", "No such view")
    const at = yield* onViewScope(context, workspaceId, view.scopeType, view.scopeId, minimum, "viewId").pipe(
      Effect.mapError((e) => (e._tag === "Rejection" && e.code === "not_found" ? reject("not_found", "No such view") : e))
    )
    return { caller: { ...caller, role: at.role, admin: at.admin }, view }
  })

const WorkspaceParams = Schema.Struct({ workspaceId: Id })
const ViewParams = Schema.Struct({ workspaceId: Id, viewId: Id })

const { operation } = tagGroup("pm", "Resource Views", resourceViewsExamples)

export const resourceViewsOperations = [
  operation({
    operationId: "createView",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/views",
    summary: "Create a view of the workspace, a space, a folder or a list",
    description:
      "Columns are built-in fields (name, shortId, status, assignees, priority, dueDate, startDate, timeEstimate, tags, list, createdAt, updatedAt, closedAt, createdBy, subtasks, votes) or `cf:<custom field id>` of a field that applies at the scope. Without columns or grouping, the type's defaults apply (list and board views group by status).",
    auth: "both",
    scopes: ["tasks:write"],
    params: WorkspaceParams,
    body: Schema.Struct({
      ...ViewInput.fields,
      scopeId: Schema.optionalKey(
        Id.annotate({ description: "The space, folder or list (the workspace id, or nothing, at workspace level)" })
      )
    }),
    responses: {
      201: { description: "Created", schema: View },
      400: { description: "A column, grouping or sort that does not apply here" },
      409: { description: "A view of that name exists at the scope" }
    },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const scopeId = body.scopeId ?? params.workspaceId
        if (body.scopeType !== "workspace" && body.scopeId === undefined)
          return yield* reject("invalid", "Invalid body.scopeId: required for a space, folder or list view", [
            { path: "body.scopeId", message: "required" }
          ])
        const caller = yield* onViewScope(context, params.workspaceId, body.scopeType, scopeId, "member", "body.scopeId")
        return yield* send(PmViews, params.workspaceId, "createView", caller.userId, { ...body, scopeId })
      })
  }),
  operation({
    operationId: "listViews",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/views",
    summary: "Views of one scope (in their order), or every view of the workspace the caller may see",
    auth: "both",
    scopes: ["tasks:read"],
    params: WorkspaceParams,
    query: Schema.Struct({ scopeType: Schema.optionalKey(ViewScopeType), scopeId: Schema.optionalKey(Id) }),
    responses: { 200: { description: "Views", schema: Items(View) } },
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        if (query.scopeType === undefined) {
          if (query.scopeId !== undefined)
            return yield* reject("invalid", "Invalid query.scopeType: required with scopeId", [
              { path: "query.scopeType", message: "required with scopeId" }
            ])
          const caller = yield* inWorkspace(context, params.workspaceId)
          return { items: yield* orDieSql(viewsInWorkspace(params.workspaceId, caller.viewer)) }
        }
        const scopeId = query.scopeId ?? params.workspaceId
        if (query.scopeType !== "workspace" && query.scopeId === undefined)
          return yield* reject("invalid", "Invalid query.scopeId: required for a space, folder or list", [
            { path: "query.scopeId", message: "required" }
          ])
        const caller = yield* onViewScope(context, params.workspaceId, query.scopeType, scopeId, "viewer", "query.scopeId")
        return { items: yield* orDieSql(viewsAt(query.scopeType, scopeId, caller.userId)) }
      })
  }),
  operation({
    operationId: "updateView",
    method: "PATCH",
    path: "/v1/workspaces/{workspaceId}/views/{viewId}",
    summary: "Change a view: rename, type, column order and widths, grouping, sorting, criteria, settings, position",
    description:
      "`columns` replaces the shown columns in the given order; `groupBy: null` removes the grouping; `settings` merge. Only the creator makes a view private or shared.",
    auth: "both",
    scopes: ["tasks:write"],
    params: ViewParams,
    body: ViewPatch,
    responses: { 200: { description: "Updated", schema: View }, 409: { description: "A view of that name exists at the scope" } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { caller } = yield* onView(context, params.workspaceId, params.viewId, "member")
        return yield* send(PmViews, params.workspaceId, "updateView", caller.userId, { viewId: params.viewId, ...body })
      })
  }),
  operation({
    operationId: "deleteView",
    method: "DELETE",
    path: "/v1/workspaces/{workspaceId}/views/{viewId}",
    summary: "Delete a view (its creator, or a workspace admin for a shared view)",
    auth: "both",
    scopes: ["tasks:write"],
    params: ViewParams,
    responses: { 204: { description: "Deleted" }, 403: { description: "Neither its creator nor an admin" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const { caller } = yield* onView(context, params.workspaceId, params.viewId, "member")
        yield* send(PmViews, params.workspaceId, "deleteView", caller.userId, { viewId: params.viewId, admin: caller.admin })
      })
  })
]
