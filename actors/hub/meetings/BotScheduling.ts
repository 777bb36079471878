/**
 * Scheduling a recording bot with the provider and keeping it in the
 * workspace's `hubMeetingBots` actor: the bot operations and the calendar
 * sync (a user's choice of synced meetings) both schedule through here.
 */
import { Effect } from "effect"
import { ActorSystem } from "../../../runtime/ActorSystem.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { createProviderBot } from "./BotProvider.ts"
import { MeetingBots } from "./MeetingBots.ts"
import type { MeetingVendor } from "./MeetingVendors.ts"

export interface BotToSchedule {
  readonly workspaceId: string
  readonly userId: string
  readonly meetingUrl: string
  readonly title: string
  readonly occurrenceId: string | null
  readonly meeting: { readonly vendor: MeetingVendor; readonly meetingId: string } | null
  readonly attendeeEmails: ReadonlyArray<string>
  readonly joinAt: string | null
  readonly botName: string
}

/** Asks the provider for the bot first: only a bot the provider accepted is kept (and reported by its callbacks). */
export const scheduleBot = (bot: BotToSchedule) =>
  Effect.gen(function* () {
    // Held while the provider is asked, so two requests cannot send two bots to one meeting.
    const actors = yield* ActorSystem
    const key = `schedule:${bot.meetingUrl}`
    yield* actors.ask(MeetingBots, bot.workspaceId, "claim", { key })
    return yield* Effect.ensuring(sendBot(bot), Effect.ignore(actors.ask(MeetingBots, bot.workspaceId, "release", { key })))
  })

const sendBot = (bot: BotToSchedule) =>
  Effect.gen(function* () {
    const active = Object.values((yield* (yield* ActorSystem).ask(MeetingBots, bot.workspaceId, "view", {})).bots).find(
      (existing) =>
        existing.meetingUrl === bot.meetingUrl &&
        // A recurring meeting keeps its link: bots for two of its occurrences are two bots.
        (bot.occurrenceId === null || existing.occurrenceId === null || existing.occurrenceId === bot.occurrenceId) &&
        ["scheduled", "joining_call", "in_call_recording"].includes(existing.status)
    )
    if (active) return yield* reject("conflict", `A bot is already scheduled for this meeting (${active.id})`)
    const providerBotId = yield* createProviderBot({
      workspaceId: bot.workspaceId,
      meetingUrl: bot.meetingUrl,
      botName: bot.botName,
      joinAt: bot.joinAt
    })
    return yield* (yield* ActorSystem).ask(MeetingBots, bot.workspaceId, "addBot", {
      providerBotId,
      meetingUrl: bot.meetingUrl,
      title: bot.title,
      occurrenceId: bot.occurrenceId,
      meeting: bot.meeting,
      attendeeEmails: [...bot.attendeeEmails],
      joinAt: bot.joinAt,
      by: bot.userId
    })
  })
