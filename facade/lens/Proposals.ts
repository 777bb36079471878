/**
 * Lens Proposal Resource (2) and Lens Feedback Resource (1). A proposal is
 * applied by calling the platform operation it names through the HTTP
 * pipeline with the confirming user's own credentials, so it can do exactly
 * what that user could do by hand, and nothing else.
 */
import { Effect, Schema } from "effect"
import { Id } from "../../actors/Fields.ts"
import { askThread, Feedback } from "../../actors/lens/LensThread.ts"
import { Proposal, ProposalStatus, proposalsOf } from "../../actors/lens/Proposals.ts"
import { threadOfAnswer, threadOfProposal } from "../../actors/lens/Threads.ts"
import { reject } from "../../runtime/Rejection.ts"
import { userOf, workspaceRole } from "../Access.ts"
import { invokeById } from "../Invoke.ts"
import { OperationRegistry } from "../Registry.ts"
import { type RequestContext, tagGroup } from "../Operation.ts"
import { orDieSql } from "../pm/WorkAccess.ts"

import { lensProposalResourceExamples, lensFeedbackResourceExamples } from "./Proposals.examples.ts"

const NameRef = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200))

const Decision = Schema.Struct({
  decision: Schema.Literals(["confirm", "reject"]),
  list: Schema.optionalKey(
    NameRef.annotate({ description: "The list (name, short id or id) a proposed task goes to; required to confirm a task" })
  ),
  space: Schema.optionalKey(NameRef.annotate({ description: "The list's space, when list names repeat" }))
})

/** Calls pm operation `operationId` through the HTTP pipeline with the caller's own credentials: it can do what they could by hand, nothing else. */
export const invokeAsCaller = (context: RequestContext, operationId: string, body: Record<string, unknown>) =>
  Effect.gen(function* () {
    const result = yield* invokeById(
      yield* OperationRegistry,
      "pm",
      operationId,
      { body },
      {
        authorization: context.headers?.authorization ?? "",
        apiKey: context.headers?.["x-api-key"] ?? "",
        origin: context.origin,
        requestId: context.requestId
      }
    )
    if (result.status >= 400) {
      const message = (result.body as { error?: { message?: string } } | undefined)?.error?.message ?? `status ${result.status}`
      return yield* reject(
        result.status === 404 ? "not_found" : result.status === 403 ? "forbidden" : "invalid",
        `Could not apply it: ${message}`
      )
    }
    return result.body
  })

/** Applies `proposal` as the confirming caller. */
const apply = (context: RequestContext, proposal: Proposal, decision: typeof Decision.Type) =>
  decision.list === undefined
    ? Effect.fail(
        reject("invalid", "Name the list the task goes to", [{ path: "body.list", message: "required to confirm a task proposal" }])
      )
    : invokeAsCaller(context, proposal.operationId, {
        workspaceId: proposal.workspaceId,
        list: decision.list,
        ...(decision.space ? { space: decision.space } : {}),
        ...proposal.input
      })

const lensProposalResourceTag = tagGroup("hub", "Lens Proposal Resource", lensProposalResourceExamples)
const lensFeedbackResourceTag = tagGroup("hub", "Lens Feedback Resource", lensFeedbackResourceExamples)

export const proposalOperations = [
  lensProposalResourceTag.operation({
    operationId: "listLensProposals",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/lens/proposals",
    summary: "Your proposals from Lens's agent loop in a workspace, newest first",
    auth: "jwt",
    scopes: [],
    params: Schema.Struct({ workspaceId: Id }),
    query: Schema.Struct({ status: Schema.optionalKey(ProposalStatus) }),
    responses: { 200: { description: "Proposals", schema: Schema.Struct({ items: Schema.Array(Proposal) }) } },
    handler: ({ params, query: q }, context) =>
      orDieSql(
        Effect.gen(function* () {
          const user = yield* userOf(context)
          yield* workspaceRole(context, params.workspaceId)
          return { items: yield* proposalsOf(params.workspaceId, user.userId, q.status) }
        })
      )
  }),
  lensProposalResourceTag.operation({
    operationId: "decideLensProposal",
    method: "POST",
    path: "/v1/lens/proposals/{proposalId}/decision",
    summary: "Confirm (apply, with your permissions) or reject a write Lens proposed",
    auth: "jwt",
    scopes: [],
    params: Schema.Struct({ proposalId: Id }),
    body: Decision,
    responses: {
      200: { description: "The decided proposal", schema: Proposal },
      404: { description: "No such proposal of yours" },
      409: { description: "Already decided" }
    },
    handler: ({ params, body }, context) =>
      orDieSql(
        Effect.gen(function* () {
          const user = yield* userOf(context)
          const threadId = yield* threadOfProposal(params.proposalId)
          if (threadId === undefined) return yield* reject("not_found", "No such Lens proposal")
          const by = user.userId
          const proposal = yield* askThread(threadId).proposal({ by, proposalId: params.proposalId })
          if (proposal.status !== "proposed") return yield* reject("conflict", "This proposal was already decided")
          if (body.decision === "reject")
            return yield* askThread(threadId).decide({ by, proposalId: proposal.id, status: "rejected", result: null })
          const result = yield* apply(context, proposal, body)
          return yield* askThread(threadId).decide({ by, proposalId: proposal.id, status: "applied", result })
        })
      )
  }),
  lensFeedbackResourceTag.operation({
    operationId: "rateLensAnswer",
    method: "PUT",
    path: "/v1/lens/answers/{answerId}/feedback",
    summary: "Thumbs up or down on one of your Lens answers, with a reason (replaces your earlier rating)",
    auth: "jwt",
    scopes: [],
    params: Schema.Struct({ answerId: Id }),
    body: Schema.Struct({
      rating: Schema.Literals(["up", "down"]),
      reason: Schema.optionalKey(Schema.NullOr(Schema.String.check(Schema.isMaxLength(2000))))
    }),
    responses: {
      200: {
        description: "The feedback",
        schema: Feedback
      },
      404: { description: "No such answer of yours" }
    },
    handler: ({ params, body }, context) =>
      orDieSql(
        Effect.gen(function* () {
          const user = yield* userOf(context)
          const threadId = yield* threadOfAnswer(params.answerId)
          if (threadId === undefined) return yield* reject("not_found", "No such Lens answer")
          return yield* askThread(threadId).rate({
            by: user.userId,
            answerId: params.answerId,
            rating: body.rating,
            reason: body.reason ?? null
          })
        })
      )
  })
]
