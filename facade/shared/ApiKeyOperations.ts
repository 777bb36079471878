/**
 * API-key management, offered by both the hub ("Api Key Resource", "Current
 * Api Key Resource") and pm ("Api Key Resource", "Api Key Current Resource").
 * One set of rules, declared here once per service. Managing keys is
 * JWT-only; a key can only describe itself.
 */
import { randomUUID } from "node:crypto"
import { Effect, Schema } from "effect"
import { ApiKey, ApiKeyView, mintKey } from "../../actors/identity/ApiKey.ts"
import { apiKeyIdsOfWorkspace } from "../../actors/identity/IdentityQueries.ts"
import { atLeast } from "../../actors/identity/Workspace.ts"
import { Id, Name } from "../../actors/Fields.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { reject } from "../../runtime/Rejection.ts"
import { userOf, workspaceRole } from "../Access.ts"
import { type AnyOperation, type RequestContext, type ServiceName, tagGroup } from "../Operation.ts"
import { isScope, scopes } from "../Scopes.ts"

const ScopeList = Schema.Array(Schema.String.check(Schema.isMaxLength(64)))
  .check(Schema.isMinLength(1), Schema.isMaxLength(32))
  .annotate({ description: `Scopes, from: ${Object.keys(scopes).join(", ")}` })

const CreatedApiKey = Schema.Struct({
  ...ApiKeyView.fields,
  key: Schema.String.annotate({ description: "The secret; shown only now" })
}).annotate({ identifier: "CreatedApiKey" })

const KeyParams = Schema.Struct({ keyId: Id })

const checkScopes = (requested: ReadonlyArray<string>) => {
  const unknown = requested.map((scope, index) => ({ scope, index })).filter(({ scope }) => !isScope(scope))
  return unknown.length === 0
    ? Effect.succeed([...new Set(requested)])
    : Effect.fail(
        reject(
          "invalid",
          `Unknown scope ${unknown[0]!.scope}`,
          unknown.map(({ scope, index }) => ({ path: `body.scopes.${index}`, message: `unknown scope ${scope}` }))
        )
      )
}

/** The key, if the caller may manage it: its creator, or an admin of its workspace. */
const manageable = (context: RequestContext, keyId: string) =>
  Effect.gen(function* () {
    const user = yield* userOf(context)
    const key = yield* ApiKey.client(yield* ActorSystem)(keyId).get({})
    const role = yield* workspaceRole(context, key.workspaceId).pipe(
      Effect.catchTag("Rejection", () => Effect.fail(reject("not_found", "No such API key")))
    )
    if (key.createdBy !== user.userId && !atLeast(role, "admin")) return yield* reject("not_found", "No such API key")
    return key
  })

const exampleKey = {
  id: "3c9a1f2e-7b6d-4e5f-9a0b-1c2d3e4f5a6b",
  workspaceId: "0b9e4c1a-6f0e-4d5f-9a77-3f7c2f1e8a10",
  name: "CI bot",
  prefix: "atr_live_Xy12ab",
  scopes: ["workspace-settings:read"],
  createdBy: "6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f",
  createdAt: "2026-11-21T12:00:00.000Z",
  lastRotatedAt: null
}

export interface ApiKeyOperationIds {
  readonly create: string
  readonly list: string
  readonly get: string
  readonly update: string
  readonly revoke: string
  readonly rotate?: string
  readonly current: string
}

export const apiKeyOperations = (
  service: ServiceName,
  tags: { readonly keys: string; readonly current: string },
  ids: ApiKeyOperationIds
): ReadonlyArray<AnyOperation> => {
  const keys = tagGroup(service, tags.keys)
  const current = tagGroup(service, tags.current)
  const base = { auth: "jwt", scopes: [] } as const
  const operations: Array<AnyOperation> = [
    keys.operation({
      ...base,
      operationId: ids.create,
      method: "POST",
      path: "/v1/api-keys",
      summary: "Create an API key for one workspace",
      description:
        "The key is shown only in this response; Atrium keeps a hash. It sees only this workspace and acts with the creator's role there.",
      body: Schema.Struct({ workspaceId: Id, name: Name(100), scopes: ScopeList }),
      responses: { 201: { description: "Created", schema: CreatedApiKey } },
      examples: [
        {
          name: "settings-reader",
          request: { body: { workspaceId: exampleKey.workspaceId, name: "CI bot", scopes: ["workspace-settings:read"] } },
          response: { status: 201, body: { ...exampleKey, key: "atr_live_Xy12ab…" } }
        }
      ],
      handler: ({ body }, context) =>
        Effect.gen(function* () {
          const user = yield* userOf(context)
          yield* workspaceRole(context, body.workspaceId, "member")
          const keyScopes = yield* checkScopes(body.scopes)
          const minted = mintKey()
          const view = yield* ApiKey.client(yield* ActorSystem)(randomUUID()).create({
            workspaceId: body.workspaceId,
            name: body.name,
            scopes: keyScopes,
            createdBy: user.userId,
            prefix: minted.prefix,
            hash: minted.hash
          })
          return { ...view, key: minted.key }
        })
    }),
    keys.operation({
      ...base,
      operationId: ids.list,
      method: "GET",
      path: "/v1/api-keys",
      summary: "List a workspace's API keys",
      description: "Admins see every key of the workspace; other members see their own.",
      query: Schema.Struct({ workspaceId: Id }),
      responses: { 200: { description: "Keys (secrets are never listed)", schema: Schema.Struct({ items: Schema.Array(ApiKeyView) }) } },
      examples: [
        {
          name: "list",
          request: { query: { workspaceId: exampleKey.workspaceId } },
          response: { status: 200, body: { items: [exampleKey] } }
        }
      ],
      handler: ({ query }, context) =>
        Effect.gen(function* () {
          const user = yield* userOf(context)
          const role = yield* workspaceRole(context, query.workspaceId)
          const actors = yield* ActorSystem
          const keyIds = yield* apiKeyIdsOfWorkspace(query.workspaceId).pipe(Effect.orDie)
          const keys = yield* Effect.forEach(keyIds, (id) => Effect.option(ApiKey.client(actors)(id).get({})), { concurrency: 8 })
          const items = keys.flatMap((key) => (key._tag === "Some" ? [key.value] : []))
          return { items: atLeast(role, "admin") ? items : items.filter((key) => key.createdBy === user.userId) }
        })
    }),
    keys.operation({
      ...base,
      operationId: ids.get,
      method: "GET",
      path: "/v1/api-keys/{keyId}",
      summary: "Get one API key",
      params: KeyParams,
      responses: { 200: { description: "The key", schema: ApiKeyView }, 404: { description: "No such key" } },
      examples: [{ name: "get", request: { params: { keyId: exampleKey.id } }, response: { status: 200, body: exampleKey } }],
      handler: ({ params }, context) => manageable(context, params.keyId)
    }),
    keys.operation({
      ...base,
      operationId: ids.update,
      method: "PATCH",
      path: "/v1/api-keys/{keyId}",
      summary: "Rename an API key or change its scopes",
      params: KeyParams,
      body: Schema.Struct({ name: Schema.optionalKey(Name(100)), scopes: Schema.optionalKey(ScopeList) }),
      responses: { 200: { description: "Updated", schema: ApiKeyView } },
      examples: [
        {
          name: "add-scope",
          request: { params: { keyId: exampleKey.id }, body: { scopes: ["workspace-settings:read", "workspace-settings:write"] } },
          response: { status: 200, body: { ...exampleKey, scopes: ["workspace-settings:read", "workspace-settings:write"] } }
        }
      ],
      handler: ({ params, body }, context) =>
        Effect.gen(function* () {
          yield* manageable(context, params.keyId)
          const patch = body.scopes ? { ...body, scopes: yield* checkScopes(body.scopes) } : body
          return yield* ApiKey.client(yield* ActorSystem)(params.keyId).update(patch)
        })
    }),
    keys.operation({
      ...base,
      operationId: ids.revoke,
      method: "DELETE",
      path: "/v1/api-keys/{keyId}",
      summary: "Revoke an API key",
      description: "Takes effect at once on every node.",
      params: KeyParams,
      responses: { 204: { description: "Revoked" } },
      examples: [{ name: "revoke", request: { params: { keyId: exampleKey.id } }, response: { status: 204 } }],
      handler: ({ params }, context) =>
        Effect.gen(function* () {
          yield* manageable(context, params.keyId)
          yield* ApiKey.client(yield* ActorSystem)(params.keyId).revoke({})
        })
    })
  ]
  if (ids.rotate) {
    operations.push(
      keys.operation({
        ...base,
        operationId: ids.rotate,
        method: "POST",
        path: "/v1/api-keys/{keyId}/rotate",
        summary: "Replace an API key's secret",
        description: "The old secret stops working at once; the new one is shown only in this response.",
        params: KeyParams,
        responses: { 200: { description: "Rotated", schema: CreatedApiKey } },
        examples: [
          {
            name: "rotate",
            request: { params: { keyId: exampleKey.id } },
            response: { status: 200, body: { ...exampleKey, key: "atr_live_Qw98zz…" } }
          }
        ],
        handler: ({ params }, context) =>
          Effect.gen(function* () {
            yield* manageable(context, params.keyId)
            const minted = mintKey()
            const view = yield* ApiKey.client(yield* ActorSystem)(params.keyId).rotate({ prefix: minted.prefix, hash: minted.hash })
            return { ...view, key: minted.key }
          })
      })
    )
  }
  operations.push(
    current.operation({
      operationId: ids.current,
      method: "GET",
      path: "/v1/api-keys/current",
      summary: "Describe the API key making this call",
      description: "Its workspace, scopes and prefix: how an agent learns what it may do.",
      auth: "apiKey",
      scopes: [],
      responses: { 200: { description: "The calling key", schema: ApiKeyView } },
      examples: [{ name: "current", response: { status: 200, body: exampleKey } }],
      handler: (_request, context) =>
        Effect.gen(function* () {
          if (context.principal?.kind !== "apiKey") return yield* reject("forbidden", "This operation requires an API key")
          return yield* ApiKey.client(yield* ActorSystem)(context.principal.keyId).get({})
        })
    })
  )
  return operations
}
