/** Request and response examples of the operations in WhiteboardCollaboration.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { exampleIds as ids, at0 } from "../WorkAccess.ts"

export const exampleWhiteboardId = "f6a7b8c9-d0e1-4f2a-9b3c-5d6e7f8a9b0c"

export const exampleWhiteboard = {
  id: exampleWhiteboardId,
  workspaceId: ids.workspace,
  spaceId: ids.space,
  name: "Q1 planning",
  templateId: null,
  documentName: `whiteboard:${exampleWhiteboardId}`,
  createdBy: ids.user,
  createdAt: at0,
  updatedAt: at0
}

export const whiteboardCollaborationExamples = examplesById({
  openWhiteboardSession: [
    {
      name: "new-board",
      request: { params: { workspaceId: ids.workspace }, body: { name: "Q1 planning", spaceId: ids.space } },
      response: {
        status: 201,
        body: {
          whiteboard: exampleWhiteboard,
          protocol: "hocuspocus",
          url: "wss://atrium.example/wiki/v1/collab",
          documentName: exampleWhiteboard.documentName,
          right: "edit",
          authentication: "Pass an access token or an API key as the provider's token",
          model: "Y.Map elements: element id → {x, y, …}",
          editors: []
        }
      }
    }
  ]
})
