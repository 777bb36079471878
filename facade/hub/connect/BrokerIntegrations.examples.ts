/** Request and response examples of the operations in BrokerIntegrations.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { exampleIds } from "../calls/Examples.ts"
import { exampleTenant } from "./TenantConnections.ts"

const integrationId = "c9d0e1f2-a3b4-4c5d-8e6f-7a8b9c0d1e2f"

const params = { workspaceId: exampleIds.workspaceId }

const integrationParams = { ...params, integrationId }

const exampleIntegration = {
  id: integrationId,
  workspaceId: exampleIds.workspaceId,
  tenantConnectionId: exampleTenant.id,
  externalId: "int_tracker_7",
  app: "tracker",
  name: "Tracker via broker",
  connectionId: exampleIds.connectionId,
  enabled: true,
  createdBy: exampleIds.userId,
  createdAt: "2026-11-21T12:00:00.000Z",
  updatedAt: "2026-11-21T12:00:00.000Z"
}

export const brokerIntegrationsExamples = examplesById({
  listBrokerIntegrations: [{ name: "list", request: { params }, response: { status: 200, body: { items: [exampleIntegration] } } }],
  createBrokerIntegration: [
    {
      name: "create",
      request: {
        params,
        body: {
          tenantConnectionId: exampleTenant.id,
          externalId: "int_tracker_7",
          app: "tracker",
          name: "Tracker via broker"
        }
      },
      response: { status: 201, body: { ...exampleIntegration, connectionId: null } }
    }
  ],
  getBrokerIntegration: [{ name: "get", request: { params: integrationParams }, response: { status: 200, body: exampleIntegration } }],
  updateBrokerIntegration: [
    {
      name: "disable",
      request: { params: integrationParams, body: { enabled: false } },
      response: { status: 200, body: { ...exampleIntegration, enabled: false } }
    }
  ],
  deleteBrokerIntegration: [{ name: "delete", request: { params: integrationParams }, response: { status: 204 } }]
})
