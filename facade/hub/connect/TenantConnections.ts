/**
 * hub tag "Tenant Workspace Connection Resource" (8): which workspace an
 * integration-broker tenant maps to, its signing secret (shown on creation
 * and rotation only), and the tenant's event inbox. Reads take a member and
 * `integrations:read`; changes an admin and `integrations:write`.
 */
import { Effect, Schema } from "effect"
import { Id, Name } from "../../../actors/Fields.ts"
import { InboxEvent, drain, eventsOf, pendingOf } from "../../../actors/hub/broker/Inbox.ts"
import {
  TenantConnection,
  createTenant,
  deleteTenant,
  getTenant,
  listTenants,
  rotateTenantSecret,
  updateTenant
} from "../../../actors/hub/broker/Tenants.ts"
import { principalOf, workspaceRole } from "../../Access.ts"
import { tagGroup } from "../../Operation.ts"

import { tenantConnectionsExamples } from "./TenantConnections.examples.ts"
export { exampleTenant } from "./TenantConnections.examples.ts"
const base = "/v1/workspaces/{workspaceId}/connector/tenants"
const WorkspaceParams = Schema.Struct({ workspaceId: Id })
const TenantParams = Schema.Struct({ workspaceId: Id, tenantConnectionId: Id })
const read = ["integrations:read"]
const write = ["integrations:write"]

const BrokerTenantId = Schema.String.check(
  Schema.isMinLength(1),
  Schema.isMaxLength(200),
  Schema.isPattern(/^[\w.:-]+$/, { expected: "a broker tenant id (letters, digits, . : _ -)" })
)
const WithSecret = Schema.Struct({
  tenant: TenantConnection,
  signingSecret: Schema.String.annotate({ description: "Standard Webhooks secret the broker signs events with; shown only now" })
}).annotate({ identifier: "TenantConnectionWithSecret" })

const { operation } = tagGroup("hub", "Tenant Workspace Connection Resource", tenantConnectionsExamples)

export const tenantConnectionOperations = [
  operation({
    operationId: "listTenantConnections",
    method: "GET",
    path: base,
    summary: "The broker tenants mapped to this workspace",
    auth: "both",
    scopes: read,
    params: WorkspaceParams,
    responses: { 200: { description: "Tenant connections", schema: Schema.Struct({ items: Schema.Array(TenantConnection) }) } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* workspaceRole(context, params.workspaceId)
        return { items: yield* listTenants(params.workspaceId) }
      })
  }),
  operation({
    operationId: "createTenantConnection",
    method: "POST",
    path: base,
    summary: "Map a broker tenant to this workspace; answers its signing secret once (admin)",
    auth: "both",
    scopes: write,
    params: WorkspaceParams,
    body: Schema.Struct({ tenantId: BrokerTenantId, name: Name(200) }),
    responses: {
      201: { description: "Mapped", schema: WithSecret },
      409: { description: "The tenant is already mapped (to this or another workspace)" }
    },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        yield* workspaceRole(context, params.workspaceId, "admin")
        const principal = yield* principalOf(context)
        return yield* createTenant(params.workspaceId, body.tenantId, body.name.trim(), principal.userId)
      })
  }),
  operation({
    operationId: "getTenantConnection",
    method: "GET",
    path: `${base}/{tenantConnectionId}`,
    summary: "One tenant connection (its secret is never shown again)",
    auth: "both",
    scopes: read,
    params: TenantParams,
    responses: { 200: { description: "The tenant connection", schema: TenantConnection } },
    handler: ({ params }, context) =>
      Effect.andThen(workspaceRole(context, params.workspaceId), getTenant(params.workspaceId, params.tenantConnectionId))
  }),
  operation({
    operationId: "updateTenantConnection",
    method: "PATCH",
    path: `${base}/{tenantConnectionId}`,
    summary: "Rename or enable/disable a tenant connection (a disabled tenant's events are refused) (admin)",
    auth: "both",
    scopes: write,
    params: TenantParams,
    body: Schema.Struct({ name: Schema.optionalKey(Name(200)), enabled: Schema.optionalKey(Schema.Boolean) }),
    responses: { 200: { description: "The tenant connection", schema: TenantConnection } },
    handler: ({ params, body }, context) =>
      Effect.andThen(
        workspaceRole(context, params.workspaceId, "admin"),
        updateTenant(params.workspaceId, params.tenantConnectionId, { ...body, ...(body.name ? { name: body.name.trim() } : {}) })
      )
  }),
  operation({
    operationId: "deleteTenantConnection",
    method: "DELETE",
    path: `${base}/{tenantConnectionId}`,
    summary: "Unmap a broker tenant: its integrations and stored events go with it (admin)",
    auth: "both",
    scopes: write,
    params: TenantParams,
    responses: { 204: { description: "Unmapped" } },
    handler: ({ params }, context) =>
      Effect.andThen(workspaceRole(context, params.workspaceId, "admin"), deleteTenant(params.workspaceId, params.tenantConnectionId))
  }),
  operation({
    operationId: "rotateTenantConnectionSecret",
    method: "POST",
    path: `${base}/{tenantConnectionId}/secret`,
    summary: "Replace the tenant's signing secret; the old one stops verifying at once (admin)",
    auth: "both",
    scopes: write,
    params: TenantParams,
    responses: { 200: { description: "The new secret, shown only now", schema: WithSecret } },
    handler: ({ params }, context) =>
      Effect.andThen(workspaceRole(context, params.workspaceId, "admin"), rotateTenantSecret(params.workspaceId, params.tenantConnectionId))
  }),
  operation({
    operationId: "listTenantConnectionEvents",
    method: "GET",
    path: `${base}/{tenantConnectionId}/events`,
    summary: "The tenant's received broker events, newest first, with their processing status, attempts and workflow runs",
    auth: "both",
    scopes: read,
    params: TenantParams,
    query: Schema.Struct({
      limit: Schema.optionalKey(Schema.FiniteFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 100 })))
    }),
    responses: { 200: { description: "Events", schema: Schema.Struct({ items: Schema.Array(InboxEvent) }) } },
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        yield* workspaceRole(context, params.workspaceId)
        const tenant = yield* getTenant(params.workspaceId, params.tenantConnectionId)
        return { items: yield* eventsOf(tenant.id, query.limit ?? 50) }
      })
  }),
  operation({
    operationId: "processTenantConnectionEvents",
    method: "POST",
    path: `${base}/{tenantConnectionId}/events/process`,
    summary:
      "Apply the tenant's pending events now, retries waiting for their backoff included (the background inbox processor does it otherwise) (admin)",
    auth: "both",
    scopes: write,
    params: TenantParams,
    responses: {
      200: {
        description: "How many were applied, and how many remain pending (a retry that failed again)",
        schema: Schema.Struct({ processed: Schema.Number, pending: Schema.Number })
      }
    },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* workspaceRole(context, params.workspaceId, "admin")
        const tenant = yield* getTenant(params.workspaceId, params.tenantConnectionId)
        const processed = yield* drain(tenant.id)
        return { processed, pending: yield* pendingOf(tenant.id) }
      })
  })
]
