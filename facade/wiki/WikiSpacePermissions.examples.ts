/** Request and response examples of the operations in WikiSpacePermissions.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { examples } from "../../actors/wiki/WikiViews.ts"

const exampleEntry = {
  id: "3a4b5c6d-7e8f-4a9b-8c0d-1e2f3a4b5c6d",
  spaceId: examples.spaceId,
  role: "editor",
  userId: examples.userId,
  name: "Alice",
  email: "alice@example.com",
  workspaceRole: null,
  createdAt: examples.at,
  updatedAt: examples.at
}

const params = { spaceId: examples.spaceId }

export const wikiSpacePermissionsExamples = examplesById({
  listWikiSpacePermissions: [
    {
      name: "list",
      request: { params },
      response: {
        status: 200,
        body: {
          spaceId: examples.spaceId,
          visibility: "workspace",
          baseline: { admin: "admin", member: "editor", viewer: "viewer" },
          entries: [exampleEntry],
          yourRole: "admin"
        }
      }
    }
  ],
  setWikiSpacePermission: [
    {
      name: "by-email",
      request: { params, body: { email: "alice@example.com", role: "editor" } },
      response: { status: 200, body: exampleEntry }
    },
    {
      name: "members-read-only",
      request: { params, body: { workspaceRole: "member", role: "viewer" } },
      response: { status: 200, body: { ...exampleEntry, role: "viewer", userId: null, name: null, email: null, workspaceRole: "member" } }
    }
  ],
  removeWikiSpacePermission: [
    { name: "remove", request: { params: { ...params, permissionId: exampleEntry.id } }, response: { status: 204 } }
  ]
})
