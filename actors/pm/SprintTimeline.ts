/**
 * Places a seeded sprint in the past. The operations stamp every change with
 * the database's clock, so a sprint the demo plans, starts and partly finishes
 * in one go has its whole history on one day and its burndown is a single
 * step. This moves that history to the days it stands for: the sprint's dates
 * (same length), its tasks planned an hour before it started, each task's
 * earlier statuses before that, and each finished task's finishing status on
 * its own day. Only the demo seed uses it; nothing else rewrites history.
 */
import { Effect } from "effect"
import { query } from "../../persistence/Sql.ts"
import { sprintRow } from "./SprintRecords.ts"

const HOUR = 3_600_000

export interface SprintTimeline {
  /** When the sprint started (its start date too). */
  readonly startedAt: number
  /** When it completed, for a completed sprint. */
  readonly completedAt?: number
  /** When each finished task (by id) finished. */
  readonly finishedAt: ReadonlyMap<string, number>
}

const iso = (ms: number) => new Date(ms).toISOString()

export const placeSprintInPast = (sprintId: string, timeline: SprintTimeline) =>
  Effect.gen(function* () {
    const sprint = yield* sprintRow(sprintId)
    const length = Date.parse(sprint.endDate) - Date.parse(sprint.startDate)
    const planned = timeline.startedAt - HOUR
    yield* query(
      `UPDATE pm_sprints SET start_date = $2, started_at = $2, end_date = $3,
              completed_at = CASE WHEN completed_at IS NULL THEN NULL ELSE $4::timestamptz END WHERE id = $1`,
      [sprintId, iso(timeline.startedAt), iso(timeline.startedAt + length), iso(timeline.completedAt ?? timeline.startedAt + length)]
    )
    const rows = yield* query<{ taskId: string }>(
      `UPDATE pm_sprint_tasks SET added_at = $2 WHERE sprint_id = $1 AND removed_at IS NULL RETURNING task_id AS "taskId"`,
      [sprintId, iso(planned)]
    )
    const taskIds = rows.map((r) => r.taskId)
    // Each finished task's latest status (the seed's finishing move), found before any time changes.
    const finishing = yield* query<{ id: string; taskId: string }>(
      `SELECT DISTINCT ON (task_id) id, task_id AS "taskId" FROM pm_task_status_history
        WHERE task_id = ANY($1::text[]) ORDER BY task_id, entered_at DESC, id DESC`,
      [[...timeline.finishedAt.keys()]]
    )
    // Every other status, a second apart in their order, from before the sprint was planned.
    yield* query(
      `UPDATE pm_task_status_history h SET entered_at = $2::timestamptz - r.rank * interval '1 second'
         FROM (SELECT id, row_number() OVER (PARTITION BY task_id ORDER BY entered_at DESC, id DESC) AS rank
                 FROM pm_task_status_history WHERE task_id = ANY($1::text[])) r
        WHERE h.id = r.id AND NOT (h.id = ANY($3::text[]))`,
      [taskIds, iso(planned - HOUR), finishing.map((f) => f.id)]
    )
    for (const { id, taskId } of finishing) {
      const at = timeline.finishedAt.get(taskId)
      if (at !== undefined) yield* query(`UPDATE pm_task_status_history SET entered_at = $2 WHERE id = $1`, [id, iso(at)])
    }
  })
