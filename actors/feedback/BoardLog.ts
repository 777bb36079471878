/**
 * How the Board actor writes: a write's rows, its change-log entries
 * (`feedback_events`) and the notifications it causes commit in one
 * transaction — the ChangeLog's, so the same events also enter the pm event
 * log with scope `board` and reach the board's followers on the live stream
 * (pm WebSocket tickets) after the commit. Team-only events (internal notes,
 * posts waiting for moderation) stay out of the stream. Notifications go to a request's subscribers other than the
 * one who acted, as each chose for the board (instant by default, digest, or
 * off: none stored).
 */
import { randomUUID } from "node:crypto"
import { Effect } from "effect"
import { query, type Sql, SqlError } from "../../persistence/Sql.ts"
import { ReferenceGone } from "../pm/PmErrors.ts"
import { type BoardRefusal, BoardNameTaken } from "./FeedbackErrors.ts"
import type { Change } from "../pm/ChangeLog.ts"
import { ChangeLog } from "../pm/ChangeLog.ts"
import type { BoardState } from "./FeedbackModel.ts"
import { enqueueNotifications } from "../notifications/Outbox.ts"
import { feedbackOutboxEntries } from "../notifications/Sources.ts"

export interface BoardEvent {
  /** e.g. `board.updated`, `request.created`, `request.voted`, `request.merged`, `comment.created`. */
  readonly type: string
  readonly entityId: string
  readonly data: Record<string, unknown>
  /** Only for the board's team (an internal note, a post waiting for moderation): kept out of the live stream. */
  readonly teamOnly?: boolean
  /** Who acted, when not the write's `by` (a group of votes cast by several callers). */
  readonly by?: string
}

export type NotificationReason = "new_request" | "status_changed" | "commented" | "mentioned" | "merged" | "shipped"

export interface Notice {
  readonly requestId: string
  readonly reason: NotificationReason
  readonly title: string
  /** Only these users (still as they chose for the board); absent: the request's subscribers. */
  readonly userIds?: ReadonlyArray<string>
}

export interface Written<A> {
  readonly result: A
  readonly events: ReadonlyArray<BoardEvent>
  readonly notices?: ReadonlyArray<Notice>
  /** The state after the write; absent: rebuild it from the rows before the next message. */
  readonly next?: BoardState | null
}

export type WriteBody<A, E = BoardRefusal> = Effect.Effect<Written<A>, E | SqlError, Sql>

export interface LoggedBoardEvent extends BoardEvent {
  readonly seq: number
  readonly boardId: string
  readonly workspaceId: string
  readonly actorId: string
  readonly at: string
}

/** The events in one statement of fixed text (so it stays prepared), numbered in order: `seq` follows `n`. */
const appendEvents = (boardId: string, workspaceId: string, by: string, events: ReadonlyArray<BoardEvent>) => {
  if (events.length === 0) return Effect.succeed([] as Array<LoggedBoardEvent>)
  return Effect.map(
    query<{ seq: number; at: string }>(
      `INSERT INTO feedback_events (board_id, workspace_id, type, entity_id, data, actor_id)
       SELECT $1, $2, e.type, e.entity_id, d.data, e.actor_id
         FROM unnest($3::text[], $4::text[], $5::text[]) WITH ORDINALITY AS e (type, entity_id, actor_id, n)
         JOIN jsonb_array_elements($6::jsonb) WITH ORDINALITY AS d (data, n) USING (n)
        ORDER BY n
       RETURNING seq, at`,
      [
        boardId,
        workspaceId,
        events.map((event) => event.type),
        events.map((event) => event.entityId),
        events.map((event) => event.by ?? by),
        events.map((event) => event.data)
      ]
    ),
    (logged) =>
      [...logged]
        .sort((a, b) => Number(a.seq) - Number(b.seq))
        .map(
          (row, i): LoggedBoardEvent => ({
            ...events[i]!,
            seq: Number(row.seq),
            at: row.at,
            boardId,
            workspaceId,
            actorId: events[i]!.by ?? by
          })
        )
  )
}

const notify = (boardId: string, workspaceId: string, by: string, notice: Notice) =>
  Effect.gen(function* () {
    const recipients = yield* notice.userIds === undefined
      ? query<{ user_id: string; mode: string }>(
          `SELECT s.user_id, COALESCE(p.mode, 'instant') AS mode FROM feedback_subscribers s
             LEFT JOIN feedback_notification_preferences p ON p.user_id = s.user_id AND p.board_id = $2
            WHERE s.request_id = $1 AND s.user_id <> $3`,
          [notice.requestId, boardId, by]
        )
      : query<{ user_id: string; mode: string }>(
          `SELECT u.user_id, COALESCE(p.mode, 'instant') AS mode FROM unnest($1::text[]) AS u (user_id)
             LEFT JOIN feedback_notification_preferences p ON p.user_id = u.user_id AND p.board_id = $2
            WHERE u.user_id <> $3`,
          [notice.userIds, boardId, by]
        )
    const written = recipients
      .filter((recipient) => recipient.mode !== "off")
      .map((recipient) => ({ id: randomUUID(), userId: recipient.user_id, mode: recipient.mode, workspaceId, boardId, ...notice }))
    // One statement for all of them: a request with thousands of voters is one round trip, not thousands.
    if (written.length > 0)
      yield* query(
        `INSERT INTO feedback_notifications (id, user_id, workspace_id, board_id, request_id, reason, title, delivery)
         SELECT n.id, n.user_id, $3, $4, $5, $6, $7, n.mode FROM unnest($1::text[], $2::text[], $8::text[]) AS n (id, user_id, mode)`,
        [
          written.map((n) => n.id),
          written.map((n) => n.userId),
          workspaceId,
          boardId,
          notice.requestId,
          notice.reason,
          notice.title,
          written.map((n) => n.mode)
        ]
      )
    // The same notifications, to be mailed as each recipient chose (same transaction).
    yield* enqueueNotifications(feedbackOutboxEntries(written))
  })

/** The stream's view of a board event: filed under the board, the changed entity in `data.entityId`. */
const streamChange = (event: LoggedBoardEvent): Change => ({
  workspaceId: event.workspaceId,
  scope: "board",
  entityId: event.boardId,
  path: {},
  type: event.type,
  data: { ...event.data, entityId: event.entityId, boardSeq: event.seq },
  actorId: event.actorId
})

/** Runs `body` and logs its events in one transaction (published to the stream after COMMIT); `workspaceId` of the board written. */
export const commitBoardWrite = <A, E = BoardRefusal>(boardId: string, workspaceId: string, by: string, body: WriteBody<A, E>) =>
  ChangeLog.use((log) =>
    log.transact(
      Effect.gen(function* () {
        const written = yield* body
        const logged = yield* appendEvents(boardId, workspaceId, by, written.events)
        for (const notice of written.notices ?? []) yield* notify(boardId, workspaceId, by, notice)
        return { result: written, changes: logged.filter((event) => event.teamOnly !== true).map(streamChange) }
      })
    )
  ).pipe(Effect.catchIf((error): error is SqlError => error instanceof SqlError, boardConflicts))

/** A unique or foreign-key violation is the caller's conflict; any other SQL failure a defect. */
const boardConflicts = (error: SqlError): Effect.Effect<never, BoardNameTaken | ReferenceGone> =>
  error.code === "23505" ? Effect.fail(new BoardNameTaken()) : error.code === "23503" ? Effect.fail(new ReferenceGone()) : Effect.die(error)
