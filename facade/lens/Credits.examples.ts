/** Request and response examples of the operations in Credits.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { exampleIds } from "./Examples.ts"

const exampleParams = { workspaceId: exampleIds.workspaceId }

const exampleBalance = { workspaceId: exampleIds.workspaceId, balance: 990, updatedAt: "2026-11-21T12:00:00.000Z" }

export const creditsExamples = examplesById({
  getLensCredits: [{ name: "balance", request: { params: exampleParams }, response: { status: 200, body: exampleBalance } }],
  addLensCredits: [
    {
      name: "top-up",
      request: { params: exampleParams, body: { amount: 500, reason: "Monthly top-up" } },
      response: { status: 200, body: exampleBalance }
    }
  ],
  setLensCredits: [
    { name: "set", request: { params: exampleParams, body: { balance: 990 } }, response: { status: 200, body: exampleBalance } }
  ],
  listLensCreditLedger: [
    {
      name: "ledger",
      request: { params: exampleParams },
      response: {
        status: 200,
        body: {
          items: [
            {
              id: exampleIds.proposalId,
              delta: -1,
              reason: "lens:chat",
              userId: exampleIds.userId,
              createdAt: "2026-11-21T12:00:00.000Z"
            }
          ]
        }
      }
    }
  ],
  getLensCreditPrices: [
    {
      name: "prices",
      response: { status: 200, body: { localRun: 1, modelPerThousandTokens: 1, minimumModelCall: 1, initialCredits: 1000 } }
    }
  ]
})
