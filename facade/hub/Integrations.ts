/**
 * hub tag "Integrations" (4): the workspace's connections to vendor systems.
 * Listing and reading take `integrations:read`; connecting and disconnecting
 * need interactive consent, so they are JWT-only (API keys answer 403) and
 * take an admin — except a calendar (`vendor: "calendar"`), which is
 * personal: any member connects and disconnects their own, and nobody else
 * sees it (VendorConnections.ts). Tokens are stored encrypted and never shown.
 */
import { Effect, Schema } from "effect"
import { Connection, revoke } from "../../actors/hub/connections/Connections.ts"
import { Id } from "../../actors/Fields.ts"
import { tagGroup } from "../Operation.ts"
import { connectionSeen, connectionsSeen, connectionToChange, connectVendor, NewConnectionBody } from "../shared/VendorConnections.ts"

import { integrationsExamples } from "./Integrations.examples.ts"
const WorkspaceParams = Schema.Struct({ workspaceId: Id })
const ConnectionParams = Schema.Struct({ workspaceId: Id, connectionId: Id })

const { operation } = tagGroup("hub", "Integrations", integrationsExamples)

export const integrationsOperations = [
  operation({
    operationId: "listIntegrationConnections",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/integrations",
    summary: "The workspace's connected vendor systems, with your own calendars but no one else's (tokens are never shown)",
    auth: "both",
    scopes: ["integrations:read"],
    params: WorkspaceParams,
    responses: { 200: { description: "Connections", schema: Schema.Struct({ items: Schema.Array(Connection) }) } },
    handler: ({ params }, context) => Effect.map(connectionsSeen(params.workspaceId, context), (items) => ({ items }))
  }),
  operation({
    operationId: "getIntegrationConnection",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/integrations/{connectionId}",
    summary: "One connection (its token is never shown); another user's calendar is 404",
    auth: "both",
    scopes: ["integrations:read"],
    params: ConnectionParams,
    responses: { 200: { description: "The connection", schema: Connection } },
    handler: ({ params }, context) => connectionSeen(params.workspaceId, params.connectionId, context)
  }),
  operation({
    operationId: "createIntegrationConnection",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/integrations",
    summary: "Connect a vendor system with its base URL and access token (admin; any member their own calendar; user session only)",
    description: "The token is encrypted at rest (AES-256-GCM) and only used to call the vendor; no reply ever contains it.",
    auth: "jwt",
    scopes: [],
    params: WorkspaceParams,
    body: NewConnectionBody,
    responses: {
      201: { description: "Connected", schema: Connection },
      400: { description: "Bad input, or a base URL inside the network" }
    },
    handler: ({ params, body }, context) => connectVendor(params.workspaceId, body, context)
  }),
  operation({
    operationId: "deleteIntegrationConnection",
    method: "DELETE",
    path: "/v1/workspaces/{workspaceId}/integrations/{connectionId}",
    summary: "Disconnect a vendor system: its token is erased (admin; your own calendar; user session only)",
    auth: "jwt",
    scopes: [],
    params: ConnectionParams,
    responses: { 204: { description: "Disconnected" } },
    handler: ({ params }, context) =>
      Effect.andThen(connectionToChange(params.workspaceId, params.connectionId, context), revoke(params.workspaceId, params.connectionId))
  })
]
