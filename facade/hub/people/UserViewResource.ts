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
import { type RequestContext, tagGroup } from "../../Operation.ts"
import { WorkspaceParams } from "../../shared/WorkspaceAccess.ts"
import { sharesReaching } from "./SharesReaching.ts"
import { userViewResourceExamples } from "./UserViewResource.examples.ts"

/** The end of "all of a workspace's calls" (a date every database can store). */
const ALL_TIME_END = Date.UTC(9999, 0, 1)

const ViewWithCount = Schema.Struct({ ...StoredView.fields, callCount: Schema.Number }).annotate({ identifier: "CallView" })
const ViewParams = Schema.Struct({ workspaceId: Id, viewId: Id })

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
    const calls = yield* callDirectory().callsIn(workspaceId, 0, ALL_TIME_END)
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

const { operation } = tagGroup("hub", "User View Resource", userViewResourceExamples)

export const userViewResourceOperations = [
  operation({
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
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { userId, id, system } = yield* onViews(context, params.workspaceId)
        yield* checkFilters(params.workspaceId, body.filters)
        const view = yield* UserViews.client(system)(id).create({
          name: body.name,
          filters: body.filters ?? {},
          sort: body.sort ?? { field: "createdAt", direction: "desc" },
          pinned: body.pinned ?? false
        })
        return (yield* withCounts(params.workspaceId, userId, [view]))[0]!
      })
  }),
  operation({
    operationId: "listUserViews",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/views",
    summary: "Your saved views of the workspace, pinned first, each with how many calls it matches",
    auth: "both",
    scopes: ["users:read"],
    params: WorkspaceParams,
    responses: { 200: { description: "Views", schema: Schema.Struct({ items: Schema.Array(ViewWithCount) }) } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const { userId, id, system } = yield* onViews(context, params.workspaceId)
        const { views } = yield* UserViews.client(system)(id).view({})
        return { items: yield* withCounts(params.workspaceId, userId, Object.values(views).sort(byPinThenName)) }
      })
  }),
  operation({
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
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { userId, id, system } = yield* onViews(context, params.workspaceId)
        yield* checkFilters(params.workspaceId, body.filters)
        const view = yield* UserViews.client(system)(id).update({ viewId: params.viewId, ...body })
        return (yield* withCounts(params.workspaceId, userId, [view]))[0]!
      })
  }),
  operation({
    operationId: "deleteUserView",
    method: "DELETE",
    path: "/v1/workspaces/{workspaceId}/views/{viewId}",
    summary: "Delete one of your saved views",
    auth: "both",
    scopes: ["users:write"],
    params: ViewParams,
    responses: { 204: { description: "Deleted" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const { id, system } = yield* onViews(context, params.workspaceId)
        yield* UserViews.client(system)(id).delete({ viewId: params.viewId })
      })
  })
]
