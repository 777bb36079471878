/**
 * Invitations to a workspace: by e-mail (one pending invitation per address;
 * accepted by the person with that address, with the token from the link or
 * from inside the app), and the workspace's shareable invite link (one at a
 * time, optionally expiring or limited in uses). Tokens are shown once;
 * only their hashes are kept. An invitation expires after the workspace's
 * invitation expiry; resending makes a new token and restarts the clock.
 *
 * The one invitations aggregate of the product: pm's invitation routes and
 * the hub's (`facade/hub/accounts/WorkspaceInvitations.ts`) both use it; a
 * hub invitation is a pm invitation whose token is a hub link.
 *
 * The workspace's `PmOrganization` actor is the single writer of
 * `pm_workspace_invitations` and `pm_workspace_invite_links`. Accepting
 * claims the invitation here, then the identity workspace admits the user
 * (the facade undoes the claim if that fails), then the join is recorded.
 */
import { createHash, randomBytes } from "node:crypto"
import { Effect, Schema } from "effect"
import { query, type Sql, type SqlError } from "../../persistence/Sql.ts"
import {
  ExpiryInPast,
  GuestAccessEndsInPast,
  GuestCannotBeAdmin,
  GuestsTurnedOff,
  InvitationClosed,
  InvitationExpired,
  InvitationNotFound,
  InvitationPending,
  InvitationTokenUnknown,
  InviteDomainRefused,
  InviteeAlreadyMember,
  InviteLinkInvalid,
  InvitationRefused,
  InviteLinksTurnedOff,
  NoInviteLink,
  OrganizationRefused,
  TooManyInvitations
} from "./OrganizationErrors.ts"
import { Email, Id, normalizeEmail, Timestamp } from "../Fields.ts"
import { workspacesByIds } from "../identity/IdentityQueries.ts"
import { AssignableRole } from "../identity/Workspace.ts"
import { userRefs } from "./Members.ts"
import { workspaceChange, requireSeats, rosterOf } from "./Roster.ts"
import type { Change } from "./ChangeLog.ts"
import { command } from "./WorkActor.ts"
import { configOf, domainOf } from "./WorkspaceConfig.ts"

export const INVITE_TOKEN_PREFIX = "pminv_"
export const INVITE_LINK_PREFIX = "pmjoin_"
export const InvitationToken = Schema.String.check(
  Schema.isPattern(/^pminv_[A-Za-z0-9_-]{43}$/, { expected: "an invitation token (pminv_…)" })
)
export const InviteCode = Schema.String.check(
  Schema.isPattern(/^pmjoin_[A-Za-z0-9_-]{43}$/, { expected: "an invite link code (pmjoin_…)" })
)

export const hashSecret = (secret: string) => createHash("sha256").update(secret).digest("hex")
const newSecret = (prefix: string) => `${prefix}${randomBytes(32).toString("base64url")}`

/** Pending invitations a workspace may have at once. */
export const MAX_PENDING_INVITATIONS = 500

/**
 * Whose accept link a token is for: pm's (`pminv_…`) or the hub's, which
 * names the workspace (`hinv_<workspaceId>.…`) as the hub's contract has it.
 */
export const InvitationLink = Schema.Literals(["pm", "hub"])
type InvitationLink = typeof InvitationLink.Type
const newInvitationToken = (workspaceId: string, link: InvitationLink | undefined) =>
  link === "hub" ? `hinv_${workspaceId}.${randomBytes(32).toString("base64url")}` : newSecret(INVITE_TOKEN_PREFIX)

/** What a caller may choose beyond the invitation itself: the link's kind and an expiry other than the workspace's. */
const Sending = {
  link: Schema.optionalKey(InvitationLink),
  expiresInDays: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 366 })))
}

export const InvitationStatus = Schema.Literals(["pending", "accepted", "declined", "revoked", "expired"])
export type InvitationStatus = typeof InvitationStatus.Type

export const Invitation = Schema.Struct({
  id: Id,
  workspaceId: Id,
  email: Email,
  role: AssignableRole,
  guest: Schema.Boolean,
  guestExpiresAt: Schema.NullOr(Timestamp),
  message: Schema.String,
  status: InvitationStatus,
  invitedBy: Schema.Struct({ id: Id, name: Schema.String }),
  createdAt: Timestamp,
  expiresAt: Timestamp,
  resendCount: Schema.Number,
  lastSentAt: Timestamp,
  respondedAt: Schema.NullOr(Timestamp)
}).annotate({ identifier: "WorkspaceInvitation" })
export type Invitation = typeof Invitation.Type

interface Row {
  id: string
  workspaceId: string
  email: string
  role: typeof AssignableRole.Type
  guest: boolean
  guestExpiresAt: string | null
  message: string
  status: string
  invitedBy: string
  createdAt: string
  expiresAt: string
  resendCount: number
  lastSentAt: string
  respondedAt: string | null
}

const select = `SELECT i.id, i.workspace_id AS "workspaceId", i.email, i.role, i.guest, i.guest_expires_at AS "guestExpiresAt", i.message, i.status,
  i.invited_by AS "invitedBy", i.created_at AS "createdAt", i.expires_at AS "expiresAt",
  i.resend_count AS "resendCount", i.last_sent_at AS "lastSentAt", i.responded_at AS "respondedAt"
  FROM pm_workspace_invitations i`

/** The invitations of `rows`, with their inviters' names (one read of the accounts). */
const present = <R extends Row>(rows: ReadonlyArray<R>) =>
  Effect.map(userRefs(rows.map((row) => row.invitedBy)), (inviters) =>
    rows.map(({ invitedBy, status, ...row }) => ({
      ...row,
      status: status === "pending" && Date.parse(row.expiresAt) <= Date.now() ? ("expired" as const) : (status as InvitationStatus),
      invitedBy: { id: invitedBy, name: inviters.get(invitedBy)?.name ?? "" }
    }))
  )

const one = <E>(rows: ReadonlyArray<Row>, missing: E): Effect.Effect<Invitation, E | SqlError, Sql> =>
  rows.length === 0 ? Effect.fail(missing) : Effect.map(present(rows), (found) => found[0]!)

const statusCondition = (status: InvitationStatus | undefined) =>
  status === undefined
    ? ""
    : status === "expired"
      ? "AND i.status = 'pending' AND i.expires_at <= now()"
      : status === "pending"
        ? "AND i.status = 'pending' AND i.expires_at > now()"
        : `AND i.status = '${status}'`

export const invitationsOf = (workspaceId: string, filter: { readonly status?: InvitationStatus; readonly email?: string }) =>
  Effect.flatMap(
    query<Row>(
      `${select} WHERE i.workspace_id = $1 AND ($2::text IS NULL OR i.email = $2) ${statusCondition(filter.status)} ORDER BY i.created_at DESC, i.id`,
      [workspaceId, filter.email === undefined ? null : normalizeEmail(filter.email)]
    ),
    present
  )

export const getInvitation = (invitationId: string) =>
  Effect.flatMap(query<Row>(`${select} WHERE i.id = $1`, [invitationId]), (rows) => one(rows, new InvitationNotFound()))

export const invitationByToken = (token: string) =>
  Effect.flatMap(query<Row>(`${select} WHERE i.token_hash = $1`, [hashSecret(token)]), (rows) => one(rows, new InvitationTokenUnknown()))

/** Pending invitations addressed to the e-mail, in workspaces that still exist, with the workspace's name. */
export const invitationsFor = (email: string) =>
  Effect.gen(function* () {
    const rows = yield* query<Row>(
      `${select} WHERE i.email = $1 AND i.status = 'pending' AND i.expires_at > now() ORDER BY i.created_at DESC, i.id`,
      [normalizeEmail(email)]
    )
    const workspaces = yield* workspacesByIds(rows.map((row) => row.workspaceId))
    const invitations = yield* present(rows.filter((row) => workspaces.has(row.workspaceId)))
    return invitations.map((invitation) => ({ ...invitation, workspaceName: workspaces.get(invitation.workspaceId)!.name }))
  })

// ---------------------------------------------------------------------------
// Invite link

export const InviteLink = Schema.Struct({
  enabled: Schema.Boolean,
  codePrefix: Schema.NullOr(Schema.String),
  role: Schema.NullOr(AssignableRole),
  createdBy: Schema.NullOr(Id),
  createdAt: Schema.NullOr(Timestamp),
  expiresAt: Schema.NullOr(Timestamp),
  maxUses: Schema.NullOr(Schema.Number),
  uses: Schema.Number
}).annotate({ identifier: "WorkspaceInviteLink" })
export type InviteLink = typeof InviteLink.Type

interface LinkRow {
  workspaceId: string
  codePrefix: string
  role: typeof AssignableRole.Type
  createdBy: string
  createdAt: string
  expiresAt: string | null
  maxUses: number | null
  uses: number
}
const linkSelect = `SELECT workspace_id AS "workspaceId", code_prefix AS "codePrefix", role, created_by AS "createdBy", created_at AS "createdAt",
  expires_at AS "expiresAt", max_uses AS "maxUses", uses FROM pm_workspace_invite_links`

const linkUsable = (row: LinkRow) =>
  (row.expiresAt === null || Date.parse(row.expiresAt) > Date.now()) && (row.maxUses === null || row.uses < row.maxUses)

export const inviteLinkOf = (workspaceId: string) =>
  Effect.map(query<LinkRow>(`${linkSelect} WHERE workspace_id = $1`, [workspaceId]), (rows): InviteLink => {
    const row = rows[0]
    if (row === undefined)
      return { enabled: false, codePrefix: null, role: null, createdBy: null, createdAt: null, expiresAt: null, maxUses: null, uses: 0 }
    const { workspaceId: _w, ...rest } = row
    return { ...rest, enabled: linkUsable(row) }
  })

/** The workspace an invite code opens (404 when unknown, used up or expired). */
export const inviteLinkByCode = (code: string) =>
  Effect.flatMap(query<LinkRow>(`${linkSelect} WHERE code_hash = $1`, [hashSecret(code)]), (rows) =>
    rows[0] && linkUsable(rows[0]) ? Effect.succeed(rows[0]) : Effect.fail(new InviteLinkInvalid())
  )

// ---------------------------------------------------------------------------
// Commands of the workspace's PmOrganization actor

export const InvitationMessage = Schema.String.check(Schema.isMaxLength(1000))

export const InvitationInput = Schema.Struct({
  email: Email,
  role: AssignableRole,
  /** Invite as a guest (no seat), whose access ends at `expiresAt` (null: when removed). */
  guest: Schema.optionalKey(Schema.Struct({ expiresAt: Schema.NullOr(Timestamp) })),
  message: Schema.optionalKey(InvitationMessage)
})
export type InvitationInput = typeof InvitationInput.Type

export const CreatedInvitation = Schema.Struct({
  invitation: Invitation,
  token: InvitationToken.annotate({ description: "The accept token for the invitee's link (shown once)" })
}).annotate({ identifier: "CreatedWorkspaceInvitation" })

/** One address of a bulk invitation: invited, or why not. */
export const InvitationAttempt = Schema.Struct({
  email: Schema.String,
  invitation: Schema.optionalKey(Invitation),
  token: Schema.optionalKey(InvitationToken),
  error: Schema.optionalKey(Schema.Struct({ code: Schema.String, message: Schema.String }))
}).annotate({ identifier: "BulkInvitationResult" })

/** One address of a bulk invitation as the actor answers it: invited, or refused with its error. */
export const InvitationOutcome = Schema.Struct({
  email: Schema.String,
  invitation: Schema.optionalKey(Invitation),
  token: Schema.optionalKey(InvitationToken),
  refused: Schema.optionalKey(InvitationRefused)
})
type InvitationOutcome = typeof InvitationOutcome.Type

/** A change of a pending invitation. */
export const InvitationPatch = Schema.Struct({ role: Schema.optionalKey(AssignableRole), message: Schema.optionalKey(InvitationMessage) })

const InvitationRef = Schema.Struct({ invitationId: Id })
/** The invitee's answer: the invitation and the address it must be for. */
const InviteeAnswer = Schema.Struct({ invitationId: Id, email: Schema.String })

const requireInvitable = (workspaceId: string, input: InvitationInput, path: string) =>
  Effect.gen(function* () {
    const email = normalizeEmail(input.email)
    const config = yield* configOf(workspaceId)
    const domains = config.security.allowedEmailDomains.map((d) => d.toLowerCase())
    if (domains.length > 0 && !domains.includes(domainOf(email))) {
      return yield* new InviteDomainRefused({ domains, field: `${path}.email` })
    }
    if (input.guest !== undefined) {
      if (!config.features.guests) return yield* new GuestsTurnedOff()
      if (input.role === "admin") return yield* new GuestCannotBeAdmin({ field: `${path}.role` })
      if (input.guest.expiresAt !== null && Date.parse(input.guest.expiresAt) <= Date.now()) {
        return yield* new GuestAccessEndsInPast({ field: `${path}.guest.expiresAt` })
      }
    }
    const roster = yield* rosterOf(workspaceId)
    if (roster.some((m) => m.email.toLowerCase() === email)) return yield* new InviteeAlreadyMember({ email, field: `${path}.email` })
    yield* query(
      `UPDATE pm_workspace_invitations SET status = 'expired' WHERE workspace_id = $1 AND email = $2 AND status = 'pending' AND expires_at <= now()`,
      [workspaceId, email]
    )
    const pending = yield* query(`SELECT 1 FROM pm_workspace_invitations WHERE workspace_id = $1 AND email = $2 AND status = 'pending'`, [
      workspaceId,
      email
    ])
    if (pending.length > 0) return yield* new InvitationPending({ email, field: `${path}.email` })
    const open = yield* query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pm_workspace_invitations WHERE workspace_id = $1 AND status = 'pending' AND expires_at > now()`,
      [workspaceId]
    )
    if (open[0]!.n >= MAX_PENDING_INVITATIONS) return yield* new TooManyInvitations()
    return { email, expiryDays: config.security.invitationExpiryDays }
  })

const insertInvitation = (
  workspaceId: string,
  input: InvitationInput,
  by: string,
  path: string,
  sending: { readonly link?: InvitationLink; readonly expiresInDays?: number } = {}
) =>
  Effect.gen(function* () {
    const { email, expiryDays } = yield* requireInvitable(workspaceId, input, path)
    const id = crypto.randomUUID()
    const token = newInvitationToken(workspaceId, sending.link)
    yield* query(
      `INSERT INTO pm_workspace_invitations (id, workspace_id, email, role, guest, guest_expires_at, message, token_hash, status, invited_by, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'pending', $9, now() + make_interval(days => $10::int))`,
      [
        id,
        workspaceId,
        email,
        input.role,
        input.guest !== undefined,
        input.guest?.expiresAt ?? null,
        input.message ?? "",
        hashSecret(token),
        by,
        sending.expiresInDays ?? expiryDays
      ]
    )
    const invitation = yield* getInvitation(id)
    return {
      invitation,
      token,
      change: workspaceChange(workspaceId, "invitation.created", id, { email, role: input.role, guest: input.guest !== undefined }, by)
    }
  })

const pendingOf = (workspaceId: string, invitationId: string) =>
  Effect.gen(function* () {
    const invitation = yield* getInvitation(invitationId)
    if (invitation.workspaceId !== workspaceId) return yield* new InvitationNotFound()
    if (invitation.status !== "pending" && invitation.status !== "expired")
      return yield* new InvitationClosed({ status: invitation.status })
    return invitation
  })

/** An invitation and its token as the actor answers them (the token's form is its link's). */
const SentInvitation = Schema.Struct({ invitation: Invitation, token: Schema.String })

export const invitationCommands = {
  createInvitation: command(
    Schema.Struct({ ...InvitationInput.fields, ...Sending }),
    SentInvitation,
    OrganizationRefused,
    (input, by, workspaceId) =>
      Effect.gen(function* () {
        if (input.guest === undefined) yield* requireSeats(workspaceId, 1)
        const { link, expiresInDays, ...invitation } = input
        const created = yield* insertInvitation(workspaceId, invitation, by, "body", {
          ...(link ? { link } : {}),
          ...(expiresInDays ? { expiresInDays } : {})
        })
        return { result: { invitation: created.invitation, token: created.token }, changes: [created.change] }
      })
  ),

  /** Invites many at once: each address succeeds or fails on its own. */
  createInvitations: command(
    Schema.Struct({ invitations: Schema.Array(InvitationInput) }),
    Schema.Array(InvitationOutcome),
    OrganizationRefused,
    (input, by, workspaceId) =>
      Effect.gen(function* () {
        const results: Array<InvitationOutcome> = []
        const changes: Array<Change> = []
        for (const [index, item] of input.invitations.entries()) {
          const attempt = yield* Effect.result(
            Effect.gen(function* () {
              if (item.guest === undefined) yield* requireSeats(workspaceId, 1)
              return yield* insertInvitation(workspaceId, item, by, `body.invitations.${index}`)
            })
          )
          if (attempt._tag === "Success") {
            results.push({ email: attempt.success.invitation.email, invitation: attempt.success.invitation, token: attempt.success.token })
            changes.push(attempt.success.change)
          } else {
            const error = attempt.failure
            if (error._tag === "SqlError") return yield* Effect.fail(error)
            results.push({ email: normalizeEmail(item.email), refused: error })
          }
        }
        return { result: results, changes }
      })
  ),

  updateInvitation: command(
    Schema.Struct({ invitationId: Id, ...InvitationPatch.fields, expiresInDays: Sending.expiresInDays }),
    Invitation,
    OrganizationRefused,
    (input, by, workspaceId) =>
      Effect.gen(function* () {
        const invitation = yield* pendingOf(workspaceId, input.invitationId)
        if (invitation.guest && input.role === "admin") return yield* new GuestCannotBeAdmin({ field: "body.role" })
        yield* query(
          `UPDATE pm_workspace_invitations SET role = COALESCE($2, role), message = COALESCE($3, message),
                  expires_at = COALESCE(now() + make_interval(days => $4::int), expires_at) WHERE id = $1`,
          [invitation.id, input.role ?? null, input.message ?? null, input.expiresInDays ?? null]
        )
        return {
          result: yield* getInvitation(invitation.id),
          changes: [
            workspaceChange(
              workspaceId,
              "invitation.updated",
              invitation.id,
              { email: invitation.email, ...(input.role ? { role: input.role } : {}) },
              by
            )
          ]
        }
      })
  ),

  revokeInvitation: command(InvitationRef, Invitation, OrganizationRefused, (input, by, workspaceId) =>
    Effect.gen(function* () {
      const invitation = yield* pendingOf(workspaceId, input.invitationId)
      yield* query(`UPDATE pm_workspace_invitations SET status = 'revoked', responded_at = now(), responded_by = $2 WHERE id = $1`, [
        invitation.id,
        by
      ])
      return {
        result: yield* getInvitation(invitation.id),
        changes: [workspaceChange(workspaceId, "invitation.revoked", invitation.id, { email: invitation.email }, by)]
      }
    })
  ),

  /** A new token and a new expiry (the old link stops working). */
  resendInvitation: command(
    Schema.Struct({ ...InvitationRef.fields, ...Sending }),
    SentInvitation,
    OrganizationRefused,
    (input, by, workspaceId) =>
      Effect.gen(function* () {
        const invitation = yield* pendingOf(workspaceId, input.invitationId)
        const days = input.expiresInDays ?? (yield* configOf(workspaceId)).security.invitationExpiryDays
        const token = newInvitationToken(workspaceId, input.link)
        yield* query(
          `UPDATE pm_workspace_invitations SET token_hash = $2, status = 'pending', expires_at = now() + make_interval(days => $3::int),
                resend_count = resend_count + 1, last_sent_at = now() WHERE id = $1`,
          [invitation.id, hashSecret(token), days]
        )
        return {
          result: { invitation: yield* getInvitation(invitation.id), token },
          changes: [workspaceChange(workspaceId, "invitation.resent", invitation.id, { email: invitation.email }, by)]
        }
      })
  ),

  /** The invitee takes the invitation; the identity workspace admits them next. */
  claimInvitation: command(InviteeAnswer, Invitation, OrganizationRefused, (input, by, workspaceId) =>
    Effect.gen(function* () {
      const invitation = yield* getInvitation(input.invitationId)
      if (invitation.workspaceId !== workspaceId || invitation.email !== normalizeEmail(input.email)) return yield* new InvitationNotFound()
      if (invitation.status === "expired") return yield* new InvitationExpired()
      if (invitation.status !== "pending") return yield* new InvitationClosed({ status: invitation.status })
      if (!invitation.guest) yield* requireSeats(workspaceId, 1, { reserved: true })
      yield* query(`UPDATE pm_workspace_invitations SET status = 'accepted', responded_at = now(), responded_by = $2 WHERE id = $1`, [
        invitation.id,
        by
      ])
      return {
        result: yield* getInvitation(invitation.id),
        changes: [workspaceChange(workspaceId, "invitation.accepted", invitation.id, { email: invitation.email }, by)]
      }
    })
  ),

  /** Undoes a claim the workspace did not follow through. */
  reopenInvitation: command(InvitationRef, Schema.Void, OrganizationRefused, (input, by, workspaceId) =>
    Effect.gen(function* () {
      const reopened = yield* query(
        `UPDATE pm_workspace_invitations SET status = 'pending', responded_at = NULL, responded_by = NULL WHERE id = $1 AND workspace_id = $2 AND status = 'accepted' RETURNING email`,
        [input.invitationId, workspaceId]
      )
      return {
        result: undefined,
        changes: reopened.length === 0 ? [] : [workspaceChange(workspaceId, "invitation.reopened", input.invitationId, {}, by)]
      }
    })
  ),

  declineInvitation: command(InviteeAnswer, Invitation, OrganizationRefused, (input, by, workspaceId) =>
    Effect.gen(function* () {
      const invitation = yield* getInvitation(input.invitationId)
      if (invitation.workspaceId !== workspaceId || invitation.email !== normalizeEmail(input.email)) return yield* new InvitationNotFound()
      if (invitation.status !== "pending") return yield* new InvitationClosed({ status: invitation.status })
      yield* query(`UPDATE pm_workspace_invitations SET status = 'declined', responded_at = now(), responded_by = $2 WHERE id = $1`, [
        invitation.id,
        by
      ])
      return {
        result: yield* getInvitation(invitation.id),
        changes: [workspaceChange(workspaceId, "invitation.declined", invitation.id, { email: invitation.email }, by)]
      }
    })
  ),

  /** Replaces the invite link (the old code stops working); the code is returned once. */
  createInviteLink: command(
    Schema.Struct({
      role: AssignableRole,
      expiresAt: Schema.optionalKey(Schema.NullOr(Timestamp)),
      maxUses: Schema.optionalKey(Schema.NullOr(Schema.Int))
    }),
    Schema.Struct({ link: InviteLink, code: InviteCode }),
    OrganizationRefused,
    (input, by, workspaceId) =>
      Effect.gen(function* () {
        if (!(yield* configOf(workspaceId)).features.inviteLinks) return yield* new InviteLinksTurnedOff()
        if (input.expiresAt != null && Date.parse(input.expiresAt) <= Date.now())
          return yield* new ExpiryInPast({ field: "body.expiresAt" })
        const code = newSecret(INVITE_LINK_PREFIX)
        yield* query(
          `INSERT INTO pm_workspace_invite_links (workspace_id, code_hash, code_prefix, role, created_by, expires_at, max_uses) VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (workspace_id) DO UPDATE SET code_hash = excluded.code_hash, code_prefix = excluded.code_prefix, role = excluded.role, created_by = excluded.created_by,
           created_at = now(), expires_at = excluded.expires_at, max_uses = excluded.max_uses, uses = 0`,
          [
            workspaceId,
            hashSecret(code),
            code.slice(0, INVITE_LINK_PREFIX.length + 6),
            input.role,
            by,
            input.expiresAt ?? null,
            input.maxUses ?? null
          ]
        )
        return {
          result: { link: yield* inviteLinkOf(workspaceId), code },
          changes: [workspaceChange(workspaceId, "invite_link.created", workspaceId, { role: input.role }, by)]
        }
      })
  ),

  disableInviteLink: command(Schema.Struct({}), Schema.Void, OrganizationRefused, (_, by, workspaceId) =>
    Effect.gen(function* () {
      const removed = yield* query(`DELETE FROM pm_workspace_invite_links WHERE workspace_id = $1 RETURNING workspace_id`, [workspaceId])
      if (removed.length === 0) return yield* new NoInviteLink()
      return { result: undefined, changes: [workspaceChange(workspaceId, "invite_link.disabled", workspaceId, {}, by)] }
    })
  ),

  /** Uses the invite link once; returns the role it grants. */
  claimInviteLink: command(
    Schema.Struct({ code: InviteCode }),
    Schema.Struct({ role: AssignableRole }),
    OrganizationRefused,
    (input, _by, workspaceId) =>
      Effect.gen(function* () {
        if (!(yield* configOf(workspaceId)).features.inviteLinks) return yield* new InviteLinkInvalid()
        const link = yield* inviteLinkByCode(input.code)
        if (link.workspaceId !== workspaceId) return yield* new InviteLinkInvalid()
        yield* requireSeats(workspaceId, 1)
        yield* query(`UPDATE pm_workspace_invite_links SET uses = uses + 1 WHERE workspace_id = $1`, [workspaceId])
        return { result: { role: link.role }, changes: [] }
      })
  ),

  unclaimInviteLink: command(Schema.Struct({}), Schema.Void, OrganizationRefused, (_, _by, workspaceId) =>
    Effect.gen(function* () {
      yield* query(`UPDATE pm_workspace_invite_links SET uses = greatest(uses - 1, 0) WHERE workspace_id = $1`, [workspaceId])
      return { result: undefined, changes: [] }
    })
  )
}
