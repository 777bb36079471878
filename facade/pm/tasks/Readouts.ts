/**
 * Other reads of tasks: many by id at once, one as Markdown, the comments
 * assigned to the caller, and how far along a task is.
 */
import { Effect, Schema } from "effect"
import { Id } from "../../../actors/Fields.ts"
import { checklistsOf } from "../../../actors/pm/TaskChecklists.ts"
import { Comment, assignedComments, listComments } from "../../../actors/pm/TaskDiscussion.ts"
import { getTasks } from "../../../actors/pm/TaskReads.ts"
import { progressOf } from "../../../actors/pm/TimeReads.ts"
import { Items, Task } from "../../../actors/pm/WorkRecords.ts"
import { raw, tagGroup } from "../../Operation.ts"
import { BooleanString, inWorkspace, onTask, orDieSql } from "../WorkAccess.ts"

import { tag, service, read, TaskParams, WorkspaceParams } from "./shared.ts"
import { readoutsExamples } from "./Readouts.examples.ts"

/** A custom field's value as text: a label or person by its name, anything else as it is. */
const shown = (value: unknown): unknown =>
  (typeof value === "object" && value !== null && "name" in value ? value.name : undefined) ?? value

const markdownOf = (
  task: Task,
  checklists: ReadonlyArray<{ name: string; items: ReadonlyArray<{ name: string; resolved: boolean }> }>,
  comments: ReadonlyArray<Comment>
) => {
  const lines = [`# ${task.shortId}: ${task.name}`, ""]
  lines.push(`- Status: ${task.status.name}`)
  if (task.priority) lines.push(`- Priority: ${task.priority}`)
  if (task.assignees.length) lines.push(`- Assignees: ${task.assignees.map((a) => `${a.name} <${a.email}>`).join(", ")}`)
  if (task.startDate) lines.push(`- Start: ${task.startDate}`)
  if (task.dueDate) lines.push(`- Due: ${task.dueDate}`)
  if (task.timeEstimateMinutes != null) lines.push(`- Estimate: ${task.timeEstimateMinutes} min`)
  if (task.tags.length) lines.push(`- Tags: ${task.tags.map((t) => t.name).join(", ")}`)
  for (const field of task.customFields) {
    const value = Array.isArray(field.value) ? field.value.map(shown).join(", ") : shown(field.value)
    lines.push(`- ${field.name}: ${value}`)
  }
  if (task.description) lines.push("", task.description)
  for (const checklist of checklists) {
    lines.push("", `## ${checklist.name}`, ...checklist.items.map((i) => `- [${i.resolved ? "x" : " "}] ${i.name}`))
  }
  if (comments.length) {
    lines.push("", "## Comments")
    for (const c of comments) lines.push("", `**${c.author.name || c.author.email}** (${c.createdAt}):`, c.text)
  }
  return lines.join("\n") + "\n"
}

const { operation } = tagGroup(service, tag, readoutsExamples)

export const taskReadoutsOperations = [
  operation({
    operationId: "getTasksByIds",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/tasks/batch-get",
    summary: "Read up to 100 tasks by id in one call (those the caller cannot see are left out)",
    auth: "both",
    scopes: read,
    params: WorkspaceParams,
    body: Schema.Struct({ taskIds: Schema.Array(Id).check(Schema.isMinLength(1), Schema.isMaxLength(100)) }),
    responses: {
      200: {
        description: "Tasks, in the order asked; missing ones listed",
        schema: Schema.Struct({ items: Schema.Array(Task), missing: Schema.Array(Id) })
      }
    },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        yield* inWorkspace(context, params.workspaceId)
        const tasks = yield* orDieSql(getTasks(body.taskIds))
        const visible = new Map<string, Task>()
        for (const task of tasks) {
          if (task.workspaceId !== params.workspaceId) continue
          const allowed = yield* Effect.result(onTask(context, task.id))
          if (allowed._tag === "Success") visible.set(task.id, task)
        }
        return {
          items: body.taskIds.filter((id) => visible.has(id)).map((id) => visible.get(id)!),
          missing: body.taskIds.filter((id) => !visible.has(id))
        }
      })
  }),
  operation({
    operationId: "exportTaskMarkdown",
    method: "GET",
    path: "/v1/tasks/{taskId}/export.md",
    summary: "A task as Markdown: fields, description, checklists and comments (handy for AI agents)",
    auth: "both",
    scopes: read,
    params: TaskParams,
    responses: { 200: { description: "Markdown", contentType: "text/markdown" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const { task } = yield* onTask(context, params.taskId)
        const checklists = yield* orDieSql(checklistsOf(params.taskId))
        const comments = yield* orDieSql(listComments(params.taskId, { offset: 0, limit: 200 }))
        return raw("text/markdown; charset=utf-8", markdownOf(task, checklists, comments.items))
      })
  }),
  operation({
    operationId: "listAssignedComments",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/comments/assigned-to-me",
    summary: "Comments assigned to the caller as to-dos, unresolved first",
    auth: "both",
    scopes: read,
    params: WorkspaceParams,
    query: Schema.Struct({ includeResolved: Schema.optionalKey(BooleanString) }),
    responses: { 200: { description: "Comments", schema: Items(Comment) } },
    handler: ({ params, query: q }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId)
        const comments = yield* orDieSql(assignedComments(params.workspaceId, caller.userId, q.includeResolved === "true"))
        const visible: Array<Comment> = []
        for (const comment of comments)
          if ((yield* Effect.result(onTask(context, comment.taskId)))._tag === "Success") visible.push(comment)
        return { items: visible }
      })
  }),
  operation({
    operationId: "getTaskProgress",
    method: "GET",
    path: "/v1/tasks/{taskId}/progress",
    summary: "How far along a task is: finished subtasks, resolved checklist items, tracked time against the estimate",
    auth: "both",
    scopes: read,
    params: TaskParams,
    responses: {
      200: {
        description: "Progress",
        schema: Schema.Struct({
          subtasks: Schema.Struct({ total: Schema.Number, finished: Schema.Number }),
          checklistItems: Schema.Struct({ total: Schema.Number, resolved: Schema.Number }),
          trackedMinutes: Schema.Number,
          estimateMinutes: Schema.NullOr(Schema.Number),
          percent: Schema.Number
        })
      }
    },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const { task } = yield* onTask(context, params.taskId)
        const { subtasks: sub, checklistItems: items, trackedMinutes } = yield* orDieSql(progressOf(params.taskId))
        const parts = sub.total + items.total
        const percent = task.closedAt !== null ? 100 : parts === 0 ? 0 : Math.round(((sub.finished + items.resolved) / parts) * 100)
        return { subtasks: sub, checklistItems: items, trackedMinutes, estimateMinutes: task.timeEstimateMinutes, percent }
      })
  })
]
