/** Request and response examples of the operations in WikiLiveEvents.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { ex } from "../../actors/wiki/DiscoveryViews.ts"
import { examplesById } from "../Operation.ts"
import { exampleStreamTicket } from "../StreamTickets.ts"

export const wikiLiveEventsExamples = examplesById({
  createWikiSpaceStreamTicket: [
    {
      name: "ticket",
      request: { params: { spaceId: ex.spaceId } },
      response: {
        status: 201,
        body: exampleStreamTicket({ scope: "wikiSpace", id: ex.spaceId })
      }
    }
  ]
})
