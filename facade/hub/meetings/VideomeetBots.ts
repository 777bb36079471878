/**
 * hub tag "Videomeet Bot Resource" (4): recording bots sent by the meeting-bot
 * provider (HUB_BOT_PROVIDER_URL) to a meeting URL or to a calendar
 * occurrence's meeting; their status follows the provider's signed callbacks
 * (BotEvents.ts), and when the provider reports the recording it is imported
 * as a hub recording for the occurrence, so each participant's version uses
 * their own prompts.
 */
import { Effect, Schema } from "effect"
import { stopProviderBot } from "../../../actors/hub/meetings/BotProvider.ts"
import { isFinished, MeetingBot, MeetingBots } from "../../../actors/hub/meetings/MeetingBots.ts"
import { ActorSystem } from "../../../runtime/ActorSystem.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { principalOf, workspaceRole } from "../../Access.ts"
import { tagGroup } from "../../Operation.ts"

import {
  BotParams,
  botOf,
  FutureInstant,
  HttpsMeetingUrl,
  joinTimeOf,
  OccurrenceRef,
  occurrenceOf,
  scheduleBot,
  WorkspaceParams
} from "./MeetingShared.ts"
import { videomeetBotsExamples } from "./VideomeetBots.examples.ts"

const { operation } = tagGroup("hub", "Videomeet Bot Resource", videomeetBotsExamples)

export const videomeetBotOperations = [
  operation({
    operationId: "scheduleMeetingBot",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/videomeet/bots",
    summary: "Send a recording bot to a meeting URL or a calendar occurrence's meeting; its recording is imported when done",
    description:
      "With `occurrenceId` the bot records that calendar occurrence: its meeting URL is the occurrence's location unless `meetingUrl` is given, it joins at the occurrence's start unless `joinAt` says otherwise, and the imported recording belongs to the occurrence (participants' series and occurrence prompts apply). 409 when no bot provider is configured or a bot is already on its way to the meeting; 502 names the provider when it fails.",
    auth: "both",
    scopes: ["recordings:write"],
    params: WorkspaceParams,
    body: Schema.Struct({
      meetingUrl: Schema.optionalKey(HttpsMeetingUrl),
      occurrenceId: Schema.optionalKey(OccurrenceRef),
      joinAt: Schema.optionalKey(FutureInstant),
      title: Schema.optionalKey(Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(300))),
      botName: Schema.optionalKey(Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(100)))
    }),
    responses: {
      201: { description: "Scheduled", schema: MeetingBot },
      400: { description: "Neither a meeting URL nor an occurrence with one" },
      404: { description: "No such calendar occurrence" },
      409: { description: "No bot provider configured, or a bot is already on its way" },
      502: { description: "The bot provider failed" }
    },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        yield* workspaceRole(context, params.workspaceId, "member")
        const principal = yield* principalOf(context)
        const occurrence = body.occurrenceId === undefined ? null : yield* occurrenceOf(context, body.occurrenceId)
        const location = occurrence?.location?.trim() ?? ""
        const meetingUrl = body.meetingUrl ?? (/^https?:\/\/\S+$/.test(location) ? location : undefined)
        if (meetingUrl === undefined)
          return yield* reject("invalid", "Give a meetingUrl, or an occurrence whose location is the meeting's URL", [
            { path: "body.meetingUrl", message: "required (the occurrence has no meeting URL)" }
          ])
        if (body.joinAt !== undefined && Date.parse(body.joinAt) < Date.now() - 60_000)
          return yield* reject("invalid", "joinAt is in the past", [{ path: "body.joinAt", message: "must not be in the past" }])
        return yield* scheduleBot({
          workspaceId: params.workspaceId,
          userId: principal.userId,
          meetingUrl,
          title: body.title ?? occurrence?.title ?? "Meeting",
          occurrenceId: occurrence?.occurrenceId ?? null,
          meeting: null,
          attendeeEmails: occurrence?.attendeeEmails ?? [],
          joinAt: joinTimeOf(body.joinAt, occurrence?.start ?? null),
          botName: body.botName ?? "Atrium Notetaker"
        })
      })
  }),
  operation({
    operationId: "listMeetingBots",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/videomeet/bots",
    summary: "The workspace's recording bots, newest first, optionally of one status",
    auth: "both",
    scopes: ["recordings:read"],
    params: WorkspaceParams,
    query: Schema.Struct({ status: Schema.optionalKey(MeetingBot.fields.status) }),
    responses: { 200: { description: "Bots", schema: Schema.Struct({ items: Schema.Array(MeetingBot) }) } },
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        yield* workspaceRole(context, params.workspaceId)
        const state = yield* (yield* ActorSystem).ask(MeetingBots, params.workspaceId, "view", {})
        const items = Object.values(state.bots)
          .filter((bot) => query.status === undefined || bot.status === query.status)
          .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id))
        return { items }
      })
  }),
  operation({
    operationId: "getMeetingBot",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/videomeet/bots/{botId}",
    summary: "One recording bot: its status as the provider last reported it, and its recording once imported",
    auth: "both",
    scopes: ["recordings:read"],
    params: BotParams,
    responses: { 200: { description: "The bot", schema: MeetingBot }, 404: { description: "No such bot" } },
    handler: ({ params }, context) => Effect.andThen(workspaceRole(context, params.workspaceId), botOf(params.workspaceId, params.botId))
  }),
  operation({
    operationId: "cancelMeetingBot",
    method: "DELETE",
    path: "/v1/workspaces/{workspaceId}/videomeet/bots/{botId}",
    summary: "Call a bot off: removed at the provider before it joins, or made to leave the call",
    auth: "both",
    scopes: ["recordings:write"],
    params: BotParams,
    responses: {
      200: { description: "Cancelled", schema: MeetingBot },
      404: { description: "No such bot" },
      409: { description: "The bot has already finished" },
      502: { description: "The bot provider failed" }
    },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* workspaceRole(context, params.workspaceId, "member")
        const bot = yield* botOf(params.workspaceId, params.botId)
        if (isFinished(bot.status)) return yield* reject("conflict", `The bot has already finished (${bot.status})`)
        yield* stopProviderBot(bot.providerBotId, bot.status !== "scheduled")
        return yield* (yield* ActorSystem).ask(MeetingBots, params.workspaceId, "cancelBot", { botId: bot.id })
      })
  })
]
