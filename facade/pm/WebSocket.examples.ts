/** Request and response examples of the operations in WebSocket.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { exampleStreamTicket } from "../StreamTickets.ts"

export const webSocketExamples = examplesById({
  createWebSocketTicket: [
    {
      name: "ticket",
      request: { body: { workspaceId: "0b9e4c1a-6f0e-4d5f-9a77-3f7c2f1e8a10" } },
      response: {
        status: 201,
        body: exampleStreamTicket()
      }
    }
  ]
})
