/**
 * Workchat Resource (3) and Chatapp Bot Resource (1): Lens as the team-chat
 * and team-meeting bot. An admin installs the bot on a team-chat connection
 * with the sender's signing secret; inbound events must carry a valid
 * signature over their raw body, are answered through Lens (with the
 * installer-chosen member's permissions, never writing) and replied to in
 * the channel or meeting thread through the vendor's API.
 */
import { Effect, Schema } from "effect"
import { Id } from "../../actors/Fields.ts"
import { Bot, botOf, installBot, replyInThread, type Surface, verifySender } from "../../actors/lens/Bots.ts"
import { Workspace } from "../../actors/identity/Workspace.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { reject } from "../../runtime/Rejection.ts"
import { principalOf, workspaceRole } from "../Access.ts"
import { type RequestContext, tagGroup } from "../Operation.ts"
import { orDieSql } from "../pm/WorkAccess.ts"
import { exampleIds } from "./Examples.ts"
import { MAX_MESSAGE_CHARS, runLens } from "./LensRun.ts"
import { botsExamples, connectionId } from "./Bots.examples.ts"

const service = "hub"
const botParams = Schema.Struct({ workspaceId: Id, connectionId: Id })

const ChatappEvent = Schema.Union([
  Schema.Struct({ type: Schema.Literal("url_verification"), challenge: Schema.String.check(Schema.isMaxLength(200)) }),
  Schema.Struct({
    type: Schema.Literal("event_callback"),
    event: Schema.Struct({
      type: Schema.Literals(["app_mention", "message"]),
      text: Schema.String.check(Schema.isMaxLength(MAX_MESSAGE_CHARS)),
      channel: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(100)),
      ts: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(100)),
      thread_ts: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(100))),
      user: Schema.optionalKey(Schema.String),
      bot_id: Schema.optionalKey(Schema.String)
    })
  })
])

const WorkchatEvent = Schema.Struct({
  type: Schema.Literal("message"),
  id: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200)),
  chatId: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200)),
  text: Schema.String.check(Schema.isMaxLength(MAX_MESSAGE_CHARS)),
  from: Schema.optionalKey(
    Schema.Struct({ id: Schema.String, name: Schema.optionalKey(Schema.String), isBot: Schema.optionalKey(Schema.Boolean) })
  )
})

const EventReply = Schema.Struct({
  ok: Schema.Boolean,
  challenge: Schema.optionalKey(Schema.String),
  answered: Schema.Boolean,
  threadId: Schema.optionalKey(Id)
}).annotate({ identifier: "LensBotEventReply" })

const MAX_EVENT_BYTES = 64 * 1024

const parse = <S extends Schema.Top>(schema: S, bytes: Uint8Array) =>
  Effect.gen(function* () {
    let json: unknown
    try {
      json = JSON.parse(new TextDecoder().decode(bytes))
    } catch {
      return yield* reject("invalid", "The event is not JSON", [{ path: "body", message: "not JSON" }])
    }
    return yield* Schema.decodeUnknownEffect(schema as any)(json).pipe(
      Effect.mapError((issue) =>
        reject("invalid", `The event is not understood: ${String(issue).slice(0, 300)}`, [
          { path: "body", message: "unexpected event shape" }
        ])
      )
    ) as Effect.Effect<S["Type"], ReturnType<typeof reject>>
  })

/** Lens answers as the bot's member, without writing; the answer is posted in the thread with its sources. */
const answerAndReply = (context: RequestContext, bot: Bot, text: string, target: { channel: string; thread: string }) =>
  Effect.gen(function* () {
    const message = text.replace(/<@[^>]+>/g, "").trim()
    if (message === "") return { ok: true, answered: false }
    const asBot: RequestContext = {
      requestId: context.requestId,
      origin: context.origin,
      headers: {},
      principal: { kind: "user", userId: bot.actAs, email: "", name: "Lens bot", sessionId: `lens-bot:${bot.connectionId}` }
    }
    const reply = yield* runLens(asBot, { message, workspaceId: bot.workspaceId }, `bot:${bot.surface}`, { writes: false })
    const sources = reply.citations.map((c) => `[${c.n}] ${c.title}`).join("\n")
    yield* replyInThread(bot, target, sources ? `${reply.answer}\n\nSources:\n${sources}` : reply.answer)
    return { ok: true, answered: true, threadId: reply.threadId }
  })

const inbound = (
  surface: Surface,
  tag: string,
  operationId: string,
  summary: string,
  example: unknown,
  handle: (context: RequestContext, bot: Bot, bytes: Uint8Array) => Effect.Effect<typeof EventReply.Type, any, any>
) =>
  tagGroup(service, tag).operation({
    operationId,
    method: "POST",
    path: `/v1/lens/bots/${surface}/{connectionId}/events`,
    headers: ["x-signature", "x-signature-timestamp"],
    summary,
    description:
      'Signed by the sender: `X-Signature: v0=hex(HMAC-SHA256(signing secret, "v0:" + X-Signature-Timestamp + ":" + raw body))`, timestamp within five minutes; anything else answers 401.',
    auth: "public",
    scopes: [],
    params: Schema.Struct({ connectionId: Id }),
    upload: { contentTypes: ["application/json"], maxBytes: MAX_EVENT_BYTES },
    responses: {
      200: { description: "Handled", schema: EventReply },
      401: { description: "Bad signature" },
      502: { description: "The vendor refused the reply" }
    },
    examples: [
      {
        name: "event",
        request: { params: { connectionId }, body: example },
        response: { status: 200, body: { ok: true, answered: true, threadId: exampleIds.threadId } }
      }
    ],
    handler: ({ params, upload }, context) =>
      orDieSql(
        Effect.gen(function* () {
          const bytes = upload?.bytes ?? new Uint8Array()
          const bot = yield* verifySender(params.connectionId, surface, context.headers ?? {}, bytes)
          return yield* handle(context, bot, bytes)
        })
      )
  })

const workchatResourceTag = tagGroup(service, "Workchat Resource", botsExamples)

export const botOperations = [
  workchatResourceTag.operation({
    operationId: "installLensBot",
    method: "PUT",
    path: "/v1/workspaces/{workspaceId}/lens/bots/{connectionId}",
    summary: "Install (or update) the Lens bot on a team-chat connection with the sender's signing secret (admin)",
    auth: "jwt",
    scopes: [],
    params: botParams,
    body: Schema.Struct({
      surface: Schema.Literals(["chatapp", "workchat"]),
      signingSecret: Schema.String.check(Schema.isMinLength(16), Schema.isMaxLength(200)),
      actAsUserId: Schema.optionalKey(Id.annotate({ description: "The member whose permissions Lens answers with; you when absent" }))
    }),
    responses: { 200: { description: "Installed", schema: Bot }, 404: { description: "No such connection or member" } },
    handler: ({ params, body }, context) =>
      orDieSql(
        Effect.gen(function* () {
          yield* workspaceRole(context, params.workspaceId, "admin")
          const principal = yield* principalOf(context)
          const actAs = body.actAsUserId ?? principal.userId
          const role = yield* Workspace.client(yield* ActorSystem)(params.workspaceId).roleOf({ userId: actAs })
          if (role === null)
            return yield* reject("not_found", "No such member", [{ path: "body.actAsUserId", message: "not a member of this workspace" }])
          return yield* installBot(params.workspaceId, params.connectionId, body.surface, body.signingSecret, actAs)
        })
      )
  }),
  workchatResourceTag.operation({
    operationId: "getLensBot",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/lens/bots/{connectionId}",
    summary: "The Lens bot installed on a connection (the secret is never shown)",
    auth: "jwt",
    scopes: [],
    params: botParams,
    responses: { 200: { description: "The bot", schema: Bot }, 404: { description: "No bot on this connection" } },
    handler: ({ params }, context) =>
      orDieSql(
        Effect.gen(function* () {
          yield* workspaceRole(context, params.workspaceId)
          return yield* botOf(params.workspaceId, params.connectionId)
        })
      )
  }),
  inbound(
    "workchat",
    "Workchat Resource",
    "workchatBotEvent",
    "Inbound team-meeting chat message for the Lens bot: answered in the meeting thread",
    { type: "message", id: "msg-1", chatId: "meeting-42", text: "@Lens what did Bob promise?" },
    (context, bot, bytes) =>
      Effect.gen(function* () {
        const event = yield* parse(WorkchatEvent, bytes)
        if (event.from?.isBot) return { ok: true, answered: false }
        return yield* answerAndReply(context, bot, event.text.replace(/^@Lens\b/i, ""), { channel: event.chatId, thread: event.id })
      })
  ),
  inbound(
    "chatapp",
    "Chatapp Bot Resource",
    "chatappBotEvent",
    "Inbound team-chat event for the Lens bot: URL verification, or a mention answered in its thread",
    {
      type: "event_callback",
      event: { type: "app_mention", text: "<@U0LENS> what did Bob promise?", channel: "C123", ts: "1732190400.000100" }
    },
    (context, bot, bytes) =>
      Effect.gen(function* () {
        const event = yield* parse(ChatappEvent, bytes)
        if (event.type === "url_verification") return { ok: true, challenge: event.challenge, answered: false }
        if (event.event.bot_id !== undefined) return { ok: true, answered: false }
        return yield* answerAndReply(context, bot, event.event.text, {
          channel: event.event.channel,
          thread: event.event.thread_ts ?? event.event.ts
        })
      })
  )
]
