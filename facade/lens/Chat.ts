/**
 * Lens (1) `chatWithLens` at the seed's exact path `/hub/lens/chat` (JWT or
 * an API key with `lens:chat`), Lens Streaming Resource (1): the same run as
 * server-sent events, and Lens Chat Resource (1): a thread with its turns.
 */
import { Cause, Effect, Queue, Schema, Stream } from "effect"
import { Id } from "../../actors/Fields.ts"
import { Trace } from "../../actors/lens/Engine.ts"
import { Citation } from "../../actors/lens/Synthesis.ts"
import { askThread, ProposalRef } from "../../actors/lens/LensThread.ts"
import { Thread } from "../../actors/lens/Threads.ts"
import { principalOf } from "../Access.ts"
import { orDieSql } from "../pm/WorkAccess.ts"
import { fromFailure } from "../HttpError.ts"
import { streamed, tagGroup } from "../Operation.ts"
import { ChatRequest, type LensReply, type PreparedLens, prepareLens, runLens, runPrepared } from "./LensRun.ts"

import { lensExamples, lensStreamingResourceExamples, lensChatResourceExamples, event } from "./Chat.examples.ts"

export const ChatReply = Schema.Struct({
  threadId: Id,
  answerId: Id.annotate({ description: "Give feedback on this answer with it" }),
  answer: Schema.String,
  citations: Schema.Array(Citation),
  trace: Trace,
  followUps: Schema.Array(Schema.String),
  proposals: Schema.Array(ProposalRef).annotate({ description: "Writes the agent loop proposes; confirm each to apply it" })
}).annotate({ identifier: "LensChatReply" })

const replyOf = (reply: LensReply): typeof ChatReply.Type => ({
  threadId: reply.threadId,
  answerId: reply.answerId,
  answer: reply.answer,
  citations: reply.citations,
  trace: reply.trace,
  followUps: reply.followUps,
  proposals: reply.storedProposals
})

/**
 * The run as server-sent events, in order: each step as it finishes, then
 * each citation, the answer's lines as deltas, then the final reply. The run
 * happens while the events are sent: a client that closes the connection
 * interrupts it (no further model call; only what ran is metered). A run that
 * fails once the stream has begun ends with an `error` event (its envelope).
 */
export const eventStream = (prepared: PreparedLens) =>
  Stream.callback((queue: Queue.Queue<string, Cause.Done>) =>
    Effect.gen(function* () {
      const send = (name: string, data: unknown) => {
        Queue.offerUnsafe(queue, event(name, data))
      }
      const reply = yield* orDieSql(runPrepared(prepared, "stream", { writes: true }, (step) => send("step", step)))
      for (const citation of reply.citations) send("citation", citation)
      for (const [i, line] of reply.answer.split("\n").entries()) send("delta", { text: i === 0 ? line : `\n${line}` })
      send("final", replyOf(reply))
    }).pipe(
      Effect.catchCause((cause) => {
        const failure = Cause.findErrorOption(cause)
        const error = failure._tag === "Some" ? fromFailure(failure.value) : undefined
        return error !== undefined
          ? Effect.sync(() => Queue.offerUnsafe(queue, event("error", { code: error.code, message: error.message })))
          : Effect.andThen(
              Effect.logError("lens stream failed", Cause.pretty(cause)),
              Effect.sync(() => Queue.offerUnsafe(queue, event("error", { code: "internal", message: "Internal error" })))
            )
      }),
      Effect.ensuring(Effect.sync(() => Queue.endUnsafe(queue)))
    )
  )

const lensTag = tagGroup("hub", "Lens", lensExamples)
const lensStreamingResourceTag = tagGroup("hub", "Lens Streaming Resource", lensStreamingResourceExamples)
const lensChatResourceTag = tagGroup("hub", "Lens Chat Resource", lensChatResourceExamples)

export const chatOperations = [
  lensTag.operation({
    operationId: "chatWithLens",
    method: "POST",
    path: "/lens/chat",
    summary: "Ask Lens: router, then a single route, a fan-out or an agent loop, then synthesis with citations",
    description:
      "Answers from the workspace's transcripts, calls (your own version), tasks, wiki pages and ingested chat, only what you may see. `threadId` continues a thread: a follow-up is resolved against it. Writes the agent loop wants are only proposed (Lens Proposal). The only assistant path open to API keys (scope lens:chat); Lens never writes for an API key. A workspace out of credits gets 402.",
    auth: "both",
    scopes: ["lens:chat"],
    mcp: { tool: "askLens" },
    body: ChatRequest,
    responses: {
      200: { description: "The answer with its citations and trace", schema: ChatReply },
      402: { description: "The workspace has no Lens credits left" },
      403: { description: "Another user's thread" },
      404: { description: "Unknown thread or workspace" }
    },
    handler: ({ body }, context) => orDieSql(Effect.map(runLens(context, body, "chat"), replyOf))
  }),
  lensStreamingResourceTag.operation({
    operationId: "streamLensChat",
    method: "POST",
    path: "/v1/lens/chat/stream",
    summary: "Ask Lens and receive the run as server-sent events: step, citation, delta, final",
    description:
      "The same pipeline, metering and thread as chatWithLens; user sessions only. Events arrive in order as the run proceeds: every `step` as it finishes, every `citation`, the answer as `delta`s, then `final` with the whole reply (a failure after the stream began ends it with an `error` event). Closing the connection cancels the run: no further model call, no stored turn; only what already ran is metered.",
    auth: "jwt",
    scopes: [],
    body: ChatRequest,
    responses: {
      200: { description: "An event stream", contentType: "text/event-stream" },
      402: { description: "The workspace has no Lens credits left" }
    },
    handler: ({ body }, context) =>
      orDieSql(
        Effect.map(prepareLens(context, body), (prepared) =>
          streamed("text/event-stream", eventStream(prepared), { "cache-control": "no-cache" })
        )
      )
  }),
  lensChatResourceTag.operation({
    operationId: "getLensThread",
    method: "GET",
    path: "/v1/lens/threads/{threadId}",
    summary: "A Lens thread of yours with every question, answer, citation and trace",
    auth: "jwt",
    scopes: [],
    params: Schema.Struct({ threadId: Id }),
    responses: {
      200: { description: "The thread", schema: Thread },
      403: { description: "Another user's thread" },
      404: { description: "No such thread" }
    },
    handler: ({ params }, context) =>
      Effect.flatMap(principalOf(context), (principal) => askThread(params.threadId).view({ by: principal.userId }))
  })
]
