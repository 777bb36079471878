/** Request and response examples of the operations in WikiPagePermissions.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { examples } from "../../actors/wiki/WikiViews.ts"

const exampleEntry = {
  id: "6c5b4a3f-2e1d-4c0b-9a8f-7e6d5c4b3a2f",
  pageId: examples.pageId,
  access: "edit",
  userId: examples.userId,
  name: "Alice",
  email: "alice@example.com",
  workspaceRole: null,
  createdAt: examples.at,
  updatedAt: examples.at
}

const exampleView = { pageId: examples.pageId, restriction: "edit", entries: [exampleEntry], inherited: [], yourAccess: "edit" }

const params = { pageId: examples.pageId }

export const wikiPagePermissionsExamples = examplesById({
  getWikiPagePermissions: [{ name: "get", request: { params }, response: { status: 200, body: exampleView } }],
  setWikiPageRestriction: [
    { name: "edit-restrict", request: { params, body: { restriction: "edit" } }, response: { status: 200, body: exampleView } }
  ],
  addWikiPagePermission: [
    {
      name: "editor",
      request: { params, body: { email: "alice@example.com", access: "edit" } },
      response: { status: 201, body: exampleEntry }
    }
  ],
  removeWikiPagePermission: [{ name: "remove", request: { params: { ...params, entryId: exampleEntry.id } }, response: { status: 204 } }]
})
