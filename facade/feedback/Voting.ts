/**
 * feedback tags "Vote Resource" (2) and "Merge Resource" (1).
 *
 * A vote is one per voter and request, removable. A team member may vote on
 * behalf of a customer (by e-mail; recorded with who cast it; a customer with
 * an account counts as that user, so they never count twice). Anonymous
 * votes come through the public board (its own operations) with the same
 * Board actor message.
 *
 * Merging a duplicate into its original (board admins; across boards only
 * for admins of both) moves voters and subscribers, links the comments, and
 * marks the duplicate `mergedInto`; self-merges and merges that would chain
 * or cycle are refused. The moderation log can undo it.
 */
import { Effect, Schema } from "effect"
import { Email, Id, normalizeEmail } from "../../actors/Fields.ts"
import type { Voter } from "../../actors/feedback/Votes.ts"
import { reject } from "../../runtime/Rejection.ts"
import { refusalCode } from "../HttpError.ts"
import { type RequestContext, tagGroup } from "../Operation.ts"
import { board, FeatureRequestParams } from "./BoardAsk.ts"
import { type BoardCaller, requestAccess } from "./FeedbackAccess.ts"
import { FeatureRequest, featureRequestOf, service } from "./FeedbackViews.ts"
import { voteResourceExamples, mergeResourceExamples } from "./Voting.examples.ts"

const OnBehalfQuery = Schema.Struct({
  onBehalfOfEmail: Schema.optionalKey(Email.annotate({ description: "Vote for this customer (team members only)" })),
  onBehalfOfName: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(120)))
})

const VoteResult = Schema.Struct({
  featureRequestId: Id,
  voted: Schema.Boolean,
  voteCount: Schema.Number,
  onBehalfOf: Schema.NullOr(Schema.Struct({ email: Schema.String, name: Schema.NullOr(Schema.String) }))
}).annotate({ identifier: "FeedbackVoteResult" })

/** Who the vote is for: the caller, or (team members only) a customer by e-mail. */
const voterFor = (caller: BoardCaller, query: typeof OnBehalfQuery.Type) =>
  Effect.gen(function* () {
    if (query.onBehalfOfEmail === undefined) {
      if (query.onBehalfOfName !== undefined) {
        return yield* reject("invalid", "Name the customer's e-mail too", [
          { path: "query.onBehalfOfEmail", message: "required with onBehalfOfName" }
        ])
      }
      return { kind: "user", userId: caller.userId } satisfies Voter
    }
    if (!caller.team) return yield* reject("forbidden", "Only the board's team may vote on behalf of a customer")
    // The Board actor looks the customer's account up as it commits.
    return {
      kind: "customer",
      email: normalizeEmail(query.onBehalfOfEmail),
      name: query.onBehalfOfName ?? null,
      castBy: caller.userId
    } satisfies Voter
  })

const castOrWithdraw = (tag: "vote" | "unvote") => (featureRequestId: string, query: typeof OnBehalfQuery.Type, context: RequestContext) =>
  Effect.gen(function* () {
    const { caller, boardId } = yield* requestAccess(context, featureRequestId, "vote")
    const voter = yield* voterFor(caller, query)
    const outcome = yield* board(boardId)[tag]({ by: caller.userId, requestId: featureRequestId, voter })
    return {
      featureRequestId,
      voted: outcome.voted,
      voteCount: outcome.voteCount,
      onBehalfOf: voter.kind === "customer" ? { email: voter.email, name: outcome.customerName ?? null } : null
    }
  })

const MergeResult = Schema.Struct({
  mergeId: Id,
  /** The duplicate, now pointing at the original. */
  featureRequest: FeatureRequest,
  /** The original, with the moved votes. */
  into: FeatureRequest,
  movedVotes: Schema.Number,
  duplicateVotes: Schema.Number.annotate({ description: "Voters who had voted on both: they count once" }),
  movedSubscribers: Schema.Number
}).annotate({ identifier: "FeedbackMergeResult" })

const voteResourceTag = tagGroup(service, "Vote Resource", voteResourceExamples)
const mergeResourceTag = tagGroup(service, "Merge Resource", mergeResourceExamples)

export const votingOperations = [
  voteResourceTag.operation({
    operationId: "voteFeatureRequest",
    method: "POST",
    path: "/v1/feature-requests/{featureRequestId}/votes",
    summary: "Vote for a feature request (once per voter), or for a customer on their behalf",
    description: "Voting subscribes the voter to the request. A second vote by the same voter is 409.",
    auth: "both",
    scopes: ["feedback:write"],
    params: FeatureRequestParams,
    query: OnBehalfQuery,
    responses: {
      201: { description: "Counted", schema: VoteResult },
      403: { description: "The board's settings do not let the caller vote" },
      409: { description: "Already voted, or the request is merged or locked" }
    },
    handler: ({ params, query }, context) => castOrWithdraw("vote")(params.featureRequestId, query, context)
  }),
  voteResourceTag.operation({
    operationId: "unvoteFeatureRequest",
    method: "DELETE",
    path: "/v1/feature-requests/{featureRequestId}/votes",
    summary: "Withdraw one's vote (or, for the team, a customer's vote cast on their behalf)",
    auth: "both",
    scopes: ["feedback:write"],
    params: FeatureRequestParams,
    query: OnBehalfQuery,
    responses: { 200: { description: "Withdrawn", schema: VoteResult }, 404: { description: "No such vote" } },
    handler: ({ params, query }, context) => castOrWithdraw("unvote")(params.featureRequestId, query, context)
  }),
  mergeResourceTag.operation({
    operationId: "mergeFeatureRequest",
    method: "POST",
    path: "/v1/feature-requests/{featureRequestId}/merge",
    summary: "Merge a duplicate into the original: voters and subscribers move over, comments are linked (board admins)",
    description:
      "A voter of both keeps one vote. Refused: merging into itself (400), into a request that is itself merged (409: it would chain or cycle), into another board's request unless the caller is an admin of both (403).",
    auth: "both",
    scopes: ["feedback:write"],
    params: FeatureRequestParams,
    body: Schema.Struct({ intoId: Id.annotate({ description: "The original" }) }),
    responses: {
      200: { description: "Merged", schema: MergeResult },
      409: { description: "Already merged, or the original is itself merged" }
    },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const source = yield* requestAccess(context, params.featureRequestId, "admin")
        if (body.intoId === params.featureRequestId) {
          return yield* reject("invalid", "A request cannot be merged into itself", [{ path: "body.intoId", message: "same request" }])
        }
        const target = yield* requestAccess(context, body.intoId).pipe(
          Effect.catchIf(
            (e) => refusalCode(e) === "not_found",
            () => Effect.fail(reject("not_found", "No such request to merge into", [{ path: "body.intoId", message: "not found" }]))
          )
        )
        if (target.boardId !== source.boardId && !target.caller.admin) {
          return yield* reject("forbidden", "Merging across boards needs admin rights on both boards", [
            { path: "body.intoId", message: "on a board you do not administer" }
          ])
        }
        const outcome = yield* board(source.boardId).merge({
          by: source.caller.userId,
          requestId: source.request.id,
          intoId: target.request.id,
          targetBoardId: target.boardId
        })
        const merged = yield* board(source.boardId).request({ requestId: source.request.id })
        const into = yield* board(target.boardId).request({ requestId: target.request.id })
        return {
          mergeId: outcome.mergeId,
          featureRequest: yield* featureRequestOf(source.caller.view, merged),
          into: yield* featureRequestOf(target.caller.view, into),
          movedVotes: outcome.movedVotes,
          duplicateVotes: outcome.duplicateVotes,
          movedSubscribers: outcome.movedSubscribers
        }
      })
  })
]
