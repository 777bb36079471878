/** Request and response examples of the operations in CallActionItems.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { exampleIds, exampleActionItems } from "./calls/Examples.ts"

const params = { callUuid: exampleIds.callUuid }

export const callActionItemsExamples = examplesById({
  listCallActionItems: [{ name: "list", request: { params }, response: { status: 200, body: { items: exampleActionItems } } }],
  sendCallActionItems: [
    {
      name: "pm",
      request: { params, body: { target: "pm", actionItemIds: [exampleIds.actionItemId], destination: exampleIds.listId } },
      response: {
        status: 200,
        body: {
          target: "pm",
          sent: [
            {
              actionItemId: exampleIds.actionItemId,
              externalId: "8a9b0c1d-2e3f-4a5b-8c6d-7e8f9a0b1c2d",
              url: "http://localhost:8080/pm/v1/tasks/8a9b0c1d-2e3f-4a5b-8c6d-7e8f9a0b1c2d",
              alreadySent: false
            }
          ]
        }
      }
    }
  ]
})
