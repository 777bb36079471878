/** Request and response examples of the operations in Proposals.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { exampleIds } from "./Examples.ts"

const exampleProposal = {
  id: exampleIds.proposalId,
  workspaceId: exampleIds.workspaceId,
  answerId: exampleIds.answerId,
  operationId: "createTaskLite",
  title: 'Create task "Send the revised launch timeline by Friday"',
  input: { name: "Send the revised launch timeline by Friday", description: 'From the call "Launch review"; owner: Alice' },
  status: "proposed" as const,
  result: null,
  createdAt: "2026-11-21T12:00:00.000Z",
  decidedAt: null
}

export const lensProposalResourceExamples = examplesById({
  listLensProposals: [
    {
      name: "list",
      request: { params: { workspaceId: exampleIds.workspaceId } },
      response: { status: 200, body: { items: [exampleProposal] } }
    }
  ],
  decideLensProposal: [
    {
      name: "confirm",
      request: { params: { proposalId: exampleIds.proposalId }, body: { decision: "confirm", list: "Backlog" } },
      response: {
        status: 200,
        body: { ...exampleProposal, status: "applied", result: { id: exampleIds.answerId }, decidedAt: "2026-11-21T12:01:00.000Z" }
      }
    }
  ]
})
export const lensFeedbackResourceExamples = examplesById({
  rateLensAnswer: [
    {
      name: "down",
      request: { params: { answerId: exampleIds.answerId }, body: { rating: "down", reason: "Cited the wrong meeting" } },
      response: {
        status: 200,
        body: { answerId: exampleIds.answerId, rating: "down", reason: "Cited the wrong meeting", createdAt: "2026-11-21T12:00:00.000Z" }
      }
    }
  ]
})
