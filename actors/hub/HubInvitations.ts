/**
 * A workspace's invitations by e-mail (hub "Workspace Invitation" V1). One
 * actor per workspace holds them in memory (rebuilt from
 * `hub_workspace_invitations`, of which it is the single writer) and serves
 * every read from there. A token is shown once, in the mail: it names its
 * workspace (`hinv_<workspaceId>.<secret>`) so the public page and the accept
 * call find this actor; only its hash is kept (pm's hashing). Accepting claims
 * the invitation here first; the identity Workspace actor then admits the user,
 * and the facade releases the claim if that fails.
 */
import { randomBytes, randomUUID } from "node:crypto"
import { Effect, Schema } from "effect"
import { query } from "../../persistence/Sql.ts"
import { Actor } from "../../runtime/Actor.ts"
import {
  HubAlreadyInvited,
  HubInvitationInvalid,
  HubInvitationNotFound,
  HubInvitationNotPending,
  TooManyHubInvitations
} from "./HubErrors.ts"
import { Email, Id, Timestamp, now } from "../Fields.ts"
import { AssignableRole } from "../identity/Workspace.ts"
import { hashSecret } from "../pm/Invitations.ts"

export const DEFAULT_INVITATION_DAYS = 7
export const MAX_INVITATION_DAYS = 30
/** Pending invitations a workspace may have at once. */
export const MAX_PENDING_INVITATIONS = 500

export const HubInvitationToken = Schema.String.check(
  Schema.isPattern(/^hinv_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.[A-Za-z0-9_-]{43}$/, {
    expected: "an invitation token (hinv_…)"
  })
)
export const workspaceOfToken = (token: string) => token.slice(5, 41)

export const mintInvitationToken = (workspaceId: string) => {
  const token = `hinv_${workspaceId}.${randomBytes(32).toString("base64url")}`
  return { token, hash: hashSecret(token) }
}

export const StoredStatus = Schema.Literals(["pending", "accepted", "revoked"])
export const InvitationStatus = Schema.Literals(["pending", "accepted", "revoked", "expired"]).annotate({
  description: "expired: still pending after its expiry"
})
export type InvitationStatus = typeof InvitationStatus.Type

const StoredInvitation = Schema.Struct({
  id: Schema.String,
  workspaceId: Schema.String,
  email: Schema.String,
  role: AssignableRole,
  tokenHash: Schema.String,
  invitedBy: Schema.String,
  status: StoredStatus,
  sendCount: Schema.Number,
  createdAt: Schema.String,
  expiresAt: Schema.String,
  lastSentAt: Schema.String,
  respondedAt: Schema.NullOr(Schema.String),
  acceptedBy: Schema.NullOr(Schema.String)
})
type StoredInvitation = typeof StoredInvitation.Type

/** An invitation as the actor answers it (the facade adds the inviter's name). */
export const InvitationRecord = Schema.Struct({
  id: Id,
  workspaceId: Id,
  email: Email,
  role: AssignableRole,
  status: InvitationStatus,
  invitedBy: Id,
  sendCount: Schema.Number,
  createdAt: Timestamp,
  expiresAt: Timestamp,
  lastSentAt: Timestamp,
  respondedAt: Schema.NullOr(Timestamp)
})
export type InvitationRecord = typeof InvitationRecord.Type

const State = Schema.Struct({ invitations: Schema.Array(StoredInvitation) })
type State = typeof State.Type

const expired = (invitation: Pick<StoredInvitation, "status" | "expiresAt">, at = Date.now()) =>
  invitation.status === "pending" && Date.parse(invitation.expiresAt) <= at

const record = ({ tokenHash: _hash, acceptedBy: _by, ...invitation }: StoredInvitation): InvitationRecord => ({
  ...invitation,
  status: expired(invitation) ? "expired" : invitation.status
})

const expiryIn = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString()

const Days = Schema.Number.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: MAX_INVITATION_DAYS }))

const selectRows = `SELECT id, workspace_id AS "workspaceId", email, role, token_hash AS "tokenHash", invited_by AS "invitedBy", status,
  send_count AS "sendCount", created_at AS "createdAt", expires_at AS "expiresAt", last_sent_at AS "lastSentAt",
  responded_at AS "respondedAt", accepted_by AS "acceptedBy"
  FROM hub_workspace_invitations WHERE workspace_id = $1 ORDER BY created_at, id`

const find = (state: State, invitationId: string) => {
  const invitation = state.invitations.find((candidate) => candidate.id === invitationId)
  return invitation === undefined ? Effect.fail(new HubInvitationNotFound()) : Effect.succeed(invitation)
}

const pendingOnly = (invitation: StoredInvitation) =>
  invitation.status !== "pending" ? Effect.fail(new HubInvitationNotPending({ status: invitation.status })) : Effect.succeed(invitation)

const replace = (state: State, next: StoredInvitation): State => ({
  invitations: state.invitations.map((invitation) => (invitation.id === next.id ? next : invitation))
})

const save = (invitation: StoredInvitation) =>
  query(
    `UPDATE hub_workspace_invitations SET role = $2, token_hash = $3, status = $4, send_count = $5, expires_at = $6, last_sent_at = $7,
            responded_at = $8, accepted_by = $9 WHERE id = $1`,
    [
      invitation.id,
      invitation.role,
      invitation.tokenHash,
      invitation.status,
      invitation.sendCount,
      invitation.expiresAt,
      invitation.lastSentAt,
      invitation.respondedAt,
      invitation.acceptedBy
    ]
  ).pipe(Effect.orDie)

const Created = Schema.Struct({ invitation: InvitationRecord, token: Schema.String })

const PendingErrors = Schema.Union([HubInvitationNotFound, HubInvitationNotPending])

export const HubInvitations = Actor<State>()({
  kind: "hubInvitations",
  state: State,
  initial: () => ({ invitations: [] }),
  rebuild: (workspaceId) => Effect.map(query<StoredInvitation>(selectRows, [workspaceId]), (rows) => ({ invitations: [...rows] })),
  messages: {
    create: {
      payload: Schema.Struct({ workspaceId: Schema.String, by: Schema.String, email: Schema.String, role: AssignableRole, days: Days }),
      success: Created,
      error: Schema.Union([HubAlreadyInvited, TooManyHubInvitations])
    },
    list: {
      payload: Schema.Struct({ status: Schema.optionalKey(InvitationStatus) }),
      success: Schema.Array(InvitationRecord),
      error: Schema.Never
    },
    get: { payload: Schema.Struct({ invitationId: Schema.String }), success: InvitationRecord, error: HubInvitationNotFound },
    update: {
      payload: Schema.Struct({ invitationId: Schema.String, role: Schema.optionalKey(AssignableRole), days: Schema.optionalKey(Days) }),
      success: InvitationRecord,
      error: PendingErrors
    },
    revoke: { payload: Schema.Struct({ invitationId: Schema.String }), success: InvitationRecord, error: PendingErrors },
    /** A new token (the old one stops working) and a fresh expiry. */
    resend: { payload: Schema.Struct({ invitationId: Schema.String, days: Days }), success: Created, error: PendingErrors },
    /** The pending, unexpired invitation a token stands for. */
    lookup: { payload: Schema.Struct({ tokenHash: Schema.String }), success: InvitationRecord, error: HubInvitationInvalid },
    /** Marks the invitation accepted by `userId` (the facade admits them next, or releases). */
    claim: {
      payload: Schema.Struct({ tokenHash: Schema.String, userId: Schema.String }),
      success: InvitationRecord,
      error: HubInvitationInvalid
    },
    release: { payload: Schema.Struct({ invitationId: Schema.String }), success: Schema.Void, error: HubInvitationNotFound }
  },
  handlers: {
    create: ({ workspaceId, by, email, role, days }, ctx) =>
      Effect.gen(function* () {
        const live = ctx.state.invitations.filter((invitation) => invitation.status === "pending")
        if (live.some((invitation) => invitation.email === email && !expired(invitation))) return yield* new HubAlreadyInvited()
        if (live.length >= MAX_PENDING_INVITATIONS) return yield* new TooManyHubInvitations()
        // An expired pending invitation to the same address gives way to the new one.
        const stale = live.filter((invitation) => invitation.email === email)
        for (const invitation of stale) yield* save({ ...invitation, status: "revoked", respondedAt: now() })
        const minted = mintInvitationToken(workspaceId)
        const at = now()
        const invitation: StoredInvitation = {
          id: randomUUID(),
          workspaceId,
          email,
          role,
          tokenHash: minted.hash,
          invitedBy: by,
          status: "pending",
          sendCount: 1,
          createdAt: at,
          expiresAt: expiryIn(days),
          lastSentAt: at,
          respondedAt: null,
          acceptedBy: null
        }
        yield* query(
          `INSERT INTO hub_workspace_invitations (id, workspace_id, email, role, token_hash, invited_by, status, send_count, created_at, expires_at, last_sent_at)
           VALUES ($1, $2, $3, $4, $5, $6, 'pending', 1, $7, $8, $7)`,
          [invitation.id, workspaceId, email, role, minted.hash, by, at, invitation.expiresAt]
        ).pipe(Effect.orDie)
        const revoked = new Set(stale.map((invitation) => invitation.id))
        ctx.setState({
          invitations: [
            ...ctx.state.invitations.map((old) => (revoked.has(old.id) ? { ...old, status: "revoked" as const, respondedAt: at } : old)),
            invitation
          ]
        })
        return { invitation: record(invitation), token: minted.token }
      }),
    list: ({ status }, ctx) =>
      Effect.sync(() => ctx.state.invitations.map(record).filter((invitation) => status === undefined || invitation.status === status)),
    get: ({ invitationId }, ctx) => Effect.map(find(ctx.state, invitationId), record),
    update: ({ invitationId, role, days }, ctx) =>
      Effect.gen(function* () {
        const invitation = yield* pendingOnly(yield* find(ctx.state, invitationId))
        const next = { ...invitation, ...(role ? { role } : {}), ...(days ? { expiresAt: expiryIn(days) } : {}) }
        yield* save(next)
        ctx.setState(replace(ctx.state, next))
        return record(next)
      }),
    revoke: ({ invitationId }, ctx) =>
      Effect.gen(function* () {
        const invitation = yield* pendingOnly(yield* find(ctx.state, invitationId))
        const next = { ...invitation, status: "revoked" as const, respondedAt: now() }
        yield* save(next)
        ctx.setState(replace(ctx.state, next))
        return record(next)
      }),
    resend: ({ invitationId, days }, ctx) =>
      Effect.gen(function* () {
        const invitation = yield* pendingOnly(yield* find(ctx.state, invitationId))
        const minted = mintInvitationToken(invitation.workspaceId)
        const next = {
          ...invitation,
          tokenHash: minted.hash,
          sendCount: invitation.sendCount + 1,
          lastSentAt: now(),
          expiresAt: expiryIn(days)
        }
        yield* save(next)
        ctx.setState(replace(ctx.state, next))
        return { invitation: record(next), token: minted.token }
      }),
    lookup: ({ tokenHash }, ctx) =>
      Effect.gen(function* () {
        const invitation = ctx.state.invitations.find((candidate) => candidate.tokenHash === tokenHash)
        if (invitation === undefined || invitation.status !== "pending" || expired(invitation)) return yield* new HubInvitationInvalid()
        return record(invitation)
      }),
    claim: ({ tokenHash, userId }, ctx) =>
      Effect.gen(function* () {
        const invitation = ctx.state.invitations.find((candidate) => candidate.tokenHash === tokenHash)
        if (invitation === undefined || invitation.status !== "pending" || expired(invitation)) return yield* new HubInvitationInvalid()
        const next = { ...invitation, status: "accepted" as const, respondedAt: now(), acceptedBy: userId }
        yield* save(next)
        ctx.setState(replace(ctx.state, next))
        return record(next)
      }),
    release: ({ invitationId }, ctx) =>
      Effect.gen(function* () {
        const invitation = yield* find(ctx.state, invitationId)
        const next = { ...invitation, status: "pending" as const, respondedAt: null, acceptedBy: null }
        yield* save(next)
        ctx.setState(replace(ctx.state, next))
      })
  }
})
