/** Request and response examples of the operations in OAuthConnect.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { exampleIds } from "../calls/Examples.ts"

const params = { workspaceId: exampleIds.workspaceId }

const connectionParams = { ...params, connectionId: exampleIds.connectionId }

const exampleAuthorization = {
  authorizeUrl:
    "https://auth.example.com/oauth/authorize?response_type=code&client_id=atrium&redirect_uri=https%3A%2F%2Fatrium.example.com%2Foauth%2Fcallback&state=q8Zb2n5xV7kPZ3o1&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256",
  state: "q8Zb2n5xV7kPZ3o1",
  expiresAt: "2026-11-21T12:10:00.000Z"
}

const exampleConnection = {
  id: exampleIds.connectionId,
  workspaceId: exampleIds.workspaceId,
  vendor: "tracker",
  name: "Engineering tracker",
  baseUrl: "https://api.tracker.example.com",
  settings: {},
  createdBy: exampleIds.userId,
  createdAt: "2026-11-21T12:00:00.000Z",
  hasToken: true
}

export const tagExamples = examplesById({
  startOAuthConnection: [
    {
      name: "tracker",
      request: { params: { ...params, vendor: "tracker" }, body: { name: "Engineering tracker" } },
      response: { status: 200, body: exampleAuthorization }
    }
  ],
  completeOAuthConnection: [
    {
      name: "callback",
      request: { body: { state: "q8Zb2n5xV7kPZ3o1", code: "SplxlOBeZQQYbYS6WxSbIA" } },
      response: { status: 201, body: exampleConnection }
    }
  ],
  refreshOAuthConnection: [
    {
      name: "refresh",
      request: { params: connectionParams },
      response: { status: 200, body: { connectionId: exampleIds.connectionId, expiresAt: "2026-11-21T13:00:00.000Z" } }
    }
  ],
  revokeOAuthConnection: [
    {
      name: "revoke",
      request: { params: connectionParams },
      response: { status: 200, body: { connectionId: exampleIds.connectionId, revokedAtVendor: true } }
    }
  ]
})
export const chatappOAuthResourceExamples = examplesById({
  startChatappInstall: [
    {
      name: "install",
      request: { params, body: { name: "Team chat" } },
      response: { status: 200, body: exampleAuthorization }
    }
  ]
})
