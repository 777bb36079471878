/** pm tag "Workspaces": workspace CRUD and member management (the foundation's part of its 82 operations). */
import { Schema } from "effect"
import { Name } from "../../actors/Fields.ts"
import { operation } from "../Operation.ts"
import * as W from "../shared/WorkspaceAccess.ts"

const tag = "Workspaces"
const service = "pm"
const ws = W.exampleWorkspace.id
const Items = <S extends Schema.Top>(item: S) => Schema.Struct({ items: Schema.Array(item) })

export const workspacesOperations = [
  operation({
    service, tag, operationId: "createWorkspace", method: "POST", path: "/v1/workspaces",
    summary: "Create a workspace; the caller becomes its owner", auth: "jwt", scopes: [],
    body: Schema.Struct({ name: Name() }),
    responses: { 201: { description: "Created", schema: W.WorkspaceSummary } },
    examples: [{ name: "create", request: { body: { name: "Acme" } }, response: { status: 201, body: { ...W.exampleWorkspace, memberCount: 1 } } }],
    handler: ({ body }, context) => W.createWorkspace(context, body.name)
  }),
  operation({
    service, tag, operationId: "listWorkspaces", method: "GET", path: "/v1/workspaces",
    summary: "List the caller's workspaces", auth: "both", scopes: ["workspaces:read"],
    responses: { 200: { description: "Workspaces", schema: Items(W.WorkspaceSummary) } },
    examples: [{ name: "list", response: { status: 200, body: { items: [W.exampleWorkspace] } } }],
    handler: (_r, context) => W.listWorkspaces(context)
  }),
  operation({
    service, tag, operationId: "getWorkspace", method: "GET", path: "/v1/workspaces/{workspaceId}",
    summary: "Get one workspace", auth: "both", scopes: ["workspaces:read"], params: W.WorkspaceParams,
    responses: { 200: { description: "The workspace", schema: W.WorkspaceSummary } },
    examples: [{ name: "get", request: { params: { workspaceId: ws } }, response: { status: 200, body: W.exampleWorkspace } }],
    handler: ({ params }, context) => W.getWorkspace(context, params.workspaceId)
  }),
  operation({
    service, tag, operationId: "updateWorkspace", method: "PATCH", path: "/v1/workspaces/{workspaceId}",
    summary: "Rename a workspace (admin)", auth: "both", scopes: ["workspaces:write"], params: W.WorkspaceParams,
    body: Schema.Struct({ name: Name() }),
    responses: { 200: { description: "Updated", schema: W.WorkspaceSummary } },
    examples: [{ name: "rename", request: { params: { workspaceId: ws }, body: { name: "Acme Inc" } }, response: { status: 200, body: { ...W.exampleWorkspace, name: "Acme Inc" } } }],
    handler: ({ params, body }, context) => W.renameWorkspace(context, params.workspaceId, body.name)
  }),
  operation({
    service, tag, operationId: "listWorkspaceMembers", method: "GET", path: "/v1/workspaces/{workspaceId}/members",
    summary: "List a workspace's members", auth: "both", scopes: ["workspaces:read"], params: W.WorkspaceParams,
    responses: { 200: { description: "Members", schema: Items(W.MemberView) } },
    examples: [{ name: "members", request: { params: { workspaceId: ws } }, response: { status: 200, body: { items: [W.exampleMember] } } }],
    handler: ({ params }, context) => W.listMembers(context, params.workspaceId)
  }),
  operation({
    service, tag, operationId: "addWorkspaceMember", method: "POST", path: "/v1/workspaces/{workspaceId}/members",
    summary: "Add a registered user by e-mail (admin)", auth: "both", scopes: ["workspaces:write"], params: W.WorkspaceParams,
    body: W.AddMemberBody,
    responses: { 201: { description: "Added", schema: W.MemberView }, 404: { description: "No user with that e-mail" }, 409: { description: "Already a member" } },
    examples: [{ name: "add", request: { params: { workspaceId: ws }, body: { email: "bob@example.com", role: "member" } }, response: { status: 201, body: W.exampleMember } }],
    handler: ({ params, body }, context) => W.addMember(context, params.workspaceId, body.email, body.role)
  })
]
