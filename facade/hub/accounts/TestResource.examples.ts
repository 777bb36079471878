/** Request and response examples of the operations in TestResource.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { exampleWorkspace } from "../../shared/WorkspaceAccess.ts"

const at = "2026-11-21T12:00:00.000Z"

const ws = exampleWorkspace.id

const exampleRun = {
  id: "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
  workspaceId: ws,
  kind: "webhook",
  target: "https://hooks.example.com/atrium",
  ok: true,
  status: 200,
  latencyMs: 84,
  error: null,
  detail: { event: "test.ping", signed: true, responseExcerpt: "ok" },
  createdBy: exampleWorkspace.ownerId,
  createdAt: at
}

export const testResourceExamples = examplesById({
  testWebhookDelivery: [
    {
      name: "ping",
      request: {
        params: { workspaceId: ws },
        body: { url: "https://hooks.example.com/atrium", secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw" }
      },
      response: { status: 201, body: exampleRun }
    }
  ],
  testIntegrationConnection: [
    {
      name: "tracker",
      request: {
        params: { workspaceId: ws },
        body: { vendor: "tracker", baseUrl: "https://acme.tracker.example", accessToken: "trk_3f9a…" }
      },
      response: {
        status: 201,
        body: {
          ...exampleRun,
          kind: "integration",
          target: "https://acme.tracker.example/rest/api/3/myself",
          detail: { vendor: "tracker", account: "Alice" }
        }
      }
    }
  ],
  testBotProvider: [
    {
      name: "provider",
      request: { params: { workspaceId: ws }, body: { baseUrl: "https://bots.example.com", apiKey: "bot_8c1e…" } },
      response: {
        status: 201,
        body: { ...exampleRun, kind: "bot_provider", target: "https://bots.example.com/api/v1/bot/?page_size=1", detail: { bots: 3 } }
      }
    }
  ],
  testLlmProvider: [
    {
      name: "models",
      request: {
        params: { workspaceId: ws },
        body: { baseUrl: "https://llm.example.com/v1", apiKey: "sk-…", model: "summarizer-large" }
      },
      response: {
        status: 201,
        body: {
          ...exampleRun,
          kind: "llm_provider",
          target: "https://llm.example.com/v1/models",
          detail: { models: 4, modelListed: true }
        }
      }
    }
  ],
  testEmailDelivery: [
    {
      name: "mail",
      request: { params: { workspaceId: ws } },
      response: {
        status: 201,
        body: { ...exampleRun, kind: "email", target: "alice@example.com", status: null, detail: { mailStatus: "sent" } }
      }
    }
  ],
  listTestRuns: [{ name: "recent", request: { params: { workspaceId: ws } }, response: { status: 200, body: { items: [exampleRun] } } }],
  getTestRun: [
    { name: "get", request: { params: { workspaceId: ws, runId: exampleRun.id } }, response: { status: 200, body: exampleRun } }
  ],
  clearTestRuns: [{ name: "clear", request: { params: { workspaceId: ws } }, response: { status: 200, body: { deleted: 12 } } }]
})
