/**
 * hub tag "Tag Resource" (6): the workspace's tags for calls (create, list,
 * rename/recolor, delete) and a call's tags (set, remove one). Members
 * change tags; viewers read them. Calls are checked through the calls
 * service (CallDirectory).
 */
import { Effect, Schema } from "effect"
import { Id } from "../../../actors/Fields.ts"
import { countsOf, StoredTag, TagColor, TagName, TagWithCount, WorkspaceTags } from "../../../actors/hub/people/WorkspaceTags.ts"
import { ActorSystem } from "../../../runtime/ActorSystem.ts"
import { workspaceRole } from "../../Access.ts"
import { tagGroup } from "../../Operation.ts"
import { WorkspaceParams } from "../../shared/WorkspaceAccess.ts"
import { callAccess, CallIdParam, CallParams } from "./CallAccess.ts"
import { tagResourceExamples } from "./TagResource.examples.ts"
const TagParams = Schema.Struct({ workspaceId: Id, tagId: Id })
const CallTags = Schema.Struct({ callId: Schema.Number, tags: Schema.Array(StoredTag) })

const { operation } = tagGroup("hub", "Tag Resource", tagResourceExamples)

export const tagResourceOperations = [
  operation({
    operationId: "createCallTag",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/tags",
    summary: "Create a tag for the workspace's calls (names are unique, case-insensitively)",
    auth: "both",
    scopes: ["recordings:write"],
    params: WorkspaceParams,
    body: Schema.Struct({ name: TagName, color: Schema.optionalKey(Schema.NullOr(TagColor)) }),
    responses: { 201: { description: "The tag", schema: StoredTag } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        yield* workspaceRole(context, params.workspaceId, "member")
        const by = context.principal!.userId
        return yield* (yield* ActorSystem).ask(WorkspaceTags, params.workspaceId, "create", {
          name: body.name,
          color: body.color ?? null,
          by
        })
      })
  }),
  operation({
    operationId: "listCallTags",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/tags",
    summary: "The workspace's tags by name, each with how many calls carry it; with callId, only that call's tags",
    auth: "both",
    scopes: ["recordings:read"],
    params: WorkspaceParams,
    query: Schema.Struct({ callId: Schema.optionalKey(CallIdParam) }),
    responses: { 200: { description: "Tags", schema: Schema.Struct({ items: Schema.Array(TagWithCount) }) } },
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        yield* workspaceRole(context, params.workspaceId)
        const state = yield* (yield* ActorSystem).ask(WorkspaceTags, params.workspaceId, "view", {})
        const only = query.callId === undefined ? undefined : new Set(state.callTags[String(query.callId)] ?? [])
        const counts = countsOf(state)
        return {
          items: Object.values(state.tags)
            .filter((t) => only === undefined || only.has(t.id))
            .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id))
            .map((t) => ({ ...t, callCount: counts.get(t.id) ?? 0 }))
        }
      })
  }),
  operation({
    operationId: "updateCallTag",
    method: "PATCH",
    path: "/v1/workspaces/{workspaceId}/tags/{tagId}",
    summary: "Rename or recolor a tag (null clears the color)",
    auth: "both",
    scopes: ["recordings:write"],
    params: TagParams,
    body: Schema.Struct({ name: Schema.optionalKey(TagName), color: Schema.optionalKey(Schema.NullOr(TagColor)) }),
    responses: { 200: { description: "The tag", schema: StoredTag } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        yield* workspaceRole(context, params.workspaceId, "member")
        return yield* (yield* ActorSystem).ask(WorkspaceTags, params.workspaceId, "update", { tagId: params.tagId, ...body })
      })
  }),
  operation({
    operationId: "deleteCallTag",
    method: "DELETE",
    path: "/v1/workspaces/{workspaceId}/tags/{tagId}",
    summary: "Delete a tag; the calls that carried it lose it",
    auth: "both",
    scopes: ["recordings:write"],
    params: TagParams,
    responses: { 204: { description: "Deleted" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* workspaceRole(context, params.workspaceId, "member")
        yield* (yield* ActorSystem).ask(WorkspaceTags, params.workspaceId, "delete", { tagId: params.tagId })
      })
  }),
  operation({
    operationId: "setCallTags",
    method: "PUT",
    path: "/v1/calls/{callId}/tags",
    summary: "Set a call's tags (replaces them; an empty list removes all)",
    auth: "both",
    scopes: ["recordings:write"],
    params: CallParams,
    body: Schema.Struct({ tagIds: Schema.Array(Id).check(Schema.isMaxLength(50)) }),
    responses: { 200: { description: "The call's tags", schema: CallTags } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { call } = yield* callAccess(context, params.callId, "member")
        const tags = yield* (yield* ActorSystem).ask(WorkspaceTags, call.workspaceId, "setCallTags", {
          callId: call.callId,
          tagIds: body.tagIds
        })
        return { callId: call.callId, tags }
      })
  }),
  operation({
    operationId: "removeCallTag",
    method: "DELETE",
    path: "/v1/calls/{callId}/tags/{tagId}",
    summary: "Take one tag off a call",
    auth: "both",
    scopes: ["recordings:write"],
    params: Schema.Struct({ callId: CallIdParam, tagId: Id }),
    responses: { 200: { description: "The call's remaining tags", schema: CallTags } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const { call } = yield* callAccess(context, params.callId, "member")
        const tags = yield* (yield* ActorSystem).ask(WorkspaceTags, call.workspaceId, "removeCallTag", {
          callId: call.callId,
          tagId: params.tagId
        })
        return { callId: call.callId, tags }
      })
  })
]
