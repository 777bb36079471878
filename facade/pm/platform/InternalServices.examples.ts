/** Request and response examples of the operations in InternalServices.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { ids, at } from "./Shared.ts"

const exampleUser = { id: ids.owner, email: "alice@example.com", name: "Alice", createdAt: at }

const exampleQuota = {
  workspaceId: ids.workspace,
  limits: { members: 25, tasks: 10000, storageBytes: 10737418240 },
  usage: { members: 3, tasks: 42, storageBytes: 1048576, spaces: 2, lists: 5 },
  updatedAt: at,
  updatedBy: "internal:provisioner"
}

export const internalUserResourceExamples = examplesById({
  findInternalUser: [
    { name: "by-email", request: { query: { email: "alice@example.com" } }, response: { status: 200, body: exampleUser } }
  ],
  provisionInternalUser: [
    {
      name: "provision",
      request: { body: { email: "alice@example.com", name: "Alice" } },
      response: { status: 200, body: { user: exampleUser, created: true } }
    }
  ]
})
export const internalApiKeyResourceExamples = examplesById({
  introspectInternalApiKey: [
    {
      name: "live-key",
      request: { body: { key: "atr_live_5f2c…" } },
      response: {
        status: 200,
        body: {
          active: true,
          keyId: "4d5e6f70-8192-4a3b-9c4d-5e6f70819203",
          workspaceId: ids.workspace,
          userId: ids.owner,
          scopes: ["tasks:read"],
          workspaceSuspended: false
        }
      }
    }
  ]
})
export const internalQuotaResourceExamples = examplesById({
  getInternalQuota: [{ name: "read", request: { params: { workspaceId: ids.workspace } }, response: { status: 200, body: exampleQuota } }],
  setInternalQuota: [
    {
      name: "limits",
      request: { params: { workspaceId: ids.workspace }, body: { members: 25, tasks: 10000, storageBytes: 10737418240 } },
      response: { status: 200, body: exampleQuota }
    }
  ],
  resetInternalQuota: [
    {
      name: "lift",
      request: { params: { workspaceId: ids.workspace } },
      response: { status: 200, body: { ...exampleQuota, limits: { members: null, tasks: null, storageBytes: null } } }
    }
  ],
  checkInternalQuota: [
    {
      name: "tasks",
      request: { params: { workspaceId: ids.workspace }, body: { resource: "tasks", amount: 100 } },
      response: { status: 200, body: { allowed: true, resource: "tasks", limit: 10000, used: 42, remaining: 9958 } }
    }
  ]
})
