/** Request and response examples of the operations in WikiHome.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { ex, examplePageRef } from "../../actors/wiki/DiscoveryViews.ts"

const exampleSpace = { id: ex.spaceId, key: "ENG", name: "Engineering", icon: "🛠️", pageCount: 12, lastUpdatedAt: ex.at }

export const wikiHomeExamples = examplesById({
  getWikiHome: [
    {
      name: "home",
      request: { query: { workspaceId: ex.workspaceId } },
      response: {
        status: 200,
        body: {
          workspaceId: ex.workspaceId,
          homeSpace: exampleSpace,
          spaces: [exampleSpace],
          favorites: [{ ...examplePageRef, addedAt: ex.at }],
          recentlyViewed: [{ ...examplePageRef, viewedAt: ex.at }],
          recentlyEdited: [{ ...examplePageRef, editedAt: ex.at }],
          recentlyUpdated: [{ ...examplePageRef, updatedAt: ex.at, updatedBy: { userId: ex.userId, name: "Alice" } }],
          totals: { spaces: 1, pages: 12 }
        }
      }
    }
  ]
})
