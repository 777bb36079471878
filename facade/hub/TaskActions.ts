/**
 * hub tag "Task Action Resource" (3): what people do with a call's action
 * items: complete, dismiss, assign. The state belongs to the call (everyone
 * sees it on the same item, whichever version lists it).
 */
import { Effect, Schema } from "effect"
import { HubCall } from "../../actors/hub/CallActor.ts"
import { ActionStatus } from "../../actors/hub/CallRecords.ts"
import { Email, normalizeEmail, Timestamp } from "../../actors/Fields.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { type RequestContext, tagGroup } from "../Operation.ts"
import { onCallUuid } from "./calls/CallAccess.ts"

import { Id } from "../../actors/Fields.ts"
import { taskActionsExamples, params, exampleState } from "./TaskActions.examples.ts"

const tag = "Task Action Resource"
const service = "hub"

const { operation } = tagGroup(service, tag, taskActionsExamples)
const ItemParams = Schema.Struct({ callUuid: Id, actionItemId: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(100)) })

const ActionItemState = Schema.Struct({
  actionItemId: Schema.String,
  status: ActionStatus,
  assigneeEmail: Schema.NullOr(Schema.String),
  updatedBy: Schema.String,
  updatedAt: Timestamp
}).annotate({ identifier: "ActionItemState" })

const setAction = (
  context: RequestContext,
  callUuid: string,
  actionItemId: string,
  patch: { status?: "completed" | "dismissed"; assigneeEmail?: string | null }
) =>
  Effect.gen(function* () {
    const access = yield* onCallUuid(context, callUuid, "member")
    const state = yield* (yield* ActorSystem).ask(HubCall, String(access.recordingId), "setAction", {
      by: access.userId,
      actionItemId,
      ...patch
    })
    return { actionItemId, ...state }
  })

const statusOperation = (operationId: string, verb: "complete" | "dismiss", status: "completed" | "dismissed", summary: string) =>
  operation({
    operationId,
    method: "POST",
    path: `/v1/calls/by-uuid/{callUuid}/action-items/{actionItemId}/${verb}`,
    summary,
    auth: "both",
    scopes: ["recordings:write"],
    params: ItemParams,
    responses: { 200: { description: "The item's state", schema: ActionItemState } },
    examples: [{ name: verb, request: { params }, response: { status: 200, body: exampleState(status) } }],
    handler: ({ params }, context) => setAction(context, params.callUuid, params.actionItemId, { status })
  })

export const taskActionOperations = [
  statusOperation("completeCallActionItem", "complete", "completed", "Mark an action item done"),
  statusOperation("dismissCallActionItem", "dismiss", "dismissed", "Dismiss an action item (not a real task)"),
  operation({
    operationId: "assignCallActionItem",
    method: "PUT",
    path: "/v1/calls/by-uuid/{callUuid}/action-items/{actionItemId}/assignee",
    summary: "Assign an action item to someone by e-mail (null unassigns); sending it uses this owner",
    auth: "both",
    scopes: ["recordings:write"],
    params: ItemParams,
    body: Schema.Struct({ email: Schema.NullOr(Email) }),
    responses: { 200: { description: "The item's state", schema: ActionItemState } },
    handler: ({ params, body }, context) =>
      setAction(context, params.callUuid, params.actionItemId, { assigneeEmail: body.email === null ? null : normalizeEmail(body.email) })
  })
]
