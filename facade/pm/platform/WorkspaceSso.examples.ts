/** Request and response examples of the operations in WorkspaceSso.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { at, ids } from "./Shared.ts"

const params = { workspaceId: ids.workspace }

const exampleSso = {
  enabled: true,
  issuer: "https://login.corp.example",
  clientId: "atrium-acme",
  clientSecretSet: true,
  scopes: ["openid", "email", "profile"],
  defaultRole: "member",
  jitProvisioning: true,
  domains: ["corp.example"],
  enforced: false,
  createdAt: at,
  updatedAt: at
}

export const workspaceSsoExamples = examplesById({
  getWorkspaceSso: [{ name: "read", request: { params }, response: { status: 200, body: exampleSso } }],
  configureWorkspaceSso: [
    {
      name: "configure",
      request: {
        params,
        body: {
          issuer: "https://login.corp.example",
          clientId: "atrium-acme",
          clientSecret: "s3cr3t-from-the-provider",
          scopes: ["openid", "email", "profile"],
          defaultRole: "member",
          enabled: true
        }
      },
      response: { status: 200, body: { ...exampleSso, domains: [] } }
    }
  ],
  updateWorkspaceSso: [
    {
      name: "viewers",
      request: { params, body: { defaultRole: "viewer" } },
      response: { status: 200, body: { ...exampleSso, defaultRole: "viewer" } }
    }
  ],
  deleteWorkspaceSso: [{ name: "remove", request: { params }, response: { status: 204 } }],
  testWorkspaceSso: [
    {
      name: "ok",
      request: { params },
      response: {
        status: 200,
        body: {
          ok: true,
          issuer: "https://login.corp.example",
          authorizationEndpoint: "https://login.corp.example/authorize",
          tokenEndpoint: "https://login.corp.example/token",
          signingKeys: 2,
          problem: null
        }
      }
    }
  ],
  listWorkspaceSsoDomains: [
    { name: "list", request: { params }, response: { status: 200, body: { items: ["corp.example"], enforced: false } } }
  ],
  addWorkspaceSsoDomain: [
    { name: "claim", request: { params, body: { domain: "corp.example" } }, response: { status: 200, body: exampleSso } }
  ],
  removeWorkspaceSsoDomain: [
    {
      name: "release",
      request: { params: { ...params, domain: "corp.example" } },
      response: { status: 200, body: { ...exampleSso, domains: [] } }
    }
  ],
  setWorkspaceSsoEnforcement: [
    { name: "enforce", request: { params, body: { enforced: true } }, response: { status: 200, body: { ...exampleSso, enforced: true } } }
  ],
  listWorkspaceSsoLogins: [
    {
      name: "recent",
      request: { params },
      response: {
        status: 200,
        body: { items: [{ at, email: "alice@corp.example", userId: ids.owner, outcome: "signed_in", detail: null }] }
      }
    }
  ]
})
