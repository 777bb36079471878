/** Request and response examples of the operations in Tags.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { exampleIds as ids } from "./WorkAccess.ts"
import { exampleTag } from "./WorkExamples.ts"

const sp = { spaceId: ids.space }

export const tagsExamples = examplesById({
  listSpaceTags: [{ name: "tags", request: { params: sp }, response: { status: 200, body: { items: [{ ...exampleTag, taskCount: 3 }] } } }],
  createSpaceTag: [
    { name: "create", request: { params: sp, body: { name: "frontend", color: "#8d8d8d" } }, response: { status: 201, body: exampleTag } }
  ],
  updateSpaceTag: [
    {
      name: "rename",
      request: { params: { ...sp, tagId: ids.tag }, body: { name: "ui" } },
      response: { status: 200, body: { ...exampleTag, name: "ui" } }
    }
  ],
  deleteSpaceTag: [{ name: "delete", request: { params: { ...sp, tagId: ids.tag } }, response: { status: 204 } }]
})
