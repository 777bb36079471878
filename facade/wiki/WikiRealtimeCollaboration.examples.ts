/** Request and response examples of the operations in WikiRealtimeCollaboration.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { ex } from "../../actors/wiki/DiscoveryViews.ts"
import { CloseCode } from "../../collab/SocketAdapter.ts"

export const closeCodes = {
  [String(CloseCode.badFrame)]: "A malformed or unknown frame (that socket only)",
  [String(CloseCode.unauthorized)]: "Missing or invalid token",
  [String(CloseCode.forbidden)]: "No access to the document (or the page does not exist)",
  [String(CloseCode.removed)]: "The page was deleted",
  [String(CloseCode.backpressure)]: "Too slow a reader; reconnect to resync",
  [String(CloseCode.goingAway)]: "The server is shutting down or storage is unavailable; reconnect"
}

export const wikiRealtimeCollaborationExamples = examplesById({
  getWikiCollabInfo: [
    {
      name: "connect",
      request: { query: { pageId: ex.pageId } },
      response: {
        status: 200,
        body: {
          protocol: "hocuspocus",
          description: "Hocuspocus v2 over WebSocket: Yjs sync and awareness per document",
          url: "wss://atrium.example/wiki/v1/collab",
          documentName: "The page id",
          fragment: "default",
          authentication: "Pass an access token (from POST /pm/v1/auth/login) or an API key as the provider's token",
          closeCodes,
          limits: { maxMessageBytes: 16777216, idleSeconds: 120 },
          page: { pageId: ex.pageId, right: "edit" }
        }
      }
    }
  ],
  getWikiPageCollabSession: [
    {
      name: "session",
      request: { params: { pageId: ex.pageId } },
      response: {
        status: 200,
        body: {
          pageId: ex.pageId,
          url: "wss://atrium.example/wiki/v1/collab",
          documentName: ex.pageId,
          right: "edit",
          editors: [{ userId: ex.otherUserId, name: "Bob", since: ex.at }],
          active: true
        }
      }
    }
  ]
})
