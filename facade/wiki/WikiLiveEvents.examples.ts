/** Request and response examples of the operations in WikiLiveEvents.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { ex } from "../../actors/wiki/DiscoveryViews.ts"
import { SOCKET_IO_PATH } from "../../streams/SocketIoStreams.ts"
import { RAW_SOCKET_PATH } from "../../streams/StreamSocket.ts"
import { examplesById } from "../Operation.ts"

const exampleTicket = "wst_3q2-7wY0bXJ0aWNrZXQtZXhhbXBsZS1ub3QtcmVhbC0xMjM"

export const wikiLiveEventsExamples = examplesById({
  createWikiSpaceStreamTicket: [
    {
      name: "ticket",
      request: { params: { spaceId: ex.spaceId } },
      response: {
        status: 201,
        body: {
          ticket: exampleTicket,
          url: `ws://localhost:8080${RAW_SOCKET_PATH}?ticket=${exampleTicket}`,
          socketIo: { url: "http://localhost:8080", path: SOCKET_IO_PATH, auth: { ticket: exampleTicket } },
          subscribe: { type: "subscribe", scope: "wikiSpace", id: ex.spaceId },
          expiresAt: "2026-11-21T12:00:30.000Z"
        }
      }
    }
  ]
})
