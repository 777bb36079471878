/** Request and response examples of the operations in ChatIngestionResource.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"

const exampleWorkspaceId = "0b9e4c1a-6f0e-4d5f-9a77-3f7c2f1e8a10"

const exampleDocumentId = "6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c9e"

const exampleMessages = [
  {
    externalId: "1732190400.000100",
    author: "Alice",
    authorEmail: "alice@example.com",
    sentAt: "2026-11-21T12:00:00.000Z",
    text: "Can we ship the beta on Friday?"
  },
  {
    externalId: "1732190460.000200",
    author: "Bob",
    authorEmail: "bob@example.com",
    sentAt: "2026-11-21T12:01:00.000Z",
    text: "Yes, I'll cut the release Thursday night."
  }
]

const exampleSummary = {
  id: exampleDocumentId,
  workspaceId: exampleWorkspaceId,
  source: "chatapp",
  externalId: "C024BE91L",
  channel: "#release",
  title: "Beta release thread",
  url: "https://chat.example.com/archives/C024BE91L/p1732190400000100",
  ingestedBy: "6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f",
  messageCount: 2,
  firstMessageAt: "2026-11-21T12:00:00.000Z",
  lastMessageAt: "2026-11-21T12:01:00.000Z",
  createdAt: "2026-11-21T12:05:00.000Z",
  updatedAt: "2026-11-21T12:05:00.000Z"
}

const exampleDocument = { ...exampleSummary, messages: exampleMessages.map((m, i) => ({ position: i + 1, ...m })) }

export const chatIngestionResourceExamples = examplesById({
  createChatDocument: [
    {
      name: "thread",
      request: {
        params: { workspaceId: exampleWorkspaceId },
        body: {
          source: "chatapp",
          externalId: "C024BE91L",
          title: exampleSummary.title,
          channel: "#release",
          url: exampleSummary.url,
          messages: exampleMessages
        }
      },
      response: { status: 201, body: { ...exampleSummary, created: true } }
    }
  ],
  listChatDocuments: [
    {
      name: "list",
      request: { params: { workspaceId: exampleWorkspaceId }, query: { source: "chatapp" } },
      response: { status: 200, body: { items: [exampleSummary], nextCursor: null } }
    }
  ],
  getChatDocument: [
    {
      name: "get",
      request: { params: { workspaceId: exampleWorkspaceId, documentId: exampleDocumentId } },
      response: { status: 200, body: exampleDocument }
    }
  ],
  appendChatMessages: [
    {
      name: "append",
      request: {
        params: { workspaceId: exampleWorkspaceId, documentId: exampleDocumentId },
        body: {
          messages: [{ externalId: "1732190520.000300", author: "Alice", sentAt: "2026-11-21T12:02:00.000Z", text: "Great, thanks!" }]
        }
      },
      response: { status: 200, body: { ...exampleSummary, messageCount: 3, lastMessageAt: "2026-11-21T12:02:00.000Z", added: 1 } }
    }
  ],
  deleteChatDocument: [
    { name: "delete", request: { params: { workspaceId: exampleWorkspaceId, documentId: exampleDocumentId } }, response: { status: 204 } }
  ]
})
