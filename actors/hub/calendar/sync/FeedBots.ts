/**
 * Recording bots for synced meetings, as the calendar's owner chose in their
 * recording settings (`autoJoin`: none / those they organize / all with a
 * video link; `recordExternalMeetings`: also meetings with people outside the
 * workspace; the bot's name): after each sync, a bot is
 * scheduled with the provider for every chosen occurrence starting within
 * `HUB_CALENDAR_BOT_HOURS` (default 48) with its video link, joining at its
 * start; a bot the owner has waiting for a synced occurrence that moved (or
 * whose link changed) is called off and sent again, one whose occurrence was
 * cancelled, removed or is no longer chosen is called off. Bots already in a
 * call are left alone.
 */
import { Effect } from "effect"
import { ActorSystem } from "../../../../runtime/ActorSystem.ts"
import { memberRoles, usersByIds } from "../../../identity/IdentityQueries.ts"
import { HubUserSettings } from "../../people/HubUserSettings.ts"
import { scheduleBot } from "../../meetings/BotScheduling.ts"
import { stopProviderBot } from "../../meetings/BotProvider.ts"
import { MeetingBots } from "../../meetings/MeetingBots.ts"
import { Calendar } from "../Calendar.ts"
import { instancesIn, occurrenceIdOf, parseOccurrenceId } from "../CalendarEvent.ts"

export interface BotPlan {
  readonly feedId: string
  readonly workspaceId: string
  readonly userId: string
  /** The calendar is gone: every waiting bot for it is called off, whatever the choice. */
  readonly off: boolean
}

interface Wanted {
  readonly occurrenceId: string
  readonly meetingUrl: string
  readonly title: string
  readonly attendeeEmails: ReadonlyArray<string>
  readonly start: string
}

const horizonMs = () => {
  const hours = Number(process.env.HUB_CALENDAR_BOT_HOURS || 48)
  return (Number.isFinite(hours) && hours > 0 ? hours : 48) * 3_600_000
}

export const reconcileBots = (plan: BotPlan) =>
  Effect.gen(function* () {
    const system = yield* ActorSystem
    const { recording } = yield* system.ask(HubUserSettings, plan.userId, "view", {})
    const choice = plan.off ? "none" : recording.autoJoin
    const nowMs = Date.now()
    // The owner's waiting bots, and of the feed's events only those due within the horizon: never the whole calendar.
    const waiting = Object.values((yield* system.ask(MeetingBots, plan.workspaceId, "view", {})).bots).flatMap((bot) => {
      const eventId = bot.occurrenceId === null ? undefined : parseOccurrenceId(bot.occurrenceId)?.eventId
      return bot.scheduledBy !== plan.userId || bot.status !== "scheduled" || eventId === undefined ? [] : [{ bot, eventId }]
    })
    const calendar = yield* system.ask(Calendar, plan.userId, "feedEvents", {
      feedId: plan.feedId,
      from: nowMs,
      to: nowMs + horizonMs(),
      eventIds: [...new Set(waiting.map((entry) => entry.eventId))]
    })
    const wanted = new Map<string, Wanted>()
    const memberEmails =
      choice === "none" || recording.recordExternalMeetings
        ? undefined
        : yield* Effect.orDie(
            Effect.flatMap(memberRoles(plan.workspaceId), (roles) =>
              Effect.map(usersByIds([...roles.keys()]), (users) => new Set([...users.values()].map((user) => user.email)))
            )
          )
    if (choice !== "none")
      for (const event of calendar.upcoming) {
        const synced = event.synced
        if (synced?.feedId !== plan.feedId || synced.meetingUrl === null) continue
        if (choice === "organized" && !synced.organizer) continue
        if (memberEmails !== undefined && event.attendeeEmails.some((email) => !memberEmails.has(email))) continue
        for (const instance of instancesIn(event, nowMs, nowMs + horizonMs())) {
          const occurrenceId = occurrenceIdOf(event.id, instance.originalMs)
          wanted.set(occurrenceId, {
            occurrenceId,
            meetingUrl: synced.meetingUrl,
            title: event.title,
            attendeeEmails: event.attendeeEmails,
            start: new Date(instance.startMs).toISOString()
          })
        }
      }
    // The owner's waiting bots for this feed's occurrences, or for occurrences of events no longer in their calendar.
    const ours = new Set(calendar.ours)
    const bots = waiting.filter((entry) => ours.has(entry.eventId)).map((entry) => entry.bot)
    let cancelled = 0
    let scheduled = 0
    const errors: Array<string> = []
    for (const bot of bots) {
      const want = wanted.get(bot.occurrenceId!)
      if (want !== undefined && want.meetingUrl === bot.meetingUrl && want.start === bot.joinAt) {
        wanted.delete(bot.occurrenceId!)
        continue
      }
      const stopped = yield* Effect.result(
        Effect.andThen(stopProviderBot(bot.providerBotId, false), system.ask(MeetingBots, plan.workspaceId, "cancelBot", { botId: bot.id }))
      )
      if (stopped._tag === "Success") cancelled++
      else errors.push(`Calling off the bot for "${bot.title}" failed: ${stopped.failure.message}`)
    }
    for (const want of wanted.values()) {
      if (Date.parse(want.start) <= nowMs) continue
      const sent = yield* Effect.result(
        scheduleBot({
          workspaceId: plan.workspaceId,
          userId: plan.userId,
          meetingUrl: want.meetingUrl,
          title: want.title,
          occurrenceId: want.occurrenceId,
          meeting: null,
          attendeeEmails: want.attendeeEmails,
          joinAt: want.start,
          botName: recording.botName
        })
      )
      if (sent._tag === "Success") scheduled++
      else errors.push(`Scheduling a bot for "${want.title}" failed: ${sent.failure.message}`)
    }
    return { scheduled, cancelled, errors }
  })
