/**
 * hub tag "Calendar Sync" (beyond the seed's tags): the caller's own synced
 * calendars — the calendar connections they made (`vendor: "calendar"` in
 * Integrations, or its OAuth flow) — with each one's sync status, and a sync
 * on demand. Actor-scoped like the calendar: only the caller's own (an API key
 * its creator's, in its workspace); anybody else's is 404.
 */
import { Effect, Schema } from "effect"
import { SyncStatus, syncCalendarNow, syncStatuses } from "../../../actors/hub/calendar/sync/CalendarSync.ts"
import { Id } from "../../../actors/Fields.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { principalOf, workspaceRole } from "../../Access.ts"
import { type RequestContext, tagGroup } from "../../Operation.ts"
import { calendarSyncExamples } from "./CalendarSync.examples.ts"
import { service } from "./CalendarShapes.ts"

const { operation } = tagGroup(service, "Calendar Sync", calendarSyncExamples)

const SyncOutcome = Schema.Struct({
  full: Schema.Boolean.annotate({ description: "The whole calendar was read (first sync, expired sync token, daily refresh)" }),
  unchanged: Schema.Boolean.annotate({ description: "The suite said nothing changed (an iCalendar 304)" }),
  added: Schema.Number,
  changed: Schema.Number,
  removed: Schema.Number,
  botsScheduled: Schema.Number,
  botsCancelled: Schema.Number
}).annotate({ identifier: "CalendarSyncOutcome" })

/** The caller's own calendars: an API key sees those in its workspace only. */
const ownStatuses = (context: RequestContext, connectionId: string | null) =>
  Effect.flatMap(principalOf(context), (principal) =>
    syncStatuses(principal.userId, principal.kind === "apiKey" ? principal.workspaceId : null, connectionId)
  )

export const calendarSyncOperations = [
  operation({
    operationId: "listCalendarSyncs",
    method: "GET",
    path: "/v1/calendar/syncs",
    summary: "Your synced calendars, each with its last sync (time, outcome, error), its event count and its next scheduled sync",
    description:
      'A calendar is connected through Integrations (`vendor: "calendar"`) or its OAuth flow, in any workspace you belong to; it syncs into your calendar only.',
    auth: "both",
    scopes: ["calendar:read"],
    responses: { 200: { description: "Your synced calendars, oldest first", schema: Schema.Struct({ items: Schema.Array(SyncStatus) }) } },
    handler: (_, context) => Effect.map(ownStatuses(context, null), (items) => ({ items }))
  }),
  operation({
    operationId: "syncCalendarNow",
    method: "POST",
    path: "/v1/calendar/syncs/{connectionId}/sync",
    summary: "Sync one of your calendars now; answers what changed and its status after the sync",
    description:
      "The sync the background loop would run when the calendar is due; the next scheduled one moves on from now. A suite that fails answers 502/504 and the status keeps the error.",
    auth: "both",
    scopes: ["recordings:write"],
    params: Schema.Struct({ connectionId: Id }),
    responses: {
      200: {
        description: "Synced",
        schema: Schema.Struct({ outcome: SyncOutcome, status: SyncStatus }).annotate({ identifier: "CalendarSyncResult" })
      },
      404: { description: "Not one of your calendars" },
      409: { description: "A sync of this calendar is under way" },
      502: { description: "The suite failed or refused" },
      504: { description: "The suite did not answer in time" }
    },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const [own] = yield* ownStatuses(context, params.connectionId)
        if (own === undefined) return yield* reject("not_found", "No such calendar of yours")
        // Still a member of the workspace the calendar was connected in (its bots record there).
        yield* workspaceRole(context, own.workspaceId)
        const outcome = yield* syncCalendarNow(own.connectionId)
        const [status] = yield* ownStatuses(context, own.connectionId)
        return { outcome, status: status ?? own }
      })
  })
]
