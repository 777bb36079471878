/** Request and response examples of the operations in Comments.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { tk } from "./shared.ts"
import { exampleIds as ids, at0 } from "../WorkAccess.ts"
import { exampleComment, exampleUser } from "../WorkExamples.ts"

export const commentsExamples = examplesById({
  listTaskComments: [
    {
      name: "comments",
      request: { params: tk },
      response: { status: 200, body: { items: [exampleComment], total: 1, offset: 0, limit: 50 } }
    }
  ],
  createTaskComment: [
    {
      name: "comment",
      request: { params: tk, body: { text: "@bob@example.com can you review?" } },
      response: { status: 201, body: exampleComment }
    }
  ],
  getTaskComment: [
    { name: "get", request: { params: { ...tk, commentId: ids.comment } }, response: { status: 200, body: exampleComment } }
  ],
  updateTaskComment: [
    {
      name: "edit",
      request: { params: { ...tk, commentId: ids.comment }, body: { text: "Done, thanks @bob@example.com" } },
      response: { status: 200, body: exampleComment }
    }
  ],
  deleteTaskComment: [{ name: "delete", request: { params: { ...tk, commentId: ids.comment } }, response: { status: 204 } }],
  listCommentReplies: [
    {
      name: "replies",
      request: { params: { ...tk, commentId: ids.comment } },
      response: { status: 200, body: { items: [{ ...exampleComment, parentCommentId: ids.comment }], total: 1, offset: 0, limit: 50 } }
    }
  ],
  createCommentReply: [
    {
      name: "reply",
      request: { params: { ...tk, commentId: ids.comment }, body: { text: "On it" } },
      response: { status: 201, body: { ...exampleComment, parentCommentId: ids.comment, text: "On it" } }
    }
  ],
  resolveTaskComment: [
    {
      name: "resolve",
      request: { params: { ...tk, commentId: ids.comment } },
      response: { status: 200, body: { ...exampleComment, resolved: true, resolvedAt: at0, resolvedBy: ids.user } }
    }
  ],
  reopenTaskComment: [
    { name: "reopen", request: { params: { ...tk, commentId: ids.comment } }, response: { status: 200, body: exampleComment } }
  ],
  assignTaskComment: [
    {
      name: "assign",
      request: { params: { ...tk, commentId: ids.comment }, body: { assigneeId: ids.user2 } },
      response: { status: 200, body: { ...exampleComment, assignee: exampleUser } }
    }
  ],
  addCommentReaction: [
    {
      name: "react",
      request: { params: { ...tk, commentId: ids.comment }, body: { emoji: "thumbsup" } },
      response: { status: 201, body: { ...exampleComment, reactions: [{ emoji: "thumbsup", count: 1, userIds: [ids.user] }] } }
    }
  ],
  removeCommentReaction: [
    { name: "unreact", request: { params: { ...tk, commentId: ids.comment, emoji: "thumbsup" } }, response: { status: 204 } }
  ]
})
