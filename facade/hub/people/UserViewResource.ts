/**
 * hub tag "User View Resource" (4): the caller's saved views over the calls
 * of a workspace — named filters (text, tags, participants, attendees,
 * period, status, length, shared with me) and a sort order. Private to the
 * caller; each view shows how many of the workspace's calls it matches now.
 */
import { Effect, Schema } from "effect"
import { Id } from "../../../actors/Fields.ts"
import { callDirectory } from "../../../actors/hub/people/CallDirectory.ts"
import { matches, StoredView, UserViews, ViewFilters, ViewName, ViewSort, viewsActorId } from "../../../actors/hub/people/UserViews.ts"
import { WorkspaceTags } from "../../../actors/hub/people/WorkspaceTags.ts"
import { ActorSystem } from "../../../runtime/ActorSystem.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { workspaceRole } from "../../Access.ts"
import { operation, type RequestContext } from "../../Operation.ts"
import { WorkspaceParams } from "../../shared/WorkspaceAccess.ts"
import { sharesReaching } from "./SharesReaching.ts"

const service = "hub"
const tag = "User View Resource"

const ViewWithCount = Schema.Struct({ ...StoredView.fields, callCount: Schema.Number }).annotate({ identifier: "CallView" })
const ViewParams = Schema.Struct({ workspaceId: Id, viewId: Id })

const exampleWorkspaceId = "0b9e4c1a-6f0e-4d5f-9a77-3f7c2f1e8a10"
const exampleViewId = "5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b"
const exampleView = {
  id: exampleViewId,
  name: "Customer calls this quarter",
  filters: { tagIds: ["2b3c4d5e-6f70-4a1b-8c2d-3e4f5a6b7c8d"], createdFrom: "2026-10-01T00:00:00Z", minDurationMinutes: 10 },
  sort: { field: "createdAt", direction: "desc" },
  pinned: true,
  createdAt: "2026-11-21T12:00:00.000Z",
  updatedAt: "2026-11-21T12:00:00.000Z",
  callCount: 8
}

/** Tag ids must be tags of the workspace; the period must run forward. */
const checkFilters = (workspaceId: string, filters: ViewFilters | undefined) =>
  Effect.gen(function* () {
    if (filters === undefined) return
    if (
      filters.createdFrom !== undefined &&
      filters.createdTo !== undefined &&
      Date.parse(filters.createdTo) <= Date.parse(filters.createdFrom)
    )
      return yield* reject("invalid", "createdTo must be after createdFrom", [
        { path: "body.filters.createdTo", message: "must be after createdFrom" }
      ])
    if (filters.tagIds === undefined || filters.tagIds.length === 0) return
    const { tags } = yield* (yield* ActorSystem).ask(WorkspaceTags, workspaceId, "view", {})
    const unknown = filters.tagIds.findIndex((id) => tags[id] === undefined)
    if (unknown >= 0)
      return yield* reject("invalid", "Not a tag of this workspace", [{ path: `body.filters.tagIds.${unknown}`, message: "no such tag" }])
  })

/** The views with how many of the workspace's calls each matches now. */
const withCounts = (workspaceId: string, userId: string, views: ReadonlyArray<StoredView>) =>
  Effect.gen(function* () {
    if (views.length === 0) return []
    const calls = yield* callDirectory().callsIn(workspaceId, 0, 8.64e15)
    const { callTags } = yield* (yield* ActorSystem).ask(WorkspaceTags, workspaceId, "view", {})
    const shared = yield* sharesReaching(workspaceId, userId)
    return views.map((view) => ({
      ...view,
      callCount: calls.filter((call) =>
        matches(view.filters, call, { tagIds: new Set(callTags[String(call.callId)] ?? []), sharedWithViewer: shared.has(call.callId) })
      ).length
    }))
  })

const onViews = (context: RequestContext, workspaceId: string) =>
  Effect.gen(function* () {
    yield* workspaceRole(context, workspaceId)
    const userId = context.principal!.userId
    return { userId, id: viewsActorId(userId, workspaceId), system: yield* ActorSystem }
  })

const byPinThenName = (a: StoredView, b: StoredView) =>
  Number(b.pinned) - Number(a.pinned) || a.name.localeCompare(b.name) || a.id.localeCompare(b.id)

export const userViewResourceOperations = [
  operation({
    service,
    tag,
    operationId: "createUserView",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/views",
    summary: "Save a view over the workspace's calls: filters and a sort order (private to you)",
    auth: "both",
    scopes: ["users:write"],
    params: WorkspaceParams,
    body: Schema.Struct({
      name: ViewName,
      filters: Schema.optionalKey(ViewFilters),
      sort: Schema.optionalKey(ViewSort),
      pinned: Schema.optionalKey(Schema.Boolean)
    }),
    responses: { 201: { description: "The view", schema: ViewWithCount } },
    examples: [
      {
        name: "create",
        request: {
          params: { workspaceId: exampleWorkspaceId },
          body: { name: exampleView.name, filters: exampleView.filters, sort: exampleView.sort, pinned: true }
        },
        response: { status: 201, body: exampleView }
      }
    ],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { userId, id, system } = yield* onViews(context, params.workspaceId)
        yield* checkFilters(params.workspaceId, body.filters)
        const view = yield* system.ask(UserViews, id, "create", {
          name: body.name,
          filters: body.filters ?? {},
          sort: body.sort ?? { field: "createdAt", direction: "desc" },
          pinned: body.pinned ?? false
        })
        return (yield* withCounts(params.workspaceId, userId, [view]))[0]!
      })
  }),
  operation({
    service,
    tag,
    operationId: "listUserViews",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/views",
    summary: "Your saved views of the workspace, pinned first, each with how many calls it matches",
    auth: "both",
    scopes: ["users:read"],
    params: WorkspaceParams,
    responses: { 200: { description: "Views", schema: Schema.Struct({ items: Schema.Array(ViewWithCount) }) } },
    examples: [
      { name: "list", request: { params: { workspaceId: exampleWorkspaceId } }, response: { status: 200, body: { items: [exampleView] } } }
    ],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const { userId, id, system } = yield* onViews(context, params.workspaceId)
        const { views } = yield* system.ask(UserViews, id, "view", {})
        return { items: yield* withCounts(params.workspaceId, userId, Object.values(views).sort(byPinThenName)) }
      })
  }),
  operation({
    service,
    tag,
    operationId: "updateUserView",
    method: "PATCH",
    path: "/v1/workspaces/{workspaceId}/views/{viewId}",
    summary: "Rename a view, replace its filters or sort, pin or unpin it",
    auth: "both",
    scopes: ["users:write"],
    params: ViewParams,
    body: Schema.Struct({
      name: Schema.optionalKey(ViewName),
      filters: Schema.optionalKey(ViewFilters),
      sort: Schema.optionalKey(ViewSort),
      pinned: Schema.optionalKey(Schema.Boolean)
    }),
    responses: { 200: { description: "The view", schema: ViewWithCount } },
    examples: [
      {
        name: "unpin",
        request: { params: { workspaceId: exampleWorkspaceId, viewId: exampleViewId }, body: { pinned: false } },
        response: { status: 200, body: { ...exampleView, pinned: false } }
      }
    ],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { userId, id, system } = yield* onViews(context, params.workspaceId)
        yield* checkFilters(params.workspaceId, body.filters)
        const view = yield* system.ask(UserViews, id, "update", { viewId: params.viewId, ...body })
        return (yield* withCounts(params.workspaceId, userId, [view]))[0]!
      })
  }),
  operation({
    service,
    tag,
    operationId: "deleteUserView",
    method: "DELETE",
    path: "/v1/workspaces/{workspaceId}/views/{viewId}",
    summary: "Delete one of your saved views",
    auth: "both",
    scopes: ["users:write"],
    params: ViewParams,
    responses: { 204: { description: "Deleted" } },
    examples: [
      { name: "delete", request: { params: { workspaceId: exampleWorkspaceId, viewId: exampleViewId } }, response: { status: 204 } }
    ],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const { id, system } = yield* onViews(context, params.workspaceId)
        yield* system.ask(UserViews, id, "delete", { viewId: params.viewId })
      })
  })
]
