/** Request and response examples of the operations in BoardLive.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { exampleStreamTicket } from "../StreamTickets.ts"
import { examples } from "./FeedbackViews.ts"

export const boardLiveExamples = examplesById({
  createBoardStreamTicket: [
    {
      name: "ticket",
      request: { params: { boardId: examples.boardId } },
      response: {
        status: 201,
        body: exampleStreamTicket({ scope: "board", id: examples.boardId })
      }
    }
  ]
})
