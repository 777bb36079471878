/**
 * One Lens run for a caller, shared by the REST chat, its streaming twin and
 * the chat bots: who asks (workspace, role, whether Lens may propose writes
 * for them), the thread, credits and the engine. Before the reply the
 * thread's actor stores the turn with its proposals, and the workspace's
 * account actor records the metering and deducts its credits.
 */
import { Effect, Schema } from "effect"
import { workspacesOf } from "../../actors/identity/IdentityQueries.ts"
import { type Role, atLeast } from "../../actors/identity/Workspace.ts"
import { Id } from "../../actors/Fields.ts"
import { answerQuestion, defaultOptions, type EngineAnswer, type StepObserver } from "../../actors/lens/Engine.ts"
import { modelConfig } from "../../actors/lens/ChatModel.ts"
import { charge, requireCredits, type UsageInput } from "../../actors/lens/LensAccount.ts"
import { experiments } from "../../actors/lens/LensExperiments.ts"
import { askThread } from "../../actors/lens/LensThread.ts"
import { tokensOf } from "../../actors/lens/Metering.ts"
import { citesOnlyGiven, modelAnswer } from "../../actors/lens/ModelSynthesis.ts"
import { type ModelCall, modelSteps } from "../../actors/lens/ModelSteps.ts"
import type { Asker } from "../../actors/lens/Retrievers.ts"
import { reject } from "../../runtime/Rejection.ts"
import { principalOf, workspaceRole } from "../Access.ts"
import type { RequestContext } from "../Operation.ts"

export const MAX_MESSAGE_CHARS = 4000

export const Message = Schema.String.check(
  Schema.makeFilter((s: string) => s.trim().length > 0 || "a message must not be empty"),
  Schema.isMaxLength(MAX_MESSAGE_CHARS)
).annotate({ description: `The question (1–${MAX_MESSAGE_CHARS} characters)` })

export const ChatRequest = Schema.Struct({
  message: Message,
  threadId: Schema.optionalKey(Id.annotate({ description: "Continue this thread (yours); a new thread when absent" })),
  workspaceId: Schema.optionalKey(Id.annotate({ description: "Defaults to the API key's workspace, the thread's, or your only workspace" }))
})
export type ChatRequest = typeof ChatRequest.Type

export interface LensCaller {
  readonly asker: Asker
  /** Lens may propose writes only for a user session with the member role; never for an API key. */
  readonly canWrite: boolean
}

const workspaceFor = (context: RequestContext, request: ChatRequest) =>
  Effect.gen(function* () {
    const principal = yield* principalOf(context)
    if (request.workspaceId !== undefined) return request.workspaceId
    if (principal.kind === "apiKey") return principal.workspaceId
    if (request.threadId !== undefined) return (yield* askThread(request.threadId).owner({ by: principal.userId })).workspaceId
    const mine = yield* Effect.orDie(workspacesOf(principal.userId))
    if (mine.length === 1) return mine[0]!.id
    return yield* reject("invalid", "Name the workspace to ask about", [
      { path: "body.workspaceId", message: "required: you belong to several workspaces (or none)" }
    ])
  })

export const lensCaller = (context: RequestContext, workspaceId: string) =>
  Effect.gen(function* () {
    const principal = yield* principalOf(context)
    const role: Role = yield* workspaceRole(context, workspaceId)
    return {
      asker: { workspaceId, userId: principal.userId, role },
      canWrite: principal.kind === "user" && atLeast(role, "member")
    } satisfies LensCaller
  })

export interface LensReply extends EngineAnswer {
  readonly threadId: string
  readonly answerId: string
  readonly storedProposals: ReadonlyArray<{ readonly id: string; readonly title: string; readonly status: "proposed" }>
}

/** Who asks, in which workspace and thread, with the credits checked: everything refused before a run starts. */
export const prepareLens = (context: RequestContext, request: ChatRequest) =>
  Effect.gen(function* () {
    const workspaceId = yield* workspaceFor(context, request)
    const caller = yield* lensCaller(context, workspaceId)
    const { userId } = caller.asker
    if (request.threadId !== undefined) {
      const thread = yield* askThread(request.threadId).owner({ by: userId })
      if (thread.workspaceId !== workspaceId) {
        return yield* reject("invalid", "The thread belongs to another workspace", [
          { path: "body.threadId", message: "thread of another workspace" }
        ])
      }
    }
    yield* requireCredits(workspaceId)
    // A follow-up is resolved against the history its thread's actor holds.
    const resolved =
      request.threadId === undefined
        ? request.message
        : yield* askThread(request.threadId).resolve({ by: userId, message: request.message })
    return { request, caller, resolved }
  })

export type PreparedLens = Effect.Success<ReturnType<typeof prepareLens>>

/**
 * Runs the pipeline of a prepared request and stores the turn; `purpose`
 * names the surface in the metering; `observe` hears each step as it
 * finishes. With a model configured it routes and grades (each call metered
 * as `purpose:route` / `purpose:grade`) and writes the answer from the same
 * cited passages. An interrupted run (a stream whose client went away) makes
 * no further model call and stores no turn, but what already ran is metered.
 */
export const runPrepared = (
  prepared: PreparedLens,
  purpose: string,
  options: { readonly writes: boolean } = { writes: true },
  observe?: StepObserver
) =>
  Effect.gen(function* () {
    const { request, caller, resolved } = prepared
    const { workspaceId, userId } = caller.asker
    const variant = yield* experiments(workspaceId).variantFor({ userId })
    const model = modelConfig()
    // What ran so far, metered whatever follows (an interruption included).
    const modelCalls: Array<ModelCall> = []
    const ran: Array<UsageInput> = []
    const modelUsage = (usePurpose: string, call: Omit<ModelCall, "step">): UsageInput => ({
      userId,
      engine: "model",
      purpose: usePurpose,
      model: model!.model,
      ...call
    })
    const whatRan = () => [...ran, ...modelCalls.map(({ step, ...call }) => modelUsage(`${purpose}:${step}`, call))]
    let charged = false
    const chargeWhatRan = Effect.suspend(() =>
      charged || whatRan().length === 0
        ? Effect.void
        : Effect.catchCause(charge(workspaceId, whatRan()), (cause) => Effect.logError("lens: metering an interrupted run failed", cause))
    )
    return yield* Effect.gen(function* () {
      const started = performance.now()
      const local = yield* answerQuestion(
        caller.asker,
        resolved,
        {
          ...defaultOptions,
          ...variant?.settings,
          canWrite: caller.canWrite && options.writes,
          ...(model ? { model: modelSteps(model, modelCalls) } : {})
        },
        observe
      )
      ran.push({
        userId,
        engine: "local",
        purpose,
        model: null,
        promptTokens: tokensOf(resolved) + local.citations.reduce((sum, c) => sum + tokensOf(c.snippet), 0),
        completionTokens: tokensOf(local.answer),
        durationMs: performance.now() - started
      })
      // An agent loop's answer stays local.
      const written =
        model && local.citations.length > 0 && local.trace.route !== "agent"
          ? yield* modelAnswer(model, resolved, local.citations)
          : undefined
      let result: EngineAnswer = local
      if (written) {
        ran.push(modelUsage(purpose, { promptTokens: written.promptTokens, completionTokens: written.completionTokens, durationMs: 0 }))
        // The model's answer stands only if it cites the passages it was given and no other.
        const faithful = citesOnlyGiven(written.text, local.citations)
        const step = {
          kind: "synthesize" as const,
          name: model!.model,
          durationMs: 0,
          detail: faithful
            ? "answer written by the model from the cited passages"
            : "the model's answer cited no given passage or one it was not given: the extractive answer stands"
        }
        observe?.(step)
        result = {
          ...local,
          ...(faithful ? { answer: written.text } : {}),
          trace: { ...local.trace, steps: [...local.trace.steps, step] }
        }
      }
      const threadId = request.threadId ?? crypto.randomUUID()
      const answerId = crypto.randomUUID()
      // Once storing starts it finishes: the turn with its proposals (the thread's actor), then the metering (the account's).
      const storedProposals = yield* Effect.uninterruptible(
        Effect.gen(function* () {
          const stored = yield* askThread(threadId).append({
            by: userId,
            workspaceId,
            answerId,
            message: request.message,
            resolvedQuery: resolved,
            answer: result.answer,
            citations: result.citations,
            trace: result.trace,
            followUps: result.followUps,
            variant: variant?.name ?? null,
            proposals: result.proposals
          })
          charged = true
          yield* charge(workspaceId, whatRan())
          return stored
        })
      )
      return { ...result, threadId, answerId, storedProposals } satisfies LensReply
    }).pipe(Effect.onInterrupt(() => chargeWhatRan))
  })

/** Runs the pipeline for `request` and stores the turn; `purpose` names the surface in the metering. */
export const runLens = (
  context: RequestContext,
  request: ChatRequest,
  purpose: string,
  options: { readonly writes: boolean } = { writes: true }
) => Effect.flatMap(prepareLens(context, request), (prepared) => runPrepared(prepared, purpose, options))
