/** Request and response examples of the operations in TenantConnections.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { exampleIds } from "../calls/Examples.ts"

const tenantConnectionId = "b7c8d9e0-f1a2-4b3c-8d4e-5f6a7b8c9d0e"

const params = { workspaceId: exampleIds.workspaceId }

const tenantParams = { ...params, tenantConnectionId }

export const exampleTenant = {
  id: tenantConnectionId,
  workspaceId: exampleIds.workspaceId,
  tenantId: "tenant_acme_42",
  name: "Acme (broker)",
  enabled: true,
  createdBy: exampleIds.userId,
  createdAt: "2026-11-21T12:00:00.000Z",
  updatedAt: "2026-11-21T12:00:00.000Z"
}

const exampleSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

export const tenantConnectionsExamples = examplesById({
  listTenantConnections: [{ name: "list", request: { params }, response: { status: 200, body: { items: [exampleTenant] } } }],
  createTenantConnection: [
    {
      name: "create",
      request: { params, body: { tenantId: "tenant_acme_42", name: "Acme (broker)" } },
      response: { status: 201, body: { tenant: exampleTenant, signingSecret: exampleSecret } }
    }
  ],
  getTenantConnection: [{ name: "get", request: { params: tenantParams }, response: { status: 200, body: exampleTenant } }],
  updateTenantConnection: [
    {
      name: "disable",
      request: { params: tenantParams, body: { enabled: false } },
      response: { status: 200, body: { ...exampleTenant, enabled: false } }
    }
  ],
  deleteTenantConnection: [{ name: "delete", request: { params: tenantParams }, response: { status: 204 } }],
  rotateTenantConnectionSecret: [
    {
      name: "rotate",
      request: { params: tenantParams },
      response: { status: 200, body: { tenant: exampleTenant, signingSecret: exampleSecret } }
    }
  ],
  listTenantConnectionEvents: [
    {
      name: "list",
      request: { params: tenantParams },
      response: {
        status: 200,
        body: {
          items: [
            {
              eventId: "evt_01HZX3",
              type: "issue.created",
              payload: { data: { title: "Login fails on Android" } },
              receivedAt: "2026-11-21T12:00:00.000Z",
              status: "processed",
              processedAt: "2026-11-21T12:00:00.100Z",
              runs: 1,
              attempts: 1,
              lastError: null,
              nextAttemptAt: null,
              workflows: [
                {
                  workflowId: "d0e1f2a3-b4c5-4d6e-8f7a-8b9c0d1e2f3a",
                  runId: "e1f2a3b4-c5d6-4e7f-8a8b-9c0d1e2f3a4b",
                  status: "succeeded"
                }
              ]
            }
          ]
        }
      }
    }
  ],
  processTenantConnectionEvents: [
    { name: "process", request: { params: tenantParams }, response: { status: 200, body: { processed: 0, pending: 0 } } }
  ]
})
