/**
 * What the meeting-bot and vendor-call operations share: scheduling a bot
 * with the provider and keeping it in the workspace's `hubMeetingBots`
 * actor, resolving a calendar occurrence the caller sees, the reply schemas
 * and example values (made-up ids the fuzz seed replaces with real ones).
 */
import { Effect, Schema } from "effect"
import { occurrenceFor } from "../../../actors/hub/calendar/Calendars.ts"
import { MeetingBots } from "../../../actors/hub/meetings/MeetingBots.ts"
import { Id } from "../../../actors/Fields.ts"
import { ActorSystem } from "../../../runtime/ActorSystem.ts"
import { reject } from "../../../runtime/Rejection.ts"
import type { RequestContext } from "../../Operation.ts"
import { exampleIds } from "../calls/Examples.ts"
import { viewerOf } from "../people/Viewer.ts"

export const WorkspaceParams = Schema.Struct({ workspaceId: Id })
export const BotParams = Schema.Struct({ workspaceId: Id, botId: Id })

export const HttpsMeetingUrl = Schema.String.check(
  Schema.isMaxLength(2000),
  Schema.isPattern(/^https?:\/\/[^\s/?#]+[^\s]*$/, { expected: "an http(s) meeting URL" })
)
export const OccurrenceRef = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200)).annotate({
  description: "A calendar occurrence id (`<event UUID>_<YYYYMMDDTHHMMSSZ>`) or an event id (its first occurrence)"
})
export const FutureInstant = Schema.String.check(
  Schema.isPattern(/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/, { expected: "an ISO 8601 date-time with zone" })
)

export const exampleOccurrenceId = "3c9d2f4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f_20261201T100000Z"
export const exampleBotId = "9b8a7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d"
export const exampleAt = "2026-11-21T12:00:00.000Z"

export const exampleBot = {
  id: exampleBotId,
  providerBotId: "bot_4f8e2a1c",
  meetingUrl: "https://meet.example.com/j/81234567890",
  title: "Weekly sync",
  occurrenceId: exampleOccurrenceId,
  meeting: null,
  attendeeEmails: ["bob@example.com"],
  joinAt: "2026-12-01T10:00:00.000Z",
  status: "scheduled",
  statusAt: exampleAt,
  recordingId: null,
  error: null,
  scheduledBy: exampleIds.userId,
  createdAt: exampleAt,
  updatedAt: exampleAt
}

/**
 * Runs an import under the workspace's claim on `key` (a bot or a vendor meeting), so two deliveries or clicks
 * cannot import the same meeting twice; the claim is released on failure, and by the write that records success.
 */
export const withImportClaim = <A, E, R>(workspaceId: string, key: string, work: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const actors = yield* ActorSystem
    yield* actors.ask(MeetingBots, workspaceId, "claim", { key })
    return yield* Effect.onError(work, () => Effect.ignore(actors.ask(MeetingBots, workspaceId, "release", { key })))
  })

/** One bot of the workspace, from its actor's memory. */
export const botOf = (workspaceId: string, botId: string) =>
  Effect.gen(function* () {
    const state = yield* (yield* ActorSystem).ask(MeetingBots, workspaceId, "view", {})
    return state.bots[botId] ?? (yield* reject("not_found", "No such bot"))
  })

/** The occurrence (as the caller sees it) under its canonical id; 404 when the caller does not see it. */
export const occurrenceOf = (context: RequestContext, ref: string) =>
  Effect.flatMap(viewerOf(context), (viewer) =>
    Effect.catchTag(occurrenceFor(viewer, ref), "Rejection", (rejection) =>
      Effect.fail(
        rejection.code === "not_found"
          ? reject("not_found", "No such calendar occurrence", [{ path: "body.occurrenceId", message: "not an occurrence you see" }])
          : rejection
      )
    )
  )

export { type BotToSchedule, scheduleBot } from "../../../actors/hub/meetings/BotScheduling.ts"

/** A future join time as ISO, the occurrence's start when it is ahead, or null (join now). */
export const joinTimeOf = (given: string | undefined, occurrenceStart: string | null) => {
  if (given !== undefined) return new Date(given).toISOString()
  return occurrenceStart !== null && Date.parse(occurrenceStart) > Date.now() ? occurrenceStart : null
}
