/** Request and response examples of the operations in WikiFavorites.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { ex, examplePageRef } from "../../actors/wiki/DiscoveryViews.ts"

const exampleFavorite = { ...examplePageRef, addedAt: ex.at }

export const wikiFavoritesExamples = examplesById({
  listWikiFavorites: [
    {
      name: "favorites",
      request: { query: { workspaceId: ex.workspaceId } },
      response: { status: 200, body: { items: [exampleFavorite] } }
    }
  ],
  addWikiFavorite: [{ name: "pin", request: { body: { pageId: ex.pageId } }, response: { status: 201, body: exampleFavorite } }],
  removeWikiFavorite: [{ name: "unpin", request: { params: { pageId: ex.pageId } }, response: { status: 204 } }]
})
