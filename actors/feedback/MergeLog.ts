/**
 * Merges as moderation-log entries: the Board actor keeps what each merge
 * changed (`feedback_merges`) so it can be undone; the log shows them beside
 * the desk's own entries, and the latest merge of a request that is not
 * undone yet is undoable (by the Board actor's unmerge).
 */
import { Effect } from "effect"
import { query } from "../../persistence/Sql.ts"
import { iso, isoOrNull } from "../wiki/WikiQueries.ts"
import type { ModerationLogEntry } from "./DeskRecords.ts"

const COLUMNS = `m.id, m.board_id, m.source_id, m.target_id, m.merged_by, m.merged_at, m.undone_by, m.undone_at,
  m.undone_at IS NULL AND NOT EXISTS (SELECT 1 FROM feedback_merges later WHERE later.source_id = m.source_id AND later.merged_at > m.merged_at) AS latest`

const toEntry = (row: Record<string, any>): ModerationLogEntry => ({
  id: row.id,
  boardId: row.board_id,
  action: "merge",
  itemId: row.source_id,
  targetKind: "featureRequest",
  targetId: row.source_id,
  detail: { intoId: row.target_id },
  actedBy: row.merged_by,
  actedAt: iso(row.merged_at),
  undoable: Boolean(row.latest),
  undoneAt: isoOrNull(row.undone_at),
  undoneBy: row.undone_by ?? null
})

export const mergesOfBoard = (boardId: string, limit: number, before: string | undefined) =>
  Effect.map(
    query(
      `SELECT ${COLUMNS} FROM feedback_merges m WHERE m.board_id = $1 AND ($2::timestamptz IS NULL OR m.merged_at < $2::timestamptz)
        ORDER BY m.merged_at DESC LIMIT $3`,
      [boardId, before ?? null, limit]
    ),
    (rows) => rows.map(toEntry)
  )

export const mergeById = (mergeId: string) =>
  Effect.map(query(`SELECT ${COLUMNS} FROM feedback_merges m WHERE m.id = $1`, [mergeId]), (rows) =>
    rows[0] ? toEntry(rows[0]) : undefined
  )
