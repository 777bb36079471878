/**
 * pm tag "Relationships" (8): blocks / blocked-by / relates-to / duplicates
 * between tasks of a workspace, one at a time or in bulk, the dependency
 * graph and the blocked tasks. Writes go through the workspace actor, which
 * refuses a "blocks" that would close a cycle (409).
 */
import { Effect, Schema } from "effect"
import { Id } from "../../actors/Fields.ts"
import {
  blockedTasks,
  dependencyGraph,
  getRelationship,
  Relationship,
  RelationshipType,
  relationshipsOf,
  TaskRelationship
} from "../../actors/pm/Relationships.ts"
import { send } from "../../actors/pm/WorkActor.ts"
import { PmWorkspace } from "../../actors/pm/WorkActors.ts"
import { RelationshipNotFound } from "../../actors/pm/WorkErrors.ts"
import { Items } from "../../actors/pm/WorkRecords.ts"
import { reject } from "../../runtime/Rejection.ts"
import { type RequestContext, tagGroup } from "../Operation.ts"
import { inWorkspace, onTask, orDieSql } from "./WorkAccess.ts"

import { relationshipsExamples } from "./Relationships.examples.ts"
const read = ["tasks:read"]
const write = ["tasks:write"]
const TaskParams = Schema.Struct({ taskId: Id })
const WorkspaceParams = Schema.Struct({ workspaceId: Id })
const RelationshipParams = Schema.Struct({ workspaceId: Id, relationshipId: Id })
const Item = Schema.Struct({ taskId: Id, type: RelationshipType, relatedTaskId: Id })

/** Both tasks must be visible to the caller, who needs `member`; a hidden task answers 404 naming its field. */
const checkPair = (context: RequestContext, workspaceId: string, taskId: string, relatedTaskId: string, path: string) =>
  Effect.gen(function* () {
    for (const [id, field] of [
      [taskId, `${path}taskId`],
      [relatedTaskId, `${path}relatedTaskId`]
    ] as const) {
      const caller = yield* onTask(context, id, "member").pipe(
        Effect.mapError((e) =>
          e._tag === "Rejection" && e.code === "not_found"
            ? reject("not_found", `No such task ${id}`, [{ path: field, message: "not found" }])
            : e
        )
      )
      if (caller.at.workspaceId !== workspaceId)
        return yield* reject("not_found", `No such task ${id}`, [{ path: field, message: "not found" }])
    }
  })

const visibleOnly = <T extends { task: { id: string } }>(context: RequestContext, items: ReadonlyArray<T>) =>
  Effect.filter(items, (item) => Effect.map(Effect.result(onTask(context, item.task.id)), (r) => r._tag === "Success"))

const { operation } = tagGroup("pm", "Relationships", relationshipsExamples)

export const relationshipsOperations = [
  operation({
    operationId: "listTaskRelationships",
    method: "GET",
    path: "/v1/tasks/{taskId}/relationships",
    summary: "A task's relationships, each read from this task's side (blocks, blocked_by, relates_to, duplicates, duplicated_by)",
    auth: "both",
    scopes: read,
    params: TaskParams,
    responses: { 200: { description: "Relationships", schema: Items(TaskRelationship) } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* onTask(context, params.taskId)
        return { items: yield* visibleOnly(context, yield* orDieSql(relationshipsOf(params.taskId))) }
      })
  }),
  operation({
    operationId: "createTaskRelationship",
    method: "POST",
    path: "/v1/tasks/{taskId}/relationships",
    summary: "Relate a task to another: it blocks, is blocked by, relates to or duplicates it",
    description: 'A "blocks" (or "blocked_by") that would close a cycle of blocking tasks is refused with 409.',
    auth: "both",
    scopes: write,
    params: TaskParams,
    body: Schema.Struct({ type: RelationshipType, relatedTaskId: Id }),
    responses: {
      201: { description: "Created", schema: Relationship },
      409: { description: "Exists already, or would make a blocking cycle" }
    },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTask(context, params.taskId, "member")
        yield* checkPair(context, caller.at.workspaceId, params.taskId, body.relatedTaskId, "body.")
        return yield* send(PmWorkspace, caller.at.workspaceId, "createRelationship", caller.userId, {
          taskId: params.taskId,
          type: body.type,
          otherTaskId: body.relatedTaskId
        })
      })
  }),
  operation({
    operationId: "getRelationship",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/relationships/{relationshipId}",
    summary: "One relationship with both tasks",
    auth: "both",
    scopes: read,
    params: RelationshipParams,
    responses: { 200: { description: "The relationship", schema: Relationship } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* inWorkspace(context, params.workspaceId)
        const { workspaceId, ...relationship } = yield* orDieSql(getRelationship(params.relationshipId))
        if (workspaceId !== params.workspaceId) return yield* reject("not_found", "No such relationship")
        yield* onTask(context, relationship.sourceTaskId)
        yield* onTask(context, relationship.targetTaskId)
        return relationship
      })
  }),
  operation({
    operationId: "deleteRelationship",
    method: "DELETE",
    path: "/v1/workspaces/{workspaceId}/relationships/{relationshipId}",
    summary: "Remove a relationship",
    auth: "both",
    scopes: write,
    params: RelationshipParams,
    responses: { 204: { description: "Removed" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId, "member")
        const relationship = yield* orDieSql(getRelationship(params.relationshipId))
        if (relationship.workspaceId !== params.workspaceId) return yield* reject("not_found", "No such relationship")
        yield* onTask(context, relationship.sourceTaskId, "member")
        yield* onTask(context, relationship.targetTaskId, "member")
        yield* send(PmWorkspace, params.workspaceId, "deleteRelationship", caller.userId, { relationshipId: params.relationshipId })
      })
  }),
  operation({
    operationId: "bulkCreateRelationships",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/relationships/bulk",
    summary: "Create up to 100 relationships at once: all or nothing (the first bad one is named)",
    auth: "both",
    scopes: write,
    params: WorkspaceParams,
    body: Schema.Struct({ items: Schema.Array(Item).check(Schema.isMinLength(1), Schema.isMaxLength(100)) }),
    responses: {
      201: { description: "Created", schema: Items(Relationship) },
      409: { description: "One would duplicate another or make a blocking cycle" }
    },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId, "member")
        for (const [index, item] of body.items.entries())
          yield* checkPair(context, params.workspaceId, item.taskId, item.relatedTaskId, `body.items.${index}.`)
        return yield* send(PmWorkspace, params.workspaceId, "bulkCreateRelationships", caller.userId, {
          items: body.items.map((item) => ({ taskId: item.taskId, type: item.type, otherTaskId: item.relatedTaskId }))
        })
      })
  }),
  operation({
    operationId: "bulkDeleteRelationships",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/relationships/bulk-delete",
    summary: "Remove several relationships at once (all or nothing)",
    auth: "both",
    scopes: write,
    params: WorkspaceParams,
    body: Schema.Struct({ relationshipIds: Schema.Array(Id).check(Schema.isMinLength(1), Schema.isMaxLength(100)) }),
    responses: { 200: { description: "Removed", schema: Schema.Struct({ deleted: Schema.Number }) } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId, "member")
        for (const [index, id] of body.relationshipIds.entries()) {
          const found = yield* orDieSql(getRelationship(id)).pipe(
            Effect.catchTag("RelationshipNotFound", () => Effect.fail(new RelationshipNotFound({ field: `body.relationshipIds.${index}` })))
          )
          if (found.workspaceId !== params.workspaceId)
            return yield* reject("not_found", "No such relationship", [{ path: `body.relationshipIds.${index}`, message: "not found" }])
          yield* checkPair(context, params.workspaceId, found.sourceTaskId, found.targetTaskId, `body.relationshipIds.${index}.`)
        }
        return yield* send(PmWorkspace, params.workspaceId, "bulkDeleteRelationships", caller.userId, body)
      })
  }),
  operation({
    operationId: "getTaskDependencyGraph",
    method: "GET",
    path: "/v1/tasks/{taskId}/relationships/graph",
    summary: "Everything a task transitively blocks and is blocked by, and which open blockers still hold it back",
    auth: "both",
    scopes: read,
    params: TaskParams,
    responses: {
      200: {
        description: "The graph",
        schema: Schema.Struct({
          taskId: Id,
          nodes: Schema.Array(
            Schema.Struct({
              id: Id,
              shortId: Schema.String,
              name: Schema.String,
              status: Schema.String,
              listId: Id,
              closed: Schema.Boolean
            })
          ),
          edges: Schema.Array(Schema.Struct({ sourceTaskId: Id, targetTaskId: Id })),
          blocking: Schema.Array(Id),
          blockedBy: Schema.Array(Id),
          openBlockers: Schema.Array(Id)
        })
      }
    },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* onTask(context, params.taskId)
        const graph = yield* orDieSql(dependencyGraph(params.taskId))
        const hidden = new Set<string>()
        for (const node of graph.nodes) if ((yield* Effect.result(onTask(context, node.id)))._tag === "Failure") hidden.add(node.id)
        const keep = (id: string) => !hidden.has(id)
        return {
          ...graph,
          nodes: graph.nodes.filter((n) => keep(n.id)),
          edges: graph.edges.filter((e) => keep(e.sourceTaskId) && keep(e.targetTaskId)),
          blocking: graph.blocking.filter(keep),
          blockedBy: graph.blockedBy.filter(keep),
          openBlockers: graph.openBlockers.filter(keep)
        }
      })
  }),
  operation({
    operationId: "listBlockedTasks",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/relationships/blocked",
    summary: "Unfinished tasks of the workspace still held back by an unfinished blocker",
    auth: "both",
    scopes: read,
    params: WorkspaceParams,
    responses: {
      200: {
        description: "Blocked tasks",
        schema: Items(
          Schema.Struct({
            id: Id,
            shortId: Schema.String,
            name: Schema.String,
            status: Schema.String,
            listId: Id,
            blockerIds: Schema.Array(Id)
          })
        )
      }
    },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* inWorkspace(context, params.workspaceId)
        const rows = yield* orDieSql(blockedTasks(params.workspaceId))
        const items = yield* Effect.filter(rows, (row) => Effect.map(Effect.result(onTask(context, row.id)), (r) => r._tag === "Success"))
        return { items }
      })
  })
]
