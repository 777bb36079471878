/** Request and response examples of the operations in Favorites.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { exampleIds as ids, at0 } from "./WorkAccess.ts"

const exampleFavorite = {
  id: ids.entry,
  type: "list",
  entityId: ids.list,
  workspaceId: ids.workspace,
  name: "Backlog",
  shortId: "L-1",
  spaceId: ids.space,
  path: "Engineering / Q4 roadmap",
  archived: false,
  position: 1,
  addedAt: at0
}

export const favoritesExamples = examplesById({
  listFavorites: [
    {
      name: "favorites",
      request: { params: { workspaceId: ids.workspace } },
      response: { status: 200, body: { items: [exampleFavorite] } }
    }
  ],
  addFavorite: [
    {
      name: "star-list",
      request: { params: { workspaceId: ids.workspace }, body: { type: "list", id: ids.list } },
      response: { status: 201, body: exampleFavorite }
    }
  ],
  removeFavorite: [
    { name: "unstar", request: { params: { workspaceId: ids.workspace, favoriteId: ids.entry } }, response: { status: 204 } }
  ]
})
