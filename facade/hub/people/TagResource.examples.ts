/** Request and response examples of the operations in TagResource.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"

const exampleWorkspaceId = "0b9e4c1a-6f0e-4d5f-9a77-3f7c2f1e8a10"

const exampleTagId = "2b3c4d5e-6f70-4a1b-8c2d-3e4f5a6b7c8d"

const exampleTag = {
  id: exampleTagId,
  name: "Customer call",
  color: "#3b82f6",
  createdBy: "6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f",
  createdAt: "2026-11-21T12:00:00.000Z",
  updatedAt: "2026-11-21T12:00:00.000Z"
}

export const tagResourceExamples = examplesById({
  createCallTag: [
    {
      name: "create",
      request: { params: { workspaceId: exampleWorkspaceId }, body: { name: exampleTag.name, color: exampleTag.color } },
      response: { status: 201, body: exampleTag }
    }
  ],
  listCallTags: [
    {
      name: "list",
      request: { params: { workspaceId: exampleWorkspaceId } },
      response: { status: 200, body: { items: [{ ...exampleTag, callCount: 12 }] } }
    }
  ],
  updateCallTag: [
    {
      name: "rename",
      request: { params: { workspaceId: exampleWorkspaceId, tagId: exampleTagId }, body: { name: "Customer interview" } },
      response: { status: 200, body: { ...exampleTag, name: "Customer interview" } }
    }
  ],
  deleteCallTag: [
    { name: "delete", request: { params: { workspaceId: exampleWorkspaceId, tagId: exampleTagId } }, response: { status: 204 } }
  ],
  setCallTags: [
    {
      name: "tag",
      request: { params: { callId: "1042" }, body: { tagIds: [exampleTagId] } },
      response: { status: 200, body: { callId: 1042, tags: [exampleTag] } }
    }
  ],
  removeCallTag: [
    {
      name: "untag",
      request: { params: { callId: "1042", tagId: exampleTagId } },
      response: { status: 200, body: { callId: 1042, tags: [] } }
    }
  ]
})
