/** Request and response examples of the operations in Boards.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { exampleBoard, examples } from "./FeedbackViews.ts"

const params = { boardId: examples.boardId }

export const boardsExamples = examplesById({
  createBoard: [
    {
      name: "public-board",
      request: {
        body: {
          workspaceId: examples.workspaceId,
          name: "Product ideas",
          slug: "product-ideas",
          visibility: "public",
          description: "Tell us what to build next"
        }
      },
      response: { status: 201, body: exampleBoard }
    }
  ],
  listBoards: [
    {
      name: "list",
      request: { query: { workspaceId: examples.workspaceId } },
      response: { status: 200, body: { items: [exampleBoard] } }
    }
  ],
  getBoard: [{ name: "get", request: { params }, response: { status: 200, body: exampleBoard } }],
  updateBoard: [
    { name: "rename", request: { params, body: { name: "Ideas" } }, response: { status: 200, body: { ...exampleBoard, name: "Ideas" } } }
  ],
  deleteBoard: [{ name: "delete", request: { params }, response: { status: 204 } }],
  archiveBoard: [
    {
      name: "archive",
      request: { params },
      response: { status: 200, body: { ...exampleBoard, archived: true, archivedAt: examples.at } }
    }
  ],
  restoreBoard: [{ name: "restore", request: { params }, response: { status: 200, body: exampleBoard } }],
  getBoardSettings: [{ name: "get", request: { params }, response: { status: 200, body: exampleBoard.settings } }],
  updateBoardSettings: [
    {
      name: "moderate-and-anonymous",
      request: { params, body: { moderation: true, anonymousVoting: true } },
      response: { status: 200, body: { ...exampleBoard.settings, moderation: true, anonymousVoting: true } }
    }
  ]
})
