/**
 * hub tag "Share Team Resource" (5): share a call with people and teams of
 * its workspace (with a message), list and revoke a call's shares, list what
 * was shared with the caller (directly or through a team), and the teams a
 * call can be shared with (the workspace's pm teams, read through pm's own
 * team queries).
 */
import { Effect, Schema } from "effect"
import { Id, Timestamp } from "../../../actors/Fields.ts"
import { callDirectory } from "../../../actors/hub/people/CallDirectory.ts"
import { CallShares, type StoredShare } from "../../../actors/hub/people/CallShares.ts"
import { memberRoles, usersByIds } from "../../../actors/identity/IdentityQueries.ts"
import { atLeast } from "../../../actors/identity/Workspace.ts"
import { teamMemberRows, teamRows } from "../../../actors/pm/Team.ts"
import { ActorSystem } from "../../../runtime/ActorSystem.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { workspaceRole } from "../../Access.ts"
import { tagGroup } from "../../Operation.ts"
import { WorkspaceParams } from "../../shared/WorkspaceAccess.ts"
import { callAccess, CallIdParam, CallParams } from "./CallAccess.ts"
import { sharesReaching } from "./SharesReaching.ts"
import { shareTeamResourceExamples } from "./ShareTeamResource.examples.ts"

const ShareView = Schema.Struct({
  id: Id,
  callId: Schema.Number,
  recipientType: Schema.Literals(["user", "team"]),
  recipientId: Id,
  recipientName: Schema.String,
  message: Schema.String,
  sharedBy: Id,
  createdAt: Timestamp
}).annotate({ identifier: "CallShare" })
type ShareView = typeof ShareView.Type

const SharedWithMe = Schema.Struct({
  callId: Schema.Number,
  callUuid: Schema.String,
  callName: Schema.String,
  sharedBy: Id,
  via: Schema.Literals(["user", "team"]),
  teamId: Schema.NullOr(Id),
  message: Schema.String,
  sharedAt: Timestamp
}).annotate({ identifier: "SharedWithMe" })

const IdList = (max: number) => Schema.Array(Id).check(Schema.isMaxLength(max))

/** Shares with their recipients' names (users and teams of the workspace). */
const viewsOf = (workspaceId: string, shares: ReadonlyArray<StoredShare>) =>
  Effect.gen(function* () {
    const users = yield* Effect.orDie(usersByIds(shares.filter((s) => s.recipient.type === "user").map((s) => s.recipient.id)))
    const teamIds = shares.filter((s) => s.recipient.type === "team").map((s) => s.recipient.id)
    const teams = teamIds.length === 0 ? [] : yield* Effect.orDie(teamRows(workspaceId, teamIds))
    const teamNames = new Map(teams.map((team) => [team.id, team.name] as const))
    return shares
      .map(
        (share): ShareView => ({
          id: share.id,
          callId: share.callId,
          recipientType: share.recipient.type,
          recipientId: share.recipient.id,
          recipientName:
            (share.recipient.type === "user" ? users.get(share.recipient.id)?.name : teamNames.get(share.recipient.id)) ?? "(removed)",
          message: share.message,
          sharedBy: share.sharedBy,
          createdAt: share.createdAt
        })
      )
      .sort(
        (a, b) =>
          a.createdAt.localeCompare(b.createdAt) ||
          Number(a.recipientType === "team") - Number(b.recipientType === "team") ||
          a.recipientName.localeCompare(b.recipientName) ||
          a.id.localeCompare(b.id)
      )
  })

const { operation } = tagGroup("hub", "Share Team Resource", shareTeamResourceExamples)

export const shareTeamResourceOperations = [
  operation({
    operationId: "shareCall",
    method: "POST",
    path: "/v1/calls/{callId}/shares",
    summary: "Share a call with people and/or teams of its workspace, with an optional message",
    description: "Sharing again with the same recipient keeps one share (a new message replaces the old one).",
    auth: "both",
    scopes: ["recordings:write"],
    params: CallParams,
    body: Schema.Struct({
      userIds: Schema.optionalKey(IdList(100)),
      teamIds: Schema.optionalKey(IdList(50)),
      message: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(1000)))
    }),
    responses: { 201: { description: "The shares", schema: Schema.Struct({ items: Schema.Array(ShareView) }) } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { call, userId } = yield* callAccess(context, params.callId, "member")
        const userIds = [...new Set(body.userIds ?? [])]
        const teamIds = [...new Set(body.teamIds ?? [])]
        if (userIds.length + teamIds.length === 0)
          return yield* reject("invalid", "Name at least one user or team", [{ path: "body.userIds", message: "no recipients" }])
        const members = yield* Effect.orDie(memberRoles(call.workspaceId))
        const stranger = (body.userIds ?? []).findIndex((id) => !members.has(id))
        if (stranger >= 0)
          return yield* reject("invalid", "Not a member of the call's workspace", [
            { path: `body.userIds.${stranger}`, message: "not a workspace member" }
          ])
        const teams = new Set((teamIds.length === 0 ? [] : yield* Effect.orDie(teamRows(call.workspaceId, teamIds))).map((team) => team.id))
        const unknown = (body.teamIds ?? []).findIndex((id) => !teams.has(id))
        if (unknown >= 0)
          return yield* reject("invalid", "Not a team of the call's workspace", [
            { path: `body.teamIds.${unknown}`, message: "no such team" }
          ])
        const shares = yield* CallShares.client(yield* ActorSystem)(call.workspaceId).share({
          callId: call.callId,
          recipients: [...userIds.map((id) => ({ type: "user" as const, id })), ...teamIds.map((id) => ({ type: "team" as const, id }))],
          message: body.message ?? "",
          by: userId
        })
        return { items: yield* viewsOf(call.workspaceId, shares) }
      })
  }),
  operation({
    operationId: "listCallShares",
    method: "GET",
    path: "/v1/calls/{callId}/shares",
    summary: "Who a call is shared with",
    auth: "both",
    scopes: ["recordings:read"],
    params: CallParams,
    responses: { 200: { description: "Shares, oldest first", schema: Schema.Struct({ items: Schema.Array(ShareView) }) } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const { call } = yield* callAccess(context, params.callId)
        const state = yield* CallShares.client(yield* ActorSystem)(call.workspaceId).view({})
        return {
          items: yield* viewsOf(
            call.workspaceId,
            Object.values(state.shares).filter((share) => share.callId === call.callId)
          )
        }
      })
  }),
  operation({
    operationId: "revokeCallShare",
    method: "DELETE",
    path: "/v1/calls/{callId}/shares/{shareId}",
    summary: "Stop sharing a call with one recipient (the sharer or a workspace admin)",
    auth: "both",
    scopes: ["recordings:write"],
    params: Schema.Struct({ callId: CallIdParam, shareId: Id }),
    responses: { 204: { description: "Revoked" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const { call, userId } = yield* callAccess(context, params.callId, "member")
        const system = yield* ActorSystem
        const share = (yield* CallShares.client(system)(call.workspaceId).view({})).shares[params.shareId]
        if (share === undefined || share.callId !== call.callId) return yield* reject("not_found", "No such share of this call")
        if (share.sharedBy !== userId && !atLeast(yield* workspaceRole(context, call.workspaceId), "admin"))
          return yield* reject("forbidden", "Only who shared it or a workspace admin can revoke a share")
        yield* CallShares.client(system)(call.workspaceId).revoke({ callId: call.callId, shareId: params.shareId })
      })
  }),
  operation({
    operationId: "listSharedWithMe",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/shared-with-me",
    summary: "Calls of the workspace shared with you, directly or through one of your teams, newest first",
    auth: "both",
    scopes: ["recordings:read"],
    params: WorkspaceParams,
    responses: { 200: { description: "Shared calls", schema: Schema.Struct({ items: Schema.Array(SharedWithMe) }) } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* workspaceRole(context, params.workspaceId)
        const latest = yield* sharesReaching(params.workspaceId, context.principal!.userId)
        const items = yield* Effect.forEach([...latest.values()], (share) =>
          Effect.map(callDirectory().call(share.callId), (call) =>
            call === undefined || call.workspaceId !== params.workspaceId
              ? []
              : [
                  {
                    callId: share.callId,
                    callUuid: call.callUuid,
                    callName: call.name,
                    sharedBy: share.sharedBy,
                    via: share.recipient.type,
                    teamId: share.recipient.type === "team" ? share.recipient.id : null,
                    message: share.message,
                    sharedAt: share.createdAt
                  }
                ]
          )
        )
        return { items: items.flat().sort((a, b) => b.sharedAt.localeCompare(a.sharedAt) || b.callId - a.callId) }
      })
  }),
  operation({
    operationId: "listShareTeams",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/share-teams",
    summary: "The workspace's teams a call can be shared with, with their size and whether you are in them",
    auth: "both",
    scopes: ["recordings:read"],
    params: WorkspaceParams,
    responses: {
      200: {
        description: "Teams by name",
        schema: Schema.Struct({
          items: Schema.Array(Schema.Struct({ id: Id, name: Schema.String, memberCount: Schema.Number, isMember: Schema.Boolean }))
        })
      }
    },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* workspaceRole(context, params.workspaceId)
        const me = context.principal!.userId
        const teams = yield* Effect.orDie(teamRows(params.workspaceId))
        const members = teams.length === 0 ? [] : yield* Effect.orDie(teamMemberRows(teams.map((team) => team.id)))
        return {
          items: teams.map((team) => {
            const of = members.filter((row) => row.teamId === team.id)
            return { id: team.id, name: team.name, memberCount: of.length, isMember: of.some((row) => row.userId === me) }
          })
        }
      })
  })
]
