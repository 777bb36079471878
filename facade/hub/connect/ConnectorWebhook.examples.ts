/** Request and response examples of the operations in ConnectorWebhook.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"

export const connectorWebhookExamples = examplesById({
  receiveConnectorEvent: [
    {
      name: "ticket-created",
      request: { body: { type: "ticket.created", integrationId: "int_tracker_7", data: { title: "Login fails on Android" } } },
      response: { status: 200, body: { eventId: "msg_2KWPBgLlAfxdpx2AI54pPJ85f4W", outcome: "accepted", runs: 1 } }
    }
  ]
})
