/** Request and response examples of the operations in TaskResource.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { exampleIds } from "./calls/Examples.ts"

export const taskResourceExamples = examplesById({
  listCallTasks: [
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
  ]
})
