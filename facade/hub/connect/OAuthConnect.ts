/**
 * hub tags "Connector O Auth Resource" (4) and "Chatapp O Auth Resource" (1):
 * connecting a vendor by OAuth 2.0 authorization code with PKCE. The browser
 * is sent to the vendor's consent page (`authorizeUrl`); the vendor redirects
 * it to the web app (HUB_OAUTH_REDIRECT_URL) with `code` and `state`, and the
 * app finishes the flow with the same session. Interactive consent: user
 * sessions only (an API key answers 403), workspace admins only — but a
 * calendar is personal: any member connects, refreshes and revokes their own
 * (VendorConnections.ts).
 */
import { Effect, Schema } from "effect"
import { Id, Name } from "../../../actors/Fields.ts"
import { Connection, VendorKind } from "../../../actors/hub/connections/Connections.ts"
import { completeAuthorization, refreshConnection, revokeConnection, startAuthorization } from "../../../actors/hub/connections/OAuth.ts"
import { userOf, workspaceRole } from "../../Access.ts"
import { type RequestContext, tagGroup } from "../../Operation.ts"
import { changerRole, connectionToChange } from "../../shared/VendorConnections.ts"

import { tagExamples, chatappOAuthResourceExamples } from "./OAuthConnect.examples.ts"
const ConnectionParams = Schema.Struct({ workspaceId: Id, connectionId: Id })

const Authorization = Schema.Struct({
  authorizeUrl: Schema.String.annotate({ description: "Send the browser here: the vendor's consent page" }),
  state: Schema.String.annotate({ description: "Single-use, bound to this session; expires after 10 minutes" }),
  expiresAt: Schema.String
}).annotate({ identifier: "OAuthAuthorization" })

const StartBody = Schema.Struct({ name: Schema.optionalKey(Name(200)) })
const authorizationErrors = {
  403: { description: "API keys and non-admins cannot connect" },
  409: { description: "OAuth is not configured for this vendor on the server" }
}

const redirectUriFor = (context: RequestContext) => process.env.HUB_OAUTH_REDIRECT_URL?.trim() || `${context.origin}/oauth/callback`

/** Starts a flow for `vendor` as the calling session (an admin of the workspace; a member for their calendar). */
const start = (context: RequestContext, workspaceId: string, vendor: VendorKind, name: string, extraScopes: ReadonlyArray<string> = []) =>
  Effect.gen(function* () {
    const user = yield* userOf(context)
    yield* workspaceRole(context, workspaceId, changerRole(vendor))
    return yield* startAuthorization({
      workspaceId,
      userId: user.userId,
      sessionId: user.sessionId,
      vendor,
      name,
      redirectUri: redirectUriFor(context),
      extraScopes
    })
  })

const tagTag = tagGroup("hub", "Connector O Auth Resource", tagExamples)
const chatappOAuthResourceTag = tagGroup("hub", "Chatapp O Auth Resource", chatappOAuthResourceExamples)

export const oauthOperations = [
  tagTag.operation({
    operationId: "startOAuthConnection",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/oauth/{vendor}/authorize",
    summary: "Start connecting a vendor by OAuth (PKCE): answers the consent URL to send the browser to (admin; user session only)",
    auth: "jwt",
    scopes: [],
    params: Schema.Struct({ workspaceId: Id, vendor: VendorKind }),
    body: StartBody,
    responses: { 200: { description: "The consent URL and its state", schema: Authorization }, ...authorizationErrors },
    handler: ({ params, body }, context) =>
      start(context, params.workspaceId, params.vendor, body.name?.trim() ?? `${params.vendor} (OAuth)`)
  }),
  tagTag.operation({
    operationId: "completeOAuthConnection",
    method: "POST",
    path: "/v1/oauth/callback",
    summary: "Finish an OAuth flow with the code and state the vendor redirected back with: the connection is created",
    description:
      "The state must come from this session's own start, unused and within 10 minutes; the code is exchanged with the PKCE verifier. Tokens are stored encrypted and never shown.",
    auth: "jwt",
    scopes: [],
    body: Schema.Struct({
      state: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200)),
      code: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(2000))
    }),
    responses: {
      201: { description: "Connected", schema: Connection },
      400: { description: "Unknown, used or expired state, or the vendor refused the code" },
      403: { description: "The state belongs to another session" },
      502: { description: "The authorization server failed" },
      504: { description: "The authorization server did not answer in time" }
    },
    handler: ({ body }, context) =>
      Effect.gen(function* () {
        const user = yield* userOf(context)
        // The flow was started by someone allowed to connect the vendor; they must still be when it finishes.
        return yield* completeAuthorization(user, body.state, body.code, (workspaceId, vendor) =>
          workspaceRole(context, workspaceId, changerRole(vendor))
        )
      })
  }),
  tagTag.operation({
    operationId: "refreshOAuthConnection",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/integrations/{connectionId}/oauth/refresh",
    summary: "Refresh the connection's access token now with its refresh token (admin; user session only)",
    auth: "jwt",
    scopes: [],
    params: ConnectionParams,
    responses: {
      200: {
        description: "Refreshed",
        schema: Schema.Struct({ connectionId: Id, expiresAt: Schema.NullOr(Schema.String) })
      },
      409: { description: "The connection has no refresh token" },
      502: { description: "The authorization server failed or refused" }
    },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* userOf(context)
        const connection = yield* connectionToChange(params.workspaceId, params.connectionId, context)
        const refreshed = yield* refreshConnection(connection)
        return { connectionId: connection.id, expiresAt: refreshed.expiresAt }
      })
  }),
  tagTag.operation({
    operationId: "revokeOAuthConnection",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/integrations/{connectionId}/oauth/revoke",
    summary: "Revoke the connection's tokens at the vendor and disconnect it (admin; user session only)",
    auth: "jwt",
    scopes: [],
    params: ConnectionParams,
    responses: {
      200: {
        description: "Disconnected; whether the vendor confirmed the revocation",
        schema: Schema.Struct({ connectionId: Id, revokedAtVendor: Schema.Boolean })
      }
    },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* userOf(context)
        yield* connectionToChange(params.workspaceId, params.connectionId, context)
        return yield* revokeConnection(params.workspaceId, params.connectionId)
      })
  }),
  chatappOAuthResourceTag.operation({
    operationId: "startChatappInstall",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/chatapp/oauth/install",
    summary: "Install the hub's bot in the team-chat app by OAuth (PKCE, bot scopes to read channels and post): answers the consent URL",
    description: "Finished like every OAuth flow, with `POST /hub/v1/oauth/callback`. Admin; user session only.",
    auth: "jwt",
    scopes: [],
    params: Schema.Struct({ workspaceId: Id }),
    body: StartBody,
    responses: { 200: { description: "The consent URL and its state", schema: Authorization }, ...authorizationErrors },
    handler: ({ params, body }, context) =>
      start(context, params.workspaceId, "chatapp", body.name?.trim() ?? "Team chat", ["channels:read", "chat:write"])
  })
]
