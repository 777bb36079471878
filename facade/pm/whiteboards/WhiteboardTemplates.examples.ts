/** Request and response examples of the operations in WhiteboardTemplates.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { exampleIds as ids, at0 } from "../WorkAccess.ts"
import { exampleWhiteboard, exampleWhiteboardId } from "./WhiteboardCollaboration.ts"

const templateId = "b8c9d0e1-f2a3-4b4c-9d5e-7f8a9b0c1d2e"

const exampleTemplate = {
  id: templateId,
  workspaceId: ids.workspace,
  name: "Sprint retro",
  description: "Went well / to improve / actions",
  elementCount: 3,
  createdBy: ids.user,
  createdAt: at0
}

export const whiteboardTemplatesExamples = examplesById({
  listWhiteboardTemplates: [
    { name: "list", request: { params: { workspaceId: ids.workspace } }, response: { status: 200, body: { items: [exampleTemplate] } } }
  ],
  createWhiteboardTemplate: [
    {
      name: "save",
      request: {
        params: { workspaceId: ids.workspace },
        body: { whiteboardId: exampleWhiteboardId, name: exampleTemplate.name, description: exampleTemplate.description }
      },
      response: { status: 201, body: exampleTemplate }
    }
  ],
  instantiateWhiteboardTemplate: [
    {
      name: "instantiate",
      request: { params: { workspaceId: ids.workspace, templateId }, body: { name: "Sprint 14 retro", spaceId: ids.space } },
      response: { status: 201, body: { ...exampleWhiteboard, name: "Sprint 14 retro", templateId } }
    }
  ]
})
