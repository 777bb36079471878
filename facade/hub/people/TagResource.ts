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
import { operation } from "../../Operation.ts"
import { WorkspaceParams } from "../../shared/WorkspaceAccess.ts"
import { callAccess, CallIdParam, CallParams } from "./CallAccess.ts"

const service = "hub"
const tag = "Tag Resource"

const exampleWorkspaceId = "0b9e4c1a-6f0e-4d5f-9a77-3f7c2f1e8a10"
const exampleTagId = "2b3c4d5e-6f70-4a1b-8c2d-3e4f5a6b7c8d"
const exampleTag = {
  id: exampleTagId,
  name: "Customer call",
  color: "#3b82f6",
  createdBy: "6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f",
  createdAt: "2026-11-21T12:00:00.000Z",
  updatedAt: "2026-11-21T12:00:00.000Z"
}
const TagParams = Schema.Struct({ workspaceId: Id, tagId: Id })
const CallTags = Schema.Struct({ callId: Schema.Number, tags: Schema.Array(StoredTag) })

export const tagResourceOperations = [
  operation({
    service,
    tag,
    operationId: "createCallTag",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/tags",
    summary: "Create a tag for the workspace's calls (names are unique, case-insensitively)",
    auth: "both",
    scopes: ["recordings:write"],
    params: WorkspaceParams,
    body: Schema.Struct({ name: TagName, color: Schema.optionalKey(Schema.NullOr(TagColor)) }),
    responses: { 201: { description: "The tag", schema: StoredTag } },
    examples: [
      {
        name: "create",
        request: { params: { workspaceId: exampleWorkspaceId }, body: { name: exampleTag.name, color: exampleTag.color } },
        response: { status: 201, body: exampleTag }
      }
    ],
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
    service,
    tag,
    operationId: "listCallTags",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/tags",
    summary: "The workspace's tags by name, each with how many calls carry it; with callId, only that call's tags",
    auth: "both",
    scopes: ["recordings:read"],
    params: WorkspaceParams,
    query: Schema.Struct({ callId: Schema.optionalKey(CallIdParam) }),
    responses: { 200: { description: "Tags", schema: Schema.Struct({ items: Schema.Array(TagWithCount) }) } },
    examples: [
      {
        name: "list",
        request: { params: { workspaceId: exampleWorkspaceId } },
        response: { status: 200, body: { items: [{ ...exampleTag, callCount: 12 }] } }
      }
    ],
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
    service,
    tag,
    operationId: "updateCallTag",
    method: "PATCH",
    path: "/v1/workspaces/{workspaceId}/tags/{tagId}",
    summary: "Rename or recolor a tag (null clears the color)",
    auth: "both",
    scopes: ["recordings:write"],
    params: TagParams,
    body: Schema.Struct({ name: Schema.optionalKey(TagName), color: Schema.optionalKey(Schema.NullOr(TagColor)) }),
    responses: { 200: { description: "The tag", schema: StoredTag } },
    examples: [
      {
        name: "rename",
        request: { params: { workspaceId: exampleWorkspaceId, tagId: exampleTagId }, body: { name: "Customer interview" } },
        response: { status: 200, body: { ...exampleTag, name: "Customer interview" } }
      }
    ],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        yield* workspaceRole(context, params.workspaceId, "member")
        return yield* (yield* ActorSystem).ask(WorkspaceTags, params.workspaceId, "update", { tagId: params.tagId, ...body })
      })
  }),
  operation({
    service,
    tag,
    operationId: "deleteCallTag",
    method: "DELETE",
    path: "/v1/workspaces/{workspaceId}/tags/{tagId}",
    summary: "Delete a tag; the calls that carried it lose it",
    auth: "both",
    scopes: ["recordings:write"],
    params: TagParams,
    responses: { 204: { description: "Deleted" } },
    examples: [
      { name: "delete", request: { params: { workspaceId: exampleWorkspaceId, tagId: exampleTagId } }, response: { status: 204 } }
    ],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* workspaceRole(context, params.workspaceId, "member")
        yield* (yield* ActorSystem).ask(WorkspaceTags, params.workspaceId, "delete", { tagId: params.tagId })
      })
  }),
  operation({
    service,
    tag,
    operationId: "setCallTags",
    method: "PUT",
    path: "/v1/calls/{callId}/tags",
    summary: "Set a call's tags (replaces them; an empty list removes all)",
    auth: "both",
    scopes: ["recordings:write"],
    params: CallParams,
    body: Schema.Struct({ tagIds: Schema.Array(Id).check(Schema.isMaxLength(50)) }),
    responses: { 200: { description: "The call's tags", schema: CallTags } },
    examples: [
      {
        name: "tag",
        request: { params: { callId: "1042" }, body: { tagIds: [exampleTagId] } },
        response: { status: 200, body: { callId: 1042, tags: [exampleTag] } }
      }
    ],
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
    service,
    tag,
    operationId: "removeCallTag",
    method: "DELETE",
    path: "/v1/calls/{callId}/tags/{tagId}",
    summary: "Take one tag off a call",
    auth: "both",
    scopes: ["recordings:write"],
    params: Schema.Struct({ callId: CallIdParam, tagId: Id }),
    responses: { 200: { description: "The call's remaining tags", schema: CallTags } },
    examples: [
      {
        name: "untag",
        request: { params: { callId: "1042", tagId: exampleTagId } },
        response: { status: 200, body: { callId: 1042, tags: [] } }
      }
    ],
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
