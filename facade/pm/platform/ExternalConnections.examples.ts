/** Request and response examples of the operations in ExternalConnections.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { ids, at } from "./Shared.ts"
import { exampleConnectionOf, exampleNewConnection } from "../../shared/VendorConnections.ts"

const params = { workspaceId: ids.workspace }

const connectionId = "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d"

const exampleConnection = exampleConnectionOf({ id: connectionId, workspaceId: ids.workspace, createdBy: ids.owner, createdAt: at })

export const externalConnectionsExamples = examplesById({
  listExternalConnections: [
    { name: "list", request: { params, query: {} }, response: { status: 200, body: { items: [exampleConnection] } } }
  ],
  createExternalConnection: [
    {
      name: "tracker",
      request: {
        params,
        body: exampleNewConnection
      },
      response: { status: 201, body: exampleConnection }
    }
  ],
  getExternalConnection: [
    { name: "get", request: { params: { ...params, connectionId } }, response: { status: 200, body: exampleConnection } }
  ],
  testExternalConnection: [
    {
      name: "ok",
      request: { params: { ...params, connectionId } },
      response: { status: 200, body: { ok: true, status: 200, problem: null } }
    }
  ],
  deleteExternalConnection: [{ name: "disconnect", request: { params: { ...params, connectionId } }, response: { status: 204 } }]
})
