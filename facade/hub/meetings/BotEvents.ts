/**
 * The meeting-bot provider's status callbacks (listed under "Videomeet Call
 * Resource"): signed `Bot-Signature: t=<unix>,v1=<hex HMAC-SHA256(secret,
 * "<t>.<raw body>")>` with HUB_BOT_WEBHOOK_SECRET and a 5-minute tolerance.
 * A bad or stale signature is 401, a malformed body 400, a seen event id 200
 * without effect, an event older than the bot's last status 200 `stale`.
 * When the provider reports `done`, the bot's transcript is fetched and
 * imported as a recording for its calendar occurrence before the status is
 * kept: a provider failure answers 502 and changes nothing, so its retry
 * imports it then; a delivery arriving while the import runs answers 409
 * (retried later, then a duplicate).
 */
import { Effect, Schema } from "effect"
import { fetchBotTranscript } from "../../../actors/hub/meetings/BotProvider.ts"
import { botClaim, EventOutcome, MeetingBots } from "../../../actors/hub/meetings/MeetingBots.ts"
import { importMeeting } from "../../../actors/hub/meetings/MeetingImport.ts"
import { Workspace } from "../../../actors/identity/Workspace.ts"
import { ActorSystem } from "../../../runtime/ActorSystem.ts"
import { tagGroup } from "../../Operation.ts"
import { verifiedEvent } from "../../shared/SignedEvents.ts"

import { withImportClaim } from "./MeetingShared.ts"
import { botEventsExamples } from "./BotEvents.examples.ts"

export const BOT_SIGNATURE_HEADER = "bot-signature"

const ProviderStatus = Schema.Literals([
  "joining_call",
  "in_waiting_room",
  "in_call_not_recording",
  "in_call_recording",
  "call_ended",
  "done",
  "fatal"
])

export const BotEvent = Schema.Struct({
  id: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200)),
  event: Schema.Literal("bot.status_change"),
  data: Schema.Struct({
    bot: Schema.Struct({
      id: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200)),
      metadata: Schema.Struct({ workspaceId: Schema.String.check(Schema.isUUID()) })
    }),
    status: Schema.Struct({
      code: ProviderStatus,
      updated_at: Schema.String.check(Schema.isPattern(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/, { expected: "an ISO 8601 UTC time" })),
      message: Schema.optionalKey(Schema.NullOr(Schema.String.check(Schema.isMaxLength(1000))))
    })
  })
}).annotate({ identifier: "BotStatusEvent" })

const statusOf = (code: typeof ProviderStatus.Type) =>
  code === "in_waiting_room" ? "joining_call" : code === "in_call_not_recording" ? "in_call_recording" : code

const { operation } = tagGroup("hub", "Videomeet Call Resource", botEventsExamples)

export const botEventOperations = [
  operation({
    operationId: "receiveMeetingBotEvent",
    headers: [BOT_SIGNATURE_HEADER],
    method: "POST",
    path: "/v1/videomeet/bot-events",
    summary: "Receive the meeting-bot provider's signed status callback; on `done` the recording is imported",
    description:
      'Authenticated by `Bot-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + raw body)>` (HUB_BOT_WEBHOOK_SECRET), within 5 minutes. Each event id is applied once; an event older than the bot\'s last status is acknowledged and ignored.',
    auth: "public",
    scopes: [],
    upload: { contentTypes: ["application/json"], maxBytes: 64 * 1024 },
    responses: {
      200: { description: "Acknowledged (applied, duplicate, stale or ignored)", schema: EventOutcome },
      400: { description: "Malformed event" },
      401: { description: "Missing or wrong signature, or outside the tolerance" },
      502: { description: "The provider failed to hand over the transcript; retry" }
    },
    handler: ({ upload }, context) =>
      Effect.gen(function* () {
        const event = yield* verifiedEvent(BotEvent, {
          secret: process.env.HUB_BOT_WEBHOOK_SECRET ?? "",
          setting: "HUB_BOT_WEBHOOK_SECRET",
          signature: context.headers?.[BOT_SIGNATURE_HEADER] ?? "",
          bytes: upload?.bytes ?? new Uint8Array()
        })
        const workspaceId = event.data.bot.metadata.workspaceId
        const actors = yield* ActorSystem
        const ignored = { eventId: event.id, outcome: "ignored" as const, botId: null, status: null }
        if ((yield* Effect.option(Workspace.client(actors)(workspaceId).inspect({})))._tag === "None") return ignored
        const state = yield* actors.ask(MeetingBots, workspaceId, "view", {})
        const bot = Object.values(state.bots).find((candidate) => candidate.providerBotId === event.data.bot.id)
        const status = statusOf(event.data.status.code)
        const at = new Date(event.data.status.updated_at).toISOString()
        const importNow =
          bot !== undefined &&
          status === "done" &&
          bot.recordingId === null &&
          bot.status !== "cancelled" &&
          bot.statusAt <= at &&
          !state.seenEvents.includes(event.id)
        const apply = (recordingId: number | null) =>
          actors.ask(MeetingBots, workspaceId, "applyEvent", {
            eventId: event.id,
            providerBotId: event.data.bot.id,
            status,
            at,
            error: event.data.status.code === "fatal" ? (event.data.status.message ?? "The bot provider reported a failure") : null,
            recordingId
          })
        if (!importNow) return yield* apply(null)
        return yield* withImportClaim(
          workspaceId,
          botClaim(bot.id),
          Effect.gen(function* () {
            const created = yield* importMeeting({
              workspaceId,
              createdBy: bot.scheduledBy,
              name: bot.title,
              transcript: { format: "segments", segments: yield* fetchBotTranscript(bot.providerBotId) },
              attendeeEmails: bot.attendeeEmails,
              occurrenceId: bot.occurrenceId
            })
            return yield* apply(created.id)
          })
        )
      })
  })
]
