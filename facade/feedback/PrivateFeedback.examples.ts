/** Request and response examples of the operations in PrivateFeedback.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { ex } from "./deskExamples.ts"

const examplePrivate = {
  id: ex.privateFeedbackId,
  boardId: ex.boardId,
  authorId: ex.userId,
  email: null,
  name: null,
  title: "Pricing feedback",
  body: "The team plan is too expensive for a 3-person startup.",
  createdAt: ex.at
}

export const privateFeedbackExamples = examplesById({
  createPrivateFeedback: [
    {
      name: "send",
      request: { params: { boardId: ex.boardId }, body: { title: examplePrivate.title, body: examplePrivate.body } },
      response: { status: 201, body: examplePrivate }
    }
  ],
  listPrivateFeedback: [
    { name: "list", request: { params: { boardId: ex.boardId } }, response: { status: 200, body: { items: [examplePrivate] } } }
  ]
})
