/**
 * Lens Proposal Resource (2) and Lens Feedback Resource (1). A proposal is
 * applied by calling the platform operation it names through the HTTP
 * pipeline with the confirming user's own credentials, so it can do exactly
 * what that user could do by hand, and nothing else. Besides the agent
 * loop's tasks (one user's, in their thread), a processed call's customer
 * asks are listed and decided here: any member of the workspace sees them;
 * confirming votes on behalf of the customer (the board's rule: its team
 * only) with an internal note linking the transcript moment, or creates the
 * request (its description links the moment) and then votes.
 */
import { Effect, Schema } from "effect"
import { Id } from "../../actors/Fields.ts"
import {
  appliedCallProposal,
  type CallProposal,
  callProposal,
  callProposalsOf,
  callProposalSteps,
  claimCallProposal,
  recordCallProposalStep,
  rejectCallProposal,
  releaseCallProposal
} from "../../actors/hub/CallProposals.ts"
import { askThread, Feedback } from "../../actors/lens/LensThread.ts"
import { Proposal, ProposalStatus, ProposedWrite, proposalsOf } from "../../actors/lens/Proposals.ts"
import { threadOfAnswer, threadOfProposal } from "../../actors/lens/Threads.ts"
import { reject } from "../../runtime/Rejection.ts"
import { userOf, workspaceRole } from "../Access.ts"
import { invokeById } from "../Invoke.ts"
import { OperationRegistry } from "../Registry.ts"
import { type RequestContext, type ServiceName, tagGroup } from "../Operation.ts"
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

/**
 * Calls operation `operationId` (of pm unless `service` says otherwise, with path `params`) through the HTTP
 * pipeline with the caller's own credentials: it can do what they could by hand, nothing else.
 */
export const invokeAsCaller = (
  context: RequestContext,
  operationId: string,
  body: Record<string, unknown>,
  service: ServiceName = "pm",
  params: Readonly<Record<string, string>> = {}
) =>
  Effect.gen(function* () {
    const result = yield* invokeById(
      yield* OperationRegistry,
      service,
      operationId,
      { params, body },
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

/**
 * Applies a call's customer ask as the confirming caller: the vote on behalf of the customer with an internal
 * note linking the transcript moment, or the new request (linking it) and then the customer's vote. Each step's
 * answer is recorded as it succeeds, so confirming again after a failed step applies only the steps left: one
 * request, one vote, one note, and the whole result.
 */
const applyCallProposal = (context: RequestContext, proposal: CallProposal, by: string) =>
  Effect.gen(function* () {
    const write = yield* Schema.decodeUnknownEffect(ProposedWrite)({
      operationId: proposal.operationId,
      title: proposal.title,
      input: proposal.input
    }).pipe(Effect.orDie)
    const done = yield* callProposalSteps(proposal.id)
    const step = <A, E, R>(name: string, apply: Effect.Effect<A, E, R>) =>
      name in done ? Effect.succeed(done[name]) : Effect.tap(apply, (result) => recordCallProposalStep(proposal.id, by, name, result))
    const voteFor = (workspaceId: string, requestRef: string, email: string) =>
      step("vote", invokeAsCaller(context, "voteFeatureRequestLite", { workspaceId, onBehalfOfEmail: email }, "feedback", { requestRef }))
    switch (write.operationId) {
      case "voteFeatureRequestLite": {
        const { workspaceId, requestRef, onBehalfOfEmail, note } = write.input
        const request = yield* voteFor(workspaceId, requestRef, onBehalfOfEmail)
        const comment = yield* step(
          "note",
          invokeAsCaller(context, "commentOnFeatureRequestLite", { workspaceId, body: note, internal: true }, "feedback", { requestRef })
        )
        return { request, note: comment }
      }
      case "createFeatureRequestLite": {
        const { onBehalfOfEmail, ...create } = write.input
        const created = (yield* step("create", invokeAsCaller(context, "createFeatureRequestLite", create, "feedback"))) as { id: string }
        return { request: yield* voteFor(create.workspaceId, created.id, onBehalfOfEmail) }
      }
      case "createTaskLite":
        return yield* Effect.die(new Error("A call proposal is never a task"))
    }
  })

/** Decides a call's customer ask: any member of its workspace may; confirming applies it once (a claim on the row). */
const decideCallProposal = (context: RequestContext, by: string, proposal: CallProposal, decision: (typeof Decision.Type)["decision"]) =>
  Effect.gen(function* () {
    yield* workspaceRole(context, proposal.workspaceId, "member")
    const decided = reject("conflict", "This proposal was already decided")
    if (decision === "reject") {
      if (!(yield* rejectCallProposal(proposal.id, by))) return yield* decided
    } else {
      if (!(yield* claimCallProposal(proposal.id, by))) return yield* decided
      const result = yield* applyCallProposal(context, proposal, by).pipe(
        Effect.onError(() => Effect.orDie(releaseCallProposal(proposal.id, by)))
      )
      yield* appliedCallProposal(proposal.id, by, result)
    }
    return (yield* callProposal(proposal.id))!
  })

const lensProposalResourceTag = tagGroup("hub", "Lens Proposal Resource", lensProposalResourceExamples)
const lensFeedbackResourceTag = tagGroup("hub", "Lens Feedback Resource", lensFeedbackResourceExamples)

export const proposalOperations = [
  lensProposalResourceTag.operation({
    operationId: "listLensProposals",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/lens/proposals",
    summary: "Your proposals from Lens's agent loop in a workspace, and its calls' customer asks (votes or new requests), newest first",
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
          const mine = yield* proposalsOf(params.workspaceId, user.userId, q.status)
          const calls = yield* callProposalsOf(params.workspaceId, q.status)
          return {
            items: [...mine, ...calls.map(({ callAt: _callAt, ...proposal }) => proposal)].sort((a, b) =>
              b.createdAt.localeCompare(a.createdAt)
            )
          }
        })
      )
  }),
  lensProposalResourceTag.operation({
    operationId: "decideLensProposal",
    // Applying a write calls the operation with the caller's own credentials (`invokeAsCaller`).
    headers: ["authorization", "x-api-key"],
    method: "POST",
    path: "/v1/lens/proposals/{proposalId}/decision",
    summary: "Confirm (apply, with your permissions) or reject a write Lens proposed, or a call's customer ask",
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
          if (threadId === undefined) {
            const fromCall = yield* callProposal(params.proposalId)
            if (fromCall === undefined) return yield* reject("not_found", "No such Lens proposal")
            const { callAt: _callAt, ...decided } = yield* decideCallProposal(context, user.userId, fromCall, body.decision)
            return decided
          }
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
