/** Request and response examples of the operations in NotificationPreferences.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { examples } from "./FeedbackViews.ts"

const params = { boardId: examples.boardId }

export const notificationPreferencesExamples = examplesById({
  getNotificationPreference: [
    {
      name: "default",
      request: { params },
      response: { status: 200, body: { boardId: examples.boardId, mode: "instant", updatedAt: null } }
    }
  ],
  updateNotificationPreference: [
    {
      name: "digest",
      request: { params, body: { mode: "digest" } },
      response: { status: 200, body: { boardId: examples.boardId, mode: "digest", updatedAt: examples.at } }
    }
  ]
})
