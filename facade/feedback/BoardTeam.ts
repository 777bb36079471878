/**
 * feedback tag "Board Resource", part 2 (8 of 29): the people of a board —
 * its members and admins (board admins manage them; members see a private
 * board, admins configure and moderate it), the caller's subscription to the
 * whole board, and what the caller may do on it.
 */
import { Effect, Schema } from "effect"
import { Id, Timestamp } from "../../actors/Fields.ts"
import { BoardRole } from "../../actors/feedback/FeedbackModel.ts"
import { isBoardSubscribed } from "../../actors/feedback/RequestQueries.ts"
import { reject } from "../../runtime/Rejection.ts"
import { type RequestContext, tagGroup } from "../Operation.ts"
import { board, BoardParams } from "./BoardAsk.ts"
import { boardAccess, roleIn } from "./FeedbackAccess.ts"
import { names, Subscription, service } from "./FeedbackViews.ts"
import { boardTeamExamples } from "./BoardTeam.examples.ts"
const MemberParams = Schema.Struct({ boardId: Id, userId: Id })

const BoardMemberView = Schema.Struct({ userId: Id, name: Schema.String, role: BoardRole, addedAt: Timestamp }).annotate({
  identifier: "FeedbackBoardMember"
})

const Permissions = Schema.Struct({
  see: Schema.Boolean,
  post: Schema.Boolean,
  vote: Schema.Boolean,
  comment: Schema.Boolean,
  team: Schema.Boolean.annotate({ description: "Sees internal notes and pending posts; votes for customers" }),
  admin: Schema.Boolean.annotate({ description: "Configures the board, changes statuses, merges, moderates" })
}).annotate({ identifier: "FeedbackBoardPermissions" })

const memberView = (member: { userId: string; role: "admin" | "member"; addedAt: string }) =>
  Effect.map(names([member.userId]), (person) => ({ ...member, name: person(member.userId)!.name }))

const setMember = (context: RequestContext, boardId: string, userId: string, role: "admin" | "member") =>
  Effect.gen(function* () {
    const caller = yield* boardAccess(context, boardId, "admin")
    if ((yield* roleIn(userId, caller.view.board.workspaceId)) === null) {
      return yield* reject("invalid", "Board members must be members of the workspace", [
        { path: "body.userId", message: "not a member of the workspace" }
      ])
    }
    return yield* memberView(yield* board(boardId).setMember({ by: caller.userId, userId, role }))
  })

const subscription = (subscribed: boolean) => (boardId: string, context: RequestContext) =>
  Effect.flatMap(boardAccess(context, boardId), (caller) =>
    Effect.map(board(boardId).subscribeBoard({ by: caller.userId, subscribed }), (value) => ({ subscribed: value }))
  )

const can = (settings: { whoMayPost: string; whoMayVote: string }, team: boolean, admin: boolean) => ({
  post: settings.whoMayPost === "anyone" || (settings.whoMayPost === "members" ? team : admin),
  vote: settings.whoMayVote === "anyone" || team
})

const { operation } = tagGroup(service, "Board Resource", boardTeamExamples)

export const boardTeamOperations = [
  operation({
    operationId: "listBoardMembers",
    method: "GET",
    path: "/v1/boards/{boardId}/members",
    summary: "The board's members and admins",
    auth: "both",
    scopes: ["feedback:read"],
    params: BoardParams,
    responses: {
      200: {
        description: "Members",
        schema: Schema.Struct({ items: Schema.Array(BoardMemberView) }).annotate({ identifier: "FeedbackBoardMemberList" })
      }
    },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* boardAccess(context, params.boardId, "team")
        const person = yield* names(caller.view.members.map((m) => m.userId))
        return { items: caller.view.members.map((m) => ({ ...m, name: person(m.userId)!.name })) }
      })
  }),
  operation({
    operationId: "addBoardMember",
    method: "POST",
    path: "/v1/boards/{boardId}/members",
    summary: "Make a workspace member a member or admin of the board (board admins)",
    auth: "both",
    scopes: ["feedback:write"],
    params: BoardParams,
    body: Schema.Struct({ userId: Id, role: BoardRole }),
    responses: { 201: { description: "Added (or their role changed)", schema: BoardMemberView } },
    handler: ({ params, body }, context) => setMember(context, params.boardId, body.userId, body.role)
  }),
  operation({
    operationId: "updateBoardMember",
    method: "PATCH",
    path: "/v1/boards/{boardId}/members/{userId}",
    summary: "Change a board member's role (board admins)",
    auth: "both",
    scopes: ["feedback:write"],
    params: MemberParams,
    body: Schema.Struct({ role: BoardRole }),
    responses: { 200: { description: "Changed", schema: BoardMemberView }, 404: { description: "Not a member of the board" } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* boardAccess(context, params.boardId, "admin")
        if (!caller.view.members.some((m) => m.userId === params.userId))
          return yield* reject("not_found", "That user is not a member of this board")
        return yield* setMember(context, params.boardId, params.userId, body.role)
      })
  }),
  operation({
    operationId: "removeBoardMember",
    method: "DELETE",
    path: "/v1/boards/{boardId}/members/{userId}",
    summary: "Remove someone from the board's members (board admins)",
    auth: "both",
    scopes: ["feedback:write"],
    params: MemberParams,
    responses: { 204: { description: "Removed" }, 404: { description: "Not a member of the board" } },
    handler: ({ params }, context) =>
      Effect.flatMap(boardAccess(context, params.boardId, "admin"), (caller) =>
        board(params.boardId).removeMember({ by: caller.userId, userId: params.userId })
      )
  }),
  operation({
    operationId: "subscribeToBoard",
    method: "PUT",
    path: "/v1/boards/{boardId}/subscription",
    summary: "Follow the whole board: be told of each new request (as the board's notification preference says)",
    auth: "both",
    scopes: ["feedback:write"],
    params: BoardParams,
    responses: { 200: { description: "Following", schema: Subscription } },
    handler: ({ params }, context) => subscription(true)(params.boardId, context)
  }),
  operation({
    operationId: "unsubscribeFromBoard",
    method: "DELETE",
    path: "/v1/boards/{boardId}/subscription",
    summary: "Stop following the board",
    auth: "both",
    scopes: ["feedback:write"],
    params: BoardParams,
    responses: { 200: { description: "Not following", schema: Subscription } },
    handler: ({ params }, context) => subscription(false)(params.boardId, context)
  }),
  operation({
    operationId: "getBoardSubscription",
    method: "GET",
    path: "/v1/boards/{boardId}/subscription",
    summary: "Whether the caller follows the board",
    auth: "both",
    scopes: ["feedback:read"],
    params: BoardParams,
    responses: { 200: { description: "Subscription", schema: Subscription } },
    handler: ({ params }, context) =>
      Effect.flatMap(boardAccess(context, params.boardId), (caller) =>
        Effect.map(Effect.orDie(isBoardSubscribed(params.boardId, caller.userId)), (subscribed) => ({ subscribed }))
      )
  }),
  operation({
    operationId: "getBoardPermissions",
    method: "GET",
    path: "/v1/boards/{boardId}/permissions",
    summary: "What the caller may do on the board (for showing or hiding buttons)",
    auth: "both",
    scopes: ["feedback:read"],
    params: BoardParams,
    responses: { 200: { description: "Permissions", schema: Permissions } },
    handler: ({ params }, context) =>
      Effect.map(boardAccess(context, params.boardId), (caller) => {
        const board = caller.view.board
        const open = !board.archived
        const allowed = can(board.settings, caller.team, caller.admin)
        return {
          see: true,
          post: open && allowed.post,
          vote: open && allowed.vote,
          comment: open && board.settings.allowComments,
          team: caller.team,
          admin: caller.admin
        }
      })
  })
]
