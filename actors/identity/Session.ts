/**
 * A Session is one refresh-token family: login opens it, every refresh rotates
 * its token, logout revokes it. Presenting a refresh token that was already
 * rotated away means it leaked: the whole family is revoked. The actor
 * serializes refreshes, so two concurrent uses of one token cannot both win.
 */
import { Effect, Schema } from "effect"
import { Actor } from "../../runtime/Actor.ts"
import { Timestamp, now } from "../Fields.ts"
import { SessionExists, SessionNotFound } from "./IdentityErrors.ts"

const SessionState = Schema.Struct({
  userId: Schema.NullOr(Schema.String),
  email: Schema.String,
  tokenHash: Schema.String,
  createdAt: Schema.String,
  lastUsedAt: Schema.String,
  expiresAt: Schema.String,
  revokedAt: Schema.NullOr(Schema.String),
  revokedReason: Schema.NullOr(Schema.String),
  userAgent: Schema.NullOr(Schema.String)
})
type SessionState = typeof SessionState.Type

export const SessionInfo = Schema.Struct({
  id: Schema.String,
  createdAt: Timestamp,
  lastUsedAt: Timestamp,
  expiresAt: Timestamp,
  userAgent: Schema.NullOr(Schema.String),
  current: Schema.Boolean
}).annotate({ identifier: "Session", description: "A login session (one refresh-token family)." })

const RotateResult = Schema.Union([
  Schema.Struct({ ok: Schema.Literal(true), userId: Schema.String, email: Schema.String }),
  Schema.Struct({ ok: Schema.Literal(false), reason: Schema.String })
])

const isLive = (state: SessionState) => state.userId !== null && state.revokedAt === null && Date.parse(state.expiresAt) > Date.now()

export const Session = Actor<SessionState>()({
  kind: "session",
  state: SessionState,
  initial: () => ({
    userId: null,
    email: "",
    tokenHash: "",
    createdAt: "",
    lastUsedAt: "",
    expiresAt: "",
    revokedAt: null,
    revokedReason: null,
    userAgent: null
  }),
  messages: {
    open: {
      payload: Schema.Struct({
        userId: Schema.String,
        email: Schema.String,
        tokenHash: Schema.String,
        expiresAt: Schema.String,
        userAgent: Schema.NullOr(Schema.String)
      }),
      success: Schema.Void,
      error: SessionExists
    },
    /** Exchanges the presented token for the next one; a stale token revokes the family. */
    rotate: {
      payload: Schema.Struct({ tokenHash: Schema.String, nextTokenHash: Schema.String, nextExpiresAt: Schema.String }),
      success: RotateResult,
      error: Schema.Never
    },
    /** Whether access tokens minted in this session are still honoured. */
    check: { payload: Schema.Struct({}), success: Schema.Boolean, error: Schema.Never },
    info: {
      payload: Schema.Struct({ current: Schema.Boolean }),
      success: SessionInfo.mapFields(({ id: _id, ...rest }) => rest),
      error: Schema.Never
    },
    revoke: { payload: Schema.Struct({ userId: Schema.String, reason: Schema.String }), success: Schema.Void, error: SessionNotFound }
  },
  readOnly: ["check"],
  handlers: {
    open: (payload, ctx) =>
      Effect.gen(function* () {
        if (ctx.state.userId !== null) return yield* new SessionExists()
        const at = now()
        ctx.setState({ ...ctx.state, ...payload, createdAt: at, lastUsedAt: at })
      }),
    rotate: ({ tokenHash, nextTokenHash, nextExpiresAt }, ctx) =>
      Effect.sync(() => {
        const state = ctx.state
        if (!isLive(state)) return { ok: false as const, reason: "Session expired or revoked" }
        if (state.tokenHash !== tokenHash) {
          ctx.setState({ ...state, revokedAt: now(), revokedReason: "refresh token reuse" })
          return { ok: false as const, reason: "Refresh token reuse detected; the session is revoked" }
        }
        ctx.setState({ ...state, tokenHash: nextTokenHash, expiresAt: nextExpiresAt, lastUsedAt: now() })
        return { ok: true as const, userId: state.userId!, email: state.email }
      }),
    check: (_, ctx) => Effect.succeed(isLive(ctx.state)),
    info: ({ current }, ctx) =>
      Effect.sync(() => ({
        createdAt: ctx.state.createdAt,
        lastUsedAt: ctx.state.lastUsedAt,
        expiresAt: ctx.state.expiresAt,
        userAgent: ctx.state.userAgent,
        current
      })),
    revoke: ({ userId, reason }, ctx) =>
      Effect.gen(function* () {
        if (ctx.state.userId !== userId) return yield* new SessionNotFound()
        if (ctx.state.revokedAt === null) ctx.setState({ ...ctx.state, revokedAt: now(), revokedReason: reason })
      })
  }
})
