/**
 * Moderation decisions on what the Board actor owns: a waiting feature
 * request or comment is approved (shown), declined (hidden), or put back in
 * the queue (undo). Run by the Board actor inside `commitBoardWrite`, so the
 * row, the request's comment count and the change-log entry commit together
 * and the actor's memory follows.
 */
import { Effect, Schema } from "effect"
import { query } from "../../persistence/Sql.ts"
import type { WriteBody } from "./BoardLog.ts"
import { commentById } from "./Discussion.ts"
import { type BoardState, ModerationState } from "./FeedbackModel.ts"
import { requestOf, reread, withRequests } from "./RequestWrites.ts"
import { CommentNotOnBoard } from "./FeedbackErrors.ts"

export const ModerationTarget = Schema.Literals(["request", "comment"])

export const ModerationDecision = Schema.Struct({
  by: Schema.String,
  target: ModerationTarget,
  id: Schema.String,
  state: ModerationState
})

/** Comments that count on a request: shown to everyone, approved, not deleted. */
const recountComments = (requestId: string) =>
  query(
    `UPDATE feedback_requests SET comment_count = (SELECT count(*) FROM feedback_comments
       WHERE request_id = $1 AND NOT internal AND deleted_at IS NULL AND moderation_state = 'approved') WHERE id = $1`,
    [requestId]
  )

export const setModeration = (state: BoardState, decision: typeof ModerationDecision.Type): WriteBody<void> =>
  Effect.gen(function* () {
    let requestId = decision.id
    if (decision.target === "request") {
      yield* requestOf(state, decision.id)
      yield* query(`UPDATE feedback_requests SET moderation_state = $2, updated_at = now() WHERE id = $1`, [decision.id, decision.state])
    } else {
      const comment = yield* commentById(decision.id)
      if (comment === undefined || comment.boardId !== state.board.id || comment.deletedAt !== null) {
        return yield* new CommentNotOnBoard()
      }
      requestId = comment.requestId
      yield* query(`UPDATE feedback_comments SET moderation_state = $2, updated_at = now() WHERE id = $1`, [decision.id, decision.state])
      yield* recountComments(requestId)
    }
    const record = yield* reread(requestId)
    return {
      result: undefined,
      events: [{ type: `${decision.target}.moderated`, entityId: decision.id, data: { state: decision.state } }],
      next: withRequests(state, [record])
    }
  })
