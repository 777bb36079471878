/**
 * Reads of the desk's rows. The FeedbackDesk actor writes them before it
 * replies, so a read after a write sees it. Its read model (`DeskState`) is
 * rebuilt from these; the rest (comments, history, log, private feedback)
 * is read here on demand.
 */
import { Effect } from "effect"
import { docToHtml, docToMarkdown, type ProseMirrorNode } from "../../richtext/RichText.ts"
import { query } from "../../persistence/Sql.ts"
import { iso, isoOrNull } from "../wiki/WikiQueries.ts"
import {
  type ChangelogEntry,
  toBugComment,
  toBugHistory,
  toBugReport,
  toMilestone,
  toModerationLogEntry,
  toPrivateFeedback
} from "./DeskRecords.ts"

type RawRow = Record<string, any>

const BUG_COLUMNS = `b.*, (SELECT count(*) FROM feedback_bug_comments c WHERE c.bug_report_id = b.id) AS comment_count`

export const bugsOfBoard = (boardId: string) =>
  Effect.map(
    query(`SELECT ${BUG_COLUMNS} FROM feedback_bug_reports b WHERE b.board_id = $1 AND b.deleted_at IS NULL ORDER BY b.number`, [boardId]),
    (rows) => rows.map(toBugReport)
  )

/** The board a bug report belongs to (deleted ones included: callers answer 404 for those). */
export const boardOfBug = (bugReportId: string) =>
  Effect.map(
    query<{ board_id: string; deleted: boolean }>(
      `SELECT board_id, deleted_at IS NOT NULL AS deleted FROM feedback_bug_reports WHERE id = $1`,
      [bugReportId]
    ),
    (rows) => (rows[0] && !rows[0].deleted ? rows[0].board_id : undefined)
  )

export const nextBugNumber = (boardId: string) =>
  Effect.map(
    query<{ n: number }>(`SELECT coalesce(max(number), 0) + 1 AS n FROM feedback_bug_reports WHERE board_id = $1`, [boardId]),
    (rows) => Number(rows[0]?.n ?? 1)
  )

export const bugComments = (bugReportId: string) =>
  Effect.map(query(`SELECT * FROM feedback_bug_comments WHERE bug_report_id = $1 ORDER BY created_at, id`, [bugReportId]), (rows) =>
    rows.map(toBugComment)
  )

export const bugHistory = (bugReportId: string) =>
  Effect.map(query(`SELECT * FROM feedback_bug_history WHERE bug_report_id = $1 ORDER BY changed_at, id`, [bugReportId]), (rows) =>
    rows.map(toBugHistory)
  )

export const milestonesOfBoard = (boardId: string) =>
  Effect.gen(function* () {
    const rows = yield* query(
      `SELECT id, board_id, name, description, to_char(date, 'YYYY-MM-DD') AS date, released_at, article IS NOT NULL AS has_article,
              created_at, updated_at FROM feedback_milestones WHERE board_id = $1 ORDER BY date NULLS LAST, created_at`,
      [boardId]
    )
    const links = yield* query<{ milestone_id: string; feature_request_id: string }>(
      `SELECT l.milestone_id, l.feature_request_id FROM feedback_milestone_requests l
         JOIN feedback_milestones m ON m.id = l.milestone_id WHERE m.board_id = $1 ORDER BY l.added_at`,
      [boardId]
    )
    return rows.map((row) =>
      toMilestone(
        { ...row, article: row.has_article ? {} : null },
        links.filter((l) => l.milestone_id === row.id).map((l) => l.feature_request_id)
      )
    )
  })

export const boardOfMilestone = (milestoneId: string) =>
  Effect.map(
    query<{ board_id: string }>(`SELECT board_id FROM feedback_milestones WHERE id = $1`, [milestoneId]),
    (rows) => rows[0]?.board_id
  )

export const milestoneArticle = (milestoneId: string) =>
  Effect.map(
    query<{ article: ProseMirrorNode | null; article_updated_at: unknown; article_updated_by: string | null }>(
      `SELECT article, article_updated_at, article_updated_by FROM feedback_milestones WHERE id = $1`,
      [milestoneId]
    ),
    (rows) => rows[0]
  )

export const toChangelogEntry = (row: RawRow): ChangelogEntry => ({
  id: row.id,
  boardId: row.board_id,
  title: row.title,
  kind: row.kind,
  markdown: docToMarkdown(row.content),
  html: docToHtml(row.content),
  state: row.state,
  publishAt: isoOrNull(row.publish_at),
  publishedAt: isoOrNull(row.published_at),
  milestoneId: row.milestone_id ?? null,
  featureRequestIds: row.feature_request_ids ?? [],
  notifiedCount: Number(row.notified_count),
  createdBy: row.created_by,
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at)
})

export const changelogOfBoard = (boardId: string) =>
  Effect.map(
    query(`SELECT * FROM feedback_changelog_entries WHERE board_id = $1 ORDER BY coalesce(published_at, publish_at, created_at) DESC, id`, [
      boardId
    ]),
    (rows) => rows.map(toChangelogEntry)
  )

export const boardOfChangelogEntry = (entryId: string) =>
  Effect.map(
    query<{ board_id: string }>(`SELECT board_id FROM feedback_changelog_entries WHERE id = $1`, [entryId]),
    (rows) => rows[0]?.board_id
  )

/** Spam markers moderators set on the board's posts and comments, by target id. */
export const spamMarks = (boardId: string) =>
  Effect.map(
    query<{ target_id: string; reason: string }>(`SELECT target_id, reason FROM feedback_spam_marks WHERE board_id = $1`, [boardId]),
    (rows) => new Map(rows.map((row) => [row.target_id, row.reason]))
  )

/** Bug reports and bug comments waiting for moderation (feature requests and their comments are the Board actor's). */
export const pendingBugItems = (boardId: string) =>
  query<{
    kind: string
    id: string
    number: number
    title: string
    excerpt: string
    author_id: string | null
    author_name: string | null
    created_at: string
  }>(
    `SELECT 'bugReport' AS kind, b.id, b.number, b.title, left(b.steps || ' ' || b.actual, 500) AS excerpt, b.reporter_id AS author_id,
            b.reporter_name AS author_name, b.created_at
       FROM feedback_bug_reports b WHERE b.board_id = $1 AND b.moderation = 'pending' AND b.deleted_at IS NULL
     UNION ALL
     SELECT 'bugComment', c.id, b.number, b.title, left(c.body, 500), c.author_id, NULL, c.created_at
       FROM feedback_bug_comments c JOIN feedback_bug_reports b ON b.id = c.bug_report_id
      WHERE c.board_id = $1 AND c.moderation = 'pending' AND b.deleted_at IS NULL
     ORDER BY created_at`,
    [boardId]
  )

export const moderationLog = (boardId: string, limit: number, before: string | undefined) =>
  Effect.map(
    query(
      `SELECT * FROM feedback_moderation_log WHERE board_id = $1 AND ($2::timestamptz IS NULL OR acted_at < $2::timestamptz)
        ORDER BY acted_at DESC, id DESC LIMIT $3`,
      [boardId, before ?? null, limit]
    ),
    (rows) => rows.map(toModerationLogEntry)
  )

export const moderationLogEntry = (entryId: string) =>
  Effect.map(query(`SELECT * FROM feedback_moderation_log WHERE id = $1`, [entryId]), (rows) =>
    rows[0] ? toModerationLogEntry(rows[0]) : undefined
  )

/** verified | blocked | undefined, for an author key (user id or lower-cased e-mail). */
export const authorStanding = (boardId: string, authorKey: string) =>
  Effect.map(
    query<{ standing: string }>(`SELECT standing FROM feedback_board_authors WHERE board_id = $1 AND author_key = $2`, [
      boardId,
      authorKey
    ]),
    (rows) => rows[0]?.standing as "verified" | "blocked" | undefined
  )

export const privateFeedbackOfBoard = (boardId: string, limit: number, offset: number) =>
  Effect.map(
    query(`SELECT * FROM feedback_private_feedback WHERE board_id = $1 ORDER BY created_at DESC, id LIMIT $2 OFFSET $3`, [
      boardId,
      limit,
      offset
    ]),
    (rows) => rows.map(toPrivateFeedback)
  )

/** Which of `ids` are attachments stored on the board (uploaded through its feature requests). */
export const attachmentsOnBoard = (boardId: string, ids: ReadonlyArray<string>) =>
  ids.length === 0
    ? Effect.succeed(new Set<string>())
    : Effect.map(
        query<{ id: string }>(`SELECT id FROM feedback_attachments WHERE board_id = $1 AND id = ANY($2::text[])`, [boardId, [...ids]]),
        (rows) => new Set(rows.map((r) => r.id))
      )
