/**
 * A workspace's single sign-on (one persisted actor per workspace): the
 * OpenID Connect provider (issuer, client), the e-mail domains that sign in
 * through it, whether password login is refused for them, the role given to
 * members created just in time, and the recent sign-ins.
 */
import { Effect, Schema } from "effect"
import { Actor } from "../../runtime/Actor.ts"
import { SsoCannotEnforce, SsoDomainListed, SsoDomainNotFound, SsoNotConfigured } from "./SsoErrors.ts"
import { AssignableRole } from "../identity/Workspace.ts"
import { Timestamp, now } from "../Fields.ts"

export const Domain = Schema.String.check(
  Schema.isMaxLength(253),
  Schema.isPattern(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, {
    expected: "a lower-case domain name such as corp.example"
  })
).annotate({ description: "An e-mail domain, lower case (corp.example)" })

export const SsoLogin = Schema.Struct({
  at: Timestamp,
  email: Schema.String,
  userId: Schema.NullOr(Schema.String),
  outcome: Schema.Literals(["signed_in", "joined", "refused"]),
  detail: Schema.NullOr(Schema.String)
}).annotate({ identifier: "SsoLogin" })
export type SsoLogin = typeof SsoLogin.Type

const SsoState = Schema.Struct({
  configured: Schema.Boolean,
  enabled: Schema.Boolean,
  issuer: Schema.String,
  clientId: Schema.String,
  clientSecret: Schema.String,
  scopes: Schema.Array(Schema.String),
  defaultRole: AssignableRole,
  jitProvisioning: Schema.Boolean,
  domains: Schema.Array(Schema.String),
  enforced: Schema.Boolean,
  createdAt: Schema.String,
  updatedAt: Schema.String,
  logins: Schema.Array(SsoLogin)
})
export type SsoState = typeof SsoState.Type

/** What admins see: never the client secret, only whether one is set. */
export const SsoView = Schema.Struct({
  enabled: Schema.Boolean,
  issuer: Schema.String,
  clientId: Schema.String,
  clientSecretSet: Schema.Boolean,
  scopes: Schema.Array(Schema.String),
  defaultRole: AssignableRole,
  jitProvisioning: Schema.Boolean,
  domains: Schema.Array(Schema.String),
  enforced: Schema.Boolean,
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotate({ identifier: "WorkspaceSso" })
export type SsoView = typeof SsoView.Type

/** What the login flow needs, secret included (never leaves the process in a reply). */
export const SsoSettings = Schema.Struct({
  enabled: Schema.Boolean,
  issuer: Schema.String,
  clientId: Schema.String,
  clientSecret: Schema.String,
  scopes: Schema.Array(Schema.String),
  defaultRole: AssignableRole,
  jitProvisioning: Schema.Boolean,
  domains: Schema.Array(Schema.String),
  enforced: Schema.Boolean
})
export type SsoSettings = typeof SsoSettings.Type

const LOGINS_KEPT = 200

const Settable = {
  enabled: Schema.optionalKey(Schema.Boolean),
  issuer: Schema.optionalKey(Schema.String),
  clientId: Schema.optionalKey(Schema.String),
  clientSecret: Schema.optionalKey(Schema.String),
  scopes: Schema.optionalKey(Schema.Array(Schema.String)),
  defaultRole: Schema.optionalKey(AssignableRole),
  jitProvisioning: Schema.optionalKey(Schema.Boolean)
}

const viewOf = (state: SsoState): SsoView => ({
  enabled: state.enabled,
  issuer: state.issuer,
  clientId: state.clientId,
  clientSecretSet: state.clientSecret !== "",
  scopes: state.scopes,
  defaultRole: state.defaultRole,
  jitProvisioning: state.jitProvisioning,
  domains: state.domains,
  enforced: state.enforced,
  createdAt: state.createdAt,
  updatedAt: state.updatedAt
})

const configured = (state: SsoState) => (state.configured ? Effect.succeed(state) : Effect.fail(new SsoNotConfigured()))

const initial = (): SsoState => ({
  configured: false,
  enabled: false,
  issuer: "",
  clientId: "",
  clientSecret: "",
  scopes: [],
  defaultRole: "member",
  jitProvisioning: true,
  domains: [],
  enforced: false,
  createdAt: "",
  updatedAt: "",
  logins: []
})

export const WorkspaceSso = Actor<SsoState>()({
  kind: "workspaceSso",
  state: SsoState,
  initial,
  messages: {
    view: { payload: Schema.Struct({}), success: SsoView, error: SsoNotConfigured },
    settings: { payload: Schema.Struct({}), success: SsoSettings, error: SsoNotConfigured },
    /** Creates or replaces the provider settings (domains and enforcement are kept). */
    configure: {
      payload: Schema.Struct({
        enabled: Schema.Boolean,
        issuer: Schema.String,
        clientId: Schema.String,
        clientSecret: Schema.String,
        scopes: Schema.Array(Schema.String),
        defaultRole: AssignableRole,
        jitProvisioning: Schema.Boolean
      }),
      success: SsoView,
      error: Schema.Never
    },
    update: { payload: Schema.Struct(Settable), success: SsoView, error: SsoNotConfigured },
    remove: { payload: Schema.Struct({}), success: Schema.Void, error: SsoNotConfigured },
    addDomain: {
      payload: Schema.Struct({ domain: Schema.String }),
      success: SsoView,
      error: Schema.Union([SsoNotConfigured, SsoDomainListed])
    },
    removeDomain: {
      payload: Schema.Struct({ domain: Schema.String }),
      success: SsoView,
      error: Schema.Union([SsoNotConfigured, SsoDomainNotFound])
    },
    setEnforced: {
      payload: Schema.Struct({ enforced: Schema.Boolean }),
      success: SsoView,
      error: Schema.Union([SsoNotConfigured, SsoCannotEnforce])
    },
    recordLogin: { payload: SsoLogin, success: Schema.Void, error: Schema.Never },
    logins: { payload: Schema.Struct({}), success: Schema.Array(SsoLogin), error: SsoNotConfigured }
  },
  handlers: {
    view: (_, ctx) => Effect.map(configured(ctx.state), viewOf),
    settings: (_, ctx) =>
      Effect.map(configured(ctx.state), ({ configured: _c, createdAt: _a, updatedAt: _u, logins: _l, ...settings }) => settings),
    configure: (input, ctx) =>
      Effect.sync(() => {
        const at = now()
        const next: SsoState = { ...ctx.state, ...input, configured: true, createdAt: ctx.state.createdAt || at, updatedAt: at }
        ctx.setState(next)
        return viewOf(next)
      }),
    update: (patch, ctx) =>
      Effect.gen(function* () {
        const state = yield* configured(ctx.state)
        const next = { ...state, ...patch, updatedAt: now() }
        ctx.setState(next)
        return viewOf(next)
      }),
    remove: (_, ctx) =>
      Effect.gen(function* () {
        yield* configured(ctx.state)
        ctx.setState(initial())
      }),
    addDomain: ({ domain }, ctx) =>
      Effect.gen(function* () {
        const state = yield* configured(ctx.state)
        if (state.domains.includes(domain)) return yield* new SsoDomainListed()
        const next = { ...state, domains: [...state.domains, domain].sort(), updatedAt: now() }
        ctx.setState(next)
        return viewOf(next)
      }),
    removeDomain: ({ domain }, ctx) =>
      Effect.gen(function* () {
        const state = yield* configured(ctx.state)
        if (!state.domains.includes(domain)) return yield* new SsoDomainNotFound()
        const domains = state.domains.filter((d) => d !== domain)
        const next = { ...state, domains, enforced: state.enforced && domains.length > 0, updatedAt: now() }
        ctx.setState(next)
        return viewOf(next)
      }),
    setEnforced: ({ enforced }, ctx) =>
      Effect.gen(function* () {
        const state = yield* configured(ctx.state)
        if (enforced && (state.domains.length === 0 || !state.enabled)) return yield* new SsoCannotEnforce()
        const next = { ...state, enforced, updatedAt: now() }
        ctx.setState(next)
        return viewOf(next)
      }),
    recordLogin: (login, ctx) =>
      Effect.sync(() => {
        if (ctx.state.configured) ctx.setState({ ...ctx.state, logins: [...ctx.state.logins, login].slice(-LOGINS_KEPT) })
      }),
    logins: (_, ctx) => Effect.map(configured(ctx.state), (state) => [...state.logins].reverse())
  }
})
