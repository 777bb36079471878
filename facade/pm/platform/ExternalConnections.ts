/**
 * pm tag "External Connections" (5): the workspace's connections to outside
 * systems, seen from project management. The same connection model and
 * store as the hub's Integrations (actors/hub/connections): one row per
 * connection, its token encrypted at rest and never shown. Reading takes a
 * member (API keys with `integrations:read`); connecting, testing and
 * disconnecting take an admin with a user session. A calendar is personal:
 * its maker's alone to see, test and disconnect (VendorConnections.ts).
 */
import { Effect, Schema } from "effect"
import { Connection, VendorKind, revoke, tokenOf } from "../../../actors/hub/connections/Connections.ts"
import { checkOutboundUrl } from "../../../actors/webhooks/OutboundAddress.ts"
import { Id } from "../../../actors/Fields.ts"
import { tagGroup } from "../../Operation.ts"
import { connectionSeen, connectionsSeen, connectionToChange, connectVendor, NewConnectionBody } from "../../shared/VendorConnections.ts"
import { WorkspaceIdParams } from "./Shared.ts"
import { externalConnectionsExamples } from "./ExternalConnections.examples.ts"
const base = "/v1/workspaces/{workspaceId}/external-connections"
const ConnectionParams = Schema.Struct({ workspaceId: Id, connectionId: Id })
const TIMEOUT_MS = 10_000

const { operation } = tagGroup("pm", "External Connections", externalConnectionsExamples)

export const externalConnectionsOperations = [
  operation({
    operationId: "listExternalConnections",
    method: "GET",
    path: base,
    summary: "The workspace's connections to outside systems (tokens are never shown)",
    auth: "both",
    scopes: ["integrations:read"],
    params: WorkspaceIdParams,
    query: Schema.Struct({ vendor: Schema.optionalKey(VendorKind) }),
    responses: { 200: { description: "Connections", schema: Schema.Struct({ items: Schema.Array(Connection) }) } },
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        const items = yield* connectionsSeen(params.workspaceId, context)
        return { items: items.filter((item) => query.vendor === undefined || item.vendor === query.vendor) }
      })
  }),
  operation({
    operationId: "createExternalConnection",
    method: "POST",
    path: base,
    summary: "Connect an outside system with its base URL and access token (admin; user session only)",
    description:
      "The token is encrypted at rest and only used to call the system; no reply contains it. The base URL must not point to a private or internal address.",
    auth: "jwt",
    scopes: [],
    params: WorkspaceIdParams,
    body: NewConnectionBody,
    responses: { 201: { description: "Connected", schema: Connection } },
    handler: ({ params, body }, context) => connectVendor(params.workspaceId, body, context)
  }),
  operation({
    operationId: "getExternalConnection",
    method: "GET",
    path: `${base}/{connectionId}`,
    summary: "One connection (its token is never shown)",
    auth: "both",
    scopes: ["integrations:read"],
    params: ConnectionParams,
    responses: { 200: { description: "The connection", schema: Connection }, 404: { description: "No such connection" } },
    handler: ({ params }, context) => connectionSeen(params.workspaceId, params.connectionId, context)
  }),
  operation({
    operationId: "testExternalConnection",
    method: "POST",
    path: `${base}/{connectionId}/test`,
    summary: "Call the system's base URL with the stored token: reachable, and is the token accepted? (admin)",
    auth: "jwt",
    scopes: [],
    params: ConnectionParams,
    responses: {
      200: {
        description: "What the system answered",
        schema: Schema.Struct({
          ok: Schema.Boolean,
          status: Schema.NullOr(Schema.Number),
          problem: Schema.NullOr(Schema.String)
        })
      },
      404: { description: "No such connection" }
    },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const connection = yield* connectionToChange(params.workspaceId, params.connectionId, context)
        const refusal = yield* Effect.promise(() => checkOutboundUrl(connection.baseUrl))
        if (refusal !== undefined) return { ok: false, status: null, problem: `The base URL ${refusal.reason}` }
        const token = yield* tokenOf(connection.id)
        const answer = yield* Effect.tryPromise(() =>
          fetch(connection.baseUrl, {
            headers: { authorization: `Bearer ${token}`, accept: "application/json" },
            redirect: "manual",
            signal: AbortSignal.timeout(TIMEOUT_MS)
          }).then(async (response) => {
            await response.arrayBuffer().catch(() => undefined)
            return response.status
          })
        ).pipe(Effect.option)
        if (answer._tag === "None") return { ok: false, status: null, problem: "The system could not be reached" }
        const status = answer.value
        if (status === 401 || status === 403) return { ok: false, status, problem: "The system refused the token" }
        if (status >= 500) return { ok: false, status, problem: "The system answered with a server error" }
        return { ok: true, status, problem: null }
      })
  }),
  operation({
    operationId: "deleteExternalConnection",
    method: "DELETE",
    path: `${base}/{connectionId}`,
    summary: "Disconnect an outside system: its token is erased (admin; user session only)",
    auth: "jwt",
    scopes: [],
    params: ConnectionParams,
    responses: { 204: { description: "Disconnected" }, 404: { description: "No such connection" } },
    handler: ({ params }, context) =>
      Effect.andThen(connectionToChange(params.workspaceId, params.connectionId, context), revoke(params.workspaceId, params.connectionId))
  })
]
