/** Request and response examples of the operations in UserViewResource.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"

const exampleWorkspaceId = "0b9e4c1a-6f0e-4d5f-9a77-3f7c2f1e8a10"

const exampleViewId = "5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b"

const exampleView = {
  id: exampleViewId,
  name: "Customer calls this quarter",
  filters: { tagIds: ["2b3c4d5e-6f70-4a1b-8c2d-3e4f5a6b7c8d"], createdFrom: "2026-10-01T00:00:00Z", minDurationMinutes: 10 },
  sort: { field: "createdAt", direction: "desc" },
  pinned: true,
  createdAt: "2026-11-21T12:00:00.000Z",
  updatedAt: "2026-11-21T12:00:00.000Z",
  callCount: 8
}

export const userViewResourceExamples = examplesById({
  createUserView: [
    {
      name: "create",
      request: {
        params: { workspaceId: exampleWorkspaceId },
        body: { name: exampleView.name, filters: exampleView.filters, sort: exampleView.sort, pinned: true }
      },
      response: { status: 201, body: exampleView }
    }
  ],
  listUserViews: [
    { name: "list", request: { params: { workspaceId: exampleWorkspaceId } }, response: { status: 200, body: { items: [exampleView] } } }
  ],
  updateUserView: [
    {
      name: "unpin",
      request: { params: { workspaceId: exampleWorkspaceId, viewId: exampleViewId }, body: { pinned: false } },
      response: { status: 200, body: { ...exampleView, pinned: false } }
    }
  ],
  deleteUserView: [
    { name: "delete", request: { params: { workspaceId: exampleWorkspaceId, viewId: exampleViewId } }, response: { status: 204 } }
  ]
})
