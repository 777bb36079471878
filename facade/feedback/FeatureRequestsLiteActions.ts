/**
 * feedback tag "Feature Requests (Lite)", actions (4 of 8): status by name,
 * votes (also on behalf of a customer by e-mail), comments with @e-mail
 * mentions, and merging duplicates — all by short id.
 */
import { randomUUID } from "node:crypto"
import { Effect, Schema } from "effect"
import type { Board } from "../../actors/feedback/Board.ts"
import { shortIdOf } from "../../actors/feedback/FeedbackModel.ts"
import { Workspace } from "../../actors/identity/Workspace.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { reject } from "../../runtime/Rejection.ts"
import { tagGroup } from "../Operation.ts"
import { heldFor, onBoard } from "./DeskAccess.ts"

import { Id, LiteEmail, NameRef, optionByName, userByEmail, Where } from "./LiteRefs.ts"

import { LiteFeatureRequest, RefParams, RequestRef, liteOne, liteRequests, requestByRef } from "./LiteRequestViews.ts"
import { featureRequestsLiteActionsExamples } from "./FeatureRequestsLiteActions.examples.ts"
import { board } from "./BoardAsk.ts"
const write = ["feedback:write"]

const { operation } = tagGroup("feedback", "Feature Requests (Lite)", featureRequestsLiteActionsExamples)

export const featureRequestsLiteActionOperations = [
  operation({
    operationId: "setFeatureRequestStatusLite",
    method: "POST",
    path: "/v1/lite/feature-requests/{requestRef}/status",
    summary: "Move a feature request to a status by name, with an optional note (board admins); subscribers are notified",
    auth: "both",
    scopes: write,
    params: RefParams,
    body: Schema.Struct({ ...Where, status: NameRef, note: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(2_000))) }),
    responses: { 200: { description: "The request", schema: LiteFeatureRequest } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { caller, record } = yield* requestByRef(context, body, params.requestRef, "path.requestRef", "body.board")
        if (!caller.admin) return yield* reject("forbidden", "Only the board's admins change statuses")
        const status = yield* optionByName(caller, "status", body.status, "body.status")
        const updated = yield* board(caller.view.board.id).changeStatus({
          by: caller.userId,
          requestId: record.id,
          statusId: status.id,
          note: body.note ?? ""
        })
        return yield* liteOne(caller, updated)
      })
  }),
  operation({
    operationId: "voteFeatureRequestLite",
    method: "POST",
    path: "/v1/lite/feature-requests/{requestRef}/votes",
    summary: "Vote for a feature request, or (team) on behalf of a customer by e-mail",
    auth: "both",
    scopes: write,
    params: RefParams,
    body: Schema.Struct({ ...Where, onBehalfOfEmail: Schema.optionalKey(LiteEmail) }),
    responses: { 200: { description: "The request", schema: LiteFeatureRequest }, 409: { description: "Already voted" } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { caller: seen, record } = yield* requestByRef(context, body, params.requestRef, "path.requestRef", "body.board")
        const caller = yield* onBoard(context, seen.view.board.id, "vote")
        let voter: (typeof Board.messages.vote.payload.Type)["voter"] = { kind: "user", userId: caller.userId }
        if (body.onBehalfOfEmail !== undefined) {
          if (!caller.team) return yield* reject("forbidden", "Only the board's team may vote on behalf of a customer")
          // Named as their account, if they have one (the Board actor looks it up).
          voter = { kind: "customer", email: body.onBehalfOfEmail.trim().toLowerCase(), name: null, castBy: caller.userId }
        }
        yield* board(caller.view.board.id).vote({ by: caller.userId, requestId: record.id, voter })
        return yield* liteOne(caller, yield* board(caller.view.board.id).request({ requestId: record.id }))
      })
  }),
  operation({
    operationId: "commentOnFeatureRequestLite",
    method: "POST",
    path: "/v1/lite/feature-requests/{requestRef}/comments",
    summary: "Comment on a feature request; @e-mail mentions of workspace members notify them; the team may post internal notes",
    auth: "both",
    scopes: write,
    params: RefParams,
    body: Schema.Struct({
      ...Where,
      body: Schema.String.check(Schema.isMaxLength(20_000), Schema.isPattern(/\S/, { expected: "a non-blank comment" })),
      internal: Schema.optionalKey(Schema.Boolean),
      mentionEmails: Schema.optionalKey(Schema.Array(LiteEmail).check(Schema.isMaxLength(50)))
    }),
    responses: {
      201: {
        description: "Posted",
        schema: Schema.Struct({
          id: Id,
          shortId: Schema.String,
          body: Schema.String,
          internal: Schema.Boolean,
          moderationState: Schema.String,
          createdAt: Schema.String
        })
      }
    },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { caller, record } = yield* requestByRef(context, body, params.requestRef, "path.requestRef", "body.board")
        const internal = body.internal ?? false
        if (internal && !caller.team)
          return yield* reject("forbidden", "Only the board's team may post internal notes", [
            { path: "body.internal", message: "team only" }
          ])
        const mentions: Array<string> = []
        for (const [index, email] of (body.mentionEmails ?? []).entries()) {
          const user = yield* userByEmail(email, `body.mentionEmails.${index}`)
          const role = yield* Workspace.client(yield* ActorSystem)(caller.view.board.workspaceId)
            .roleOf({ userId: user.id })
            .pipe(Effect.option)
          if (role._tag === "None")
            return yield* reject("invalid", `${email} is not a member of this workspace`, [
              { path: `body.mentionEmails.${index}`, message: "not a member" }
            ])
          mentions.push(user.id)
        }
        const comment = yield* board(caller.view.board.id).addComment({
          by: caller.userId,
          commentId: randomUUID(),
          requestId: record.id,
          parentId: null,
          authorName: null,
          body: body.body,
          internal,
          mentions,
          moderationState: internal ? "approved" : yield* heldFor(caller)
        })
        return {
          id: comment.id,
          shortId: shortIdOf(record.number),
          body: comment.body,
          internal: comment.internal,
          moderationState: comment.moderationState,
          createdAt: comment.createdAt
        }
      })
  }),
  operation({
    operationId: "mergeFeatureRequestLite",
    method: "POST",
    path: "/v1/lite/feature-requests/{requestRef}/merge",
    summary: "Merge a duplicate into the original, both by short id (board admins); voters and subscribers move over",
    auth: "both",
    scopes: write,
    params: RefParams,
    body: Schema.Struct({ ...Where, into: RequestRef, intoBoard: Schema.optionalKey(NameRef) }),
    responses: { 200: { description: "The duplicate, pointing at the original", schema: LiteFeatureRequest } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const source = yield* requestByRef(context, body, params.requestRef, "path.requestRef", "body.board")
        const target = yield* requestByRef(
          context,
          { workspaceId: body.workspaceId, ...((body.intoBoard ?? body.board) ? { board: (body.intoBoard ?? body.board)! } : {}) },
          body.into,
          "body.into",
          "body.intoBoard"
        )
        if (!source.caller.admin || !target.caller.admin)
          return yield* reject("forbidden", "Merging needs admin rights on the boards of both requests")
        if (source.record.id === target.record.id)
          return yield* reject("invalid", "A request cannot be merged into itself", [{ path: "body.into", message: "same request" }])
        yield* board(source.caller.view.board.id).merge({
          by: source.caller.userId,
          requestId: source.record.id,
          intoId: target.record.id,
          targetBoardId: target.caller.view.board.id
        })
        const merged = yield* board(source.caller.view.board.id).request({ requestId: source.record.id })
        const [lite] = yield* liteRequests(source.caller, [merged])
        return { ...lite!, mergedInto: shortIdOf(target.record.number) }
      })
  })
]
