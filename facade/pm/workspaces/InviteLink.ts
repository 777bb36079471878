/**
 * The workspace's invite link: whoever holds its code may join.
 */
import { Effect, Schema } from "effect"
import { InviteCode, InviteLink, inviteLinkByCode, inviteLinkOf } from "../../../actors/pm/Invitations.ts"
import { PmOrganization } from "../../../actors/pm/OrganizationActors.ts"
import { rosterEntry, rosterOf } from "../../../actors/pm/Roster.ts"
import { send } from "../../../actors/pm/WorkActor.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { userOf } from "../../Access.ts"
import { tagGroup } from "../../Operation.ts"
import { orDieSql } from "../WorkAccess.ts"
import {
  tag,
  service,
  read,
  write,
  WorkspaceParams,
  identity,
  admin,
  summaryOf,
  futureDate,
  DateTimeString,
  configOfWorkspace,
  Joined
} from "./shared.ts"
import { inviteLinkExamples } from "./InviteLink.examples.ts"

const CreatedInviteLink = Schema.Struct({
  link: InviteLink,
  code: InviteCode.annotate({ description: "Shown once: whoever has it can join (POST /pm/v1/workspace-invitations/join)" })
}).annotate({ identifier: "CreatedWorkspaceInviteLink" })

const { operation } = tagGroup(service, tag, inviteLinkExamples)

export const workspaceInviteLinkOperations = [
  operation({
    operationId: "getWorkspaceInviteLink",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/invite-link",
    summary:
      "The workspace's shareable invite link: whether it works, its role, expiry and uses (admin; the code itself is shown only when made)",
    auth: "both",
    scopes: read,
    params: WorkspaceParams,
    responses: { 200: { description: "The link", schema: InviteLink } },
    handler: ({ params }, context) => Effect.andThen(admin(context, params.workspaceId), orDieSql(inviteLinkOf(params.workspaceId)))
  }),
  operation({
    operationId: "createWorkspaceInviteLink",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/invite-link",
    summary:
      "Make a new invite link (the old one stops working), optionally expiring or limited in uses (admin); the code is returned once",
    auth: "both",
    scopes: write,
    params: WorkspaceParams,
    body: Schema.Struct({
      role: Schema.optionalKey(
        Schema.Literals(["member", "viewer"]).annotate({
          description: "Role of who joins (default: the policy's auto-join role, at most member)"
        })
      ),
      expiresAt: Schema.optionalKey(Schema.NullOr(DateTimeString)),
      maxUses: Schema.optionalKey(Schema.NullOr(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 10_000 }))))
    }),
    responses: { 201: { description: "Created", schema: CreatedInviteLink }, 403: { description: "Invite links are turned off" } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* admin(context, params.workspaceId)
        const expiresAt = yield* futureDate(body.expiresAt, "body.expiresAt")
        const policyRole = (yield* configOfWorkspace(params.workspaceId)).security.autoJoinRole
        const role = body.role ?? (policyRole === "admin" ? "member" : policyRole)
        return yield* send(PmOrganization, params.workspaceId, "createInviteLink", caller.userId, {
          role,
          expiresAt: expiresAt ?? null,
          maxUses: body.maxUses ?? null
        })
      })
  }),
  operation({
    operationId: "disableWorkspaceInviteLink",
    method: "DELETE",
    path: "/v1/workspaces/{workspaceId}/invite-link",
    summary: "Turn the invite link off (admin)",
    auth: "both",
    scopes: write,
    params: WorkspaceParams,
    responses: { 204: { description: "Disabled" }, 404: { description: "There is none" } },
    handler: ({ params }, context) =>
      Effect.flatMap(admin(context, params.workspaceId), (caller) =>
        send(PmOrganization, params.workspaceId, "disableInviteLink", caller.userId, {})
      )
  }),
  operation({
    operationId: "joinWorkspaceByInviteLink",
    method: "POST",
    path: "/v1/workspace-invitations/join",
    summary: "Join a workspace with the code of its invite link (takes a seat)",
    auth: "jwt",
    scopes: [],
    body: Schema.Struct({ code: InviteCode }),
    responses: {
      200: { description: "Joined", schema: Joined },
      404: { description: "Unknown, expired or used-up link" },
      409: { description: "Already a member, or no free seat" }
    },
    handler: ({ body }, context) =>
      Effect.gen(function* () {
        const user = yield* userOf(context)
        const link = yield* orDieSql(inviteLinkByCode(body.code))
        if ((yield* orDieSql(rosterOf(link.workspaceId))).some((m) => m.userId === user.userId))
          return yield* reject("conflict", "Already a member of this workspace")
        const { role } = yield* send(PmOrganization, link.workspaceId, "claimInviteLink", user.userId, { code: body.code })
        yield* identity(link.workspaceId)
          .admit({ userId: user.userId, role, via: "invite_link" })
          .pipe(Effect.tapError(() => send(PmOrganization, link.workspaceId, "unclaimInviteLink", user.userId, {}).pipe(Effect.ignore)))
        return {
          workspace: yield* summaryOf(context, link.workspaceId),
          member: yield* orDieSql(rosterEntry(link.workspaceId, user.userId))
        }
      })
  })
]
