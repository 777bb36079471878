/**
 * hub tag "Calls", the selection endpoints (by call UUID): the caller's action
 * items, and sending selected ones as tasks to the issue tracker, the task
 * tool, the spreadsheet-database tool or Atrium's pm (a list given as
 * `destination`). Idempotent per (call, action item, target); the target
 * defaults to the workspace's preferred integration target.
 */
import { Effect, Schema } from "effect"
import { CallActionItem } from "../../actors/hub/CallView.ts"
import { sendActionItems } from "../../actors/hub/SentTasks.ts"
import { IntegrationTarget, Workspace } from "../../actors/identity/Workspace.ts"
import { Id } from "../../actors/Fields.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { reject } from "../../runtime/Rejection.ts"
import { tagGroup } from "../Operation.ts"
import { onList } from "../pm/WorkAccess.ts"
import { CallUuidParams, callView, onCallUuid } from "./calls/CallAccess.ts"

import { callActionItemsExamples } from "./CallActionItems.examples.ts"

const Sent = Schema.Struct({
  actionItemId: Schema.String,
  externalId: Schema.String,
  url: Schema.String,
  alreadySent: Schema.Boolean.annotate({ description: "Sent before: the task created then" })
}).annotate({ identifier: "SentActionItem" })

const { operation } = tagGroup("hub", "Calls", callActionItemsExamples)

export const callActionItemsOperations = [
  operation({
    operationId: "listCallActionItems",
    method: "GET",
    path: "/v1/calls/by-uuid/{callUuid}/action-items",
    summary: "The caller's action items of the call (from their own version), with their states",
    auth: "both",
    scopes: ["recordings:read"],
    params: CallUuidParams,
    responses: { 200: { description: "Action items", schema: Schema.Struct({ items: Schema.Array(CallActionItem) }) } },
    handler: ({ params }, context) =>
      Effect.map(Effect.flatMap(onCallUuid(context, params.callUuid), callView), (call) => ({ items: call.actionItems }))
  }),
  operation({
    operationId: "sendCallActionItems",
    method: "POST",
    path: "/v1/calls/by-uuid/{callUuid}/action-items/send",
    summary: "Send selected action items as tasks to the issue tracker, the task tool, the spreadsheet-database tool or pm",
    description:
      "`target` defaults to the workspace's preferred integration target. pm needs `destination`: the id of the list the tasks go to. Resending an item to the same target creates nothing new and answers the task created the first time. A vendor that fails or rate-limits answers 502 naming it.",
    auth: "both",
    scopes: ["recordings:write"],
    params: CallUuidParams,
    body: Schema.Struct({
      target: Schema.optionalKey(IntegrationTarget),
      actionItemIds: Schema.Array(Schema.String.check(Schema.isMaxLength(100))).check(Schema.isMinLength(1), Schema.isMaxLength(100)),
      destination: Schema.optionalKey(Id.annotate({ description: "pm: the list id" }))
    }),
    responses: {
      200: { description: "Each item's task", schema: Schema.Struct({ target: IntegrationTarget, sent: Schema.Array(Sent) }) },
      409: { description: "No target chosen or preferred, or no connection of that kind" },
      502: { description: "The vendor failed, refused or rate-limited" }
    },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const access = yield* onCallUuid(context, params.callUuid, "member")
        const call = yield* callView(access)
        const ws = yield* Workspace.client(yield* ActorSystem)(call.workspaceId).view({ by: access.userId })
        const target = body.target ?? ws.settings.preferredIntegrationTarget
        if (target === null || target === undefined)
          return yield* reject("conflict", "Name a target: the workspace has no preferred integration target", [
            { path: "body.target", message: "required" }
          ])
        const items = yield* Effect.forEach(body.actionItemIds, (id, index) => {
          const item = call.actionItems.find((candidate) => candidate.id === id)
          return item
            ? Effect.succeed(item)
            : Effect.fail(
                reject("not_found", `No action item ${id} in your version of this call`, [
                  { path: `body.actionItemIds[${index}]`, message: "unknown" }
                ])
              )
        })
        let destination: string | null = null
        if (target === "pm") {
          if (body.destination === undefined)
            return yield* reject("invalid", "pm needs the list the tasks go to", [{ path: "body.destination", message: "required for pm" }])
          const list = yield* onList(context, body.destination, "member").pipe(
            Effect.catchIf(
              (e) => e._tag === "Rejection" && e.code === "not_found",
              () => Effect.fail(reject("not_found", "No such list", [{ path: "body.destination", message: "unknown list" }]))
            )
          )
          if (list.at.workspaceId !== call.workspaceId)
            return yield* reject("not_found", "No such list in this call's workspace", [
              { path: "body.destination", message: "unknown list" }
            ])
          destination = body.destination
        }
        const sent = yield* sendActionItems({
          workspaceId: call.workspaceId,
          recordingId: access.recordingId,
          callName: call.name,
          userId: access.userId,
          origin: context.origin,
          callUrl: `${context.origin}/w/${call.workspaceId}/meetings/${call.id}`,
          target,
          destination,
          items
        })
        return {
          target,
          sent: sent.map(({ task, alreadySent }) => ({
            actionItemId: task.actionItemId,
            externalId: task.externalId,
            url: task.url,
            alreadySent
          }))
        }
      })
  })
]
