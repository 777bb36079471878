/**
 * hub tags "Workspace Invitation Resource V 1" (7) and "Workspace Invitation
 * Public Resource V 1" (1): invite by e-mail with a role and an expiry, list,
 * change, revoke, resend, accept; and the public page's data by token, which
 * shows only the workspace's name and who invited. Admins manage; the invitee
 * (the account with the invited address) accepts.
 */
import { Effect, Schema } from "effect"
import {
  HubInvitations,
  HubInvitationToken,
  InvitationRecord,
  InvitationStatus,
  workspaceOfToken,
  DEFAULT_INVITATION_DAYS,
  MAX_INVITATION_DAYS
} from "../../../actors/hub/HubInvitations.ts"
import { sendMail } from "../../../actors/hub/Mail.ts"
import { hashSecret } from "../../../actors/pm/Invitations.ts"
import { usersByEmails, usersByIds, workspaceById } from "../../../actors/identity/IdentityQueries.ts"
import { AssignableRole, Role, Workspace } from "../../../actors/identity/Workspace.ts"
import { Email, Id, Timestamp, normalizeEmail } from "../../../actors/Fields.ts"
import { ActorSystem } from "../../../runtime/ActorSystem.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { userOf, workspaceRole } from "../../Access.ts"
import { type RequestContext, tagGroup } from "../../Operation.ts"
import { WorkspaceParams } from "../../shared/WorkspaceAccess.ts"
import { tagExamples, workspaceInvitationPublicResourceV1Examples } from "./WorkspaceInvitations.examples.ts"

export const HubInvitation = Schema.Struct({
  ...InvitationRecord.fields,
  invitedBy: Schema.Struct({ id: Id, name: Schema.String })
}).annotate({
  identifier: "HubWorkspaceInvitation",
  description: "An invitation to a workspace by e-mail (the token is only in the mail)."
})

const InvitationParams = Schema.Struct({ workspaceId: Id, invitationId: Id })
const Days = Schema.Number.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: MAX_INVITATION_DAYS })).annotate({
  description: `Days until the invitation expires (1–${MAX_INVITATION_DAYS}, default ${DEFAULT_INVITATION_DAYS})`
})

/** Adds each inviter's name (one directory read for the page). */
const withInviters = (records: ReadonlyArray<InvitationRecord>) =>
  Effect.gen(function* () {
    const users = yield* Effect.orDie(usersByIds([...new Set(records.map((r) => r.invitedBy))]))
    return records.map((r) => ({ ...r, invitedBy: { id: r.invitedBy, name: users.get(r.invitedBy)?.name ?? "" } }))
  })
const withInviter = (record: InvitationRecord) => Effect.map(withInviters([record]), (all) => all[0]!)

const mailInvitation = (context: RequestContext, invitation: InvitationRecord, token: string, inviterName: string) =>
  Effect.gen(function* () {
    const ws = yield* Effect.orDie(workspaceById(invitation.workspaceId))
    yield* Effect.orDie(
      sendMail({
        to: invitation.email,
        kind: "invitation",
        subject: `${inviterName} invited you to ${ws?.name ?? "a workspace"} on Atrium`,
        text: [
          `${inviterName} invited you to join the workspace "${ws?.name ?? ""}" on Atrium as ${invitation.role}.`,
          "",
          `Open ${context.origin}/invitations/${token} to accept (sign up first with this address if you have no account).`,
          `Or send this token to POST /hub/v1/invitations/accept: ${token}`,
          "",
          `The invitation expires at ${invitation.expiresAt}.`
        ].join("\n")
      })
    )
  })

/** The admin's role check, then the workspace's invitations actor. */
const asAdmin = (context: RequestContext, workspaceId: string) =>
  Effect.gen(function* () {
    yield* workspaceRole(context, workspaceId, "admin")
    return yield* ActorSystem
  })

const tagTag = tagGroup("hub", "Workspace Invitation Resource V 1", tagExamples)
const workspaceInvitationPublicResourceV1Tag = tagGroup(
  "hub",
  "Workspace Invitation Public Resource V 1",
  workspaceInvitationPublicResourceV1Examples
)

export const workspaceInvitationOperations = [
  tagTag.operation({
    operationId: "createHubWorkspaceInvitation",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/invitations",
    summary: "Invite someone by e-mail with a role (admin); the invitation link is mailed to them",
    description: "One pending invitation per address; an address that is already a member is refused (409).",
    auth: "both",
    scopes: ["workspaces:write"],
    params: WorkspaceParams,
    body: Schema.Struct({ email: Email, role: AssignableRole, expiresInDays: Schema.optionalKey(Days) }),
    responses: {
      201: { description: "Invited (and mailed)", schema: HubInvitation },
      409: { description: "Already a member, or already invited" }
    },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const actors = yield* asAdmin(context, params.workspaceId)
        const email = normalizeEmail(body.email)
        const existing = (yield* Effect.orDie(usersByEmails([email]))).get(email)
        if (existing !== undefined) {
          const member = yield* Effect.option(Workspace.client(actors)(params.workspaceId).roleOf({ userId: existing.id }))
          if (member._tag === "Some")
            return yield* reject("conflict", "Already a member of this workspace", [{ path: "body.email", message: "already a member" }])
        }
        const by = context.principal!.userId
        const created = yield* actors.ask(HubInvitations, params.workspaceId, "create", {
          workspaceId: params.workspaceId,
          by,
          email,
          role: body.role,
          days: body.expiresInDays ?? DEFAULT_INVITATION_DAYS
        })
        const view = yield* withInviter(created.invitation)
        yield* mailInvitation(context, created.invitation, created.token, view.invitedBy.name)
        return view
      })
  }),
  tagTag.operation({
    operationId: "listHubWorkspaceInvitations",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/invitations",
    summary: "List the workspace's invitations (admin), optionally of one status",
    auth: "both",
    scopes: ["workspaces:read"],
    params: WorkspaceParams,
    query: Schema.Struct({ status: Schema.optionalKey(InvitationStatus) }),
    responses: { 200: { description: "Invitations, oldest first", schema: Schema.Struct({ items: Schema.Array(HubInvitation) }) } },
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        const actors = yield* asAdmin(context, params.workspaceId)
        const records = yield* actors.ask(HubInvitations, params.workspaceId, "list", query.status ? { status: query.status } : {})
        return { items: yield* withInviters(records) }
      })
  }),
  tagTag.operation({
    operationId: "getHubWorkspaceInvitation",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/invitations/{invitationId}",
    summary: "Get one invitation (admin)",
    auth: "both",
    scopes: ["workspaces:read"],
    params: InvitationParams,
    responses: { 200: { description: "The invitation", schema: HubInvitation }, 404: { description: "No such invitation" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const actors = yield* asAdmin(context, params.workspaceId)
        return yield* withInviter(yield* actors.ask(HubInvitations, params.workspaceId, "get", { invitationId: params.invitationId }))
      })
  }),
  tagTag.operation({
    operationId: "updateHubWorkspaceInvitation",
    method: "PATCH",
    path: "/v1/workspaces/{workspaceId}/invitations/{invitationId}",
    summary: "Change a pending invitation's role or expiry (admin)",
    description: "`expiresInDays` counts from now. The mailed link keeps working.",
    auth: "both",
    scopes: ["workspaces:write"],
    params: InvitationParams,
    body: Schema.Struct({ role: Schema.optionalKey(AssignableRole), expiresInDays: Schema.optionalKey(Days) }),
    responses: { 200: { description: "Changed", schema: HubInvitation }, 409: { description: "Not pending any more" } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const actors = yield* asAdmin(context, params.workspaceId)
        const record = yield* actors.ask(HubInvitations, params.workspaceId, "update", {
          invitationId: params.invitationId,
          ...(body.role ? { role: body.role } : {}),
          ...(body.expiresInDays ? { days: body.expiresInDays } : {})
        })
        return yield* withInviter(record)
      })
  }),
  tagTag.operation({
    operationId: "revokeHubWorkspaceInvitation",
    method: "DELETE",
    path: "/v1/workspaces/{workspaceId}/invitations/{invitationId}",
    summary: "Revoke a pending invitation (admin): its link stops working",
    auth: "both",
    scopes: ["workspaces:write"],
    params: InvitationParams,
    responses: { 200: { description: "Revoked", schema: HubInvitation }, 409: { description: "Not pending any more" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const actors = yield* asAdmin(context, params.workspaceId)
        return yield* withInviter(yield* actors.ask(HubInvitations, params.workspaceId, "revoke", { invitationId: params.invitationId }))
      })
  }),
  tagTag.operation({
    operationId: "resendHubWorkspaceInvitation",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/invitations/{invitationId}/resend",
    summary: "Mail the invitation again with a new link and a fresh expiry (admin); the old link stops working",
    auth: "both",
    scopes: ["workspaces:write"],
    params: InvitationParams,
    body: Schema.Struct({ expiresInDays: Schema.optionalKey(Days) }),
    responses: { 200: { description: "Sent again", schema: HubInvitation }, 409: { description: "Not pending any more" } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const actors = yield* asAdmin(context, params.workspaceId)
        const sent = yield* actors.ask(HubInvitations, params.workspaceId, "resend", {
          invitationId: params.invitationId,
          days: body.expiresInDays ?? DEFAULT_INVITATION_DAYS
        })
        const view = yield* withInviter(sent.invitation)
        yield* mailInvitation(context, sent.invitation, sent.token, view.invitedBy.name)
        return view
      })
  }),
  tagTag.operation({
    operationId: "acceptHubWorkspaceInvitation",
    method: "POST",
    path: "/v1/invitations/accept",
    summary: "Accept an invitation with the token from its mail: join the workspace with the invited role",
    description: "Only the account with the invited e-mail address may accept (403 otherwise). The token works once.",
    auth: "jwt",
    scopes: [],
    body: Schema.Struct({ token: HubInvitationToken }),
    responses: {
      200: {
        description: "Joined",
        schema: Schema.Struct({ workspaceId: Id, workspaceName: Schema.String, role: Role, joinedAt: Timestamp }).annotate({
          identifier: "AcceptedInvitation"
        })
      },
      403: { description: "The invitation is for another address" },
      404: { description: "Invalid, expired, revoked or used" },
      409: { description: "Already a member" }
    },
    handler: ({ body }, context) =>
      Effect.gen(function* () {
        const user = yield* userOf(context)
        const actors = yield* ActorSystem
        const workspaceId = workspaceOfToken(body.token)
        const tokenHash = hashSecret(body.token)
        const pending = yield* actors.ask(HubInvitations, workspaceId, "lookup", { tokenHash })
        if (pending.email !== normalizeEmail(user.email))
          return yield* reject("forbidden", "This invitation was sent to another address; sign in with that address to accept it")
        const claimed = yield* actors.ask(HubInvitations, workspaceId, "claim", { tokenHash, userId: user.userId })
        const member = yield* Workspace.client(actors)(workspaceId)
          .admit({ userId: user.userId, role: claimed.role, via: "invitation", by: claimed.invitedBy })
          .pipe(Effect.tapError(() => actors.ask(HubInvitations, workspaceId, "release", { invitationId: claimed.id }).pipe(Effect.ignore)))
        const ws = yield* Workspace.client(actors)(workspaceId).view({ by: user.userId })
        return { workspaceId, workspaceName: ws.name, role: member.role, joinedAt: member.addedAt }
      })
  }),
  workspaceInvitationPublicResourceV1Tag.operation({
    operationId: "getPublicHubInvitation",
    method: "GET",
    path: "/v1/public/invitations/{token}",
    summary: "What the invitation page shows before sign-in: the workspace's name and who invited",
    description: "Nothing else is revealed. An invalid, expired, revoked or used token answers 404.",
    auth: "public",
    scopes: [],
    params: Schema.Struct({ token: HubInvitationToken }),
    responses: {
      200: {
        description: "The invitation's public face",
        schema: Schema.Struct({ workspaceName: Schema.String, inviterName: Schema.String }).annotate({ identifier: "PublicInvitation" })
      },
      404: { description: "No valid invitation" }
    },
    handler: ({ params }) =>
      Effect.gen(function* () {
        const actors = yield* ActorSystem
        const workspaceId = workspaceOfToken(params.token)
        const invitation = yield* actors.ask(HubInvitations, workspaceId, "lookup", { tokenHash: hashSecret(params.token) })
        const ws = yield* Effect.orDie(workspaceById(workspaceId))
        if (ws === undefined) return yield* reject("not_found", "This invitation is not valid")
        const inviter = (yield* Effect.orDie(usersByIds([invitation.invitedBy]))).get(invitation.invitedBy)
        return { workspaceName: ws.name, inviterName: inviter?.name ?? "" }
      })
  })
]
