/** Request and response examples of the operations in WikiComments.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { examples } from "../../actors/wiki/WikiViews.ts"

const commentId = "5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b"

const alice = { userId: examples.userId, name: "Alice", email: "alice@example.com" }

const exampleComment = {
  id: commentId,
  pageId: examples.pageId,
  spaceId: examples.spaceId,
  parentId: null,
  author: alice,
  body: "Is this still the right VPN? @bob@example.com",
  mentions: [{ userId: "7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d", name: "Bob", email: "bob@example.com" }],
  anchor: { quote: "Install the VPN", text: "Install the VPN", from: 31, to: 46, detached: false },
  resolved: false,
  resolvedAt: null,
  resolvedBy: null,
  editedAt: null,
  deleted: false,
  createdAt: examples.at,
  updatedAt: examples.at
}

const exampleReply = {
  ...exampleComment,
  id: "6f7a8b9c-0d1e-4f2a-9b3c-4d5e6f7a8b9c",
  parentId: commentId,
  body: "Yes, since March.",
  mentions: [],
  anchor: null
}

export const wikiCommentsExamples = examplesById({
  listWikiComments: [
    {
      name: "open",
      request: { params: { pageId: examples.pageId }, query: { status: "open" } },
      response: { status: 200, body: { items: [{ ...exampleComment, replies: [exampleReply] }] } }
    }
  ],
  createWikiComment: [
    {
      name: "inline",
      request: {
        params: { pageId: examples.pageId },
        body: { body: "Is this still the right VPN? @bob@example.com", anchor: { quote: "Install the VPN" } }
      },
      response: { status: 201, body: exampleComment }
    }
  ],
  getWikiComment: [
    {
      name: "thread",
      request: { params: { commentId } },
      response: { status: 200, body: { ...exampleComment, replies: [exampleReply] } }
    }
  ],
  replyToWikiComment: [
    {
      name: "reply",
      request: { params: { commentId }, body: { body: "Yes, since March." } },
      response: { status: 201, body: exampleReply }
    }
  ],
  updateWikiComment: [
    {
      name: "edit",
      request: { params: { commentId }, body: { body: "Is this still the right VPN client?" } },
      response: {
        status: 200,
        body: { ...exampleComment, body: "Is this still the right VPN client?", mentions: [], editedAt: examples.at }
      }
    }
  ],
  deleteWikiComment: [{ name: "delete", request: { params: { commentId } }, response: { status: 204 } }],
  resolveWikiComment: [
    {
      name: "resolve",
      request: { params: { commentId } },
      response: { status: 200, body: { ...exampleComment, resolved: true, resolvedAt: examples.at, resolvedBy: examples.userId } }
    }
  ],
  reopenWikiComment: [{ name: "reopen", request: { params: { commentId } }, response: { status: 200, body: exampleComment } }],
  listWikiSpaceComments: [
    {
      name: "open",
      request: { params: { spaceId: examples.spaceId } },
      response: {
        status: 200,
        body: { items: [{ ...exampleComment, page: { id: examples.pageId, title: "Onboarding", slug: "onboarding" }, replyCount: 1 }] }
      }
    }
  ],
  listMyWikiMentions: [
    {
      name: "mine",
      request: { query: { workspaceId: examples.workspaceId } },
      response: {
        status: 200,
        body: { items: [{ ...exampleComment, page: { id: examples.pageId, title: "Onboarding", slug: "onboarding" } }] }
      }
    }
  ]
})
