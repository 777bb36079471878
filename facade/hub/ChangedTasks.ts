/**
 * hub tag "Changed Task Resource" (6): action items sent as tasks change in
 * their target (closed, reassigned). Sync reads them back; the changes are
 * listed until acknowledged, and can be applied to the call's action items.
 */
import { Effect, Schema } from "effect"
import { syncSentTasks } from "../../actors/hub/SentTasks.ts"
import { acknowledge, acknowledgeAll, apply, getChange, listChanges, TaskChange } from "../../actors/hub/TaskChanges.ts"
import { Id } from "../../actors/Fields.ts"
import { reject } from "../../runtime/Rejection.ts"
import { principalOf, workspaceRole } from "../Access.ts"
import { tagGroup } from "../Operation.ts"
import { onRecording } from "./calls/CallAccess.ts"

import { changedTasksExamples, changeParams, exampleChange } from "./ChangedTasks.examples.ts"

const tag = "Changed Task Resource"
const service = "hub"

const { operation } = tagGroup(service, tag, changedTasksExamples)
const read = ["recordings:read"]
const write = ["recordings:write"]
const WorkspaceParams = Schema.Struct({ workspaceId: Id })
const ChangeParams = Schema.Struct({ workspaceId: Id, changeId: Id })

const changeOperation = (operationId: string, verb: "acknowledge" | "apply", summary: string) =>
  operation({
    operationId,
    method: "POST",
    path: `/v1/workspaces/{workspaceId}/changed-tasks/{changeId}/${verb}`,
    summary,
    auth: "both",
    scopes: write,
    params: ChangeParams,
    responses: { 200: { description: "The change", schema: TaskChange } },
    examples: [
      {
        name: verb,
        request: { params: changeParams },
        response: {
          status: 200,
          body: {
            ...exampleChange,
            acknowledgedAt: "2026-11-22T10:00:00.000Z",
            appliedAt: verb === "apply" ? "2026-11-22T10:00:00.000Z" : null
          }
        }
      }
    ],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* workspaceRole(context, params.workspaceId, "member")
        const principal = yield* principalOf(context)
        return verb === "apply"
          ? yield* apply(params.workspaceId, params.changeId, principal.userId)
          : yield* acknowledge(params.workspaceId, params.changeId)
      })
  })

export const changedTasksOperations = [
  operation({
    operationId: "listChangedTasks",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/changed-tasks",
    summary: "Sent tasks that changed in their target since they were sent (not yet acknowledged, unless asked)",
    auth: "both",
    scopes: read,
    params: WorkspaceParams,
    query: Schema.Struct({ includeAcknowledged: Schema.optionalKey(Schema.Literals(["true", "false"])) }),
    responses: { 200: { description: "Changes, oldest first", schema: Schema.Struct({ items: Schema.Array(TaskChange) }) } },
    handler: ({ params, query }, context) =>
      Effect.andThen(
        workspaceRole(context, params.workspaceId),
        Effect.map(listChanges(params.workspaceId, query.includeAcknowledged === "true"), (items) => ({ items }))
      )
  }),
  operation({
    operationId: "syncChangedTasks",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/changed-tasks/sync",
    summary: "Read every sent task back from its target and record what changed (optionally only one recording's)",
    auth: "both",
    scopes: write,
    params: WorkspaceParams,
    body: Schema.Struct({ recordingId: Schema.optionalKey(Schema.Number.check(Schema.isInt(), Schema.isGreaterThan(0))) }),
    responses: {
      200: {
        description: "How many tasks were checked, and the changes found",
        schema: Schema.Struct({ checked: Schema.Number, changes: Schema.Number })
      }
    },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        yield* workspaceRole(context, params.workspaceId, "member")
        if (body.recordingId !== undefined) {
          const access = yield* onRecording(context, body.recordingId)
          if (access.recording.workspaceId !== params.workspaceId)
            return yield* reject("not_found", "No such recording in this workspace", [{ path: "body.recordingId", message: "unknown" }])
        }
        return yield* syncSentTasks(params.workspaceId, body.recordingId ?? null)
      })
  }),
  operation({
    operationId: "getChangedTask",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/changed-tasks/{changeId}",
    summary: "One change of a sent task",
    auth: "both",
    scopes: read,
    params: ChangeParams,
    responses: { 200: { description: "The change", schema: TaskChange } },
    handler: ({ params }, context) =>
      Effect.andThen(workspaceRole(context, params.workspaceId), getChange(params.workspaceId, params.changeId))
  }),
  changeOperation("acknowledgeChangedTask", "acknowledge", "Acknowledge a change (it leaves the default list)"),
  changeOperation(
    "applyChangedTask",
    "apply",
    "Apply a change to the call's action item (closed → completed, reassigned → assignee) and acknowledge it"
  ),
  operation({
    operationId: "acknowledgeAllChangedTasks",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/changed-tasks/acknowledge-all",
    summary: "Acknowledge every open change of the workspace",
    auth: "both",
    scopes: write,
    params: WorkspaceParams,
    responses: { 200: { description: "How many were acknowledged", schema: Schema.Struct({ acknowledged: Schema.Number }) } },
    handler: ({ params }, context) =>
      Effect.andThen(workspaceRole(context, params.workspaceId, "member"), acknowledgeAll(params.workspaceId))
  })
]
