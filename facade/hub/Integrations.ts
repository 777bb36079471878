/**
 * hub tag "Integrations" (4): the workspace's connections to vendor systems.
 * Listing and reading take `integrations:read`; connecting and disconnecting
 * need interactive consent, so they are JWT-only (API keys answer 403) and
 * take an admin. Tokens are stored encrypted and never shown.
 */
import { Effect, Schema } from "effect"
import { Connection, ConnectionSettings, VendorKind, create, get, list, revoke } from "../../actors/hub/connections/Connections.ts"
import { Id, Name } from "../../actors/Fields.ts"
import { checkOutboundUrl } from "../../actors/webhooks/OutboundAddress.ts"
import { reject } from "../../runtime/Rejection.ts"
import { principalOf, workspaceRole } from "../Access.ts"
import { operation } from "../Operation.ts"
import { exampleIds } from "./calls/Examples.ts"

const tag = "Integrations"
const service = "hub"
const WorkspaceParams = Schema.Struct({ workspaceId: Id })
const ConnectionParams = Schema.Struct({ workspaceId: Id, connectionId: Id })
const params = { workspaceId: exampleIds.workspaceId }

const HttpUrl = Schema.String.check(
  Schema.isMaxLength(2000),
  Schema.isPattern(/^https?:\/\/[^\s/?#]+(?:\/[^\s?#]*)?$/, { expected: "an http(s) base URL without query or fragment" })
)

const exampleConnection = {
  id: exampleIds.connectionId,
  workspaceId: exampleIds.workspaceId,
  vendor: "tracker",
  name: "Engineering tracker",
  baseUrl: "https://tracker.example.com/api",
  settings: { project: "ENG" },
  createdBy: exampleIds.userId,
  createdAt: "2026-11-21T12:00:00.000Z",
  hasToken: true
}

export const integrationsOperations = [
  operation({
    service,
    tag,
    operationId: "listIntegrationConnections",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/integrations",
    summary: "The workspace's connected vendor systems (tokens are never shown)",
    auth: "both",
    scopes: ["integrations:read"],
    params: WorkspaceParams,
    responses: { 200: { description: "Connections", schema: Schema.Struct({ items: Schema.Array(Connection) }) } },
    examples: [{ name: "list", request: { params }, response: { status: 200, body: { items: [exampleConnection] } } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* workspaceRole(context, params.workspaceId)
        return { items: yield* Effect.orDie(list(params.workspaceId)) }
      })
  }),
  operation({
    service,
    tag,
    operationId: "getIntegrationConnection",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/integrations/{connectionId}",
    summary: "One connection (its token is never shown)",
    auth: "both",
    scopes: ["integrations:read"],
    params: ConnectionParams,
    responses: { 200: { description: "The connection", schema: Connection } },
    examples: [
      {
        name: "get",
        request: { params: { ...params, connectionId: exampleIds.connectionId } },
        response: { status: 200, body: exampleConnection }
      }
    ],
    handler: ({ params }, context) =>
      Effect.andThen(workspaceRole(context, params.workspaceId), get(params.workspaceId, params.connectionId))
  }),
  operation({
    service,
    tag,
    operationId: "createIntegrationConnection",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/integrations",
    summary: "Connect a vendor system with its base URL and access token (admin; user session only)",
    description: "The token is encrypted at rest (AES-256-GCM) and only used to call the vendor; no reply ever contains it.",
    auth: "jwt",
    scopes: [],
    params: WorkspaceParams,
    body: Schema.Struct({
      vendor: VendorKind,
      name: Name(200),
      baseUrl: HttpUrl,
      token: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(4000)),
      settings: Schema.optionalKey(ConnectionSettings)
    }),
    responses: {
      201: { description: "Connected", schema: Connection },
      400: { description: "Bad input, or a base URL inside the network" }
    },
    examples: [
      {
        name: "tracker",
        request: {
          params,
          body: {
            vendor: "tracker",
            name: "Engineering tracker",
            baseUrl: "https://tracker.example.com/api",
            token: "trk_live_secret",
            settings: { project: "ENG" }
          }
        },
        response: { status: 201, body: exampleConnection }
      }
    ],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        yield* workspaceRole(context, params.workspaceId, "admin")
        const principal = yield* principalOf(context)
        // SSRF guard: a connection may not point inside the network (unless ATRIUM_ALLOW_PRIVATE_URLS=1).
        const refusal = yield* Effect.promise(() => checkOutboundUrl(body.baseUrl))
        if (refusal) return yield* reject("invalid", `The base URL ${refusal.reason}`, [{ path: "body.baseUrl", message: refusal.reason }])
        return yield* Effect.orDie(
          create({
            workspaceId: params.workspaceId,
            vendor: body.vendor,
            name: body.name.trim(),
            baseUrl: body.baseUrl,
            token: body.token,
            settings: body.settings ?? {},
            createdBy: principal.userId
          })
        )
      })
  }),
  operation({
    service,
    tag,
    operationId: "deleteIntegrationConnection",
    method: "DELETE",
    path: "/v1/workspaces/{workspaceId}/integrations/{connectionId}",
    summary: "Disconnect a vendor system: its token is erased (admin; user session only)",
    auth: "jwt",
    scopes: [],
    params: ConnectionParams,
    responses: { 204: { description: "Disconnected" } },
    examples: [
      { name: "disconnect", request: { params: { ...params, connectionId: exampleIds.connectionId } }, response: { status: 204 } }
    ],
    handler: ({ params }, context) =>
      Effect.andThen(workspaceRole(context, params.workspaceId, "admin"), revoke(params.workspaceId, params.connectionId))
  })
]
