/**
 * One Lens run for a caller, shared by the REST chat, its streaming twin and
 * the chat bots: who asks (workspace, role, whether Lens may propose writes
 * for them), the thread, credits, the engine, and one transaction that stores
 * the turn, its proposals and its metering before the reply.
 */
import { Effect, Schema } from "effect"
import { workspacesOf } from "../../actors/identity/IdentityQueries.ts"
import { type Role, atLeast } from "../../actors/identity/Workspace.ts"
import { Id } from "../../actors/Fields.ts"
import { answerQuestion, defaultOptions, type EngineAnswer, resolveAgainstThread, type StepObserver } from "../../actors/lens/Engine.ts"
import { variantFor } from "../../actors/lens/Experiments.ts"
import { meter, requireCredits, tokensOf, type Usage } from "../../actors/lens/Metering.ts"
import { modelAnswer, modelConfig } from "../../actors/lens/ModelSynthesis.ts"
import { storeProposals } from "../../actors/lens/Proposals.ts"
import type { Asker } from "../../actors/lens/Retrievers.ts"
import { lastResolvedQuery, ownThread, storeTurn } from "../../actors/lens/Threads.ts"
import { Sql } from "../../persistence/Sql.ts"
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
    if (request.threadId !== undefined) return (yield* ownThread(request.threadId, principal.userId)).workspaceId
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
    let previous: string | undefined
    if (request.threadId !== undefined) {
      const thread = yield* ownThread(request.threadId, userId)
      if (thread.workspaceId !== workspaceId) {
        return yield* reject("invalid", "The thread belongs to another workspace", [
          { path: "body.threadId", message: "thread of another workspace" }
        ])
      }
      previous = yield* lastResolvedQuery(thread.id)
    }
    yield* requireCredits(workspaceId)
    return { request, caller, resolved: resolveAgainstThread(request.message, previous) }
  })

export type PreparedLens = Effect.Success<ReturnType<typeof prepareLens>>

/**
 * Runs the pipeline of a prepared request and stores the turn; `purpose`
 * names the surface in the metering; `observe` hears each step as it
 * finishes. An interrupted run (a stream whose client went away) makes no
 * further model call and stores no turn, but what already ran is metered.
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
    const variant = yield* variantFor(workspaceId, userId)
    const started = performance.now()
    const local = yield* answerQuestion(
      caller.asker,
      resolved,
      {
        ...defaultOptions,
        ...variant?.settings,
        canWrite: caller.canWrite && options.writes
      },
      observe
    )
    const sql = yield* Sql
    // From here on the local run has happened: it is metered whatever follows (an interruption included).
    const ran: Array<Usage> = [
      {
        workspaceId,
        userId,
        engine: "local",
        purpose,
        model: null,
        promptTokens: tokensOf(resolved) + local.citations.reduce((sum, c) => sum + tokensOf(c.snippet), 0),
        completionTokens: tokensOf(local.answer),
        durationMs: performance.now() - started
      }
    ]
    let stored = false
    const rest = Effect.gen(function* () {
      // With a model configured, it writes the answer from the same cited passages (an agent loop's answer stays local).
      const model = modelConfig()
      const written =
        model && local.citations.length > 0 && local.trace.route !== "agent"
          ? yield* modelAnswer(model, resolved, local.citations)
          : undefined
      if (written) {
        ran.push({
          workspaceId,
          userId,
          engine: "model",
          purpose,
          model: model!.model,
          promptTokens: written.promptTokens,
          completionTokens: written.completionTokens,
          durationMs: 0
        })
        const step = {
          kind: "synthesize" as const,
          name: model!.model,
          durationMs: 0,
          detail: "answer written by the model from the cited passages"
        }
        observe?.(step)
        return { ...local, answer: written.text, trace: { ...local.trace, steps: [...local.trace.steps, step] } }
      }
      return local
    })
    const meterWhatRan = Effect.suspend(() =>
      stored ? Effect.void : Effect.orDie(sql.transaction(Effect.forEach(ran, meter, { discard: true })))
    )
    return yield* Effect.gen(function* () {
      const result = yield* rest
      const threadId = request.threadId ?? crypto.randomUUID()
      const answerId = crypto.randomUUID()
      // Once storing starts it finishes: the turn, its proposals and its metering commit together.
      const storedProposals = yield* Effect.uninterruptible(
        sql.transaction(
          Effect.gen(function* () {
            yield* storeTurn({
              threadId,
              isNewThread: request.threadId === undefined,
              workspaceId,
              userId,
              answerId,
              message: request.message,
              resolvedQuery: resolved,
              result,
              variant: variant?.name ?? null
            })
            const proposals = yield* storeProposals(workspaceId, userId, answerId, result.proposals)
            yield* Effect.forEach(ran, meter, { discard: true })
            stored = true
            return proposals
          })
        )
      )
      return { ...result, threadId, answerId, storedProposals } satisfies LensReply
    }).pipe(Effect.onInterrupt(() => meterWhatRan))
  })

/** Runs the pipeline for `request` and stores the turn; `purpose` names the surface in the metering. */
export const runLens = (
  context: RequestContext,
  request: ChatRequest,
  purpose: string,
  options: { readonly writes: boolean } = { writes: true }
) => Effect.flatMap(prepareLens(context, request), (prepared) => runPrepared(prepared, purpose, options))
