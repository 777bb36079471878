/**
 * hub tags "Workspace Invitation Resource V 1" (7) and "Workspace Invitation
 * Public Resource V 1" (1): invite by e-mail with a role and an expiry, list,
 * change, revoke, resend, accept; and the public page's data by token, which
 * shows only the workspace's name and who invited. Admins manage; the invitee
 * (the account with the invited address) accepts. The invitations are pm's
 * (`actors/pm/Invitations.ts`, written by the workspace's `PmOrganization`):
 * the hub's routes show them in the hub's shape, with hub links.
 */
import { Effect, Schema } from "effect"
import { Email, Id, Timestamp, normalizeEmail } from "../../../actors/Fields.ts"
import { sendMail } from "../../../actors/hub/Mail.ts"
import { workspaceById } from "../../../actors/identity/IdentityQueries.ts"
import { AssignableRole, Role, Workspace } from "../../../actors/identity/Workspace.ts"
import { getInvitation, type Invitation, invitationByToken, invitationsOf } from "../../../actors/pm/Invitations.ts"
import { PmOrganization } from "../../../actors/pm/OrganizationActors.ts"
import { send } from "../../../actors/pm/WorkActor.ts"
import { ActorSystem } from "../../../runtime/ActorSystem.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { userOf, workspaceRole } from "../../Access.ts"
import { type RequestContext, tagGroup } from "../../Operation.ts"
import { WorkspaceParams } from "../../shared/WorkspaceAccess.ts"
import { tagExamples, workspaceInvitationPublicResourceV1Examples } from "./WorkspaceInvitations.examples.ts"

const DEFAULT_INVITATION_DAYS = 7
const MAX_INVITATION_DAYS = 30

const HubInvitationToken = Schema.String.check(
  Schema.isPattern(/^hinv_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.[A-Za-z0-9_-]{43}$/, {
    expected: "an invitation token (hinv_…)"
  })
)

const InvitationStatus = Schema.Literals(["pending", "accepted", "revoked", "expired"]).annotate({
  description: "expired: still pending after its expiry"
})

export const HubInvitation = Schema.Struct({
  id: Id,
  workspaceId: Id,
  email: Email,
  role: AssignableRole,
  status: InvitationStatus,
  invitedBy: Schema.Struct({ id: Id, name: Schema.String }),
  sendCount: Schema.Number,
  createdAt: Timestamp,
  expiresAt: Timestamp,
  lastSentAt: Timestamp,
  respondedAt: Schema.NullOr(Timestamp)
}).annotate({
  identifier: "HubWorkspaceInvitation",
  description: "An invitation to a workspace by e-mail (the token is only in the mail)."
})
type HubInvitation = typeof HubInvitation.Type

const InvitationParams = Schema.Struct({ workspaceId: Id, invitationId: Id })
const Days = Schema.Number.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: MAX_INVITATION_DAYS })).annotate({
  description: `Days until the invitation expires (1–${MAX_INVITATION_DAYS}, default ${DEFAULT_INVITATION_DAYS})`
})

/** pm's invitation in the hub's shape (the hub has no guests, messages or declining: a declined one is closed, as revoked). */
const hubView = (invitation: Invitation): HubInvitation => ({
  id: invitation.id,
  workspaceId: invitation.workspaceId,
  email: invitation.email,
  role: invitation.role,
  status: invitation.status === "declined" ? "revoked" : invitation.status,
  invitedBy: invitation.invitedBy,
  sendCount: invitation.resendCount + 1,
  createdAt: invitation.createdAt,
  expiresAt: invitation.expiresAt,
  lastSentAt: invitation.lastSentAt,
  respondedAt: invitation.respondedAt
})

/** The workspace's invitation `invitationId`, or 404. */
const invitationIn = (workspaceId: string, invitationId: string) =>
  Effect.gen(function* () {
    const invitation = yield* getInvitation(invitationId).pipe(Effect.catchTag("SqlError", Effect.die))
    if (invitation.workspaceId !== workspaceId) return yield* reject("not_found", "No such invitation")
    return invitation
  })

/** The pending, unexpired invitation a token stands for; any other answers 404 without saying why. */
const pendingByToken = (token: string) =>
  Effect.gen(function* () {
    const found = yield* Effect.option(invitationByToken(token).pipe(Effect.catchTag("SqlError", Effect.die)))
    if (found._tag === "None" || found.value.status !== "pending")
      return yield* reject("not_found", "This invitation is not valid (it may have expired, been revoked or used)")
    return found.value
  })

/** Mails the invitation's link to the invitee; answers the invitation as the hub shows it. */
const mailInvitation = (context: RequestContext, sent: { readonly invitation: Invitation; readonly token: string }) =>
  Effect.gen(function* () {
    const invitation = hubView(sent.invitation)
    const token = sent.token
    const ws = yield* Effect.orDie(workspaceById(invitation.workspaceId))
    const inviterName = invitation.invitedBy.name
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
    return invitation
  })

/** The admin's role check, then the actors. */
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
        // A member, an address already invited, or one outside the workspace's domains is refused by the aggregate.
        yield* asAdmin(context, params.workspaceId)
        const email = normalizeEmail(body.email)
        const created = yield* send(PmOrganization, params.workspaceId, "createInvitation", context.principal!.userId, {
          email,
          role: body.role,
          link: "hub",
          expiresInDays: body.expiresInDays ?? DEFAULT_INVITATION_DAYS
        })
        return yield* mailInvitation(context, created)
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
        yield* asAdmin(context, params.workspaceId)
        const all = (yield* invitationsOf(params.workspaceId, {}).pipe(Effect.catchTag("SqlError", Effect.die))).map(hubView)
        const items = all.filter((invitation) => query.status === undefined || invitation.status === query.status)
        return { items: items.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id)) }
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
        yield* asAdmin(context, params.workspaceId)
        return hubView(yield* invitationIn(params.workspaceId, params.invitationId))
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
        yield* asAdmin(context, params.workspaceId)
        yield* invitationIn(params.workspaceId, params.invitationId)
        const changed = yield* send(PmOrganization, params.workspaceId, "updateInvitation", context.principal!.userId, {
          invitationId: params.invitationId,
          ...(body.role ? { role: body.role } : {}),
          ...(body.expiresInDays ? { expiresInDays: body.expiresInDays } : {})
        })
        return hubView(changed)
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
        yield* asAdmin(context, params.workspaceId)
        yield* invitationIn(params.workspaceId, params.invitationId)
        const revoked = yield* send(PmOrganization, params.workspaceId, "revokeInvitation", context.principal!.userId, {
          invitationId: params.invitationId
        })
        return hubView(revoked)
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
        yield* asAdmin(context, params.workspaceId)
        yield* invitationIn(params.workspaceId, params.invitationId)
        const sent = yield* send(PmOrganization, params.workspaceId, "resendInvitation", context.principal!.userId, {
          invitationId: params.invitationId,
          link: "hub",
          expiresInDays: body.expiresInDays ?? DEFAULT_INVITATION_DAYS
        })
        return yield* mailInvitation(context, sent)
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
        const pending = yield* pendingByToken(body.token)
        if (pending.email !== normalizeEmail(user.email))
          return yield* reject("forbidden", "This invitation was sent to another address; sign in with that address to accept it")
        const workspaceId = pending.workspaceId
        const claimed = yield* send(PmOrganization, workspaceId, "claimInvitation", user.userId, {
          invitationId: pending.id,
          email: user.email
        })
        const member = yield* Workspace.client(actors)(workspaceId)
          .admit({ userId: user.userId, role: claimed.role, via: "invitation", by: claimed.invitedBy.id })
          .pipe(
            Effect.tapError(() =>
              send(PmOrganization, workspaceId, "reopenInvitation", user.userId, { invitationId: claimed.id }).pipe(Effect.ignore)
            )
          )
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
        const invitation = yield* pendingByToken(params.token)
        const ws = yield* Effect.orDie(workspaceById(invitation.workspaceId))
        if (ws === undefined) return yield* reject("not_found", "This invitation is not valid")
        return { workspaceName: ws.name, inviterName: invitation.invitedBy.name }
      })
  })
]
