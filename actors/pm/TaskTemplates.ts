/** Task templates of a workspace (a task's content without ids, to create new tasks from): reads and the workspace actor's commands. */
import { Effect, Schema } from "effect"
import { Id, Timestamp } from "../Fields.ts"
import { query, type Sql, type SqlError } from "../../persistence/Sql.ts"
import { reject, type Rejection } from "../../runtime/Rejection.ts"
import type { Change } from "./ChangeLog.ts"
import { change } from "./Changes.ts"
import { locateTask } from "./Locate.ts"
import { type TaskTemplate, templateOf } from "./TaskCommands.ts"

type Result<A> = Effect.Effect<{ readonly result: A; readonly changes: ReadonlyArray<Change> }, Rejection | SqlError, Sql>

export const TaskTemplateView = Schema.Struct({
  id: Id,
  workspaceId: Id,
  name: Schema.String,
  template: Schema.Unknown,
  createdBy: Id,
  createdAt: Timestamp
}).annotate({ identifier: "TaskTemplate" })

const columns = `id, workspace_id AS "workspaceId", name, template, created_by AS "createdBy", created_at AS "createdAt"`

export const templatesOf = (workspaceId: string) =>
  query<{ id: string; workspaceId: string; name: string; template: TaskTemplate; createdBy: string; createdAt: string }>(
    `SELECT ${columns} FROM pm_task_templates WHERE workspace_id = $1 ORDER BY created_at, id`, [workspaceId]
  )

export const getTemplate = (workspaceId: string, templateId: string) =>
  Effect.flatMap(
    query<{ id: string; workspaceId: string; name: string; template: TaskTemplate; createdBy: string; createdAt: string }>(
      `SELECT ${columns} FROM pm_task_templates WHERE id = $1 AND workspace_id = $2`, [templateId, workspaceId]
    ),
    (rows) => (rows[0] ? Effect.succeed(rows[0]) : Effect.fail(reject("not_found", "No such task template")))
  )

export const templateCommands = {
  saveTaskTemplate: (input: { readonly taskId: string; readonly name: string }, by: string, workspaceId: string): Result<unknown> =>
    Effect.gen(function* () {
      const located = yield* locateTask(input.taskId)
      if (located.workspaceId !== workspaceId) return yield* reject("not_found", "No such task")
      const template = yield* templateOf(input.taskId)
      const id = crypto.randomUUID()
      yield* query(`INSERT INTO pm_task_templates (id, workspace_id, name, template, created_by) VALUES ($1, $2, $3, $4, $5)`, [id, workspaceId, input.name.trim(), template, by])
      const saved = yield* getTemplate(workspaceId, id)
      return { result: saved, changes: [change({ workspaceId }, "task_template.created", id, { name: saved.name, fromTaskId: input.taskId }, by)] }
    }),

  deleteTaskTemplate: (input: { readonly templateId: string }, by: string, workspaceId: string): Result<unknown> =>
    Effect.gen(function* () {
      const template = yield* getTemplate(workspaceId, input.templateId)
      yield* query(`DELETE FROM pm_task_templates WHERE id = $1`, [template.id])
      return { result: undefined, changes: [change({ workspaceId }, "task_template.deleted", template.id, { name: template.name }, by)] }
    })
}
