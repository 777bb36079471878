/**
 * The persisted pm event log (`pm_events`, `pm_notifications`): how a
 * committed change is stored, and the reads the live streams need to replay
 * what a client or a node missed. Appending is the ChangeLog's job
 * (`ChangeLogLive.ts`); activity queries are in `ActivityLog.ts`.
 */
import { Effect, Schema } from "effect"
import { query } from "../../persistence/Sql.ts"
import * as SqlSchema from "../../persistence/SqlSchema.ts"
import type { ChangeEvent, ChangeScope, Notify } from "./ChangeLog.ts"

/** A change as logged: the event clients see, plus what the log needs to route it. */
export interface LoggedEvent extends ChangeEvent {
  /** Happened inside a private space: only its members and workspace admins may see it. */
  readonly privateSpace: boolean
}

export interface NotificationRecord {
  readonly id: string
  readonly userId: string
  readonly workspaceId: string
  readonly reason: Notify["reason"]
  readonly title: string
  readonly eventSeq: number
  readonly eventType: string
  readonly scope: ChangeScope
  readonly entityId: string
  readonly actorId: string
  readonly createdAt: string
  readonly readAt: string | null
}

/** The ids an event is filed under: its path, completed by its own entity id for its scope. */
export const locate = (event: Pick<ChangeEvent, "scope" | "entityId" | "path">) => ({
  spaceId: event.path.spaceId ?? (event.scope === "space" ? event.entityId : undefined),
  listId: event.path.listId ?? (event.scope === "list" ? event.entityId : undefined),
  taskId: event.path.taskId ?? (event.scope === "task" ? event.entityId : undefined)
})

export interface EventRow {
  readonly workspace_id: string
  readonly seq: number
  readonly type: string
  readonly scope: ChangeScope
  readonly entity_id: string
  readonly space_id: string | null
  readonly list_id: string | null
  readonly task_id: string | null
  readonly private_space: boolean
  readonly data: Record<string, unknown>
  readonly actor_id: string
  readonly at: string
}

export const EVENT_COLUMNS = "workspace_id, seq, type, scope, entity_id, space_id, list_id, task_id, private_space, data, actor_id, at"

export const toEvent = (row: EventRow): LoggedEvent => {
  const path: { spaceId?: string; listId?: string; taskId?: string } = {}
  if (row.space_id !== null) path.spaceId = row.space_id
  if (row.list_id !== null) path.listId = row.list_id
  if (row.task_id !== null) path.taskId = row.task_id
  return {
    seq: Number(row.seq),
    type: row.type,
    workspaceId: row.workspace_id,
    scope: row.scope,
    entityId: row.entity_id,
    path,
    data: row.data,
    actorId: row.actor_id,
    at: row.at,
    privateSpace: row.private_space
  }
}

export interface NotificationRow {
  readonly id: string
  readonly user_id: string
  readonly workspace_id: string
  readonly reason: Notify["reason"]
  readonly title: string
  readonly event_seq: number
  readonly event_type: string
  readonly scope: ChangeScope
  readonly entity_id: string
  readonly actor_id: string
  readonly created_at: string
  readonly read_at: string | null
}

export const NOTIFICATION_COLUMNS =
  "id, user_id, workspace_id, reason, title, event_seq, event_type, scope, entity_id, actor_id, created_at, read_at"

export const toNotification = (row: NotificationRow): NotificationRecord => ({
  id: row.id,
  userId: row.user_id,
  workspaceId: row.workspace_id,
  reason: row.reason,
  title: row.title,
  eventSeq: Number(row.event_seq),
  eventType: row.event_type,
  scope: row.scope,
  entityId: row.entity_id,
  actorId: row.actor_id,
  createdAt: row.created_at,
  readAt: row.read_at
})

/** The frame a live client receives for an event (the same bytes on the raw socket and Socket.IO). */
export const eventFrame = (event: LoggedEvent) => ({
  seq: event.seq,
  type: event.type,
  workspaceId: event.workspaceId,
  scope: event.scope,
  entityId: event.entityId,
  path: event.path,
  data: event.data,
  actorId: event.actorId,
  at: event.at
})

/** Events of a workspace with `after < seq <= upTo`, oldest first, and the notifications they caused. */
export const readRange = (workspaceId: string, after: number, upTo: number, limit: number) =>
  Effect.gen(function* () {
    const rows = yield* query<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM pm_events WHERE workspace_id = $1 AND seq > $2 AND seq <= $3 ORDER BY seq LIMIT $4`,
      [workspaceId, after, upTo, limit]
    )
    const events = rows.map(toEvent)
    if (events.length === 0) return { events, notifications: [] as ReadonlyArray<NotificationRecord> }
    const notifications = yield* query<NotificationRow>(
      `SELECT ${NOTIFICATION_COLUMNS} FROM pm_notifications WHERE workspace_id = $1 AND event_seq >= $2 AND event_seq <= $3 ORDER BY event_seq, id`,
      [workspaceId, events[0]!.seq, events[events.length - 1]!.seq]
    )
    return { events, notifications: notifications.map(toNotification) }
  })

/** The oldest seq still kept for a workspace (`undefined`: nothing logged, or everything pruned). */
export const oldestSeq = (workspaceId: string) =>
  Effect.map(query<{ seq: number | null }>("SELECT min(seq) AS seq FROM pm_events WHERE workspace_id = $1", [workspaceId]), (rows) =>
    rows[0]?.seq === null || rows[0]?.seq === undefined ? undefined : Number(rows[0].seq)
  )

/** The last seq assigned in each workspace (0 when none). */
export const lastSeqs = (workspaceIds: ReadonlyArray<string>) =>
  Effect.map(
    query<{ workspace_id: string; last_seq: number }>(
      "SELECT workspace_id, last_seq FROM pm_event_counters WHERE workspace_id = ANY($1::text[])",
      [workspaceIds]
    ),
    (rows) => {
      const map = new Map<string, number>(workspaceIds.map((id) => [id, 0]))
      for (const row of rows) map.set(row.workspace_id, Number(row.last_seq))
      return map
    }
  )

/**
 * Only events the viewer may see: a workspace admin sees every space; others
 * the public ones and the private spaces they belong to. Appends the clause
 * to `params`.
 */
export const privacyClause = (params: Array<unknown>, visiblePrivateSpaces: ReadonlyArray<string> | "all", alias = "") => {
  if (visiblePrivateSpaces === "all") return "TRUE"
  params.push(visiblePrivateSpaces)
  return `(NOT ${alias}private_space OR ${alias}space_id = ANY($${params.length}::text[]))`
}

/** Which events a subscription follows (for replays from the log). */
export interface ScopeFilter {
  readonly scope: ChangeScope
  readonly id: string
  /** For workspace scope: the private spaces the subscriber may see, or "all". */
  readonly privateSpaces: ReadonlyArray<string> | "all"
}

/** Events of one subscription with `after < seq <= upTo`, oldest first. */
export const readScoped = (workspaceId: string, filter: ScopeFilter, after: number, upTo: number, limit: number) => {
  const params: Array<unknown> = [workspaceId, after, upTo, limit]
  let where: string
  if (filter.scope === "workspace") where = privacyClause(params, filter.privateSpaces)
  else if (filter.scope === "board" || filter.scope === "wikiSpace") {
    params.push(filter.scope, filter.id)
    where = `scope = $${params.length - 1} AND entity_id = $${params.length}`
  } else {
    params.push(filter.id)
    where = `${filter.scope}_id = $${params.length}`
  }
  return Effect.map(
    query<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM pm_events WHERE workspace_id = $1 AND seq > $2 AND seq <= $3 AND ${where} ORDER BY seq LIMIT $4`,
      params
    ),
    (rows) => rows.map(toEvent)
  )
}

const findStatusChanges = SqlSchema.findAll({
  Request: Schema.Struct({ workspaceId: Schema.String, after: Schema.Number, upTo: Schema.Number, limit: Schema.Number }),
  Result: Schema.Struct({ seq: Schema.Union([Schema.Number, Schema.String]), task_id: Schema.String }),
  execute: ({ workspaceId, after, upTo, limit }) => [
    `SELECT seq, entity_id AS task_id FROM pm_events
      WHERE workspace_id = $1 AND type = 'status.changed' AND scope = 'task' AND seq > $2 AND seq <= $3 ORDER BY seq LIMIT $4`,
    [workspaceId, after, upTo, limit]
  ]
})

/** The tasks whose status changed in `after < seq <= upTo`, in seq order (for readers outside pm that follow task progress). */
export const taskStatusChanges = (workspaceId: string, after: number, upTo: number, limit: number) =>
  Effect.map(findStatusChanges({ workspaceId, after, upTo, limit }), (rows) => rows.map((r) => ({ seq: Number(r.seq), taskId: r.task_id })))
