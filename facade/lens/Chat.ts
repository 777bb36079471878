/**
 * Lens (1) `chatWithLens` at the seed's exact path `/hub/lens/chat` (JWT or
 * an API key with `lens:chat`), Lens Streaming Resource (1): the same run as
 * server-sent events, and Lens Chat Resource (1): a thread with its turns.
 */
import { Effect, Schema } from "effect"
import { Id } from "../../actors/Fields.ts"
import { Trace } from "../../actors/lens/Engine.ts"
import { Citation } from "../../actors/lens/Synthesis.ts"
import { askThread, ProposalRef } from "../../actors/lens/LensThread.ts"
import { Thread } from "../../actors/lens/Threads.ts"
import { principalOf } from "../Access.ts"
import { orDieSql } from "../pm/WorkAccess.ts"
import { operation, raw } from "../Operation.ts"
import { ChatRequest, type LensReply, runLens } from "./LensRun.ts"
import { exampleCitation, exampleIds, exampleReply } from "./Examples.ts"

const service = "hub"

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

const event = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`

/** The run as server-sent events, in order: each step, each citation, the answer's lines as deltas, then the final reply. */
export const eventStream = (reply: LensReply): string =>
  [
    ...reply.trace.steps.map((step) => event("step", step)),
    ...reply.citations.map((citation) => event("citation", citation)),
    ...reply.answer.split("\n").map((line, i) => event("delta", { text: i === 0 ? line : `\n${line}` })),
    event("final", replyOf(reply))
  ].join("")

const bodyExample = { message: "What did Bob promise about the login bug?", workspaceId: exampleIds.workspaceId }

export const chatOperations = [
  operation({
    service,
    tag: "Lens",
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
    examples: [{ name: "single-route", request: { body: bodyExample }, response: { status: 200, body: exampleReply } }],
    handler: ({ body }, context) => orDieSql(Effect.map(runLens(context, body, "chat"), replyOf))
  }),
  operation({
    service,
    tag: "Lens Streaming Resource",
    operationId: "streamLensChat",
    method: "POST",
    path: "/v1/lens/chat/stream",
    summary: "Ask Lens and receive the run as server-sent events: step, citation, delta, final",
    description:
      "The same pipeline, metering and thread as chatWithLens; user sessions only. Events arrive in order: every `step`, every `citation`, the answer as `delta`s, then `final` with the whole reply.",
    auth: "jwt",
    scopes: [],
    body: ChatRequest,
    responses: {
      200: { description: "An event stream", contentType: "text/event-stream" },
      402: { description: "The workspace has no Lens credits left" }
    },
    examples: [
      {
        name: "stream",
        request: { body: bodyExample },
        response: {
          status: 200,
          body: `${event("step", exampleReply.trace.steps[0])}${event("citation", exampleCitation)}${event("delta", { text: exampleReply.answer })}${event("final", exampleReply)}`
        }
      }
    ],
    handler: ({ body }, context) =>
      orDieSql(
        Effect.map(runLens(context, body, "stream"), (reply) =>
          raw("text/event-stream", eventStream(reply), { "cache-control": "no-cache" })
        )
      )
  }),
  operation({
    service,
    tag: "Lens Chat Resource",
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
    examples: [
      {
        name: "thread",
        request: { params: { threadId: exampleIds.threadId } },
        response: {
          status: 200,
          body: {
            id: exampleIds.threadId,
            workspaceId: exampleIds.workspaceId,
            title: bodyExample.message,
            turns: [
              {
                answerId: exampleIds.answerId,
                message: bodyExample.message,
                answer: exampleReply.answer,
                citations: exampleReply.citations,
                trace: exampleReply.trace,
                followUps: exampleReply.followUps,
                createdAt: "2026-11-21T12:00:00.000Z"
              }
            ],
            createdAt: "2026-11-21T12:00:00.000Z",
            updatedAt: "2026-11-21T12:00:00.000Z"
          }
        }
      }
    ],
    handler: ({ params }, context) =>
      Effect.flatMap(principalOf(context), (principal) => askThread(params.threadId, "view", { by: principal.userId }))
  })
]
