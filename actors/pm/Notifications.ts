/**
 * A user's notifications: written by the ChangeLog from the changes'
 * `notify` (same transaction as the change), read and marked read here. Each
 * row belongs to exactly one user and only that user's requests touch it, in
 * single statements, so no actor is needed to serialize them.
 */
import { Effect, Schema } from "effect"
import { query } from "../../persistence/Sql.ts"
import * as SqlSchema from "../../persistence/SqlSchema.ts"
import { reject } from "../../runtime/Rejection.ts"
import { Id, Timestamp } from "../Fields.ts"
import { NOTIFICATION_COLUMNS, type NotificationRecord, type NotificationRow, toNotification } from "./EventLog.ts"
import { NotificationReason } from "./ReferenceData.ts"

export const Notification = Schema.Struct({
  id: Id,
  workspaceId: Schema.String,
  reason: NotificationReason,
  title: Schema.String,
  read: Schema.Boolean,
  readAt: Schema.NullOr(Timestamp),
  createdAt: Timestamp,
  actorId: Schema.String,
  event: Schema.Struct({
    seq: Schema.Number,
    type: Schema.String,
    scope: Schema.Literals(["workspace", "space", "list", "task", "board", "wikiSpace"]),
    entityId: Schema.String
  })
}).annotate({
  identifier: "Notification",
  description: "Something that happened that concerns the user, with the change event that caused it."
})
export type Notification = typeof Notification.Type

export const notificationView = (record: NotificationRecord): Notification => ({
  id: record.id,
  workspaceId: record.workspaceId,
  reason: record.reason,
  title: record.title,
  read: record.readAt !== null,
  readAt: record.readAt,
  createdAt: record.createdAt,
  actorId: record.actorId,
  event: { seq: record.eventSeq, type: record.eventType, scope: record.scope, entityId: record.entityId }
})

/** Opaque page cursor: the last item's (createdAt, id). */
export const encodeCursor = (createdAt: string, id: string) => Buffer.from(`${createdAt}|${id}`).toString("base64url")
export const decodeCursor = (cursor: string) => {
  const [createdAt, id, ...rest] = Buffer.from(cursor, "base64url").toString("utf8").split("|")
  if (rest.length > 0 || id === undefined || createdAt === undefined || Number.isNaN(Date.parse(createdAt))) {
    return Effect.fail(reject("invalid", "Invalid cursor", [{ path: "query.cursor", message: "not a cursor from a previous page" }]))
  }
  return Effect.succeed({ createdAt, id })
}

export interface NotificationFilter {
  readonly userId: string
  /** The workspaces the user may still see (a former member no longer sees that workspace's notifications). */
  readonly workspaceIds: ReadonlyArray<string>
  readonly unreadOnly?: boolean
  readonly reason?: NotificationRecord["reason"]
}

const whereOf = (filter: NotificationFilter, params: Array<unknown>) => {
  params.push(filter.userId, filter.workspaceIds)
  const clauses = [`user_id = $${params.length - 1}`, `workspace_id = ANY($${params.length}::text[])`]
  if (filter.unreadOnly) clauses.push("read_at IS NULL")
  if (filter.reason !== undefined) {
    params.push(filter.reason)
    clauses.push(`reason = $${params.length}`)
  }
  return clauses.join(" AND ")
}

/** Newest first, `limit` per page. */
export const listNotifications = (filter: NotificationFilter, limit: number, cursor?: string) =>
  Effect.gen(function* () {
    const params: Array<unknown> = []
    let where = whereOf(filter, params)
    if (cursor !== undefined) {
      const after = yield* decodeCursor(cursor)
      params.push(after.createdAt, after.id)
      where += ` AND (created_at, id) < ($${params.length - 1}::timestamptz, $${params.length})`
    }
    params.push(limit + 1)
    const rows = yield* query<NotificationRow>(
      `SELECT ${NOTIFICATION_COLUMNS} FROM pm_notifications WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT $${params.length}`,
      params
    ).pipe(Effect.orDie)
    const page = rows.slice(0, limit).map(toNotification)
    const last = page[page.length - 1]
    return {
      items: page.map(notificationView),
      nextCursor: rows.length > limit && last !== undefined ? encodeCursor(last.createdAt, last.id) : null
    }
  })

export const countNotifications = (filter: NotificationFilter) =>
  Effect.gen(function* () {
    const params: Array<unknown> = []
    const rows = yield* query<{ workspace_id: string; total: number; unread: number }>(
      `SELECT workspace_id, count(*) AS total, count(*) FILTER (WHERE read_at IS NULL) AS unread
         FROM pm_notifications WHERE ${whereOf(filter, params)} GROUP BY workspace_id ORDER BY workspace_id`,
      params
    ).pipe(Effect.orDie)
    const byWorkspace = rows.map((row) => ({ workspaceId: row.workspace_id, total: Number(row.total), unread: Number(row.unread) }))
    return {
      total: byWorkspace.reduce((sum, w) => sum + w.total, 0),
      unread: byWorkspace.reduce((sum, w) => sum + w.unread, 0),
      byWorkspace
    }
  })

/** Marks one of the user's notifications read or unread; others' (and missing ones) are not found. */
export const markNotification = (userId: string, workspaceIds: ReadonlyArray<string>, notificationId: string, read: boolean) =>
  Effect.gen(function* () {
    const rows = yield* query<NotificationRow>(
      `UPDATE pm_notifications SET read_at = CASE WHEN $3::boolean THEN COALESCE(read_at, now()) ELSE NULL END
        WHERE id = $1 AND user_id = $2 AND workspace_id = ANY($4::text[]) RETURNING ${NOTIFICATION_COLUMNS}`,
      [notificationId, userId, read, workspaceIds]
    ).pipe(Effect.orDie)
    if (rows[0] === undefined) return yield* reject("not_found", "No such notification")
    return notificationView(toNotification(rows[0]))
  })

/** Marks every unread notification of the user in `workspaceIds` (up to a time) read. */
export const markAllRead = (userId: string, workspaceIds: ReadonlyArray<string>, before?: string) =>
  Effect.gen(function* () {
    const params: Array<unknown> = [userId, workspaceIds]
    let where = "user_id = $1 AND workspace_id = ANY($2::text[]) AND read_at IS NULL"
    if (before !== undefined) where += ` AND created_at <= $${params.push(before)}::timestamptz`
    const rows = yield* query<{ id: string }>(`UPDATE pm_notifications SET read_at = now() WHERE ${where} RETURNING id`, params).pipe(
      Effect.orDie
    )
    return { updated: rows.length }
  })

const countUnread = SqlSchema.findAll({
  Request: Schema.Struct({ userId: Schema.String, workspaceIds: Schema.Array(Schema.String) }),
  Result: Schema.Struct({ workspaceId: Schema.String, n: Schema.Number }),
  execute: (r) => [
    `SELECT workspace_id AS "workspaceId", count(*)::int AS n FROM pm_notifications
      WHERE user_id = $1 AND read_at IS NULL AND workspace_id = ANY($2::text[]) GROUP BY workspace_id`,
    [r.userId, r.workspaceIds]
  ]
})

/** The user's unread notifications counted per workspace (absent: none). */
export const unreadByWorkspace = (userId: string, workspaceIds: ReadonlyArray<string>) =>
  Effect.map(countUnread({ userId, workspaceIds }), (rows) => new Map(rows.map((row) => [row.workspaceId, row.n] as const)))

/** Which of these notifications their users have read in the app (the e-mail sender leaves those out). */
export const readNotificationIds = (ids: ReadonlyArray<string>) =>
  ids.length === 0
    ? Effect.succeed(new Set<string>())
    : Effect.map(
        query<{ id: string }>("SELECT id FROM pm_notifications WHERE id = ANY($1::text[]) AND read_at IS NOT NULL", [ids]),
        (rows) => new Set(rows.map((row) => row.id))
      )
