/** Request and response examples of the operations in Comments.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { examples } from "./FeedbackViews.ts"

const exampleComment = {
  id: examples.commentId,
  featureRequestId: examples.featureRequestId,
  parentId: null,
  author: { userId: examples.userId, name: "Alice" },
  visitor: null,
  body: "We need this for night shifts.",
  internal: false,
  mentions: [],
  moderationState: "approved",
  fromFeatureRequestId: null,
  editedAt: null,
  deleted: false,
  createdAt: examples.at,
  updatedAt: examples.at
}

export const featureRequestCommentResourceExamples = examplesById({
  listFeatureRequestComments: [
    {
      name: "threads",
      request: { params: { featureRequestId: examples.featureRequestId } },
      response: { status: 200, body: { items: [{ ...exampleComment, replies: [] }] } }
    }
  ],
  createFeatureRequestComment: [
    {
      name: "comment",
      request: { params: { featureRequestId: examples.featureRequestId }, body: { body: "We need this for night shifts." } },
      response: { status: 201, body: exampleComment }
    }
  ]
})
export const commentResourceExamples = examplesById({
  getComment: [{ name: "get", request: { params: { commentId: examples.commentId } }, response: { status: 200, body: exampleComment } }],
  updateComment: [
    {
      name: "edit",
      request: { params: { commentId: examples.commentId }, body: { body: "We need this for night shifts, badly." } },
      response: { status: 200, body: { ...exampleComment, body: "We need this for night shifts, badly.", editedAt: examples.at } }
    }
  ],
  deleteComment: [{ name: "delete", request: { params: { commentId: examples.commentId } }, response: { status: 204 } }]
})
