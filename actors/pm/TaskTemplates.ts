/** Task templates of a workspace (a task's content without ids, to create new tasks from): reads and the workspace actor's commands. */
import { Effect, Schema } from "effect"
import { Id, Name, Timestamp } from "../Fields.ts"
import { query } from "../../persistence/Sql.ts"
import { PlaceNotFound, TaskNotFound } from "./PmErrors.ts"
import { change } from "./Changes.ts"
import { locateTask } from "./Locate.ts"
import { TaskTemplate, templateOf } from "./TaskCommands.ts"
import { command } from "./WorkActor.ts"
import { TaskTemplateNotFound } from "./WorkErrors.ts"

export const TaskTemplateView = Schema.Struct({
  id: Id,
  workspaceId: Id,
  name: Schema.String,
  template: TaskTemplate,
  createdBy: Id,
  createdAt: Timestamp
}).annotate({ identifier: "TaskTemplate" })

const columns = `id, workspace_id AS "workspaceId", name, template, created_by AS "createdBy", created_at AS "createdAt"`

export const templatesOf = (workspaceId: string) =>
  query<{ id: string; workspaceId: string; name: string; template: TaskTemplate; createdBy: string; createdAt: string }>(
    `SELECT ${columns} FROM pm_task_templates WHERE workspace_id = $1 ORDER BY created_at, id`,
    [workspaceId]
  )

export const getTemplate = (workspaceId: string, templateId: string) =>
  Effect.flatMap(
    query<{ id: string; workspaceId: string; name: string; template: TaskTemplate; createdBy: string; createdAt: string }>(
      `SELECT ${columns} FROM pm_task_templates WHERE id = $1 AND workspace_id = $2`,
      [templateId, workspaceId]
    ),
    (rows) => (rows[0] ? Effect.succeed(rows[0]) : Effect.fail(new TaskTemplateNotFound()))
  )

export const templateCommands = {
  saveTaskTemplate: command(
    Schema.Struct({ taskId: Id, name: Name(200) }),
    TaskTemplateView,
    Schema.Union([PlaceNotFound, TaskNotFound, TaskTemplateNotFound]),
    (input, by, workspaceId) =>
      Effect.gen(function* () {
        const located = yield* locateTask(input.taskId)
        if (located.workspaceId !== workspaceId) return yield* new PlaceNotFound({ what: "task" })
        const template = yield* templateOf(input.taskId)
        const id = crypto.randomUUID()
        yield* query(`INSERT INTO pm_task_templates (id, workspace_id, name, template, created_by) VALUES ($1, $2, $3, $4, $5)`, [
          id,
          workspaceId,
          input.name.trim(),
          template,
          by
        ])
        const saved = yield* getTemplate(workspaceId, id)
        return {
          result: saved,
          changes: [change({ workspaceId }, "task_template.created", id, { name: saved.name, fromTaskId: input.taskId }, by)]
        }
      })
  ),

  deleteTaskTemplate: command(Schema.Struct({ templateId: Id }), Schema.Void, TaskTemplateNotFound, (input, by, workspaceId) =>
    Effect.gen(function* () {
      const template = yield* getTemplate(workspaceId, input.templateId)
      yield* query(`DELETE FROM pm_task_templates WHERE id = $1`, [template.id])
      return { result: undefined, changes: [change({ workspaceId }, "task_template.deleted", template.id, { name: template.name }, by)] }
    })
  )
}
