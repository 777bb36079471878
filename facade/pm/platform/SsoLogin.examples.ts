/** Request and response examples of the operations in SsoLogin.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { ids, at } from "./Shared.ts"

export const ssoDiscoveryResourceExamples = examplesById({
  discoverSso: [
    {
      name: "corporate",
      request: { query: { email: "alice@corp.example" } },
      response: {
        status: 200,
        body: {
          domain: "corp.example",
          sso: true,
          workspaceId: ids.workspace,
          workspaceName: "Acme",
          enforced: true,
          startUrl: `/pm/v1/sso/${ids.workspace}/start`
        }
      }
    }
  ]
})
export const oAuthCallbacksExamples = examplesById({
  startSsoLogin: [
    {
      name: "start",
      request: { params: { workspaceId: ids.workspace }, query: { loginHint: "alice@corp.example" } },
      response: {
        status: 200,
        body: {
          authorizationUrl: "https://login.corp.example/authorize?response_type=code&client_id=atrium-acme&…",
          state: "x7Yq…",
          expiresAt: "2026-11-21T12:10:00.000Z"
        }
      }
    }
  ],
  completeSsoLogin: [
    {
      name: "signed-in",
      request: { query: { state: "x7Yq…", code: "SplxlOBeZQQYbYS6WxSbIA" } },
      response: {
        status: 200,
        body: {
          accessToken: "eyJhbGciOiJIUzI1NiIs…",
          refreshToken: "rt_9b2f….Qm3k…",
          tokenType: "Bearer",
          expiresIn: 900,
          user: { id: ids.owner, email: "alice@corp.example", name: "Alice", createdAt: at },
          workspaceId: ids.workspace,
          joined: false
        }
      }
    }
  ]
})
export const internalSsoResourceExamples = examplesById({
  resolveInternalSsoDomain: [
    {
      name: "resolve",
      request: { params: { domain: "corp.example" } },
      response: {
        status: 200,
        body: {
          domain: "corp.example",
          workspaceId: ids.workspace,
          enabled: true,
          enforced: true,
          issuer: "https://login.corp.example",
          clientId: "atrium-acme",
          defaultRole: "member",
          jitProvisioning: true
        }
      }
    }
  ]
})
