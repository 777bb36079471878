/**
 * Votes on tasks: each member casts at most one vote per task (what the team
 * wants most); the voting results are a dashboard aggregate. Run by the
 * task's votes actor, so a vote and its count never race.
 */
import { Effect, Schema } from "effect"
import { Id } from "../Fields.ts"
import { query } from "../../persistence/Sql.ts"
import { change } from "./Changes.ts"
import { findTask } from "./Locate.ts"
import { TaskNotFound } from "./PmErrors.ts"
import { command } from "./WorkActor.ts"

export const TaskVote = Schema.Struct({
  taskId: Id,
  votes: Schema.Number,
  votedByMe: Schema.Boolean
}).annotate({ identifier: "TaskVote" })
export type TaskVote = typeof TaskVote.Type

export const voteOf = (taskId: string, userId: string) =>
  Effect.map(
    query<{ votes: number; mine: boolean }>(
      `SELECT count(*)::int AS votes, COALESCE(bool_or(user_id = $2), false) AS mine FROM pm_task_votes WHERE task_id = $1`,
      [taskId, userId]
    ),
    (rows): TaskVote => ({ taskId, votes: rows[0]?.votes ?? 0, votedByMe: rows[0]?.mine ?? false })
  )

export const voteCommands = {
  /** Casts (`vote: true`) or withdraws (`false`) the user's vote; doing it twice changes nothing. */
  setVote: command(Schema.Struct({ vote: Schema.Boolean }), TaskVote, TaskNotFound, (input, by, taskId) =>
    Effect.gen(function* () {
      const task = yield* findTask(taskId)
      const changed = input.vote
        ? yield* query(
            `INSERT INTO pm_task_votes (task_id, user_id, workspace_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING task_id`,
            [taskId, by, task.workspaceId]
          )
        : yield* query(`DELETE FROM pm_task_votes WHERE task_id = $1 AND user_id = $2 RETURNING task_id`, [taskId, by])
      const result = yield* voteOf(taskId, by)
      const where = { workspaceId: task.workspaceId, spaceId: task.spaceId, listId: task.listId, taskId }
      return {
        result,
        changes:
          changed.length === 0
            ? []
            : [change(where, input.vote ? "task.voted" : "task.vote_withdrawn", taskId, { votes: result.votes }, by)]
      }
    })
  )
}
