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
import { operation, type RequestContext } from "../Operation.ts"
import { askBoard, FeatureRequestParams } from "./BoardAsk.ts"
import { type BoardCaller, requestAccess } from "./FeedbackAccess.ts"
import { examples, exampleFeatureRequest, FeatureRequest, featureRequestOf, service } from "./FeedbackViews.ts"

const params = { featureRequestId: examples.featureRequestId }

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
    const outcome = yield* askBoard(boardId, tag, { by: caller.userId, requestId: featureRequestId, voter })
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

export const votingOperations = [
  operation({
    service,
    tag: "Vote Resource",
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
    examples: [
      {
        name: "vote",
        request: { params },
        response: { status: 201, body: { featureRequestId: examples.featureRequestId, voted: true, voteCount: 4, onBehalfOf: null } }
      },
      {
        name: "on-behalf",
        request: { params, query: { onBehalfOfEmail: "carol@customer.example", onBehalfOfName: "Carol" } },
        response: {
          status: 201,
          body: {
            featureRequestId: examples.featureRequestId,
            voted: true,
            voteCount: 5,
            onBehalfOf: { email: "carol@customer.example", name: "Carol" }
          }
        }
      }
    ],
    handler: ({ params, query }, context) => castOrWithdraw("vote")(params.featureRequestId, query, context)
  }),
  operation({
    service,
    tag: "Vote Resource",
    operationId: "unvoteFeatureRequest",
    method: "DELETE",
    path: "/v1/feature-requests/{featureRequestId}/votes",
    summary: "Withdraw one's vote (or, for the team, a customer's vote cast on their behalf)",
    auth: "both",
    scopes: ["feedback:write"],
    params: FeatureRequestParams,
    query: OnBehalfQuery,
    responses: { 200: { description: "Withdrawn", schema: VoteResult }, 404: { description: "No such vote" } },
    examples: [
      {
        name: "unvote",
        request: { params },
        response: { status: 200, body: { featureRequestId: examples.featureRequestId, voted: false, voteCount: 3, onBehalfOf: null } }
      }
    ],
    handler: ({ params, query }, context) => castOrWithdraw("unvote")(params.featureRequestId, query, context)
  }),
  operation({
    service,
    tag: "Merge Resource",
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
    examples: [
      {
        name: "merge",
        request: { params: { featureRequestId: examples.duplicateId }, body: { intoId: examples.featureRequestId } },
        response: {
          status: 200,
          body: {
            mergeId: "fbf2a3b4-5c6d-4e7f-8091-a2b3c4d5e6f7",
            featureRequest: {
              ...exampleFeatureRequest,
              id: examples.duplicateId,
              shortId: "FR-13",
              title: "Night theme",
              mergedInto: examples.featureRequestId,
              mergedAt: examples.at
            },
            into: { ...exampleFeatureRequest, voteCount: 7 },
            movedVotes: 3,
            duplicateVotes: 1,
            movedSubscribers: 2
          }
        }
      }
    ],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const source = yield* requestAccess(context, params.featureRequestId, "admin")
        if (body.intoId === params.featureRequestId) {
          return yield* reject("invalid", "A request cannot be merged into itself", [{ path: "body.intoId", message: "same request" }])
        }
        const target = yield* requestAccess(context, body.intoId).pipe(
          Effect.catchIf(
            (e) => e._tag === "Rejection" && e.code === "not_found",
            () => Effect.fail(reject("not_found", "No such request to merge into", [{ path: "body.intoId", message: "not found" }]))
          )
        )
        if (target.boardId !== source.boardId && !target.caller.admin) {
          return yield* reject("forbidden", "Merging across boards needs admin rights on both boards", [
            { path: "body.intoId", message: "on a board you do not administer" }
          ])
        }
        const outcome = yield* askBoard(source.boardId, "merge", {
          by: source.caller.userId,
          requestId: source.request.id,
          intoId: target.request.id,
          targetBoardId: target.boardId
        })
        const merged = yield* askBoard(source.boardId, "request", { requestId: source.request.id })
        const into = yield* askBoard(target.boardId, "request", { requestId: target.request.id })
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
