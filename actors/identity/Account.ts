/**
 * An Account is a user's credentials and profile, addressed by the normalized
 * e-mail: registration and login for one address are serialized by the actor,
 * so two concurrent sign-ups with one e-mail cannot both succeed, and failed
 * logins are counted (and locked out) in memory without a database round trip.
 */
import { randomUUID } from "node:crypto"
import { Effect, Schema } from "effect"
import { Actor } from "../../runtime/Actor.ts"
import { Email, Id, Name, Timestamp, now } from "../Fields.ts"
import { AccountDeactivated, EmailTaken, InvalidCredentials, LoginLocked, UserNotFound, WrongPassword } from "./IdentityErrors.ts"
import { hashPassword, verifyPassword } from "./Password.ts"

export const User = Schema.Struct({
  id: Id,
  email: Email,
  name: Schema.String,
  createdAt: Timestamp
}).annotate({ identifier: "User", description: "A user of the platform, shared by all four services." })
export type User = typeof User.Type

export const Password = Schema.String.check(Schema.isMinLength(8), Schema.isMaxLength(200)).annotate({
  description: "At least 8 characters.",
  format: "password"
})

const AccountState = Schema.Struct({
  userId: Schema.NullOr(Schema.String),
  email: Schema.String,
  name: Schema.String,
  passwordHash: Schema.String,
  createdAt: Schema.String,
  updatedAt: Schema.String,
  failedLogins: Schema.Number,
  lockedUntil: Schema.NullOr(Schema.String),
  /** Set while a platform operator has deactivated the account: it cannot log in. */
  deactivatedAt: Schema.optionalKey(Schema.String),
  deactivatedReason: Schema.optionalKey(Schema.String),
  /** When the owner proved the address (a mailed token); absent until then. */
  emailVerifiedAt: Schema.optionalKey(Schema.String)
})
type AccountState = typeof AccountState.Type

const MAX_FAILED_LOGINS = 10
const LOCKOUT_MILLIS = 5 * 60_000

const toUser = (state: AccountState): User => ({
  id: state.userId!,
  email: state.email,
  name: state.name,
  createdAt: state.createdAt
})

const requireAccount = (state: AccountState) => (state.userId === null ? Effect.fail(new UserNotFound()) : Effect.succeed(state))

const Missing = UserNotFound

export const Account = Actor<AccountState>()({
  kind: "account",
  state: AccountState,
  initial: (email) => ({
    userId: null,
    email,
    name: "",
    passwordHash: "",
    createdAt: "",
    updatedAt: "",
    failedLogins: 0,
    lockedUntil: null
  }),
  messages: {
    register: { payload: Schema.Struct({ name: Name(), password: Password }), success: User, error: EmailTaken },
    authenticate: {
      payload: Schema.Struct({ password: Schema.String }),
      success: User,
      error: Schema.Union([InvalidCredentials, AccountDeactivated, LoginLocked])
    },
    changePassword: {
      payload: Schema.Struct({ currentPassword: Schema.String, newPassword: Password }),
      success: Schema.Struct({ changedAt: Timestamp }),
      error: Schema.Union([UserNotFound, WrongPassword])
    },
    profile: { payload: Schema.Struct({}), success: User, error: Missing },
    rename: { payload: Schema.Struct({ name: Name() }), success: User, error: Missing },
    /** The account's standing for the platform operator. */
    status: {
      payload: Schema.Struct({}),
      success: Schema.Struct({ user: User, deactivatedAt: Schema.NullOr(Timestamp), deactivatedReason: Schema.NullOr(Schema.String) }),
      error: Missing
    },
    /** Operator: no more logins until reactivated (the caller revokes the live sessions). */
    deactivate: { payload: Schema.Struct({ reason: Schema.String }), success: Schema.Struct({ deactivatedAt: Timestamp }), error: Missing },
    reactivate: { payload: Schema.Struct({}), success: User, error: Missing },
    /** Replaces the password without knowing the old one (an operator's reset, or a mailed reset token was checked), and lifts a lockout. */
    setPassword: { payload: Schema.Struct({ password: Password }), success: Schema.Struct({ changedAt: Timestamp }), error: Missing },
    /** Marks the address as verified (the caller checked the mailed token). */
    verifyEmail: { payload: Schema.Struct({}), success: Schema.Struct({ emailVerifiedAt: Timestamp }), error: Missing },
    verification: { payload: Schema.Struct({}), success: Schema.Struct({ emailVerifiedAt: Schema.NullOr(Timestamp) }), error: Missing }
  },
  handlers: {
    register: ({ name, password }, ctx) =>
      Effect.gen(function* () {
        if (ctx.state.userId !== null) return yield* new EmailTaken()
        const passwordHash = yield* hashPassword(password)
        const at = now()
        const next = { ...ctx.state, userId: randomUUID(), name: name.trim(), passwordHash, createdAt: at, updatedAt: at }
        ctx.setState(next)
        return toUser(next)
      }),
    authenticate: ({ password }, ctx) =>
      Effect.gen(function* () {
        const state = ctx.state
        if (state.userId === null) return yield* new InvalidCredentials()
        if (state.deactivatedAt !== undefined) return yield* new AccountDeactivated()
        if (state.lockedUntil !== null && Date.parse(state.lockedUntil) > Date.now()) {
          return yield* new LoginLocked()
        }
        const ok = yield* verifyPassword(password, state.passwordHash)
        if (!ok) {
          const failedLogins = state.failedLogins + 1
          const locked = failedLogins >= MAX_FAILED_LOGINS
          ctx.setState({
            ...state,
            failedLogins: locked ? 0 : failedLogins,
            lockedUntil: locked ? new Date(Date.now() + LOCKOUT_MILLIS).toISOString() : state.lockedUntil
          })
          return yield* new InvalidCredentials()
        }
        if (state.failedLogins !== 0 || state.lockedUntil !== null) ctx.setState({ ...state, failedLogins: 0, lockedUntil: null })
        return toUser(state)
      }),
    changePassword: ({ currentPassword, newPassword }, ctx) =>
      Effect.gen(function* () {
        const state = yield* requireAccount(ctx.state)
        const ok = yield* verifyPassword(currentPassword, state.passwordHash)
        if (!ok) return yield* new WrongPassword()
        const at = now()
        ctx.setState({ ...state, passwordHash: yield* hashPassword(newPassword), updatedAt: at })
        return { changedAt: at }
      }),
    profile: (_, ctx) => Effect.map(requireAccount(ctx.state), toUser),
    status: (_, ctx) =>
      Effect.map(requireAccount(ctx.state), (state) => ({
        user: toUser(state),
        deactivatedAt: state.deactivatedAt ?? null,
        deactivatedReason: state.deactivatedReason ?? null
      })),
    deactivate: ({ reason }, ctx) =>
      Effect.gen(function* () {
        const state = yield* requireAccount(ctx.state)
        const at = state.deactivatedAt ?? now()
        ctx.setState({ ...state, deactivatedAt: at, deactivatedReason: reason, updatedAt: now() })
        return { deactivatedAt: at }
      }),
    reactivate: (_, ctx) =>
      Effect.gen(function* () {
        const { deactivatedAt: _at, deactivatedReason: _reason, ...state } = yield* requireAccount(ctx.state)
        ctx.setState({ ...state, updatedAt: now() })
        return toUser(state)
      }),
    setPassword: ({ password }, ctx) =>
      Effect.gen(function* () {
        const state = yield* requireAccount(ctx.state)
        const at = now()
        ctx.setState({ ...state, passwordHash: yield* hashPassword(password), failedLogins: 0, lockedUntil: null, updatedAt: at })
        return { changedAt: at }
      }),
    rename: ({ name }, ctx) =>
      Effect.gen(function* () {
        const state = yield* requireAccount(ctx.state)
        const next = { ...state, name: name.trim(), updatedAt: now() }
        ctx.setState(next)
        return toUser(next)
      }),
    verifyEmail: (_, ctx) =>
      Effect.gen(function* () {
        const state = yield* requireAccount(ctx.state)
        const emailVerifiedAt = state.emailVerifiedAt ?? now()
        if (state.emailVerifiedAt === undefined) ctx.setState({ ...state, emailVerifiedAt })
        return { emailVerifiedAt }
      }),
    verification: (_, ctx) => Effect.map(requireAccount(ctx.state), (state) => ({ emailVerifiedAt: state.emailVerifiedAt ?? null }))
  }
})
