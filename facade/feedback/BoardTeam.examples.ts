/** Request and response examples of the operations in BoardTeam.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { examples } from "./FeedbackViews.ts"

const params = { boardId: examples.boardId }

const exampleMember = { userId: examples.memberId, name: "Bob", role: "admin", addedAt: examples.at }

export const boardTeamExamples = examplesById({
  listBoardMembers: [{ name: "list", request: { params }, response: { status: 200, body: { items: [exampleMember] } } }],
  addBoardMember: [
    {
      name: "add-admin",
      request: { params, body: { userId: examples.memberId, role: "admin" } },
      response: { status: 201, body: exampleMember }
    }
  ],
  updateBoardMember: [
    {
      name: "demote",
      request: { params: { ...params, userId: examples.memberId }, body: { role: "member" } },
      response: { status: 200, body: { ...exampleMember, role: "member" } }
    }
  ],
  removeBoardMember: [{ name: "remove", request: { params: { ...params, userId: examples.memberId } }, response: { status: 204 } }],
  subscribeToBoard: [{ name: "follow", request: { params }, response: { status: 200, body: { subscribed: true } } }],
  unsubscribeFromBoard: [{ name: "unfollow", request: { params }, response: { status: 200, body: { subscribed: false } } }],
  getBoardSubscription: [{ name: "get", request: { params }, response: { status: 200, body: { subscribed: true } } }],
  getBoardPermissions: [
    {
      name: "owner",
      request: { params },
      response: { status: 200, body: { see: true, post: true, vote: true, comment: true, team: true, admin: true } }
    }
  ]
})
