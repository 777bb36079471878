/**
 * Request and response examples of the "Internal Workspace Resource"
 * operations (InternalWorkspaces.ts, InternalWorkspaceAccount.ts), by
 * operationId: the catalog and the OpenAPI documents show them.
 */
import { examplesById } from "../../Operation.ts"
import { at, ids } from "./Shared.ts"
import { exampleOperatorWorkspace } from "./WorkspaceInspection.ts"

const params = { workspaceId: ids.workspace }

export const internalWorkspacesExamples = examplesById({
  listInternalWorkspaces: [
    {
      name: "all",
      request: { query: { q: "Acme" } },
      response: {
        status: 200,
        body: {
          items: [{ id: ids.workspace, name: "Acme", ownerId: ids.owner, memberCount: 3, suspended: false, createdAt: at }],
          limit: 50,
          offset: 0
        }
      }
    }
  ],
  provisionInternalWorkspace: [
    {
      name: "provision",
      request: { body: { name: "Acme", ownerEmail: "alice@example.com", ownerName: "Alice", planId: "team", seats: 10 } },
      response: { status: 201, body: { workspace: exampleOperatorWorkspace, ownerCreated: false } }
    }
  ],
  getInternalWorkspace: [{ name: "read", request: { params }, response: { status: 200, body: exampleOperatorWorkspace } }],
  renameInternalWorkspace: [
    {
      name: "rename",
      request: { params, body: { name: "Acme Inc." } },
      response: { status: 200, body: { ...exampleOperatorWorkspace, name: "Acme Inc." } }
    }
  ],
  suspendInternalWorkspace: [
    {
      name: "suspend",
      request: { params, body: { reason: "Unpaid invoices" } },
      response: {
        status: 200,
        body: { ...exampleOperatorWorkspace, status: "suspended", suspension: { at, by: "internal:billing", reason: "Unpaid invoices" } }
      }
    }
  ],
  resumeInternalWorkspace: [{ name: "resume", request: { params }, response: { status: 200, body: exampleOperatorWorkspace } }],
  deleteInternalWorkspace: [
    {
      name: "delete",
      request: { params },
      response: { status: 200, body: { ...exampleOperatorWorkspace, status: "deleted", deletedAt: at } }
    }
  ],
  restoreInternalWorkspace: [{ name: "restore", request: { params }, response: { status: 200, body: exampleOperatorWorkspace } }],
  transferInternalWorkspaceOwnership: [
    { name: "transfer", request: { params, body: { userId: ids.member } }, response: { status: 200, body: exampleOperatorWorkspace } }
  ],
  setInternalWorkspacePlan: [
    {
      name: "team",
      request: { params, body: { planId: "team", seats: 10 } },
      response: {
        status: 200,
        body: {
          subscription: {
            planId: "team",
            seats: 10,
            status: "active",
            cancelAtPeriodEnd: false,
            currentPeriodStart: at,
            currentPeriodEnd: "2026-12-21T12:00:00.000Z",
            contact: { email: null, companyName: null, taxId: null, address: null },
            updatedAt: at
          },
          invoice: null
        }
      }
    }
  ],
  addInternalWorkspaceMember: [
    {
      name: "add",
      request: { params, body: { email: "bob@example.com", name: "Bob", role: "member" } },
      response: { status: 200, body: exampleOperatorWorkspace }
    }
  ],
  removeInternalWorkspaceMember: [
    { name: "remove", request: { params: { ...params, userId: ids.member } }, response: { status: 200, body: exampleOperatorWorkspace } }
  ],
  exportInternalWorkspace: [
    {
      name: "export",
      request: { params },
      response: {
        status: 200,
        body: {
          exportedAt: at,
          workspace: exampleOperatorWorkspace,
          subscription: {
            planId: "free",
            seats: null,
            status: "active",
            cancelAtPeriodEnd: false,
            currentPeriodStart: null,
            currentPeriodEnd: null,
            contact: { email: null, companyName: null, taxId: null, address: null },
            updatedAt: null
          },
          invoices: []
        }
      }
    }
  ],
  getInternalWorkspaceUsage: [
    {
      name: "usage",
      request: { params },
      response: {
        status: 200,
        body: {
          workspaceId: ids.workspace,
          usage: exampleOperatorWorkspace.usage,
          limits: exampleOperatorWorkspace.limits,
          quota: exampleOperatorWorkspace.quota,
          overQuota: []
        }
      }
    }
  ]
})
