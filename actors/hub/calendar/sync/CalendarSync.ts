/**
 * Calendars synced from the suites people use. Every workspace connection of
 * kind `calendar` — an iCalendar address, a Google or a Microsoft calendar
 * (settings.calendarProtocol) — syncs into the calendar of the user who made
 * it, so calendar access stays actor-scoped: nobody else sees those events.
 * A sync is a leased job (`hub_calendar_sync`): the background loop
 * (`calendarSyncLoop`, started with the hub) claims a due calendar
 * (`FOR UPDATE SKIP LOCKED`, then a lease in `claimed_until`, so two nodes
 * never sync one calendar at once and a node that dies leaves it to the next
 * claim), asks the suite what changed, rebuilds the calendar's events in the
 * owner's `hubCalendar` actor (idempotent: the same events change nothing),
 * then schedules or calls off recording bots as the owner chose (FeedBots.ts).
 * A revoked connection's events leave the calendar with its waiting bots;
 * so do those of a member who left the connection's workspace or was removed
 * from it: every turn revokes their calendar connections there first
 * (`revokeDeparted`), so their suites are never asked again.
 */
import { Effect, Schema } from "effect"
import { isoTimestampSql, millisUntil, query, Sql } from "../../../../persistence/Sql.ts"
import { ActorSystem } from "../../../../runtime/ActorSystem.ts"
import { reject } from "../../../../runtime/Rejection.ts"
import { safetyPollMillis, Wakeup } from "../../../../runtime/Wakeup.ts"
import { Id, Timestamp } from "../../../Fields.ts"
import { memberNowSql, userById } from "../../../identity/IdentityQueries.ts"
import type { Connection } from "../../connections/Connections.ts"
import { connectionCreated, tokenOf } from "../../connections/Connections.ts"
import { Calendar, type SyncedEventInput } from "../Calendar.ts"
import { SyncProvider } from "../CalendarEvent.ts"
import { reconcileBots } from "./FeedBots.ts"
import { googleChange, googleDrafts, googleRound, type Round } from "./GoogleCalendar.ts"
import { graphChange, graphDrafts, graphRound } from "./GraphCalendar.ts"
import { fetchIcs, parseIcs } from "./IcsFeed.ts"
import { type SeriesDraft, toSyncedInput, windowAt } from "./SyncedEvents.ts"

export interface SyncResult {
  /** The whole calendar was read (first sync, expired token, daily refresh). */
  readonly full: boolean
  /** The suite said nothing changed (an iCalendar 304). */
  readonly unchanged: boolean
  readonly added: number
  readonly changed: number
  readonly removed: number
  readonly botsScheduled: number
  readonly botsCancelled: number
}

interface SyncRow {
  readonly connection: Connection
  readonly revoked: boolean
  readonly etag: string | null
  readonly lastModified: string | null
  readonly cursor: string | null
  readonly fullSyncedAt: string | null
}

const columns = `c.id, c.workspace_id AS "workspaceId", c.vendor, c.name, c.base_url AS "baseUrl", c.settings, c.created_by AS "createdBy",
  c.created_at AS "createdAt", c.token_ciphertext <> '' AS "hasToken", c.revoked_at IS NOT NULL AS "revoked", s.etag,
  s.last_modified AS "lastModified", s.cursor, ${isoTimestampSql("s.full_synced_at")} AS "fullSyncedAt"`

type Flat = Connection & Omit<SyncRow, "connection">

const rowOf = ({ revoked, etag, lastModified, cursor, fullSyncedAt, ...connection }: Flat): SyncRow => ({
  connection,
  revoked,
  etag,
  lastModified,
  cursor,
  fullSyncedAt
})

const numberFromEnv = (name: string, fallback: number) => {
  const value = Number(process.env[name])
  return Number.isFinite(value) && value > 0 ? value : fallback
}
/** Seconds between syncs of a calendar (`HUB_CALENDAR_SYNC_MINUTES`, default 10). */
const intervalSeconds = () => numberFromEnv("HUB_CALENDAR_SYNC_MINUTES", 10) * 60
const LEASE_SECONDS = 300
/** A full read at least this often: it moves the synced window (Graph fixes it at the first request) and heals drift. */
const FULL_EVERY_MS = 86_400_000

/** The protocol a calendar connection speaks: its setting, else guessed from its base URL. */
export const protocolOf = (connection: Pick<Connection, "settings" | "baseUrl">): SyncProvider =>
  connection.settings.calendarProtocol ?? (/graph\.microsoft\.com/i.test(connection.baseUrl) ? "microsoft" : "google")

/**
 * The calendar connections of people no longer members of the connection's workspace (they left, were removed or
 * deactivated, their guest access ended, the workspace was deleted) are revoked, their token dropped, and fall due
 * now: the next claim takes their events out of the owner's calendar and calls off their bots (`forget`).
 */
const revokeDeparted = query(
  `WITH departed AS (
     UPDATE hub_connections c SET revoked_at = now(), token_ciphertext = ''
      WHERE c.vendor = 'calendar' AND c.revoked_at IS NULL AND NOT ${memberNowSql("c.workspace_id", "c.created_by")}
      RETURNING c.id)
   UPDATE hub_calendar_sync SET next_sync_at = now() WHERE connection_id IN (SELECT id FROM departed)`
)

/** Calendar connections without a sync row get one (due now): a new connection is synced at the next turn. */
const enrol = Effect.orDie(
  Effect.andThen(
    revokeDeparted,
    query(
      `INSERT INTO hub_calendar_sync (connection_id)
       SELECT id FROM hub_connections c WHERE c.vendor = 'calendar' AND c.revoked_at IS NULL
         AND NOT EXISTS (SELECT 1 FROM hub_calendar_sync s WHERE s.connection_id = c.id)
       ON CONFLICT (connection_id) DO NOTHING`
    )
  )
)

/** The calendar due first (or a revoked one to clean up), taken for one sync. */
const claimDue = Effect.orDie(
  query<Flat>(
    `WITH claimed AS (
       UPDATE hub_calendar_sync SET claimed_until = now() + make_interval(secs => $1)
        WHERE connection_id = (SELECT connection_id FROM hub_calendar_sync
                                WHERE next_sync_at <= now() AND (claimed_until IS NULL OR claimed_until < now())
                                ORDER BY next_sync_at LIMIT 1 FOR UPDATE SKIP LOCKED)
        RETURNING *)
     SELECT ${columns} FROM claimed s JOIN hub_connections c ON c.id = s.connection_id`,
    [LEASE_SECONDS]
  )
)

/** Takes one calendar for a sync now; 409 while another sync of it runs. */
const claimOne = (connectionId: string) =>
  Effect.gen(function* () {
    yield* enrol
    const [row] = yield* Effect.orDie(
      query<Flat>(
        `WITH claimed AS (
           UPDATE hub_calendar_sync SET claimed_until = now() + make_interval(secs => $2)
            WHERE connection_id = $1 AND (claimed_until IS NULL OR claimed_until < now()) RETURNING *)
         SELECT ${columns} FROM claimed s JOIN hub_connections c ON c.id = s.connection_id`,
        [connectionId, LEASE_SECONDS]
      )
    )
    return row === undefined
      ? yield* reject("conflict", "This calendar is not a synced calendar, or a sync of it is under way")
      : rowOf(row)
  })

/** Ends a sync: its outcome kept (the error, the calendar's event count when it was read), the next one scheduled. */
const release = (connectionId: string, lastError: string | null, synced: boolean, eventCount: number | null = null) =>
  Effect.orDie(
    query(
      `UPDATE hub_calendar_sync SET claimed_until = NULL, last_error = $2, next_sync_at = now() + make_interval(secs => $3),
         attempted_at = now(), synced_at = CASE WHEN $4 THEN now() ELSE synced_at END, event_count = COALESCE($5, event_count)
       WHERE connection_id = $1`,
      [connectionId, lastError, intervalSeconds(), synced, eventCount]
    )
  )

/** Applies a round to the cached suite events (all of them replaced on a full round) and answers every cached event. */
const applyRound = (
  connectionId: string,
  round: Round,
  changeOf: (item: Record<string, any>) => { id: string; keep: boolean } | undefined
) =>
  Sql.use((sql) =>
    sql.transaction(
      Effect.gen(function* () {
        if (round.full) yield* sql.query(`DELETE FROM hub_calendar_sync_items WHERE connection_id = $1`, [connectionId])
        for (const item of round.items) {
          const change = changeOf(item)
          if (change === undefined) continue
          if (change.keep)
            yield* sql.query(
              `INSERT INTO hub_calendar_sync_items (connection_id, item_id, item) VALUES ($1, $2, $3)
               ON CONFLICT (connection_id, item_id) DO UPDATE SET item = EXCLUDED.item`,
              [connectionId, change.id, item]
            )
          else yield* sql.query(`DELETE FROM hub_calendar_sync_items WHERE connection_id = $1 AND item_id = $2`, [connectionId, change.id])
        }
        const rows = yield* sql.query<{ item: Record<string, any> }>(`SELECT item FROM hub_calendar_sync_items WHERE connection_id = $1`, [
          connectionId
        ])
        return rows.map((row) => row.item)
      })
    )
  )

interface Fetched {
  readonly drafts: ReadonlyArray<SeriesDraft> | null
  readonly full: boolean
  /** Columns stored with the finished sync. */
  readonly state: {
    readonly etag?: string | null
    readonly lastModified?: string | null
    readonly cursor?: string
    readonly windowStart?: string
  }
}

const fetchedAs = (fetched: Fetched): Fetched => fetched

const fetchCalendar = (row: SyncRow, ownerEmail: string, nowMs: number) =>
  Effect.gen(function* () {
    const connection = row.connection
    const window = windowAt(nowMs)
    const stale = row.fullSyncedAt === null || nowMs - Date.parse(row.fullSyncedAt) > FULL_EVERY_MS
    switch (protocolOf(connection)) {
      case "ics": {
        const fetched = yield* fetchIcs(yield* tokenOf(connection.id), stale ? null : { etag: row.etag, lastModified: row.lastModified })
        if (fetched.kind === "unchanged") return fetchedAs({ drafts: null, full: false, state: {} })
        return fetchedAs({
          drafts: yield* parseIcs(fetched.text, window, ownerEmail),
          full: true,
          state: { etag: fetched.validators.etag, lastModified: fetched.validators.lastModified }
        })
      }
      case "google": {
        const round = yield* googleRound(connection, connection.settings.calendarId ?? "primary", stale ? null : row.cursor)
        const items = yield* Effect.orDie(applyRound(connection.id, round, googleChange))
        return fetchedAs({ drafts: googleDrafts(items, window, ownerEmail), full: round.full, state: { cursor: round.cursor } })
      }
      case "microsoft": {
        const round = yield* graphRound(connection, stale ? null : row.cursor, window)
        const items = yield* Effect.orDie(applyRound(connection.id, round, graphChange))
        return fetchedAs({
          drafts: graphDrafts(items, window, ownerEmail),
          full: round.full,
          state: { cursor: round.cursor, ...(round.full ? { windowStart: new Date(window.fromMs).toISOString() } : {}) }
        })
      }
    }
  })

/** Bytes of events one page of a sync carries: well under a NATS message (`MAX_MESSAGE_BYTES`), whatever the calendar's size. */
const PAGE_BYTES = 256 * 1024

/** `events` in pages of at most PAGE_BYTES of JSON each (an event larger than a page goes alone). */
export const pagesOf = <A>(events: ReadonlyArray<A>, pageBytes = PAGE_BYTES): ReadonlyArray<ReadonlyArray<A>> => {
  const pages: Array<Array<A>> = []
  let page: Array<A> = []
  let bytes = 0
  for (const event of events) {
    const size = Buffer.byteLength(JSON.stringify(event))
    if (page.length > 0 && bytes + size > pageBytes) {
      pages.push(page)
      page = []
      bytes = 0
    }
    page.push(event)
    bytes += size
  }
  if (page.length > 0) pages.push(page)
  return pages
}

/**
 * Makes the feed's events in the owner's calendar exactly `events`, in messages that each fit NATS: the feed's
 * others pruned first (ids only), then the events upserted page by page. A sync cut off half-way leaves a mix the
 * next one completes (each step is idempotent).
 */
const replaceSynced = (ownerId: string, feedId: string, windowStart: string, events: ReadonlyArray<SyncedEventInput>) =>
  Effect.gen(function* () {
    const system = yield* ActorSystem
    const { removed } = yield* system.ask(Calendar, ownerId, "pruneSynced", { feedId, keep: events.map((event) => event.id) })
    const total = { added: 0, changed: 0, removed, unchanged: 0 }
    for (const page of pagesOf(events)) {
      const outcome = yield* system.ask(Calendar, ownerId, "upsertSynced", { feedId, windowStart, events: page })
      total.added += outcome.added
      total.changed += outcome.changed
      total.unchanged += outcome.unchanged
    }
    return total
  })

/** A revoked calendar: its events leave the owner's calendar (with their prompts), its waiting bots are called off. */
const forget = (row: SyncRow) =>
  Effect.gen(function* () {
    const { connection } = row
    const outcome = yield* (yield* ActorSystem).ask(Calendar, connection.createdBy, "pruneSynced", { feedId: connection.id, keep: [] })
    const bots = yield* reconcileBots({
      feedId: connection.id,
      workspaceId: connection.workspaceId,
      userId: connection.createdBy,
      off: true
    })
    yield* Effect.orDie(query(`DELETE FROM hub_calendar_sync WHERE connection_id = $1`, [connection.id]))
    return {
      full: true,
      unchanged: false,
      added: 0,
      changed: 0,
      removed: outcome.removed,
      botsScheduled: 0,
      botsCancelled: bots.cancelled
    } satisfies SyncResult
  })

/** One sync of a claimed calendar; the claim is released either way, and a failure is kept as its last error. */
const runSync = (row: SyncRow) =>
  row.revoked
    ? forget(row)
    : Effect.gen(function* () {
        const { connection } = row
        const owner = yield* Effect.orDie(userById(connection.createdBy))
        if (owner === undefined) return yield* reject("not_found", "The calendar's owner no longer exists")
        const nowMs = Date.now()
        const fetched = yield* fetchCalendar(row, owner.email, nowMs)
        const outcome =
          fetched.drafts === null
            ? { added: 0, changed: 0, removed: 0, unchanged: 0 }
            : yield* replaceSynced(
                owner.id,
                connection.id,
                new Date(windowAt(nowMs).fromMs).toISOString(),
                fetched.drafts.map((draft) => toSyncedInput(connection.id, protocolOf(connection), draft))
              )
        yield* Effect.orDie(
          query(
            `UPDATE hub_calendar_sync SET etag = CASE WHEN $2 THEN $3 ELSE etag END, last_modified = CASE WHEN $2 THEN $4 ELSE last_modified END,
               cursor = COALESCE($5, cursor), window_start = COALESCE($6::timestamptz, window_start),
               full_synced_at = CASE WHEN $7 THEN now() ELSE full_synced_at END WHERE connection_id = $1`,
            [
              connection.id,
              fetched.state.etag !== undefined,
              fetched.state.etag ?? null,
              fetched.state.lastModified ?? null,
              fetched.state.cursor ?? null,
              fetched.state.windowStart ?? null,
              fetched.full
            ]
          )
        )
        const bots = yield* reconcileBots({ feedId: connection.id, workspaceId: connection.workspaceId, userId: owner.id, off: false })
        yield* release(connection.id, bots.errors[0] ?? null, true, fetched.drafts?.length ?? null)
        return {
          full: fetched.full,
          unchanged: fetched.drafts === null,
          added: outcome.added,
          changed: outcome.changed,
          removed: outcome.removed,
          botsScheduled: bots.scheduled,
          botsCancelled: bots.cancelled
        } satisfies SyncResult
      }).pipe(Effect.tapError((error) => release(row.connection.id, error.message, false)))

/** Syncs one calendar connection now (what the loop does when it is due); 409 while another sync of it runs. */
export const syncCalendarNow = (connectionId: string) => Effect.flatMap(claimOne(connectionId), runSync)

/** What its owner sees of a synced calendar: the last sync's time and outcome, the events it holds, the next turn. */
export const SyncStatus = Schema.Struct({
  connectionId: Id,
  workspaceId: Id,
  name: Schema.String,
  protocol: SyncProvider,
  state: Schema.Literals(["pending", "syncing", "synced", "failed"]).annotate({
    description:
      "`pending`: not synced yet; `syncing`: a sync runs now; `synced`: the last sync succeeded; `failed`: it did not (see `lastError`)"
  }),
  lastAttemptAt: Schema.NullOr(Timestamp).annotate({ description: "When a sync last ended, whatever its outcome" }),
  lastSyncedAt: Schema.NullOr(Timestamp).annotate({ description: "When a sync last succeeded" }),
  lastError: Schema.NullOr(Schema.String).annotate({
    description: "Why the last sync failed, or what it could not do (a recording bot it could not schedule); null when all went well"
  }),
  eventCount: Schema.NullOr(Schema.Number).annotate({
    description: "Events (series and single meetings) the calendar held at its last read"
  }),
  nextSyncAt: Timestamp.annotate({ description: "When the next scheduled sync is due" })
}).annotate({ identifier: "CalendarSyncStatus" })
export type SyncStatus = typeof SyncStatus.Type

interface StatusRow {
  readonly connectionId: string
  readonly workspaceId: string
  readonly name: string
  readonly settings: Connection["settings"]
  readonly baseUrl: string
  readonly syncing: boolean
  readonly lastAttemptAt: string | null
  readonly lastSyncedAt: string | null
  readonly lastError: string | null
  readonly eventCount: number | null
  readonly nextSyncAt: string
}

const statusOf = (row: StatusRow): SyncStatus => ({
  connectionId: row.connectionId,
  workspaceId: row.workspaceId,
  name: row.name,
  protocol: protocolOf(row),
  state: row.syncing
    ? "syncing"
    : row.lastAttemptAt === null
      ? "pending"
      : row.lastSyncedAt !== null && row.lastSyncedAt >= row.lastAttemptAt
        ? "synced"
        : "failed",
  lastAttemptAt: row.lastAttemptAt,
  lastSyncedAt: row.lastSyncedAt,
  lastError: row.lastError,
  eventCount: row.eventCount,
  nextSyncAt: row.nextSyncAt
})

/**
 * The sync status of `userId`'s own calendars (connections they made; in `workspaceId` only when given): nobody
 * else's. A calendar connected a moment ago is due now, as the loop will enrol it.
 */
export const syncStatuses = (userId: string, workspaceId: string | null, connectionId: string | null = null) =>
  Effect.map(
    Effect.orDie(
      query<StatusRow>(
        `SELECT c.id AS "connectionId", c.workspace_id AS "workspaceId", c.name, c.settings, c.base_url AS "baseUrl",
           COALESCE(s.claimed_until > now(), false) AS "syncing", ${isoTimestampSql("s.attempted_at")} AS "lastAttemptAt",
           ${isoTimestampSql("s.synced_at")} AS "lastSyncedAt", s.last_error AS "lastError", s.event_count AS "eventCount",
           ${isoTimestampSql("COALESCE(s.next_sync_at, c.created_at)")} AS "nextSyncAt"
         FROM hub_connections c LEFT JOIN hub_calendar_sync s ON s.connection_id = c.id
         WHERE c.vendor = 'calendar' AND c.revoked_at IS NULL AND c.created_by = $1
           AND ($2::text IS NULL OR c.workspace_id = $2) AND ($3::text IS NULL OR c.id = $3)
         ORDER BY c.created_at, c.id`,
        [userId, workspaceId, connectionId]
      )
    ),
    (rows) => rows.map(statusOf)
  )

/** The longest an idle node sleeps without a signal before looking for due calendars (`HUB_CALENDAR_POLL_MS`). */
const pollMillis = () => numberFromEnv("HUB_CALENDAR_POLL_MS", safetyPollMillis())

/** Milliseconds until the calendar due first may be claimed (from the database's clock); undefined: none enrolled. */
const nextDueInMs = millisUntil("min(GREATEST(next_sync_at, COALESCE(claimed_until, next_sync_at)))", "FROM hub_calendar_sync")

/**
 * Syncs due calendars one at a time until the scope closes; a failed sync
 * waits for its next turn. Between syncs it sleeps until the next calendar
 * falls due, a connection is created (to enrol it) or the safety poll.
 */
export const calendarSyncLoop = Effect.gen(function* () {
  const created = (yield* Wakeup).listen(connectionCreated)
  while (true) {
    const [row] = yield* Effect.andThen(enrol, claimDue).pipe(
      Effect.catchCause((cause) => Effect.as(Effect.logWarning("hub: claiming a calendar to sync failed", cause), []))
    )
    if (row === undefined) {
      const dueInMs = yield* nextDueInMs.pipe(Effect.orElseSucceed(() => undefined))
      yield* created.sleep(Math.min(pollMillis(), dueInMs ?? Number.POSITIVE_INFINITY))
    } else
      yield* runSync(rowOf(row)).pipe(
        Effect.catchCause((cause) => Effect.logWarning(`hub: calendar connection ${row.id} did not sync`, cause))
      )
  }
})
