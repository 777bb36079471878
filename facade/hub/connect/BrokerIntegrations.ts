/**
 * hub tag "Integration Resource V 1" (5): the broker's integrations of the
 * workspace's tenants, each optionally bound to a hub connection that the
 * workflow steps run for its events use. Reads: member + `integrations:read`;
 * changes: admin + `integrations:write`.
 */
import { Effect, Schema } from "effect"
import { Id, Name } from "../../../actors/Fields.ts"
import {
  BrokerIntegration,
  createIntegration,
  deleteIntegration,
  getIntegration,
  listIntegrations,
  updateIntegration
} from "../../../actors/hub/broker/BrokerIntegrations.ts"
import { principalOf, workspaceRole } from "../../Access.ts"
import { tagGroup } from "../../Operation.ts"

import { brokerIntegrationsExamples } from "./BrokerIntegrations.examples.ts"
const base = "/v1/workspaces/{workspaceId}/connector/integrations"
const WorkspaceParams = Schema.Struct({ workspaceId: Id })
const IntegrationParams = Schema.Struct({ workspaceId: Id, integrationId: Id })

const ExternalId = Schema.String.check(
  Schema.isMinLength(1),
  Schema.isMaxLength(200),
  Schema.isPattern(/^[\w.:-]+$/, { expected: "a broker id (letters, digits, . : _ -)" })
)

const { operation } = tagGroup("hub", "Integration Resource V 1", brokerIntegrationsExamples)

export const brokerIntegrationOperations = [
  operation({
    operationId: "listBrokerIntegrations",
    method: "GET",
    path: base,
    summary: "The broker integrations of this workspace's tenants",
    auth: "both",
    scopes: ["integrations:read"],
    params: WorkspaceParams,
    responses: { 200: { description: "Integrations", schema: Schema.Struct({ items: Schema.Array(BrokerIntegration) }) } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* workspaceRole(context, params.workspaceId)
        return { items: yield* listIntegrations(params.workspaceId) }
      })
  }),
  operation({
    operationId: "createBrokerIntegration",
    method: "POST",
    path: base,
    summary: "Register a broker integration of a tenant, optionally bound to a hub connection (admin)",
    auth: "both",
    scopes: ["integrations:write"],
    params: WorkspaceParams,
    body: Schema.Struct({
      tenantConnectionId: Id,
      externalId: ExternalId,
      app: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(100)),
      name: Name(200),
      connectionId: Schema.optionalKey(Id)
    }),
    responses: { 201: { description: "Registered", schema: BrokerIntegration }, 409: { description: "Already registered" } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        yield* workspaceRole(context, params.workspaceId, "admin")
        const principal = yield* principalOf(context)
        return yield* createIntegration(params.workspaceId, { ...body, name: body.name.trim() }, principal.userId)
      })
  }),
  operation({
    operationId: "getBrokerIntegration",
    method: "GET",
    path: `${base}/{integrationId}`,
    summary: "One broker integration",
    auth: "both",
    scopes: ["integrations:read"],
    params: IntegrationParams,
    responses: { 200: { description: "The integration", schema: BrokerIntegration } },
    handler: ({ params }, context) =>
      Effect.andThen(workspaceRole(context, params.workspaceId), getIntegration(params.workspaceId, params.integrationId))
  }),
  operation({
    operationId: "updateBrokerIntegration",
    method: "PATCH",
    path: `${base}/{integrationId}`,
    summary: "Rename, enable/disable or rebind (connectionId null unbinds) a broker integration (admin)",
    auth: "both",
    scopes: ["integrations:write"],
    params: IntegrationParams,
    body: Schema.Struct({
      name: Schema.optionalKey(Name(200)),
      enabled: Schema.optionalKey(Schema.Boolean),
      connectionId: Schema.optionalKey(Schema.NullOr(Id))
    }),
    responses: { 200: { description: "The integration", schema: BrokerIntegration } },
    handler: ({ params, body }, context) =>
      Effect.andThen(
        workspaceRole(context, params.workspaceId, "admin"),
        updateIntegration(params.workspaceId, params.integrationId, { ...body, ...(body.name ? { name: body.name.trim() } : {}) })
      )
  }),
  operation({
    operationId: "deleteBrokerIntegration",
    method: "DELETE",
    path: `${base}/{integrationId}`,
    summary: "Forget a broker integration: its later events run nothing (admin)",
    auth: "both",
    scopes: ["integrations:write"],
    params: IntegrationParams,
    responses: { 204: { description: "Deleted" } },
    handler: ({ params }, context) =>
      Effect.andThen(workspaceRole(context, params.workspaceId, "admin"), deleteIntegration(params.workspaceId, params.integrationId))
  })
]
