/** Request and response examples of the operations in LensTask.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { exampleIds } from "./Examples.ts"

export const lensTaskExamples = examplesById({
  createTaskFromLensAnswer: [
    {
      name: "create",
      request: { params: { answerId: exampleIds.answerId }, body: { list: "Backlog" } },
      response: { status: 201, body: { id: exampleIds.proposalId, name: "What did Bob promise about the login bug?" } }
    }
  ]
})
