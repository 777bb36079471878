/**
 * An API key: provisioned for exactly one workspace, limited to its scopes,
 * acting with its creator's membership. Only a SHA-256 of the key is kept;
 * the key itself is shown once, at creation (and at rotation).
 */
import { createHash, randomBytes } from "node:crypto"
import { Effect, Schema } from "effect"
import { Actor } from "../../runtime/Actor.ts"
import { Id, Name, Timestamp, now } from "../Fields.ts"
import { ApiKeyExists, ApiKeyNotFound, InvalidApiKey } from "./IdentityErrors.ts"

/** Every live key starts with this, so a leaked key is recognizable by scanners. */
export const LIVE_KEY_PREFIX = "atr_live_"

export const isApiKey = (token: string): boolean => token.startsWith(LIVE_KEY_PREFIX)

export const hashKey = (key: string): string => createHash("sha256").update(key).digest("base64url")

/** A fresh key and the part of it that may be displayed. */
export const mintKey = (): { readonly key: string; readonly prefix: string; readonly hash: string } => {
  const key = LIVE_KEY_PREFIX + randomBytes(24).toString("base64url")
  return { key, prefix: key.slice(0, LIVE_KEY_PREFIX.length + 6), hash: hashKey(key) }
}

export const ApiKeyView = Schema.Struct({
  id: Id,
  workspaceId: Id,
  name: Schema.String,
  prefix: Schema.String,
  scopes: Schema.Array(Schema.String),
  createdBy: Id,
  createdAt: Timestamp,
  lastRotatedAt: Schema.NullOr(Timestamp)
}).annotate({ identifier: "ApiKey", description: "An API key (the secret itself is shown only when created or rotated)." })
export type ApiKeyView = typeof ApiKeyView.Type

const ApiKeyState = Schema.Struct({
  id: Schema.String,
  exists: Schema.Boolean,
  workspaceId: Schema.String,
  name: Schema.String,
  prefix: Schema.String,
  hash: Schema.String,
  scopes: Schema.Array(Schema.String),
  createdBy: Schema.String,
  createdAt: Schema.String,
  lastRotatedAt: Schema.NullOr(Schema.String),
  revokedAt: Schema.NullOr(Schema.String)
})
type ApiKeyState = typeof ApiKeyState.Type

const live = (state: ApiKeyState) => (state.exists && state.revokedAt === null ? Effect.succeed(state) : Effect.fail(new ApiKeyNotFound()))

const view = (s: ApiKeyState): ApiKeyView => ({
  id: s.id,
  workspaceId: s.workspaceId,
  name: s.name,
  prefix: s.prefix,
  scopes: s.scopes,
  createdBy: s.createdBy,
  createdAt: s.createdAt,
  lastRotatedAt: s.lastRotatedAt
})

export const ApiKey = Actor<ApiKeyState>()({
  kind: "apiKey",
  state: ApiKeyState,
  initial: (id) => ({
    id,
    exists: false,
    workspaceId: "",
    name: "",
    prefix: "",
    hash: "",
    scopes: [],
    createdBy: "",
    createdAt: "",
    lastRotatedAt: null,
    revokedAt: null
  }),
  messages: {
    create: {
      payload: Schema.Struct({
        workspaceId: Schema.String,
        name: Name(100),
        scopes: Schema.Array(Schema.String),
        createdBy: Schema.String,
        prefix: Schema.String,
        hash: Schema.String
      }),
      success: ApiKeyView,
      error: ApiKeyExists
    },
    get: { payload: Schema.Struct({}), success: ApiKeyView, error: ApiKeyNotFound },
    /** Resolves a presented key: its hash must match the live one. */
    resolve: {
      payload: Schema.Struct({ hash: Schema.String }),
      success: ApiKeyView,
      error: Schema.Union([ApiKeyNotFound, InvalidApiKey])
    },
    update: {
      payload: Schema.Struct({ name: Schema.optionalKey(Name(100)), scopes: Schema.optionalKey(Schema.Array(Schema.String)) }),
      success: ApiKeyView,
      error: ApiKeyNotFound
    },
    rotate: { payload: Schema.Struct({ prefix: Schema.String, hash: Schema.String }), success: ApiKeyView, error: ApiKeyNotFound },
    revoke: { payload: Schema.Struct({}), success: Schema.Void, error: ApiKeyNotFound }
  },
  handlers: {
    create: (payload, ctx) =>
      Effect.gen(function* () {
        if (ctx.state.exists) return yield* new ApiKeyExists()
        const next: ApiKeyState = { ...ctx.state, ...payload, exists: true, name: payload.name.trim(), createdAt: now() }
        ctx.setState(next)
        return view(next)
      }),
    get: (_, ctx) => Effect.map(live(ctx.state), view),
    resolve: ({ hash }, ctx) =>
      Effect.gen(function* () {
        const state = yield* live(ctx.state)
        if (state.hash !== hash) return yield* new InvalidApiKey()
        return view(state)
      }),
    update: (patch, ctx) =>
      Effect.gen(function* () {
        const state = yield* live(ctx.state)
        const next = { ...state, ...patch, ...(patch.name ? { name: patch.name.trim() } : {}) }
        ctx.setState(next)
        return view(next)
      }),
    rotate: ({ prefix, hash }, ctx) =>
      Effect.gen(function* () {
        const state = yield* live(ctx.state)
        const next = { ...state, prefix, hash, lastRotatedAt: now() }
        ctx.setState(next)
        return view(next)
      }),
    revoke: (_, ctx) =>
      Effect.gen(function* () {
        const state = yield* live(ctx.state)
        ctx.setState({ ...state, revokedAt: now() })
      })
  }
})
