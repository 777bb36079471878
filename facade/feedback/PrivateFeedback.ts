/**
 * feedback tag "Private Feedback Resource" (2): a submission only the
 * board's team sees — anyone who may see the board sends it; it never
 * appears on the board, in public reads or to other posters.
 */
import { Effect, Schema } from "effect"
import { privateFeedbackOfBoard } from "../../actors/feedback/DeskQueries.ts"
import { PrivateFeedback } from "../../actors/feedback/DeskRecords.ts"
import { Id, Name } from "../../actors/Fields.ts"
import { orDieStore } from "../../runtime/ActorStore.ts"
import { tagGroup } from "../Operation.ts"
import { onBoard } from "./DeskAccess.ts"

import { privateFeedbackExamples } from "./PrivateFeedback.examples.ts"
import { desk } from "./BoardAsk.ts"

const { operation } = tagGroup("feedback", "Private Feedback Resource", privateFeedbackExamples)

export const privateFeedbackOperations = [
  operation({
    operationId: "createPrivateFeedback",
    method: "POST",
    path: "/v1/boards/{boardId}/private-feedback",
    summary: "Send feedback only the board's team will see",
    auth: "both",
    scopes: ["feedback:write"],
    params: Schema.Struct({ boardId: Id }),
    body: Schema.Struct({
      title: Name(300),
      body: Schema.String.check(Schema.isMaxLength(20_000), Schema.isPattern(/\S/, { expected: "a non-blank text" }))
    }),
    responses: { 201: { description: "Sent", schema: PrivateFeedback } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onBoard(context, params.boardId, "see")
        return yield* desk(params.boardId).createPrivateFeedback({
          by: caller.userId,
          input: {
            workspaceId: caller.view.board.workspaceId,
            title: body.title,
            body: body.body,
            email: null,
            name: null
          }
        })
      })
  }),
  operation({
    operationId: "listPrivateFeedback",
    method: "GET",
    path: "/v1/boards/{boardId}/private-feedback",
    summary: "The private feedback sent to the board, newest first (team only)",
    auth: "both",
    scopes: ["feedback:read"],
    params: Schema.Struct({ boardId: Id }),
    query: Schema.Struct({
      limit: Schema.optionalKey(Schema.FiniteFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 200 }))),
      offset: Schema.optionalKey(Schema.FiniteFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 0, maximum: 1_000_000 })))
    }),
    responses: { 200: { description: "Feedback", schema: Schema.Struct({ items: Schema.Array(PrivateFeedback) }) } },
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        yield* onBoard(context, params.boardId, "team")
        return { items: yield* orDieStore(privateFeedbackOfBoard(params.boardId, query.limit ?? 50, query.offset ?? 0)) }
      })
  })
]
