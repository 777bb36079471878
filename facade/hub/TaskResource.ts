/** hub tag "Task Resource" (1): the tasks a call's action items became, with their links and last known status. */
import { Effect, Schema } from "effect"
import { SentTask, sentTasks } from "../../actors/hub/SentTasks.ts"
import { operation } from "../Operation.ts"
import { CallUuidParams, onCallUuid } from "./calls/CallAccess.ts"
import { exampleIds } from "./calls/Examples.ts"

export const taskResourceOperations = [
  operation({
    service: "hub",
    tag: "Task Resource",
    operationId: "listCallTasks",
    method: "GET",
    path: "/v1/calls/by-uuid/{callUuid}/tasks",
    summary: "The tasks created from the call's action items, in every target, oldest first",
    auth: "both",
    scopes: ["recordings:read"],
    params: CallUuidParams,
    responses: { 200: { description: "Sent tasks", schema: Schema.Struct({ items: Schema.Array(SentTask) }) } },
    examples: [
      {
        name: "list",
        request: { params: { callUuid: exampleIds.callUuid } },
        response: {
          status: 200,
          body: {
            items: [
              {
                id: "f6a7b8c9-d0e1-4f2a-8b3c-4d5e6f7a8b9c",
                recordingId: exampleIds.recordingId,
                actionItemId: exampleIds.actionItemId,
                target: "tracker",
                destination: exampleIds.connectionId,
                text: "I'll send the revised launch timeline by Friday.",
                externalId: "ENG-42",
                url: "https://tracker.example.com/issues/ENG-42",
                remoteStatus: "open",
                remoteAssignee: null,
                sentAt: "2026-11-21T12:40:00.000Z",
                syncedAt: null
              }
            ]
          }
        }
      }
    ],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const access = yield* onCallUuid(context, params.callUuid)
        return { items: yield* sentTasks("recording_id = $1 ORDER BY sent_at, id", [access.recordingId]) }
      })
  })
]
