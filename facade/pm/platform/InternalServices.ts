/**
 * pm tags "Internal User Resource" (2), "Internal Api Key Resource" (1) and
 * "Internal Quota Resource" (4): for other services of the platform, with an
 * internal key. Users looked up and provisioned, API keys introspected,
 * workspace quotas set, read with their usage, and checked before creating.
 */
import { randomBytes } from "node:crypto"
import { Effect, Schema } from "effect"
import { Account, User } from "../../../actors/identity/Account.ts"
import { ApiKey, hashKey, isApiKey } from "../../../actors/identity/ApiKey.ts"
import { apiKeyIdByHash, usersByEmails } from "../../../actors/identity/IdentityQueries.ts"
import { UserStanding } from "../../../actors/identity/UserStanding.ts"
import { Workspace } from "../../../actors/identity/Workspace.ts"
import { Email, Name, normalizeEmail, Timestamp } from "../../../actors/Fields.ts"
import { fits, Limit, QuotaLimits, QuotaResource, WorkspaceQuota } from "../../../actors/platform/Quotas.ts"
import { ActorSystem } from "../../../runtime/ActorSystem.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { tagGroup } from "../../Operation.ts"
import { asService, audited, INTERNAL_NOTE, WorkspaceIdParams } from "./Shared.ts"
import { existingWorkspace, usageOfWorkspace, WorkspaceUsage } from "./WorkspaceInspection.ts"
import { internalUserResourceExamples, internalApiKeyResourceExamples, internalQuotaResourceExamples } from "./InternalServices.examples.ts"

/** The user with this e-mail, registering one (with an unusable random password) when there is none. */
export const provisionUser = (email: string, name: string) =>
  Effect.gen(function* () {
    const normalized = normalizeEmail(email)
    const existing = (yield* Effect.orDie(usersByEmails([normalized]))).get(normalized)
    if (existing !== undefined) return { user: existing, created: false }
    const user = yield* Account.client(yield* ActorSystem)(normalized).register({ name, password: randomBytes(32).toString("base64url") })
    return { user, created: true }
  })

const QuotaReport = Schema.Struct({
  workspaceId: Schema.String,
  limits: QuotaLimits,
  usage: WorkspaceUsage,
  updatedAt: Schema.NullOr(Timestamp),
  updatedBy: Schema.NullOr(Schema.String)
}).annotate({ identifier: "QuotaReport" })

const quotaReport = (workspaceId: string) =>
  Effect.gen(function* () {
    const ws = yield* existingWorkspace(workspaceId)
    const quota = yield* WorkspaceQuota.client(yield* ActorSystem)(workspaceId).get({})
    return { workspaceId, ...quota, usage: yield* usageOfWorkspace(workspaceId, ws.members.length) }
  })

const usedOf = (usage: typeof WorkspaceUsage.Type, resource: typeof QuotaResource.Type) =>
  resource === "members" ? usage.members : resource === "tasks" ? usage.tasks : usage.storageBytes

const internalUserResourceTag = tagGroup("pm", "Internal User Resource", internalUserResourceExamples)
const internalApiKeyResourceTag = tagGroup("pm", "Internal Api Key Resource", internalApiKeyResourceExamples)
const internalQuotaResourceTag = tagGroup("pm", "Internal Quota Resource", internalQuotaResourceExamples)

export const internalServiceOperations = [
  internalUserResourceTag.operation({
    operationId: "findInternalUser",
    method: "GET",
    path: "/v1/internal/users",
    summary: "Look up a user by e-mail",
    description: INTERNAL_NOTE,
    auth: "public",
    scopes: [],
    query: Schema.Struct({ email: Email }),
    responses: { 200: { description: "The user", schema: User }, 404: { description: "No user with this e-mail" } },
    handler: ({ query }, context) =>
      Effect.gen(function* () {
        yield* asService(context)
        const user = (yield* Effect.orDie(usersByEmails([normalizeEmail(query.email)]))).get(normalizeEmail(query.email))
        return user ?? (yield* reject("not_found", "No user with this e-mail"))
      })
  }),
  internalUserResourceTag.operation({
    operationId: "provisionInternalUser",
    method: "POST",
    path: "/v1/internal/users",
    summary: "Provision a user by e-mail (idempotent: an existing user is returned as is)",
    description: `${INTERNAL_NOTE} A new account gets an unusable random password: the user signs in through SSO or resets it.`,
    auth: "public",
    scopes: [],
    body: Schema.Struct({ email: Email, name: Name() }),
    responses: {
      200: { description: "The user, and whether it was created", schema: Schema.Struct({ user: User, created: Schema.Boolean }) }
    },
    handler: ({ body }, context) =>
      Effect.gen(function* () {
        const caller = yield* asService(context)
        const result = yield* provisionUser(body.email, body.name)
        if (result.created)
          yield* audited({ actor: caller.actor, action: "user.provisioned", targetType: "user", targetId: result.user.id })
        return result
      })
  }),
  internalApiKeyResourceTag.operation({
    operationId: "introspectInternalApiKey",
    method: "POST",
    path: "/v1/internal/api-keys/introspect",
    summary: "Tell whether an API key is live, and for which workspace, user and scopes",
    description: `${INTERNAL_NOTE} An unknown, malformed or revoked key, or one whose creator is deactivated or whose workspace is deleted, answers \`active: false\` (never 404), as token introspection does.`,
    auth: "public",
    scopes: [],
    body: Schema.Struct({ key: Schema.String.check(Schema.isMaxLength(500)) }),
    responses: {
      200: {
        description: "The key's standing",
        schema: Schema.Struct({
          active: Schema.Boolean,
          keyId: Schema.NullOr(Schema.String),
          workspaceId: Schema.NullOr(Schema.String),
          userId: Schema.NullOr(Schema.String),
          scopes: Schema.Array(Schema.String),
          workspaceSuspended: Schema.Boolean
        })
      }
    },
    handler: ({ body }, context) =>
      Effect.gen(function* () {
        yield* asService(context)
        const inactive = { active: false, keyId: null, workspaceId: null, userId: null, scopes: [], workspaceSuspended: false }
        if (!isApiKey(body.key)) return inactive
        const hash = hashKey(body.key)
        const keyId = yield* Effect.orDie(apiKeyIdByHash(hash))
        if (keyId === undefined) return inactive
        const actors = yield* ActorSystem
        const view = yield* ApiKey.client(actors)(keyId).resolve({ hash }).pipe(Effect.option)
        if (view._tag === "None") return inactive
        const ws = yield* Workspace.client(actors)(view.value.workspaceId).inspect({}).pipe(Effect.option)
        const ownerActive = yield* UserStanding.client(actors)(view.value.createdBy).active({})
        return {
          active: ws._tag === "Some" && ws.value.exists && ownerActive,
          keyId: view.value.id,
          workspaceId: view.value.workspaceId,
          userId: view.value.createdBy,
          scopes: view.value.scopes,
          workspaceSuspended: ws._tag === "Some" && ws.value.suspension !== null
        }
      })
  }),
  internalQuotaResourceTag.operation({
    operationId: "getInternalQuota",
    method: "GET",
    path: "/v1/internal/workspaces/{workspaceId}/quota",
    summary: "A workspace's quota with what it uses",
    description: INTERNAL_NOTE,
    auth: "public",
    scopes: [],
    params: WorkspaceIdParams,
    responses: { 200: { description: "Quota and usage", schema: QuotaReport }, 404: { description: "No such workspace" } },
    handler: ({ params }, context) => Effect.flatMap(asService(context), () => quotaReport(params.workspaceId))
  }),
  internalQuotaResourceTag.operation({
    operationId: "setInternalQuota",
    method: "PATCH",
    path: "/v1/internal/workspaces/{workspaceId}/quota",
    summary: "Set a workspace's limits (members, tasks, stored bytes); null lifts one, left out keeps it",
    description: `${INTERNAL_NOTE} A member limit below the members there are is refused (409); adding members beyond it is refused too.`,
    auth: "public",
    scopes: [],
    params: WorkspaceIdParams,
    body: Schema.Struct({ members: Schema.optionalKey(Limit), tasks: Schema.optionalKey(Limit), storageBytes: Schema.optionalKey(Limit) }),
    responses: { 200: { description: "Quota and usage", schema: QuotaReport }, 404: { description: "No such workspace" } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* asService(context)
        const ws = yield* existingWorkspace(params.workspaceId)
        const actors = yield* ActorSystem
        if (body.members !== undefined && body.members !== null && body.members < ws.members.length)
          return yield* reject("conflict", `The workspace has ${ws.members.length} members already`, [
            { path: "body.members", message: `at least ${ws.members.length}` }
          ])
        yield* WorkspaceQuota.client(actors)(params.workspaceId).set({ by: caller.actor, ...body })
        if (body.members !== undefined) yield* Workspace.client(actors)(params.workspaceId).setLimits({ quota: body.members })
        yield* audited({
          actor: caller.actor,
          action: "quota.set",
          targetType: "workspace",
          targetId: params.workspaceId,
          workspaceId: params.workspaceId,
          data: body
        })
        return yield* quotaReport(params.workspaceId)
      })
  }),
  internalQuotaResourceTag.operation({
    operationId: "resetInternalQuota",
    method: "DELETE",
    path: "/v1/internal/workspaces/{workspaceId}/quota",
    summary: "Lift every limit of a workspace's quota",
    description: INTERNAL_NOTE,
    auth: "public",
    scopes: [],
    params: WorkspaceIdParams,
    responses: { 200: { description: "Quota and usage", schema: QuotaReport }, 404: { description: "No such workspace" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* asService(context)
        yield* existingWorkspace(params.workspaceId)
        const actors = yield* ActorSystem
        yield* WorkspaceQuota.client(actors)(params.workspaceId).reset({ by: caller.actor })
        yield* Workspace.client(actors)(params.workspaceId).setLimits({ quota: null })
        yield* audited({
          actor: caller.actor,
          action: "quota.reset",
          targetType: "workspace",
          targetId: params.workspaceId,
          workspaceId: params.workspaceId
        })
        return yield* quotaReport(params.workspaceId)
      })
  }),
  internalQuotaResourceTag.operation({
    operationId: "checkInternalQuota",
    method: "POST",
    path: "/v1/internal/workspaces/{workspaceId}/quota/check",
    summary: "Whether the workspace may create `amount` more of a resource (members, tasks, stored bytes)",
    description: INTERNAL_NOTE,
    auth: "public",
    scopes: [],
    params: WorkspaceIdParams,
    body: Schema.Struct({
      resource: QuotaResource,
      amount: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 1_000_000_000_000 }))
    }),
    responses: {
      200: {
        description: "The answer",
        schema: Schema.Struct({
          allowed: Schema.Boolean,
          resource: QuotaResource,
          limit: Schema.NullOr(Schema.Number),
          used: Schema.Number,
          remaining: Schema.NullOr(Schema.Number)
        })
      },
      404: { description: "No such workspace" }
    },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        yield* asService(context)
        const report = yield* quotaReport(params.workspaceId)
        const limit = report.limits[body.resource]
        const used = usedOf(report.usage, body.resource)
        return {
          allowed: fits(limit, used, body.amount),
          resource: body.resource,
          limit,
          used,
          remaining: limit === null ? null : Math.max(0, limit - used)
        }
      })
  })
]
