/**
 * feedback tag "Linked Work (Lite)": a feature request's pm tasks by short
 * ids on both sides — the request as FR-12 (with the board when the short id
 * is on several), the task as T-42 (or ids).
 */
import { Effect, Schema } from "effect"
import { TaskRef } from "../../actors/pm/WorkRecords.ts"
import { reject } from "../../runtime/Rejection.ts"
import { tagGroup } from "../Operation.ts"
import { onTaskRef } from "../pm/WorkAccess.ts"
import type { RequestContext } from "../Operation.ts"
import { linkedWorkLiteExamples } from "./LinkedWorkLite.examples.ts"
import { Where } from "./LiteRefs.ts"
import { RefParams, RequestRef, requestByRef } from "./LiteRequestViews.ts"
import { LinkedTaskList, linkedTasksOf, linkTask, unlinkTask } from "./WorkLinkViews.ts"

/** The task a Lite ref names in the workspace, as the caller may see it; 404 naming `path`. */
export const taskByRef = (context: RequestContext, workspaceId: string, ref: string, path: string) =>
  onTaskRef(context, workspaceId, ref).pipe(
    Effect.map((caller) => caller.at.taskId!),
    Effect.catchIf(
      (e) => e._tag === "Rejection" && e.code === "not_found",
      () => Effect.fail(reject("not_found", `No such task: ${ref}`, [{ path, message: "no task with this short id or id" }]))
    )
  )

// The links show pm tasks: an API key needs pm's read scope as well.
const write = ["feedback:write", "tasks:read"]
const { operation } = tagGroup("feedback", "Linked Work (Lite)", linkedWorkLiteExamples)

export const linkedWorkLiteOperations = [
  operation({
    operationId: "listFeatureRequestTasksLite",
    method: "GET",
    path: "/v1/lite/feature-requests/{requestRef}/tasks",
    summary: "The pm tasks linked to a feature request by short id, with their status",
    auth: "both",
    scopes: ["feedback:read", "tasks:read"],
    params: RefParams,
    query: Schema.Struct(Where),
    responses: { 200: { description: "Linked tasks", schema: LinkedTaskList } },
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        const { record } = yield* requestByRef(context, query, params.requestRef, "path.requestRef", "query.board")
        return yield* linkedTasksOf(context, record.id)
      })
  }),
  operation({
    operationId: "linkFeatureRequestTaskLite",
    method: "POST",
    path: "/v1/lite/feature-requests/{requestRef}/tasks",
    summary: "Link a pm task (T-42) to a feature request (FR-12) (the board's team); the request takes the progress its work made",
    auth: "both",
    scopes: write,
    params: RefParams,
    body: Schema.Struct({ ...Where, task: TaskRef }),
    responses: {
      200: { description: "The request's linked tasks", schema: LinkedTaskList },
      404: { description: "No such request or task" },
      409: { description: "The short id is on several boards" }
    },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { caller, record } = yield* requestByRef(context, body, params.requestRef, "path.requestRef", "body.board")
        if (!caller.team) return yield* reject("forbidden", "Only the board's team links work")
        const taskId = yield* taskByRef(context, body.workspaceId, body.task, "body.task")
        yield* linkTask(context, caller, { kind: "request", id: record.id, field: "path.requestRef" }, taskId, "body.task")
        return yield* linkedTasksOf(context, record.id)
      })
  }),
  operation({
    operationId: "unlinkFeatureRequestTaskLite",
    method: "DELETE",
    path: "/v1/lite/feature-requests/{requestRef}/tasks/{taskRef}",
    summary: "Remove the link between a feature request (FR-12) and a pm task (T-42) (the board's team)",
    auth: "both",
    scopes: write,
    params: Schema.Struct({ requestRef: RequestRef, taskRef: TaskRef }),
    query: Schema.Struct(Where),
    responses: { 200: { description: "The request's linked tasks", schema: LinkedTaskList }, 404: { description: "Not linked" } },
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        const { caller, record } = yield* requestByRef(context, query, params.requestRef, "path.requestRef", "query.board")
        if (!caller.team) return yield* reject("forbidden", "Only the board's team links work")
        const taskId = yield* taskByRef(context, query.workspaceId, params.taskRef, "path.taskRef")
        yield* unlinkTask(caller, { kind: "request", id: record.id }, taskId)
        return yield* linkedTasksOf(context, record.id)
      })
  })
]
