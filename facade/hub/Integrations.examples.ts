/** Request and response examples of the operations in Integrations.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { exampleIds } from "./calls/Examples.ts"
import { exampleNewConnection, exampleConnectionOf } from "../shared/VendorConnections.ts"

const params = { workspaceId: exampleIds.workspaceId }

const exampleConnection = exampleConnectionOf({
  id: exampleIds.connectionId,
  workspaceId: exampleIds.workspaceId,
  createdBy: exampleIds.userId,
  createdAt: "2026-11-21T12:00:00.000Z"
})

export const integrationsExamples = examplesById({
  listIntegrationConnections: [{ name: "list", request: { params }, response: { status: 200, body: { items: [exampleConnection] } } }],
  getIntegrationConnection: [
    {
      name: "get",
      request: { params: { ...params, connectionId: exampleIds.connectionId } },
      response: { status: 200, body: exampleConnection }
    }
  ],
  createIntegrationConnection: [
    {
      name: "tracker",
      request: {
        params,
        body: exampleNewConnection
      },
      response: { status: 201, body: exampleConnection }
    }
  ],
  deleteIntegrationConnection: [
    { name: "disconnect", request: { params: { ...params, connectionId: exampleIds.connectionId } }, response: { status: 204 } }
  ]
})
