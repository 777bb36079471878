/** Request and response examples of the operations in Notifications.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"

const exampleNotification = {
  id: "3c1e5a7b-9d2f-4e6a-8b0c-1d2e3f4a5b6c",
  workspaceId: "0b9e4c1a-6f0e-4d5f-9a77-3f7c2f1e8a10",
  reason: "assigned",
  title: "Alice assigned you to “Ship the beta”",
  read: false,
  readAt: null,
  createdAt: "2026-11-21T12:00:00.000Z",
  actorId: "6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f",
  event: { seq: 42, type: "task.updated", scope: "task", entityId: "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d" }
}

export const notificationsExamples = examplesById({
  listNotifications: [
    {
      name: "unread",
      request: { query: { unread: "true", limit: "20" } },
      response: { status: 200, body: { items: [exampleNotification], nextCursor: null } }
    }
  ],
  getNotificationCounts: [
    {
      name: "counts",
      response: {
        status: 200,
        body: { total: 12, unread: 3, byWorkspace: [{ workspaceId: exampleNotification.workspaceId, total: 12, unread: 3 }] }
      }
    }
  ],
  updateNotification: [
    {
      name: "mark-read",
      request: { params: { notificationId: exampleNotification.id }, body: { read: true } },
      response: { status: 200, body: { ...exampleNotification, read: true, readAt: "2026-11-21T12:05:00.000Z" } }
    }
  ],
  markAllNotificationsRead: [{ name: "all", request: { body: {} }, response: { status: 200, body: { updated: 3 } } }]
})
