/**
 * The ChangeLog (contract in `ChangeLog.ts`) on SQL and the ChangeFeed.
 *
 * `transact(body)` opens one transaction, runs `body`, and in the same
 * transaction: bumps each touched workspace's counter row (`pm_event_counters`,
 * which also serializes concurrent writers of one workspace, so commit order
 * is seq order), appends the events (`pm_events`, marked when they happened in
 * a private space), writes the notifications their `notify` asks for (to
 * workspace members other than the actor, unless they muted that reason or
 * workspace), queues the webhook deliveries of the events
 * (`../pmops/WebhookOutbox.ts`: one outbox row per matching endpoint, in
 * the same statement), and prunes the workspace's log down to `retention` events.
 * After COMMIT the events go to the ChangeFeed (this node's live subscribers,
 * then the other nodes). A rollback publishes nothing.
 */
import { randomUUID } from "node:crypto"
import { Context, Effect, Layer } from "effect"
import { Sql, afterCommit, query, queryWithCommit, wakeAfterCommit } from "../../persistence/Sql.ts"
import { type Change, ChangeLog, type ChangeScope, type ChangeLogShape } from "./ChangeLog.ts"
import { ChangeFeed, type FeedBatch } from "./ChangeFeed.ts"
import { type LoggedEvent, type NotificationRecord, locate } from "./EventLog.ts"
import { membersOf } from "./Members.ts"
import { settingsOf } from "./UserDirectory.ts"
import { wantsNotification } from "./UserSettings.ts"
import { enqueueInsertedSql, enqueueRangeSql, pmWebhooksQueued } from "../pmops/WebhookOutbox.ts"
import { pmOutboxEntries } from "../notifications/Sources.ts"
import { enqueueNotifications } from "../notifications/Outbox.ts"

export interface ChangeLogOptions {
  /** Events kept per workspace; older ones are pruned (clients further behind are told to resync). */
  readonly retention: number
}

export const DEFAULT_RETENTION = 100_000

const SCOPES: ReadonlySet<string> = new Set<ChangeScope>(["workspace", "space", "list", "task", "board", "wikiSpace"])
const EVENT_INSERT_CHUNK = 400

const invalidChange = (change: Change): string | undefined => {
  if (typeof change.workspaceId !== "string" || change.workspaceId === "") return "workspaceId is empty"
  if (!SCOPES.has(change.scope)) return `unknown scope "${String(change.scope)}"`
  if (typeof change.entityId !== "string" || change.entityId === "") return "entityId is empty"
  if (typeof change.type !== "string" || change.type === "") return "type is empty"
  if (typeof change.actorId !== "string" || change.actorId === "") return "actorId is empty"
  if (typeof change.data !== "object" || change.data === null || Array.isArray(change.data)) return "data is not an object"
  return undefined
}

/** The path with the change's own id filled in for its scope, so live and replayed events are identical. */
const pathOf = (change: Change): LoggedEvent["path"] => {
  const located = locate(change)
  const path: { spaceId?: string; listId?: string; taskId?: string } = {}
  if (located.spaceId !== undefined) path.spaceId = located.spaceId
  if (located.listId !== undefined) path.listId = located.listId
  if (located.taskId !== undefined) path.taskId = located.taskId
  return path
}

/** An event's columns after its workspace and sequence number, in `pm_events` order. */
const eventFields = (event: Omit<LoggedEvent, "seq">): Array<unknown> => [
  event.type,
  event.scope,
  event.entityId,
  event.path.spaceId ?? null,
  event.path.listId ?? null,
  event.path.taskId ?? null,
  event.privateSpace,
  event.data,
  event.actorId,
  event.at
]

/** Takes the next `$2` sequence numbers of workspace `$1`, locking its counter row until COMMIT. */
const claimNumbers = `INSERT INTO pm_event_counters (workspace_id, last_seq) VALUES ($1, $2)
  ON CONFLICT (workspace_id) DO UPDATE SET last_seq = pm_event_counters.last_seq + excluded.last_seq
  RETURNING last_seq`

const insertEvents = (events: ReadonlyArray<LoggedEvent>) =>
  Effect.forEach(
    Array.from({ length: Math.ceil(events.length / EVENT_INSERT_CHUNK) }, (_, i) =>
      events.slice(i * EVENT_INSERT_CHUNK, (i + 1) * EVENT_INSERT_CHUNK)
    ),
    (chunk) => {
      const params: Array<unknown> = []
      const rows = chunk.map((event) => {
        const base = params.length
        params.push(event.workspaceId, event.seq, ...eventFields(event))
        return `(${Array.from({ length: 12 }, (_, i) => `$${base + i + 1}`).join(", ")})`
      })
      return query(
        `INSERT INTO pm_events (workspace_id, seq, type, scope, entity_id, space_id, list_id, task_id, private_space, data, actor_id, at)
         VALUES ${rows.join(", ")}`,
        params
      )
    },
    { discard: true }
  )

/** A notification `changes` ask for, before its event has a sequence number. */
interface PendingNotification {
  readonly index: number
  readonly userId: string
  readonly reason: NotificationRecord["reason"]
  readonly title: string
}

/**
 * Notifications `changes` ask for, kept for members other than the actor who
 * did not mute them. Read before the workspace's counter row is locked: it
 * needs no sequence number, so it must not lengthen the lock.
 */
const pendingNotifications = Effect.fnUntraced(function* (workspaceId: string, changes: ReadonlyArray<Change>) {
  const wanted: Array<PendingNotification> = []
  const seen = new Set<string>()
  changes.forEach((change, index) => {
    for (const notify of change.notify ?? []) {
      const key = `${notify.userId}\u0000${index}`
      if (notify.userId === change.actorId || seen.has(key)) continue
      seen.add(key)
      wanted.push({ index, userId: notify.userId, reason: notify.reason, title: notify.title })
    }
  })
  if (wanted.length === 0) return wanted
  const members = yield* membersOf(workspaceId)
  const settings = yield* settingsOf([...new Set(wanted.map((w) => w.userId))])
  return wanted.filter((w) => {
    if (!members.has(w.userId)) return false
    const pref = settings.get(w.userId)?.notifications
    return !(pref && !wantsNotification(pref, workspaceId, w.reason))
  })
})

/** The notifications of logged events (their sequence numbers known), inserted in one statement. */
const insertNotifications = Effect.fnUntraced(function* (
  workspaceId: string,
  pending: ReadonlyArray<PendingNotification>,
  events: ReadonlyArray<LoggedEvent>,
  at: string
) {
  const records: Array<NotificationRecord> = pending.map((w) => {
    const event = events[w.index]!
    return {
      id: randomUUID(),
      userId: w.userId,
      workspaceId,
      reason: w.reason,
      title: w.title.slice(0, 500),
      eventSeq: event.seq,
      eventType: event.type,
      scope: event.scope,
      entityId: event.entityId,
      actorId: event.actorId,
      createdAt: at,
      readAt: null
    }
  })
  if (records.length === 0) return records
  const params: Array<unknown> = []
  const rows = records.map((n) => {
    const base = params.length
    params.push(n.id, n.userId, n.workspaceId, n.reason, n.title, n.eventSeq, n.eventType, n.scope, n.entityId, n.actorId, n.createdAt)
    return `(${Array.from({ length: 11 }, (_, i) => `$${base + i + 1}`).join(", ")})`
  })
  yield* query(
    `INSERT INTO pm_notifications (id, user_id, workspace_id, reason, title, event_seq, event_type, scope, entity_id, actor_id, created_at)
       VALUES ${rows.join(", ")}`,
    params
  )
  // The same notifications, to be mailed as each recipient chose (same transaction).
  yield* enqueueNotifications(pmOutboxEntries(records.map((record, i) => ({ ...record, path: events[pending[i]!.index]!.path }))))
  return records
})

const eventColumns = "workspace_id, seq, type, scope, entity_id, space_id, list_id, task_id, private_space, data, actor_id, at"

/** One range delete per this many events (of a workspace's log kept to `retention`), not one per append. */
const pruneStep = (retention: number) => Math.max(1, Math.min(256, Math.floor(retention / 4)))

/**
 * Takes the next `$2` sequence numbers of workspace `$1` and inserts its
 * events (`$3`) in ONE statement: the counter row stays locked from here to
 * COMMIT, and every writer of the workspace queues on it. Whether an event
 * happened in a private space is decided in the same statement, and when the
 * numbers cross a multiple of `$5` the log is pruned to its last `$4` events;
 * the numbered events come back in order. The events go as one JSON
 * recordset, so the statement's text is the same for any number of them
 * (prepared once per connection, not once per batch size).
 */
const claimAndInsertSql = `WITH counter AS (${claimNumbers}), inserted AS (
    INSERT INTO pm_events (${eventColumns})
    SELECT $1, counter.last_seq - $2 + v.ord, v.type, v.scope, v.entity_id, v.space_id, v.list_id, v.task_id,
           COALESCE(sp.is_private, false) OR v.scope IN ('board', 'wikiSpace'), v.data, v.actor_id, v.at
      FROM counter
     CROSS JOIN jsonb_to_recordset($3::jsonb)
           AS v(ord int, type text, scope text, entity_id text, space_id text, list_id text, task_id text, data jsonb, actor_id text, at timestamptz)
      LEFT JOIN pm_spaces sp ON sp.id = v.space_id
    RETURNING ${eventColumns}
  ), webhooks AS (${enqueueInsertedSql}
  ), pruned AS (
    DELETE FROM pm_events WHERE workspace_id = $1 AND seq <= (SELECT last_seq FROM counter) - $4::int8
       AND (SELECT last_seq FROM counter) / $5::int8 <> ((SELECT last_seq FROM counter) - $2) / $5::int8)
  SELECT seq, private_space AS "privateSpace" FROM inserted ORDER BY seq`

type Unnumbered = Omit<LoggedEvent, "seq" | "privateSpace">

const claimAndInsertParams = (workspaceId: string, events: ReadonlyArray<Unnumbered>, options: ChangeLogOptions) => [
  workspaceId,
  events.length,
  events.map((event, i) => ({
    ord: i + 1,
    type: event.type,
    scope: event.scope,
    entity_id: event.entityId,
    space_id: event.path.spaceId ?? null,
    list_id: event.path.listId ?? null,
    task_id: event.path.taskId ?? null,
    data: event.data,
    actor_id: event.actorId,
    at: event.at
  })),
  options.retention,
  pruneStep(options.retention)
]

type Numbered = ReadonlyArray<{ seq: number | string; privateSpace: boolean }>

const numbered = (events: ReadonlyArray<Unnumbered>, rows: Numbered): Array<LoggedEvent> =>
  rows.map((row, i) => ({ seq: Number(row.seq), ...events[i]!, privateSpace: row.privateSpace }))

/** A bulk change: its private spaces read first, then the numbers claimed, then the events inserted in chunks. */
const claimInChunks = Effect.fnUntraced(function* (workspaceId: string, unnumbered: ReadonlyArray<Unnumbered>, options: ChangeLogOptions) {
  const spaceIds = [...new Set(unnumbered.map((e) => e.path.spaceId).filter((id): id is string => id !== undefined))]
  const privateSpaces = new Set(
    spaceIds.length === 0
      ? []
      : (yield* query<{ id: string }>("SELECT id FROM pm_spaces WHERE id = ANY($1::text[]) AND is_private", [spaceIds])).map((r) => r.id)
  )
  const counter = yield* query<{ last_seq: number }>(claimNumbers, [workspaceId, unnumbered.length])
  const first = Number(counter[0]!.last_seq) - unnumbered.length + 1
  const events: Array<LoggedEvent> = unnumbered.map((event, i) => ({
    seq: first + i,
    ...event,
    privateSpace:
      (event.path.spaceId !== undefined && privateSpaces.has(event.path.spaceId)) || event.scope === "board" || event.scope === "wikiSpace"
  }))
  yield* insertEvents(events)
  yield* query(enqueueRangeSql, [workspaceId, first, first + events.length - 1])
  const last = first + events.length - 1
  if (
    Math.floor(last / pruneStep(options.retention)) !== Math.floor((first - 1) / pruneStep(options.retention)) &&
    last > options.retention
  )
    yield* query("DELETE FROM pm_events WHERE workspace_id = $1 AND seq <= $2", [workspaceId, last - options.retention])
  return events
})

/** The wake-up topic (runtime/Wakeup.ts) of the workers reading the change log (the webhook outbox it fills has its own). */
export const changesAppended = "pm.changes.appended"

/**
 * Appends `changes` in the current transaction; what to publish after COMMIT goes to `into`, one batch per
 * workspace. When no change asks for a notification (which needs its event's number in this transaction),
 * each workspace's events go with COMMIT (`queryWithCommit`), so its counter row is locked only while the
 * server runs them; otherwise they are inserted now.
 */
export const append = Effect.fnUntraced(function* (changes: ReadonlyArray<Change>, options: ChangeLogOptions, into: Array<FeedBatch>) {
  if (changes.length === 0) return
  for (const change of changes) {
    const problem = invalidChange(change)
    if (problem !== undefined)
      return yield* Effect.die(new Error(`ChangeLog: invalid change (${problem}): ${JSON.stringify(change).slice(0, 300)}`))
  }
  const at = new Date().toISOString()
  const byWorkspace = new Map<string, Array<Unnumbered>>()
  const changesOf = new Map<string, Array<Change>>()
  for (const change of changes) {
    const event: Unnumbered = {
      type: change.type,
      workspaceId: change.workspaceId,
      scope: change.scope,
      entityId: change.entityId,
      path: pathOf(change),
      data: change.data,
      actorId: change.actorId,
      at
    }
    const list = byWorkspace.get(change.workspaceId)
    if (list === undefined) {
      byWorkspace.set(change.workspaceId, [event])
      changesOf.set(change.workspaceId, [change])
    } else {
      list.push(event)
      changesOf.get(change.workspaceId)!.push(change)
    }
  }
  // Everything that needs no sequence number is read first, before any counter row is locked.
  const pending = new Map<string, ReadonlyArray<PendingNotification>>()
  for (const [workspaceId, list] of changesOf) pending.set(workspaceId, yield* pendingNotifications(workspaceId, list))
  // Counter rows are locked in id order, so two transactions touching the same workspaces cannot deadlock:
  // all of them with COMMIT, or all of them now.
  const workspaceIds = [...byWorkspace.keys()].sort()
  const withCommit = workspaceIds.every((id) => (pending.get(id) ?? []).length === 0 && byWorkspace.get(id)!.length <= EVENT_INSERT_CHUNK)
  for (const workspaceId of workspaceIds) {
    const unnumbered = byWorkspace.get(workspaceId)!
    if (withCommit) {
      yield* queryWithCommit<Numbered[number]>(claimAndInsertSql, claimAndInsertParams(workspaceId, unnumbered, options), (rows) =>
        Effect.sync(() => {
          const events = numbered(unnumbered, rows)
          into.push({ workspaceId, lastSeq: events[events.length - 1]!.seq, events, notifications: [] })
        })
      )
      continue
    }
    const events =
      unnumbered.length <= EVENT_INSERT_CHUNK
        ? numbered(unnumbered, yield* query<Numbered[number]>(claimAndInsertSql, claimAndInsertParams(workspaceId, unnumbered, options)))
        : yield* claimInChunks(workspaceId, unnumbered, options)
    const notifications = yield* insertNotifications(workspaceId, pending.get(workspaceId) ?? [], events, at)
    into.push({ workspaceId, lastSeq: events[events.length - 1]!.seq, events, notifications })
  }
  yield* wakeAfterCommit(changesAppended)
  yield* wakeAfterCommit(pmWebhooksQueued)
})

/**
 * Batches appended by the ChangeLog transaction the current fiber runs in: a
 * `transact` inside another joins it. Either way the batches go out once the
 * outermost transaction (a plain `Sql.transaction` too) committed.
 */
const Appended = Context.Reference<Array<FeedBatch> | undefined>("atrium/actors/pm/ChangeLog/Appended", {
  defaultValue: () => undefined
})

export const make = Effect.fnUntraced(function* (options: ChangeLogOptions) {
  const feed = yield* ChangeFeed
  const transact: ChangeLogShape["transact"] = (body) =>
    Effect.gen(function* () {
      const outer = yield* Appended
      const run = (appended: Array<FeedBatch>) =>
        Effect.gen(function* () {
          const { result, changes } = yield* body
          yield* append(changes, options, appended)
          return result
        })
      if (outer !== undefined) return yield* run(outer)
      const appended: Array<FeedBatch> = []
      // Published once the outermost transaction committed (events numbered with COMMIT are known only then).
      const publish = afterCommit(Effect.sync(() => (appended.length > 0 ? feed.publish(appended) : undefined)))
      const sql = yield* Sql
      return yield* sql.transaction(Effect.andThen(publish, run(appended)).pipe(Effect.provideService(Appended, appended)))
    })
  return ChangeLog.of({ transact })
})

export const layer = (options: ChangeLogOptions): Layer.Layer<ChangeLog, never, ChangeFeed> => Layer.effect(ChangeLog, make(options))
