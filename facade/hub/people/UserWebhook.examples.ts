/** Request and response examples of the operations in UserWebhook.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"

const exampleWebhookId = "8c9d0e1f-2a3b-4c5d-8e6f-7a8b9c0d1e2f"

const exampleDeliveryId = "9d0e1f2a-3b4c-4d5e-8f6a-8b9c0d1e2f3a"

const exampleWebhook = {
  id: exampleWebhookId,
  url: "https://hooks.example.com/atrium",
  description: "My automation",
  eventTypes: ["meeting.processed"],
  enabled: true,
  disabledReason: null,
  createdAt: "2026-11-21T12:00:00.000Z",
  updatedAt: "2026-11-21T12:00:00.000Z"
}

const exampleDelivery = {
  id: exampleDeliveryId,
  messageId: "msg_4f1c2d3e4b5a4c7d8e9f0a1b2c3d4e5f",
  eventType: "meeting.processed",
  status: "delivered",
  attempts: 1,
  lastStatusCode: 200,
  lastError: null,
  nextAttemptAt: null,
  replayOf: null,
  createdAt: "2026-11-21T12:05:00.000Z",
  completedAt: "2026-11-21T12:05:01.000Z"
}

export const userWebhookExamples = examplesById({
  createUserWebhook: [
    {
      name: "register",
      request: { body: { url: exampleWebhook.url, description: exampleWebhook.description } },
      response: { status: 201, body: { ...exampleWebhook, secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw" } }
    }
  ],
  listUserWebhooks: [
    { name: "list", response: { status: 200, body: { items: [{ ...exampleWebhook, recentDeliveries: [exampleDelivery] }] } } }
  ],
  updateUserWebhook: [
    {
      name: "re-enable",
      request: { params: { webhookId: exampleWebhookId }, body: { enabled: true } },
      response: { status: 200, body: exampleWebhook }
    }
  ],
  deleteUserWebhook: [{ name: "delete", request: { params: { webhookId: exampleWebhookId } }, response: { status: 204 } }],
  replayUserWebhookDelivery: [
    {
      name: "replay",
      request: { params: { webhookId: exampleWebhookId }, body: { deliveryId: exampleDeliveryId } },
      response: {
        status: 202,
        body: {
          ...exampleDelivery,
          id: "0e1f2a3b-4c5d-4e6f-8a7b-9c0d1e2f3a4b",
          status: "pending",
          attempts: 0,
          lastStatusCode: null,
          nextAttemptAt: "2026-11-21T13:00:00.000Z",
          replayOf: exampleDeliveryId,
          createdAt: "2026-11-21T13:00:00.000Z",
          completedAt: null
        }
      }
    }
  ]
})
