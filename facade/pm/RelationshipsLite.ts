/**
 * pm tag "Relationships (Lite)" (3): task relationships by type name
 * ("blocks", "blocked by", "relates to", "duplicates", "duplicated by", and
 * common aliases such as "depends on") between tasks named by short id.
 * Writes go through the workspace actor, which refuses blocking cycles (409).
 */
import { Effect, Schema } from "effect"
import { Id } from "../../actors/Fields.ts"
import { parseTypeName, type RelationshipType, relationshipsOf } from "../../actors/pm/Relationships.ts"
import { shortIdOfTask } from "../../actors/pm/TaskReads.ts"
import { send } from "../../actors/pm/WorkActor.ts"
import { PmWorkspace } from "../../actors/pm/WorkActors.ts"
import { TaskRef } from "../../actors/pm/WorkRecords.ts"
import { reject } from "../../runtime/Rejection.ts"
import { tagGroup } from "../Operation.ts"
import { WorkspaceRef } from "./LiteShared.ts"
import { onTask, onTaskRef, orDieSql } from "./WorkAccess.ts"
import { relationshipsLiteExamples } from "./RelationshipsLite.examples.ts"

const TypeName = Schema.String.check(Schema.isMaxLength(40), Schema.isPattern(/\S/, { expected: "a relationship type name" })).annotate({
  description: 'blocks, blocked by, relates to, duplicates, duplicated by (case and spacing free; aliases such as "depends on" work)'
})
const typeNames: Record<RelationshipType, string> = {
  blocks: "blocks",
  blocked_by: "blocked by",
  relates_to: "relates to",
  duplicates: "duplicates",
  duplicated_by: "duplicated by"
}

const typeOf = (name: string, path: string) => {
  const type = parseTypeName(name)
  return type
    ? Effect.succeed(type)
    : Effect.fail(
        reject("not_found", `No relationship type named "${name}"; types: ${Object.values(typeNames).join(", ")}`, [
          { path, message: `unknown relationship type "${name}"` }
        ])
      )
}

const LiteRelationship = Schema.Struct({
  id: Id,
  type: Schema.String.annotate({ description: 'Read from the named task\'s side, e.g. "blocked by"' }),
  task: Schema.String.annotate({ description: "Short id of the named task" }),
  relatedTask: Schema.String.annotate({ description: "Short id of the other task" }),
  relatedTaskName: Schema.String,
  relatedTaskStatus: Schema.String,
  createdAt: Schema.String
}).annotate({ identifier: "LiteRelationship" })

const taskShortId = (taskId: string) => orDieSql(shortIdOfTask(taskId))

const { operation } = tagGroup("pm", "Relationships (Lite)", relationshipsLiteExamples)

export const relationshipsLiteOperations = [
  operation({
    operationId: "createRelationshipLite",
    mcp: { tool: "relateTasks" },
    method: "POST",
    path: "/v1/lite/relationships",
    summary: 'Relate two tasks named by short id, by type name ("T-1 blocks T-2")',
    auth: "both",
    scopes: ["tasks:write"],
    body: Schema.Struct({ workspaceId: WorkspaceRef, task: TaskRef, type: TypeName, relatedTask: TaskRef }),
    responses: {
      201: { description: "Created", schema: LiteRelationship },
      404: { description: "Unknown task or type name" },
      409: { description: "Exists already, or would make a blocking cycle" }
    },
    handler: ({ body }, context) =>
      Effect.gen(function* () {
        const type = yield* typeOf(body.type, "body.type")
        const source = yield* onTaskRef(context, body.workspaceId, body.task, "member")
        const related = yield* onTaskRef(context, body.workspaceId, body.relatedTask, "member").pipe(
          Effect.mapError((e) =>
            e._tag === "Rejection" && e.code === "not_found"
              ? reject("not_found", `No such task: ${body.relatedTask}`, [{ path: "body.relatedTask", message: "not found" }])
              : e
          )
        )
        const created = yield* send(PmWorkspace, body.workspaceId, "createRelationship", source.userId, {
          taskId: source.at.taskId!,
          type,
          otherTaskId: related.at.taskId!
        })
        const fromSource = created.sourceTaskId === source.at.taskId
        const mine = (yield* orDieSql(relationshipsOf(source.at.taskId!))).find((r) => r.id === created.id)!
        return {
          id: created.id,
          type: typeNames[mine.type],
          task: fromSource ? created.source.shortId : created.target.shortId,
          relatedTask: mine.task.shortId,
          relatedTaskName: mine.task.name,
          relatedTaskStatus: mine.task.status,
          createdAt: created.createdAt
        }
      })
  }),
  operation({
    operationId: "listRelationshipsLite",
    mcp: { tool: "listRelationships" },
    method: "GET",
    path: "/v1/lite/relationships",
    summary: "A task's relationships by type name, with the related tasks' short ids",
    auth: "both",
    scopes: ["tasks:read"],
    query: Schema.Struct({ workspaceId: WorkspaceRef, task: TaskRef }),
    responses: { 200: { description: "Relationships", schema: Schema.Struct({ items: Schema.Array(LiteRelationship) }) } },
    handler: ({ query: q }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTaskRef(context, q.workspaceId, q.task)
        const taskId = caller.at.taskId!
        const all = yield* orDieSql(relationshipsOf(taskId))
        const visible = yield* Effect.filter(all, (r) => Effect.map(Effect.result(onTask(context, r.task.id)), (x) => x._tag === "Success"))
        const shortId = yield* taskShortId(taskId)
        return {
          items: visible.map((r) => ({
            id: r.id,
            type: typeNames[r.type],
            task: shortId,
            relatedTask: r.task.shortId,
            relatedTaskName: r.task.name,
            relatedTaskStatus: r.task.status,
            createdAt: r.createdAt
          }))
        }
      })
  }),
  operation({
    operationId: "deleteRelationshipLite",
    method: "DELETE",
    path: "/v1/lite/relationships",
    summary: 'Remove the relationship "task <type> relatedTask" named by short ids and type name',
    auth: "both",
    scopes: ["tasks:write"],
    query: Schema.Struct({ workspaceId: WorkspaceRef, task: TaskRef, type: TypeName, relatedTask: TaskRef }),
    responses: { 204: { description: "Removed" }, 404: { description: "No such relationship" } },
    handler: ({ query: q }, context) =>
      Effect.gen(function* () {
        const type = yield* typeOf(q.type, "query.type")
        const source = yield* onTaskRef(context, q.workspaceId, q.task, "member")
        const related = yield* onTaskRef(context, q.workspaceId, q.relatedTask, "member").pipe(
          Effect.mapError((e) =>
            e._tag === "Rejection" && e.code === "not_found"
              ? reject("not_found", `No such task: ${q.relatedTask}`, [{ path: "query.relatedTask", message: "not found" }])
              : e
          )
        )
        const found = (yield* orDieSql(relationshipsOf(source.at.taskId!))).find((r) => r.type === type && r.task.id === related.at.taskId)
        if (found === undefined) return yield* reject("not_found", `${q.task} does not ${typeNames[type]} ${q.relatedTask}`)
        yield* send(PmWorkspace, q.workspaceId, "deleteRelationship", source.userId, { relationshipId: found.id })
      })
  })
]
