/** hub tag "Workspaces" (8): listing, membership, ownership. */
import { Schema } from "effect"
import { AssignableRole } from "../../actors/identity/Workspace.ts"
import { Id, Name } from "../../actors/Fields.ts"
import { tagGroup } from "../Operation.ts"
import * as W from "../shared/WorkspaceAccess.ts"
import { workspacesExamples } from "./Workspaces.examples.ts"
const Items = <S extends Schema.Top>(item: S) => Schema.Struct({ items: Schema.Array(item) })

const { operation } = tagGroup("hub", "Workspaces", workspacesExamples)

export const workspacesOperations = [
  operation({
    operationId: "listHubWorkspaces",
    method: "GET",
    path: "/v1/workspaces",
    summary: "List the caller's workspaces",
    description: "For an API key: exactly one entry, the workspace it was provisioned for.",
    auth: "both",
    scopes: ["workspaces:read"],
    responses: { 200: { description: "Workspaces", schema: Items(W.WorkspaceSummary) } },
    handler: (_r, context) => W.listWorkspaces(context)
  }),
  operation({
    operationId: "getHubWorkspace",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}",
    summary: "Get one workspace",
    auth: "both",
    scopes: ["workspaces:read"],
    params: W.WorkspaceParams,
    responses: { 200: { description: "The workspace", schema: W.WorkspaceSummary }, 404: { description: "Not found or not visible" } },
    handler: ({ params }, context) => W.getWorkspace(context, params.workspaceId)
  }),
  operation({
    operationId: "createHubWorkspace",
    method: "POST",
    path: "/v1/workspaces",
    summary: "Create a workspace; the caller becomes its owner",
    auth: "jwt",
    scopes: [],
    body: Schema.Struct({ name: Name() }),
    responses: { 201: { description: "Created", schema: W.WorkspaceSummary } },
    handler: ({ body }, context) => W.createWorkspace(context, body.name)
  }),
  operation({
    operationId: "listHubWorkspaceMembers",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/members",
    summary: "List a workspace's members with their roles",
    auth: "both",
    scopes: ["workspaces:read"],
    params: W.WorkspaceParams,
    responses: { 200: { description: "Members", schema: Items(W.MemberView) } },
    handler: ({ params }, context) => W.listMembers(context, params.workspaceId)
  }),
  operation({
    operationId: "addHubWorkspaceMember",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/members",
    summary: "Add a registered user to the workspace (admin)",
    auth: "both",
    scopes: ["workspaces:write"],
    params: W.WorkspaceParams,
    body: W.AddMemberBody,
    responses: { 201: { description: "Added", schema: W.MemberView }, 409: { description: "Already a member" } },
    handler: ({ params, body }, context) => W.addMember(context, params.workspaceId, body.email, body.role)
  }),
  operation({
    operationId: "updateHubWorkspaceMemberRole",
    method: "PATCH",
    path: "/v1/workspaces/{workspaceId}/members/{userId}",
    summary: "Change a member's role (admin)",
    auth: "both",
    scopes: ["workspaces:write"],
    params: W.MemberParams,
    body: Schema.Struct({ role: AssignableRole }),
    responses: { 200: { description: "Updated", schema: W.MemberView } },
    handler: ({ params, body }, context) => W.setMemberRole(context, params.workspaceId, params.userId, body.role)
  }),
  operation({
    operationId: "removeHubWorkspaceMember",
    method: "DELETE",
    path: "/v1/workspaces/{workspaceId}/members/{userId}",
    summary: "Remove a member (admin), or leave (yourself)",
    auth: "both",
    scopes: ["workspaces:write"],
    params: W.MemberParams,
    responses: { 204: { description: "Removed" } },
    handler: ({ params }, context) => W.removeMember(context, params.workspaceId, params.userId)
  }),
  operation({
    operationId: "transferHubWorkspaceOwnership",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/ownership",
    summary: "Transfer ownership to another member (owner only; the old owner becomes admin)",
    auth: "jwt",
    scopes: [],
    params: W.WorkspaceParams,
    body: Schema.Struct({ userId: Id }),
    responses: { 200: { description: "Transferred", schema: W.WorkspaceSummary } },
    handler: ({ params, body }, context) => W.transferOwnership(context, params.workspaceId, body.userId)
  })
]
