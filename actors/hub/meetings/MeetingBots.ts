/**
 * A workspace's meeting bots and vendor meetings: one persisted
 * `hubMeetingBots` actor per workspace (state written before every reply)
 * holding the recording bots it scheduled with the bot provider, their
 * status as the provider's signed callbacks report it, and which vendor
 * meetings are linked to a calendar occurrence or imported as a recording.
 *
 * Callbacks are applied once per event id and in event-time order: an event
 * older than the bot's last status changes nothing (out-of-order delivery).
 */
import { randomUUID } from "node:crypto"
import { Effect, Schema } from "effect"
import { Actor } from "../../../runtime/Actor.ts"
import { MeetingAlreadyImported, MeetingBotFinished, MeetingBotNotFound, MeetingBusy, MeetingNotLinked } from "../HubErrors.ts"
import { Id, now, Timestamp } from "../../Fields.ts"
import { MeetingVendor } from "./MeetingVendors.ts"

export const BotStatus = Schema.Literals(["scheduled", "joining_call", "in_call_recording", "call_ended", "done", "fatal", "cancelled"])
export type BotStatus = typeof BotStatus.Type

export const MeetingRef = Schema.Struct({ vendor: MeetingVendor, meetingId: Schema.String })

export const MeetingBot = Schema.Struct({
  id: Id,
  providerBotId: Schema.String,
  meetingUrl: Schema.String,
  title: Schema.String,
  occurrenceId: Schema.NullOr(Schema.String),
  meeting: Schema.NullOr(MeetingRef),
  attendeeEmails: Schema.Array(Schema.String),
  joinAt: Schema.NullOr(Timestamp),
  status: BotStatus,
  statusAt: Timestamp,
  recordingId: Schema.NullOr(Schema.Number),
  error: Schema.NullOr(Schema.String),
  scheduledBy: Id,
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotate({ identifier: "MeetingBot" })
export type MeetingBot = typeof MeetingBot.Type

export const MeetingLink = Schema.Struct({
  vendor: MeetingVendor,
  meetingId: Schema.String,
  title: Schema.String,
  occurrenceId: Schema.NullOr(Schema.String),
  recordingId: Schema.NullOr(Schema.Number),
  linkedBy: Id,
  updatedAt: Timestamp
}).annotate({ identifier: "VendorMeetingLink" })
export type MeetingLink = typeof MeetingLink.Type

const State = Schema.Struct({
  bots: Schema.Record(Schema.String, MeetingBot),
  /** `<vendor>:<meetingId>` → link. */
  links: Schema.Record(Schema.String, MeetingLink),
  /** Provider event ids applied, newest last (bounded). */
  seenEvents: Schema.Array(Schema.String),
  /** Imports under way (`bot:<id>` or a link key) → since when: one import at a time per bot or meeting. */
  claims: Schema.Record(Schema.String, Timestamp)
})
type State = typeof State.Type

export const EventOutcome = Schema.Struct({
  eventId: Schema.String,
  outcome: Schema.Literals(["applied", "duplicate", "stale", "ignored"]),
  botId: Schema.NullOr(Id),
  status: Schema.NullOr(BotStatus)
}).annotate({ identifier: "BotEventOutcome" })

const EVENTS_KEPT = 2000
const FINISHED: ReadonlyArray<BotStatus> = ["done", "fatal", "cancelled"]
export const isFinished = (status: BotStatus) => FINISHED.includes(status)

const CLAIM_MS = 5 * 60_000
export const botClaim = (botId: string) => `bot:${botId}`
const without = (claims: Record<string, string>, key: string) => Object.fromEntries(Object.entries(claims).filter(([k]) => k !== key))

export const linkKey = (vendor: MeetingVendor, meetingId: string) => `${vendor}:${meetingId}`

const botOf = (state: State, botId: string) =>
  state.bots[botId] === undefined ? Effect.fail(new MeetingBotNotFound()) : Effect.succeed(state.bots[botId]!)

const NewBot = Schema.Struct({
  providerBotId: Schema.String,
  meetingUrl: Schema.String,
  title: Schema.String,
  occurrenceId: Schema.NullOr(Schema.String),
  meeting: Schema.NullOr(MeetingRef),
  attendeeEmails: Schema.Array(Schema.String),
  joinAt: Schema.NullOr(Timestamp),
  by: Id
})

export const MeetingBots = Actor<State>()({
  kind: "hubMeetingBots",
  state: State,
  initial: () => ({ bots: {}, links: {}, seenEvents: [], claims: {} }),
  messages: {
    view: { payload: Schema.Struct({}), success: State, error: Schema.Never },
    /** Starts an import or bot request for `key`; refused while another one runs (a claim older than CLAIM_MS was abandoned). */
    claim: { payload: Schema.Struct({ key: Schema.String }), success: Schema.Struct({}), error: MeetingBusy },
    release: { payload: Schema.Struct({ key: Schema.String }), success: Schema.Struct({}), error: Schema.Never },
    addBot: { payload: NewBot, success: MeetingBot, error: Schema.Never },
    cancelBot: {
      payload: Schema.Struct({ botId: Id }),
      success: MeetingBot,
      error: Schema.Union([MeetingBotNotFound, MeetingBotFinished])
    },
    /** A provider callback; `recordingId` when the recording was imported for it. */
    applyEvent: {
      payload: Schema.Struct({
        eventId: Schema.String,
        providerBotId: Schema.String,
        status: BotStatus,
        at: Timestamp,
        error: Schema.NullOr(Schema.String),
        recordingId: Schema.NullOr(Schema.Number)
      }),
      success: EventOutcome,
      error: Schema.Never
    },
    link: {
      payload: Schema.Struct({
        vendor: MeetingVendor,
        meetingId: Schema.String,
        title: Schema.String,
        occurrenceId: Schema.NullOr(Schema.String),
        by: Id
      }),
      success: MeetingLink,
      error: Schema.Never
    },
    unlink: { payload: Schema.Struct({ vendor: MeetingVendor, meetingId: Schema.String }), success: MeetingLink, error: MeetingNotLinked },
    recordImport: {
      payload: Schema.Struct({
        vendor: MeetingVendor,
        meetingId: Schema.String,
        title: Schema.String,
        occurrenceId: Schema.NullOr(Schema.String),
        recordingId: Schema.Number,
        by: Id
      }),
      success: MeetingLink,
      error: MeetingAlreadyImported
    }
  },
  handlers: {
    view: (_, ctx) => Effect.succeed(ctx.state),
    claim: ({ key }, ctx) =>
      Effect.gen(function* () {
        const since = ctx.state.claims[key]
        if (since !== undefined && Date.now() - Date.parse(since) < CLAIM_MS) return yield* new MeetingBusy()
        ctx.setState({ ...ctx.state, claims: { ...ctx.state.claims, [key]: now() } })
        return {}
      }),
    release: ({ key }, ctx) =>
      Effect.sync(() => {
        ctx.setState({ ...ctx.state, claims: without(ctx.state.claims, key) })
        return {}
      }),
    addBot: ({ by, ...fields }, ctx) =>
      Effect.sync(() => {
        const at = now()
        const bot: MeetingBot = {
          id: randomUUID(),
          ...fields,
          status: "scheduled",
          statusAt: at,
          recordingId: null,
          error: null,
          scheduledBy: by,
          createdAt: at,
          updatedAt: at
        }
        ctx.setState({ ...ctx.state, bots: { ...ctx.state.bots, [bot.id]: bot } })
        return bot
      }),
    cancelBot: ({ botId }, ctx) =>
      Effect.gen(function* () {
        const bot = yield* botOf(ctx.state, botId)
        if (isFinished(bot.status)) return yield* new MeetingBotFinished({ status: bot.status })
        const at = now()
        const next: MeetingBot = { ...bot, status: "cancelled", statusAt: at, updatedAt: at }
        ctx.setState({ ...ctx.state, bots: { ...ctx.state.bots, [botId]: next } })
        return next
      }),
    applyEvent: (event, ctx) =>
      Effect.sync(() => {
        const state = ctx.state
        const bot = Object.values(state.bots).find((candidate) => candidate.providerBotId === event.providerBotId)
        const outcome = (kind: "applied" | "duplicate" | "stale" | "ignored") => ({
          eventId: event.eventId,
          outcome: kind,
          botId: bot?.id ?? null,
          status: bot?.status ?? null
        })
        if (state.seenEvents.includes(event.eventId)) return outcome("duplicate")
        const seenEvents = [...state.seenEvents, event.eventId].slice(-EVENTS_KEPT)
        // A bot cancelled here stays cancelled; an older status than the last one changes nothing.
        if (bot === undefined || bot.status === "cancelled" || bot.statusAt > event.at) {
          ctx.setState({ ...state, seenEvents })
          return outcome(bot === undefined || bot.status === "cancelled" ? "ignored" : "stale")
        }
        const next: MeetingBot = {
          ...bot,
          status: event.status,
          statusAt: event.at,
          error: event.error ?? (event.status === "fatal" ? "The bot provider reported a failure" : bot.error),
          recordingId: bot.recordingId ?? event.recordingId,
          updatedAt: now()
        }
        const links =
          next.meeting !== null && event.recordingId !== null
            ? (() => {
                const key = linkKey(next.meeting.vendor, next.meeting.meetingId)
                const current = state.links[key]
                return {
                  ...state.links,
                  [key]: {
                    vendor: next.meeting.vendor,
                    meetingId: next.meeting.meetingId,
                    title: next.title,
                    occurrenceId: current?.occurrenceId ?? next.occurrenceId,
                    recordingId: event.recordingId,
                    linkedBy: current?.linkedBy ?? next.scheduledBy,
                    updatedAt: next.updatedAt
                  }
                }
              })()
            : state.links
        ctx.setState({
          ...state,
          bots: { ...state.bots, [bot.id]: next },
          links,
          seenEvents,
          claims: without(state.claims, botClaim(bot.id))
        })
        return { ...outcome("applied"), status: next.status }
      }),
    link: ({ vendor, meetingId, title, occurrenceId, by }, ctx) =>
      Effect.sync(() => {
        const key = linkKey(vendor, meetingId)
        const current = ctx.state.links[key]
        const link: MeetingLink = {
          vendor,
          meetingId,
          title,
          occurrenceId,
          recordingId: current?.recordingId ?? null,
          linkedBy: by,
          updatedAt: now()
        }
        ctx.setState({ ...ctx.state, links: { ...ctx.state.links, [key]: link } })
        return link
      }),
    unlink: ({ vendor, meetingId }, ctx) =>
      Effect.gen(function* () {
        const key = linkKey(vendor, meetingId)
        const current = ctx.state.links[key]
        if (current?.occurrenceId == null) return yield* new MeetingNotLinked()
        const link: MeetingLink = { ...current, occurrenceId: null, updatedAt: now() }
        ctx.setState({ ...ctx.state, links: { ...ctx.state.links, [key]: link } })
        return link
      }),
    recordImport: ({ vendor, meetingId, title, occurrenceId, recordingId, by }, ctx) =>
      Effect.gen(function* () {
        const key = linkKey(vendor, meetingId)
        const current = ctx.state.links[key]
        if (current?.recordingId != null) return yield* new MeetingAlreadyImported({ recordingId: current.recordingId })
        const link: MeetingLink = {
          vendor,
          meetingId,
          title,
          occurrenceId,
          recordingId,
          linkedBy: current?.linkedBy ?? by,
          updatedAt: now()
        }
        ctx.setState({ ...ctx.state, links: { ...ctx.state.links, [key]: link } })
        return link
      })
  }
})
