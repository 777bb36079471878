/** Request and response examples of the operations in WebhookResource.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { exampleIds as ids, at0 } from "../WorkAccess.ts"

const webhookId = "a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d"

const params = { workspaceId: ids.workspace, webhookId }

const exampleEndpoint = {
  id: webhookId,
  workspaceId: ids.workspace,
  url: "https://203.0.113.10/atrium-hooks",
  description: "Sync task changes to the data warehouse",
  eventTypes: ["task.created", "task.updated", "status.changed"],
  spaceId: null,
  status: "active",
  disabledReason: null,
  createdBy: ids.user,
  createdAt: at0,
  updatedAt: at0
}

const exampleSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

const exampleDelivery = {
  id: "msg_2b6f0cc904d137be2e1730235f5664094b831186",
  endpointId: webhookId,
  workspaceId: ids.workspace,
  eventSeq: 0,
  eventType: "webhook.test",
  entityId: webhookId,
  status: "pending",
  attempts: 0,
  nextAttemptAt: at0,
  lastStatus: null,
  lastError: null,
  createdAt: at0,
  deliveredAt: null,
  deadAt: null
}

export const webhookResourceExamples = examplesById({
  listWebhooks: [
    { name: "list", request: { params: { workspaceId: ids.workspace } }, response: { status: 200, body: { items: [exampleEndpoint] } } }
  ],
  createWebhook: [
    {
      name: "task-events",
      request: {
        params: { workspaceId: ids.workspace },
        body: { url: exampleEndpoint.url, description: exampleEndpoint.description, eventTypes: exampleEndpoint.eventTypes }
      },
      response: { status: 201, body: { ...exampleEndpoint, secret: exampleSecret } }
    }
  ],
  getWebhook: [{ name: "get", request: { params }, response: { status: 200, body: exampleEndpoint } }],
  updateWebhook: [
    {
      name: "pause",
      request: { params, body: { status: "paused" } },
      response: { status: 200, body: { ...exampleEndpoint, status: "paused" } }
    }
  ],
  deleteWebhook: [{ name: "delete", request: { params }, response: { status: 204 } }],
  rotateWebhookSecret: [
    { name: "rotate", request: { params }, response: { status: 200, body: { ...exampleEndpoint, secret: exampleSecret } } }
  ],
  testWebhook: [{ name: "ping", request: { params }, response: { status: 202, body: exampleDelivery } }],
  listWebhookDeliveries: [{ name: "deliveries", request: { params }, response: { status: 200, body: { items: [exampleDelivery] } } }],
  redeliverWebhookDelivery: [
    {
      name: "redeliver",
      request: { params: { ...params, deliveryId: exampleDelivery.id } },
      response: { status: 202, body: exampleDelivery }
    }
  ]
})
