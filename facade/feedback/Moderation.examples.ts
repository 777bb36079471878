/** Request and response examples of the operations in Moderation.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { ex } from "./deskExamples.ts"

const itemParams = { boardId: ex.boardId, itemId: ex.featureRequestId }

const exampleItem = {
  id: ex.featureRequestId,
  boardId: ex.boardId,
  kind: "featureRequest",
  shortId: "FR-7",
  authorId: ex.memberId,
  authorName: null,
  title: "Dark mode",
  excerpt: "Please add a dark theme",
  spam: false,
  spamReasons: [],
  createdAt: ex.at
}

const exampleLog = {
  id: ex.logEntryId,
  boardId: ex.boardId,
  action: "approve",
  itemId: ex.featureRequestId,
  targetKind: "featureRequest",
  targetId: ex.featureRequestId,
  detail: {},
  actedBy: ex.userId,
  actedAt: ex.at,
  undoable: true,
  undoneAt: null,
  undoneBy: null
}

export const moderationExamples = examplesById({
  listModerationQueue: [
    { name: "queue", request: { params: { boardId: ex.boardId } }, response: { status: 200, body: { items: [exampleItem] } } }
  ],
  approveModerationItem: [
    { name: "approve", request: { params: itemParams, body: { verifyAuthor: false } }, response: { status: 200, body: exampleLog } }
  ],
  declineModerationItem: [
    {
      name: "decline",
      request: { params: itemParams, body: { reason: "Off topic" } },
      response: { status: 200, body: { ...exampleLog, action: "decline", detail: { reason: "Off topic" } } }
    }
  ],
  markModerationSpam: [
    {
      name: "spam",
      request: { params: itemParams, body: { spam: true, reason: "Link farm" } },
      response: { status: 200, body: { ...exampleLog, action: "markSpam", detail: { reason: "Link farm" } } }
    }
  ],
  listModerationLog: [
    { name: "log", request: { params: { boardId: ex.boardId } }, response: { status: 200, body: { items: [exampleLog] } } }
  ],
  undoModerationAction: [
    {
      name: "undo",
      request: { params: { boardId: ex.boardId, entryId: ex.logEntryId } },
      response: {
        status: 200,
        body: { ...exampleLog, action: "undo", detail: { undid: ex.logEntryId, action: "approve" }, undoable: false }
      }
    }
  ]
})
