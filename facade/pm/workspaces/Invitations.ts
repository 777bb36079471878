/**
 * Invitations by e-mail: create, list, change, revoke, resend, and the
 * invitee's side (preview, accept, decline). Written by the workspace's
 * `PmOrganization` actor.
 */
import { Effect, Schema } from "effect"
import { Email, Id, normalizeEmail, Timestamp } from "../../../actors/Fields.ts"
import { AssignableRole } from "../../../actors/identity/Workspace.ts"
import {
  CreatedInvitation,
  getInvitation,
  Invitation,
  InvitationAttempt,
  InvitationInput,
  InvitationPatch,
  InvitationStatus,
  InvitationToken,
  invitationByToken,
  invitationsFor,
  invitationsOf
} from "../../../actors/pm/Invitations.ts"
import { PmOrganization } from "../../../actors/pm/OrganizationActors.ts"
import { rosterEntry, storedWorkspace } from "../../../actors/pm/Roster.ts"
import { send } from "../../../actors/pm/WorkActor.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { userOf } from "../../Access.ts"
import { refusals } from "../../HttpError.ts"
import { type RequestContext, tagGroup } from "../../Operation.ts"
import { inWorkspace, orDieSql } from "../WorkAccess.ts"
import {
  tag,
  service,
  read,
  write,
  Items,
  WorkspaceParams,
  identity,
  requireNonEmpty,
  summaryOf,
  isGuest,
  futureDate,
  DateTimeString,
  configOfWorkspace,
  Joined
} from "./shared.ts"
import { invitationsExamples } from "./Invitations.examples.ts"

const maskEmail = (email: string) => {
  const [local = "", domain = ""] = email.split("@")
  return `${local.slice(0, 1)}${"*".repeat(Math.max(1, local.length - 1))}@${domain}`
}

const ExpiringGuest = Schema.Struct({
  expiresAt: Schema.NullOr(DateTimeString).annotate({ description: "When the guest's access ends (null: when removed)" })
})
// As the actor takes it, except the guest's end of access: any date here, normalized before it is sent.
const InvitationBody = Schema.Struct({
  ...InvitationInput.fields,
  guest: Schema.optionalKey(ExpiringGuest.annotate({ description: "Invite as a guest (no seat; access may end at a date)" }))
})

/** May the caller invite (admins; members when the policy allows, as members or viewers and not as guests)? */
const mayInvite = (context: RequestContext, workspaceId: string, invitations: ReadonlyArray<{ role: string; guest?: unknown }>) =>
  Effect.gen(function* () {
    const caller = yield* inWorkspace(context, workspaceId, "member")
    if (caller.admin) return caller
    const config = yield* configOfWorkspace(workspaceId)
    if (!config.security.membersCanInvite || (yield* isGuest(workspaceId, caller.userId)))
      return yield* reject("forbidden", "Only admins may invite to this workspace")
    if (invitations.some((i) => i.role === "admin" || i.guest !== undefined))
      return yield* reject("forbidden", "Members may invite members and viewers only; admins invite admins and guests")
    return caller
  })

/** The invitation, when the caller may manage it (an admin, or who sent it). */
const manageableInvitation = (context: RequestContext, workspaceId: string, invitationId: string) =>
  Effect.gen(function* () {
    const caller = yield* inWorkspace(context, workspaceId, "member")
    const invitation = yield* orDieSql(getInvitation(invitationId))
    if (invitation.workspaceId !== workspaceId) return yield* reject("not_found", "No such invitation")
    if (!caller.admin && invitation.invitedBy.id !== caller.userId)
      return yield* reject("forbidden", "Only an admin or who sent the invitation may change it")
    return { caller, invitation }
  })

/** Takes the invitation, then has the identity workspace admit the caller (giving the invitation back if that fails). */
const acceptInvitation = (context: RequestContext, invitation: typeof Invitation.Type) =>
  Effect.gen(function* () {
    const user = yield* userOf(context)
    if (invitation.email !== normalizeEmail(user.email)) return yield* reject("not_found", "No such invitation")
    yield* send(PmOrganization, invitation.workspaceId, "claimInvitation", user.userId, { invitationId: invitation.id, email: user.email })
    yield* identity(invitation.workspaceId)
      .admit({
        userId: user.userId,
        role: invitation.role,
        via: "invitation",
        by: invitation.invitedBy.id,
        ...(invitation.guest ? { guest: { expiresAt: invitation.guestExpiresAt } } : {})
      })
      .pipe(
        Effect.tapError(() =>
          send(PmOrganization, invitation.workspaceId, "reopenInvitation", user.userId, { invitationId: invitation.id }).pipe(Effect.ignore)
        )
      )
    return {
      workspace: yield* summaryOf(context, invitation.workspaceId),
      member: yield* orDieSql(rosterEntry(invitation.workspaceId, user.userId))
    }
  })

const InvitationParams = Schema.Struct({ workspaceId: Id, invitationId: Id })
const MyInvitationParams = Schema.Struct({ invitationId: Id })

const MyInvitation = Schema.Struct({ ...Invitation.fields, workspaceName: Schema.String }).annotate({ identifier: "MyWorkspaceInvitation" })
const InvitationPreview = Schema.Struct({
  workspaceName: Schema.String,
  invitedBy: Schema.String,
  emailHint: Schema.String.annotate({ description: "The invited address, masked" }),
  role: AssignableRole,
  guest: Schema.Boolean,
  status: InvitationStatus,
  expiresAt: Timestamp
}).annotate({ identifier: "WorkspaceInvitationPreview" })

const { operation } = tagGroup(service, tag, invitationsExamples)

export const workspaceInvitationsOperations = [
  operation({
    operationId: "createWorkspaceInvitation",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/invitations",
    summary: "Invite someone by e-mail (admins; members too when the policy allows); the accept token is returned once",
    description:
      "One pending invitation per address. Refused when the address is a member, outside the allowed domains, or no seat is free (guests take none). Expires after the workspace's invitation expiry.",
    auth: "both",
    scopes: write,
    params: WorkspaceParams,
    body: InvitationBody,
    responses: {
      201: { description: "Invited", schema: CreatedInvitation },
      409: { description: "Already a member or invited, or no free seat" }
    },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* mayInvite(context, params.workspaceId, [body])
        const guest = body.guest ? { expiresAt: (yield* futureDate(body.guest.expiresAt, "body.guest.expiresAt")) ?? null } : undefined
        return yield* send(PmOrganization, params.workspaceId, "createInvitation", caller.userId, { ...body, ...(guest ? { guest } : {}) })
      })
  }),
  operation({
    operationId: "bulkCreateWorkspaceInvitations",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/invitations/bulk",
    summary: "Invite up to 50 people at once; each address succeeds or fails on its own",
    auth: "both",
    scopes: write,
    params: WorkspaceParams,
    body: Schema.Struct({ invitations: Schema.Array(InvitationBody).check(Schema.isMinLength(1), Schema.isMaxLength(50)) }),
    responses: {
      200: {
        description: "One result per address, in order",
        schema: Items(InvitationAttempt)
      }
    },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* mayInvite(context, params.workspaceId, body.invitations)
        const invitations = []
        for (const [index, item] of body.invitations.entries()) {
          const guest = item.guest
            ? { expiresAt: (yield* futureDate(item.guest.expiresAt, `body.invitations.${index}.guest.expiresAt`)) ?? null }
            : undefined
          invitations.push({ ...item, ...(guest ? { guest } : {}) })
        }
        const outcomes = yield* send(PmOrganization, params.workspaceId, "createInvitations", caller.userId, { invitations })
        // A refused address answers with its refusal's code and message, as a whole request would.
        return {
          items: outcomes.map(({ refused, ...invited }) =>
            refused === undefined ? invited : { email: invited.email, error: { code: refusals[refused._tag], message: refused.message } }
          )
        }
      })
  }),
  operation({
    operationId: "listWorkspaceInvitations",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/invitations",
    summary: "The workspace's invitations, newest first (filter by status or e-mail)",
    auth: "both",
    scopes: read,
    params: WorkspaceParams,
    query: Schema.Struct({ status: Schema.optionalKey(InvitationStatus), email: Schema.optionalKey(Email) }),
    responses: { 200: { description: "Invitations (tokens are never shown again)", schema: Items(Invitation) } },
    handler: ({ params, query: q }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId, "member")
        const config = yield* configOfWorkspace(params.workspaceId)
        if (!caller.admin && !config.security.membersCanInvite) return yield* reject("forbidden", "Only admins see the invitations")
        const items = yield* orDieSql(
          invitationsOf(params.workspaceId, { ...(q.status ? { status: q.status } : {}), ...(q.email ? { email: q.email } : {}) })
        )
        // Members who may invite see the invitations they sent.
        return { items: caller.admin ? items : items.filter((i) => i.invitedBy.id === caller.userId) }
      })
  }),
  operation({
    operationId: "getWorkspaceInvitation",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/invitations/{invitationId}",
    summary: "One invitation (admins, or who sent it)",
    auth: "both",
    scopes: read,
    params: InvitationParams,
    responses: { 200: { description: "The invitation", schema: Invitation } },
    handler: ({ params }, context) =>
      Effect.map(manageableInvitation(context, params.workspaceId, params.invitationId), ({ invitation }) => invitation)
  }),
  operation({
    operationId: "updateWorkspaceInvitation",
    method: "PATCH",
    path: "/v1/workspaces/{workspaceId}/invitations/{invitationId}",
    summary: "Change a pending invitation's role or message (admins, or who sent it)",
    auth: "both",
    scopes: write,
    params: InvitationParams,
    body: InvitationPatch,
    responses: { 200: { description: "Updated", schema: Invitation }, 409: { description: "No longer pending" } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { caller } = yield* manageableInvitation(context, params.workspaceId, params.invitationId)
        yield* requireNonEmpty(body)
        if (!caller.admin && body.role === "admin") return yield* reject("forbidden", "Only admins invite admins")
        return yield* send(PmOrganization, params.workspaceId, "updateInvitation", caller.userId, {
          invitationId: params.invitationId,
          ...body
        })
      })
  }),
  operation({
    operationId: "revokeWorkspaceInvitation",
    method: "DELETE",
    path: "/v1/workspaces/{workspaceId}/invitations/{invitationId}",
    summary: "Revoke a pending invitation: its link stops working (admins, or who sent it)",
    auth: "both",
    scopes: write,
    params: InvitationParams,
    responses: { 200: { description: "Revoked", schema: Invitation }, 409: { description: "No longer pending" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const { caller } = yield* manageableInvitation(context, params.workspaceId, params.invitationId)
        return yield* send(PmOrganization, params.workspaceId, "revokeInvitation", caller.userId, { invitationId: params.invitationId })
      })
  }),
  operation({
    operationId: "resendWorkspaceInvitation",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/invitations/{invitationId}/resend",
    summary: "Send a pending (or expired) invitation again: a new token, the expiry restarts, the old link stops working",
    auth: "both",
    scopes: write,
    params: InvitationParams,
    responses: { 200: { description: "Resent", schema: CreatedInvitation }, 409: { description: "Accepted, declined or revoked" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const { caller } = yield* manageableInvitation(context, params.workspaceId, params.invitationId)
        return yield* send(PmOrganization, params.workspaceId, "resendInvitation", caller.userId, { invitationId: params.invitationId })
      })
  }),
  operation({
    operationId: "listMyWorkspaceInvitations",
    method: "GET",
    path: "/v1/workspace-invitations",
    summary: "Pending invitations addressed to the caller's e-mail",
    auth: "jwt",
    scopes: [],
    responses: { 200: { description: "Invitations", schema: Items(MyInvitation) } },
    handler: (_r, context) =>
      Effect.flatMap(userOf(context), (user) => Effect.map(orDieSql(invitationsFor(user.email)), (items) => ({ items })))
  }),
  operation({
    operationId: "previewWorkspaceInvitation",
    method: "GET",
    path: "/v1/workspace-invitations/preview",
    summary: "What an invitation link offers, before signing up or in (no credentials): workspace, inviter, role, state",
    auth: "public",
    scopes: [],
    query: Schema.Struct({ token: InvitationToken }),
    responses: { 200: { description: "Preview", schema: InvitationPreview }, 404: { description: "Unknown token" } },
    handler: ({ query: q }) =>
      Effect.gen(function* () {
        const invitation = yield* orDieSql(invitationByToken(q.token))
        const workspace = yield* orDieSql(storedWorkspace(invitation.workspaceId))
        if (workspace === undefined) return yield* reject("not_found", "This invitation does not exist")
        return {
          workspaceName: workspace.name,
          invitedBy: invitation.invitedBy.name,
          emailHint: maskEmail(invitation.email),
          role: invitation.role,
          guest: invitation.guest,
          status: invitation.status,
          expiresAt: invitation.expiresAt
        }
      })
  }),
  operation({
    operationId: "acceptWorkspaceInvitation",
    method: "POST",
    path: "/v1/workspace-invitations/accept",
    summary: "Accept an invitation with the token from its link (the caller's e-mail must be the invited one)",
    auth: "jwt",
    scopes: [],
    body: Schema.Struct({ token: InvitationToken }),
    responses: {
      200: { description: "Joined", schema: Joined },
      404: { description: "Unknown token, or addressed to someone else" },
      409: { description: "Expired, no longer pending, already a member, or no free seat" }
    },
    handler: ({ body }, context) =>
      Effect.flatMap(orDieSql(invitationByToken(body.token)), (invitation) => acceptInvitation(context, invitation))
  }),
  operation({
    operationId: "acceptWorkspaceInvitationById",
    method: "POST",
    path: "/v1/workspace-invitations/{invitationId}/accept",
    summary: "Accept one of the caller's pending invitations (from the in-app list)",
    auth: "jwt",
    scopes: [],
    params: MyInvitationParams,
    responses: {
      200: { description: "Joined", schema: Joined },
      404: { description: "No invitation of the caller's" },
      409: { description: "Expired, no longer pending, already a member, or no free seat" }
    },
    handler: ({ params }, context) =>
      Effect.flatMap(orDieSql(getInvitation(params.invitationId)), (invitation) => acceptInvitation(context, invitation))
  }),
  operation({
    operationId: "declineWorkspaceInvitation",
    method: "POST",
    path: "/v1/workspace-invitations/{invitationId}/decline",
    summary: "Decline one of the caller's pending invitations",
    auth: "jwt",
    scopes: [],
    params: MyInvitationParams,
    responses: { 200: { description: "Declined", schema: Invitation }, 404: { description: "No invitation of the caller's" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const user = yield* userOf(context)
        const invitation = yield* orDieSql(getInvitation(params.invitationId))
        if (invitation.email !== normalizeEmail(user.email)) return yield* reject("not_found", "No such invitation")
        return yield* send(PmOrganization, invitation.workspaceId, "declineInvitation", user.userId, {
          invitationId: invitation.id,
          email: user.email
        })
      })
  })
]
