/** Request and response examples of the operations in Users.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { ex } from "../../actors/wiki/DiscoveryViews.ts"

export const usersExamples = examplesById({
  listWikiUsers: [
    {
      name: "mention-picker",
      request: { query: { workspaceId: ex.workspaceId, q: "bo" } },
      response: { status: 200, body: { items: [{ userId: ex.otherUserId, name: "Bob", email: "bob@example.com", role: "member" }] } }
    }
  ]
})
