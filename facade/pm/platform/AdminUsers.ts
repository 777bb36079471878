/**
 * pm tag "Admin - Users" (4): the platform operator searches accounts,
 * inspects one (workspaces, sessions, standing), deactivates or reactivates
 * it (deactivation ends every session at once) and resets its password.
 */
import { randomBytes } from "node:crypto"
import { Effect, Schema } from "effect"
import { Account, Password, User } from "../../../actors/identity/Account.ts"
import { type AccountSummary, accountEmailOf, searchUsers, sessionIdsOf, workspacesOf } from "../../../actors/identity/IdentityQueries.ts"
import { Session } from "../../../actors/identity/Session.ts"
import { UserStanding } from "../../../actors/identity/UserStanding.ts"
import { Role } from "../../../actors/identity/Workspace.ts"
import { Id, Timestamp } from "../../../actors/Fields.ts"
import { ActorSystem } from "../../../runtime/ActorSystem.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { tagGroup } from "../../Operation.ts"
import { asOperator, audited, OPERATOR_NOTE, Paging, UserIdParams } from "./Shared.ts"
import { adminUsersExamples } from "./AdminUsers.examples.ts"

const AdminUser = Schema.Struct({
  id: Id,
  email: Schema.String,
  name: Schema.String,
  createdAt: Timestamp,
  deactivatedAt: Schema.NullOr(Timestamp)
}).annotate({ identifier: "AdminUser" })

const AdminUserDetail = Schema.Struct({
  user: User,
  deactivatedAt: Schema.NullOr(Timestamp),
  deactivatedReason: Schema.NullOr(Schema.String),
  liveSessions: Schema.Number,
  workspaces: Schema.Array(Schema.Struct({ id: Id, name: Schema.String, role: Role, owner: Schema.Boolean }))
}).annotate({ identifier: "AdminUserDetail" })

/** The account actor of a user id (accounts are addressed by e-mail). */
const emailOf = (userId: string) =>
  Effect.flatMap(Effect.orDie(accountEmailOf(userId)), (email) =>
    email === undefined ? Effect.fail(reject("not_found", "No such user")) : Effect.succeed(email)
  )

/** Ends every live session of the user; returns how many. */
export const endSessions = (userId: string, reason: string) =>
  Effect.gen(function* () {
    const actors = yield* ActorSystem
    const sessionIds = yield* Effect.orDie(sessionIdsOf(userId))
    yield* Effect.forEach(sessionIds, (id) => Session.client(actors)(id).revoke({ userId, reason }), { concurrency: 8, discard: true })
    return sessionIds.length
  })

const detailOf = (userId: string) =>
  Effect.gen(function* () {
    const email = yield* emailOf(userId)
    const status = yield* Account.client(yield* ActorSystem)(email).status({})
    const workspaces = yield* Effect.orDie(workspacesOf(userId))
    const liveSessions = (yield* Effect.orDie(sessionIdsOf(userId))).length
    return {
      ...status,
      liveSessions,
      workspaces: workspaces.map((ws) => ({
        id: ws.id,
        name: ws.name,
        role: ws.members.find((m) => m.userId === userId)!.role,
        owner: ws.ownerId === userId
      }))
    }
  })

const { operation } = tagGroup("pm", "Admin - Users", adminUsersExamples)

export const adminUsersOperations = [
  operation({
    operationId: "searchPlatformUsers",
    method: "GET",
    path: "/v1/admin/users",
    summary: "Search every account by e-mail, name or id",
    description: OPERATOR_NOTE,
    auth: "jwt",
    scopes: [],
    query: Schema.Struct({
      q: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(200))),
      status: Schema.optionalKey(Schema.Literals(["active", "deactivated"])),
      ...Paging
    }),
    responses: {
      200: {
        description: "Accounts, newest first",
        schema: Schema.Struct({ items: Schema.Array(AdminUser), limit: Schema.Number, offset: Schema.Number })
      }
    },
    handler: ({ query }, context) =>
      Effect.gen(function* () {
        yield* asOperator(context)
        const limit = query.limit ?? 50
        const offset = query.offset ?? 0
        const deactivated = query.status === undefined ? null : query.status === "deactivated"
        const items = yield* Effect.orDie(searchUsers(query.q ?? "", deactivated, limit, offset))
        return { items: items.map((item: typeof AccountSummary.Type) => item), limit, offset }
      })
  }),
  operation({
    operationId: "getPlatformUser",
    method: "GET",
    path: "/v1/admin/users/{userId}",
    summary: "Inspect an account: standing, live sessions and workspaces",
    description: OPERATOR_NOTE,
    auth: "jwt",
    scopes: [],
    params: UserIdParams,
    responses: { 200: { description: "The account", schema: AdminUserDetail }, 404: { description: "No such user" } },
    handler: ({ params }, context) => Effect.flatMap(asOperator(context), () => detailOf(params.userId))
  }),
  operation({
    operationId: "setPlatformUserStatus",
    method: "PUT",
    path: "/v1/admin/users/{userId}/status",
    summary: "Deactivate an account (no more logins, every session ended) or reactivate it",
    description: `${OPERATOR_NOTE} A platform admin cannot deactivate their own account.`,
    auth: "jwt",
    scopes: [],
    params: UserIdParams,
    body: Schema.Struct({ active: Schema.Boolean, reason: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(500))) }),
    responses: {
      200: {
        description: "The account after the change",
        schema: Schema.Struct({ ...AdminUserDetail.fields, sessionsEnded: Schema.Number })
      },
      404: { description: "No such user" }
    },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const operator = yield* asOperator(context)
        if (!body.active && operator.userId === params.userId)
          return yield* reject("conflict", "You cannot deactivate your own account", [{ path: "body.active", message: "own account" }])
        const email = yield* emailOf(params.userId)
        const actors = yield* ActorSystem
        let sessionsEnded = 0
        if (body.active) {
          yield* Account.client(actors)(email).reactivate({})
          yield* UserStanding.client(actors)(params.userId).set({ deactivatedAt: null })
        } else {
          const { deactivatedAt } = yield* Account.client(actors)(email).deactivate({
            reason: body.reason ?? "Deactivated by the platform operator"
          })
          yield* UserStanding.client(actors)(params.userId).set({ deactivatedAt })
          sessionsEnded = yield* endSessions(params.userId, "deactivated")
        }
        yield* audited({
          actor: operator.actor,
          action: body.active ? "user.reactivated" : "user.deactivated",
          targetType: "user",
          targetId: params.userId,
          data: { reason: body.reason ?? null, sessionsEnded }
        })
        return { ...(yield* detailOf(params.userId)), sessionsEnded }
      })
  }),
  operation({
    operationId: "resetPlatformUserPassword",
    method: "POST",
    path: "/v1/admin/users/{userId}/password-reset",
    summary: "Reset an account's password and end its sessions",
    description: `${OPERATOR_NOTE} Without \`password\` a random temporary one is generated and shown once in the reply; a lockout is lifted.`,
    auth: "jwt",
    scopes: [],
    params: UserIdParams,
    body: Schema.Struct({ password: Schema.optionalKey(Password) }),
    responses: {
      200: {
        description: "Reset",
        schema: Schema.Struct({ changedAt: Timestamp, temporaryPassword: Schema.NullOr(Schema.String), sessionsEnded: Schema.Number })
      },
      404: { description: "No such user" }
    },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const operator = yield* asOperator(context)
        const email = yield* emailOf(params.userId)
        const temporaryPassword = body.password === undefined ? `tmp-${randomBytes(18).toString("base64url")}` : null
        const { changedAt } = yield* Account.client(yield* ActorSystem)(email).setPassword({
          password: body.password ?? temporaryPassword!
        })
        const sessionsEnded = yield* endSessions(params.userId, "password-reset")
        yield* audited({
          actor: operator.actor,
          action: "user.password_reset",
          targetType: "user",
          targetId: params.userId,
          data: { sessionsEnded }
        })
        return { changedAt, temporaryPassword, sessionsEnded }
      })
  })
]
