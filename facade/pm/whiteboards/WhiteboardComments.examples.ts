/** Request and response examples of the operations in WhiteboardComments.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { exampleWhiteboardId } from "./WhiteboardCollaboration.ts"
import { exampleIds as ids, at0 } from "../WorkAccess.ts"

const commentId = "a7b8c9d0-e1f2-4a3b-8c4d-6e7f8a9b0c1d"

const params = { whiteboardId: exampleWhiteboardId, commentId }

const exampleComment = {
  id: commentId,
  whiteboardId: exampleWhiteboardId,
  parentCommentId: null,
  text: "Can we split this epic?",
  resolved: false,
  pin: { elementId: "sticky-42", offsetX: 12, offsetY: -8, present: true, x: 412, y: 192 },
  authorId: ids.user,
  createdAt: at0,
  updatedAt: at0
}

export const whiteboardCommentsExamples = examplesById({
  listWhiteboardComments: [
    {
      name: "list",
      request: { params: { whiteboardId: exampleWhiteboardId } },
      response: { status: 200, body: { items: [exampleComment] } }
    }
  ],
  createWhiteboardComment: [
    {
      name: "pin",
      request: {
        params: { whiteboardId: exampleWhiteboardId },
        body: { elementId: "sticky-42", offsetX: 12, offsetY: -8, text: exampleComment.text }
      },
      response: { status: 201, body: exampleComment }
    }
  ],
  getWhiteboardComment: [{ name: "get", request: { params }, response: { status: 200, body: exampleComment } }],
  updateWhiteboardComment: [
    {
      name: "edit",
      request: { params, body: { text: "Can we split this epic in two?" } },
      response: { status: 200, body: { ...exampleComment, text: "Can we split this epic in two?" } }
    }
  ],
  resolveWhiteboardComment: [
    {
      name: "resolve",
      request: { params, body: { resolved: true } },
      response: { status: 200, body: { ...exampleComment, resolved: true } }
    }
  ],
  deleteWhiteboardComment: [{ name: "delete", request: { params }, response: { status: 204 } }],
  listElementComments: [
    {
      name: "element",
      request: { params: { whiteboardId: exampleWhiteboardId, elementId: "sticky-42" } },
      response: { status: 200, body: { items: [exampleComment] } }
    }
  ]
})
