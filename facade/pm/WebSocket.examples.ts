/** Request and response examples of the operations in WebSocket.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { RAW_SOCKET_PATH } from "../../streams/StreamSocket.ts"
import { SOCKET_IO_PATH } from "../../streams/SocketIoStreams.ts"

const exampleTicket = "wst_3q2-7wY0bXJ0aWNrZXQtZXhhbXBsZS1ub3QtcmVhbC0xMjM"

export const webSocketExamples = examplesById({
  createWebSocketTicket: [
    {
      name: "ticket",
      request: { body: { workspaceId: "0b9e4c1a-6f0e-4d5f-9a77-3f7c2f1e8a10" } },
      response: {
        status: 201,
        body: {
          ticket: exampleTicket,
          url: `ws://localhost:8080${RAW_SOCKET_PATH}?ticket=${exampleTicket}`,
          socketIo: { url: "http://localhost:8080", path: SOCKET_IO_PATH, auth: { ticket: exampleTicket } },
          expiresAt: "2026-11-21T12:00:30.000Z"
        }
      }
    }
  ]
})
