/**
 * The hub's services beside its operations: the media/encryption keys, the
 * summarizer (local, or the chat model when LLM_* is set), the calendar
 * prompts port, and the background workers started with the server: the
 * recording processing worker (after ffmpeg detection and the recovery of
 * jobs a previous run left behind), the integration broker's inbox processor
 * the workspace migration runner (each resuming what a previous run left)
 * and the calendar sync (each calendar connection a leased job, due every few minutes).
 */
import { Effect, Layer } from "effect"
import { extension } from "../Extension.ts"
import * as CalendarPrompts from "../../actors/hub/CalendarPrompts.ts"
import { chatModelFromEnv, chatSummarizer } from "../../actors/hub/summarizer/ChatSummarizer.ts"
import { localSummarizer } from "../../actors/hub/summarizer/LocalSummarizer.ts"
import { Summarizer } from "../../actors/hub/summarizer/Summarizer.ts"
import * as HubKeys from "../../actors/hub/HubKeys.ts"
import { detectFfmpeg } from "../../actors/hub/Media.ts"
import { processingLoop, recoverJobs } from "../../actors/hub/Processing.ts"
import { inboxLoop, recoverInbox } from "../../actors/hub/broker/Inbox.ts"
import { migrationLoop, recoverMigrations } from "../../actors/hub/migration/MigrationRunner.ts"
import { calendarSyncLoop } from "../../actors/hub/calendar/sync/CalendarSync.ts"
import { type CallDirectoryServices, callDirectoryLive } from "../../actors/hub/CallDirectoryLive.ts"
import { installCallDirectory } from "../../actors/hub/people/CallDirectory.ts"

const summarizerLayer = Layer.sync(Summarizer, () => {
  const chat = chatModelFromEnv()
  return Summarizer.of(chat ? chatSummarizer(chat) : localSummarizer)
})

export const hubExtension = extension({
  name: "hub",
  layer: () => Layer.mergeAll(HubKeys.layer, summarizerLayer, CalendarPrompts.layer),
  attach: (_, config) =>
    Effect.gen(function* () {
      yield* detectFfmpeg
      yield* recoverJobs(config.natsUrl === undefined).pipe(
        Effect.catchCause((cause) => Effect.logError("hub: job recovery failed", cause))
      )
      yield* recoverInbox(config.natsUrl === undefined)
      yield* recoverMigrations(config.natsUrl === undefined)
      const scope = yield* Effect.scope
      yield* Effect.forkIn(processingLoop, scope)
      yield* Effect.forkIn(inboxLoop, scope)
      yield* Effect.forkIn(migrationLoop, scope)
      yield* Effect.forkIn(calendarSyncLoop, scope)
      installCallDirectory(callDirectoryLive(yield* Effect.context<CallDirectoryServices>()))
    })
})
