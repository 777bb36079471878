/** Request and response examples of the operations in TokenUsage.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { exampleIds } from "./Examples.ts"

export const exampleParams = { workspaceId: exampleIds.workspaceId }

const exampleRecord = {
  id: exampleIds.proposalId,
  workspaceId: exampleIds.workspaceId,
  userId: exampleIds.userId,
  engine: "local" as const,
  purpose: "chat",
  model: null,
  promptTokens: 120,
  completionTokens: 40,
  credits: 1,
  durationMs: 12,
  createdAt: "2026-11-21T12:00:00.000Z"
}

export const exampleTotals = { key: "all", runs: 1, promptTokens: 120, completionTokens: 40, credits: 1 }

export const tokenUsageExamples = examplesById({
  listTokenUsage: [{ name: "list", request: { params: exampleParams }, response: { status: 200, body: { items: [exampleRecord] } } }],
  getTokenUsage: [
    {
      name: "get",
      request: { params: { ...exampleParams, usageId: exampleIds.proposalId } },
      response: { status: 200, body: exampleRecord }
    }
  ],
  getTokenUsageSummary: [{ name: "summary", request: { params: exampleParams }, response: { status: 200, body: exampleTotals } }],
  getMyTokenUsage: [
    {
      name: "mine",
      request: { params: exampleParams },
      response: { status: 200, body: { totals: exampleTotals, items: [exampleRecord] } }
    }
  ],
  exportTokenUsage: [
    {
      name: "csv",
      request: { params: exampleParams },
      response: {
        status: 200,
        body: `id,userId,engine,purpose,model,promptTokens,completionTokens,credits,durationMs,createdAt\n${exampleRecord.id},${exampleRecord.userId},local,chat,,120,40,1,12,2026-11-21T12:00:00.000Z\n`
      }
    }
  ],
  recordTokenUsage: [
    {
      name: "model-call",
      request: { params: exampleParams, body: { purpose: "summary", model: "gpt-4o-mini", promptTokens: 1800, completionTokens: 300 } },
      response: { status: 201, body: { credits: 3 } }
    }
  ],
  purgeTokenUsage: [
    {
      name: "purge",
      request: { params: exampleParams, query: { before: "2026-01-01" } },
      response: { status: 200, body: { deleted: 0 } }
    }
  ]
})
