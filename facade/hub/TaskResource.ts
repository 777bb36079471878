/** hub tag "Task Resource" (1): the tasks a call's action items became, with their links and last known status. */
import { Effect, Schema } from "effect"
import { SentTask, sentTasks } from "../../actors/hub/SentTasks.ts"
import { tagGroup } from "../Operation.ts"
import { CallUuidParams, onCallUuid } from "./calls/CallAccess.ts"

import { taskResourceExamples } from "./TaskResource.examples.ts"

const { operation } = tagGroup("hub", "Task Resource", taskResourceExamples)

export const taskResourceOperations = [
  operation({
    operationId: "listCallTasks",
    method: "GET",
    path: "/v1/calls/by-uuid/{callUuid}/tasks",
    summary: "The tasks created from the call's action items, in every target, oldest first",
    auth: "both",
    scopes: ["recordings:read"],
    params: CallUuidParams,
    responses: { 200: { description: "Sent tasks", schema: Schema.Struct({ items: Schema.Array(SentTask) }) } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const access = yield* onCallUuid(context, params.callUuid)
        return { items: yield* sentTasks("recording_id = $1 ORDER BY sent_at, id", [access.recordingId]) }
      })
  })
]
