/** Request and response examples of the operations in Microservices.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { exampleIds } from "./Examples.ts"

const exampleParts = [
  { name: "router", status: "up", latencyMs: 0.1, detail: "rules router: probe routed fan_out" },
  { name: "model", status: "not_configured", latencyMs: 0, detail: "LLM_BASE_URL / LLM_MODEL not set: the local engine answers" }
]

export const microservicesExamples = examplesById({
  listLensMicroservices: [
    {
      name: "health",
      request: { params: { workspaceId: exampleIds.workspaceId } },
      response: { status: 200, body: { items: exampleParts } }
    }
  ],
  getLensMicroservice: [
    {
      name: "router",
      request: { params: { workspaceId: exampleIds.workspaceId, name: "router" } },
      response: { status: 200, body: exampleParts[0] }
    }
  ],
  getLensConfiguration: [
    {
      name: "local",
      response: {
        status: 200,
        body: {
          engine: "local",
          model: null,
          modelBaseUrl: null,
          modelApiKeySet: false,
          minimumCoverage: 0.42,
          topK: 8,
          maxAgentSteps: 4,
          initialCredits: 1000
        }
      }
    }
  ]
})
