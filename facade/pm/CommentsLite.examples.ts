/** Request and response examples of the operations in CommentsLite.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { exampleIds as ids, at0 } from "./WorkAccess.ts"

const ws = ids.workspace

const exampleLiteComment = {
  id: ids.comment,
  task: "T-42",
  parentCommentId: null,
  author: "alice@example.com",
  text: "@bob@example.com can you review?",
  mentions: ["bob@example.com"],
  resolved: false,
  replyCount: 0,
  createdAt: at0,
  updatedAt: at0
}

export const commentsLiteExamples = examplesById({
  createCommentLite: [
    {
      name: "mention",
      request: { body: { workspaceId: ws, taskId: "T-42", text: "@bob@example.com can you review?" } },
      response: { status: 201, body: exampleLiteComment }
    }
  ],
  listCommentsLite: [
    {
      name: "threads",
      request: { query: { workspaceId: ws, taskId: "T-42" } },
      response: { status: 200, body: { items: [{ ...exampleLiteComment, replies: [] }], total: 1 } }
    }
  ],
  replyCommentLite: [
    {
      name: "reply",
      request: { params: { commentId: ids.comment }, body: { workspaceId: ws, text: "Looks good @alice@example.com" } },
      response: {
        status: 201,
        body: {
          ...exampleLiteComment,
          parentCommentId: ids.comment,
          text: "Looks good @alice@example.com",
          mentions: ["alice@example.com"]
        }
      }
    }
  ],
  updateCommentLite: [
    {
      name: "edit",
      request: { params: { commentId: ids.comment }, body: { workspaceId: ws, text: "@bob@example.com please review today" } },
      response: { status: 200, body: exampleLiteComment }
    }
  ]
})
