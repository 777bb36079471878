/** Request and response examples of the operations in TaskActions.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { exampleIds } from "./calls/Examples.ts"

export const params = { callUuid: exampleIds.callUuid, actionItemId: exampleIds.actionItemId }

export const exampleState = (status: string, assigneeEmail: string | null = null) => ({
  actionItemId: exampleIds.actionItemId,
  status,
  assigneeEmail,
  updatedBy: exampleIds.userId,
  updatedAt: "2026-11-21T12:30:00.000Z"
})

export const taskActionsExamples = examplesById({
  assignCallActionItem: [
    {
      name: "assign",
      request: { params, body: { email: "bob@example.com" } },
      response: { status: 200, body: exampleState("open", "bob@example.com") }
    }
  ]
})
