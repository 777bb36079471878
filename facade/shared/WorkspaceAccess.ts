/**
 * Workspace listing and membership as both the hub ("Workspaces") and pm
 * ("Workspaces") expose them: the same rules, one implementation. An API key
 * sees exactly one workspace: the one it was provisioned for.
 */
import { Effect, Schema } from "effect"
import { Account } from "../../actors/identity/Account.ts"
import { usersByIds, workspacesOf } from "../../actors/identity/IdentityQueries.ts"
import { AssignableRole, Role, Workspace, roleOf } from "../../actors/identity/Workspace.ts"
import { Email, Id, Timestamp, normalizeEmail } from "../../actors/Fields.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { reject } from "../../runtime/Rejection.ts"
import { principalOf, workspaceRole } from "../Access.ts"
import type { RequestContext } from "../Operation.ts"

export const WorkspaceSummary = Schema.Struct({
  id: Id,
  name: Schema.String,
  ownerId: Id,
  role: Role.annotate({ description: "The caller's role" }),
  memberCount: Schema.Number,
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotate({ identifier: "Workspace" })
export type WorkspaceSummary = typeof WorkspaceSummary.Type

export const MemberView = Schema.Struct({
  userId: Id,
  email: Email,
  name: Schema.String,
  role: Role,
  addedAt: Timestamp
}).annotate({ identifier: "WorkspaceMember" })

export const exampleWorkspace = {
  id: "0b9e4c1a-6f0e-4d5f-9a77-3f7c2f1e8a10",
  name: "Acme",
  ownerId: "6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f",
  role: "owner",
  memberCount: 3,
  createdAt: "2026-11-21T12:00:00.000Z",
  updatedAt: "2026-11-21T12:00:00.000Z"
}
export const exampleMember = {
  userId: "7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d",
  email: "bob@example.com",
  name: "Bob",
  role: "member",
  addedAt: "2026-11-21T12:05:00.000Z"
}

const summarize = (
  ws: {
    id: string
    name: string
    ownerId: string
    members: ReadonlyArray<{ userId: string; role: Role }>
    createdAt: string
    updatedAt: string
  },
  userId: string
): WorkspaceSummary => ({
  id: ws.id,
  name: ws.name,
  ownerId: ws.ownerId,
  role: roleOf(ws, userId) ?? "viewer",
  memberCount: ws.members.length,
  createdAt: ws.createdAt,
  updatedAt: ws.updatedAt
})

export const listWorkspaces = (context: RequestContext) =>
  Effect.gen(function* () {
    const principal = yield* principalOf(context)
    if (principal.kind === "apiKey") {
      const ws = yield* Workspace.client(yield* ActorSystem)(principal.workspaceId)
        .view({ by: principal.userId })
        .pipe(Effect.option)
      return { items: ws._tag === "Some" ? [summarize(ws.value, principal.userId)] : [] }
    }
    const rows = yield* workspacesOf(principal.userId).pipe(Effect.orDie)
    return { items: rows.map((ws) => summarize(ws, principal.userId)) }
  })

export const getWorkspace = (context: RequestContext, workspaceId: string) =>
  Effect.gen(function* () {
    yield* workspaceRole(context, workspaceId)
    const principal = yield* principalOf(context)
    const ws = yield* Workspace.client(yield* ActorSystem)(workspaceId).view({ by: principal.userId })
    return summarize(ws, principal.userId)
  })

export const createWorkspace = (context: RequestContext, name: string) =>
  Effect.gen(function* () {
    const principal = yield* principalOf(context)
    if (principal.kind === "apiKey") return yield* reject("forbidden", "API keys cannot create workspaces")
    const ws = yield* Workspace.client(yield* ActorSystem)(crypto.randomUUID()).create({ by: principal.userId, name })
    return summarize(ws, principal.userId)
  })

export const renameWorkspace = (context: RequestContext, workspaceId: string, name: string) =>
  Effect.gen(function* () {
    yield* workspaceRole(context, workspaceId)
    const principal = yield* principalOf(context)
    const ws = yield* Workspace.client(yield* ActorSystem)(workspaceId).rename({ by: principal.userId, name })
    return summarize(ws, principal.userId)
  })

export const listMembers = (context: RequestContext, workspaceId: string) =>
  Effect.gen(function* () {
    yield* workspaceRole(context, workspaceId)
    const principal = yield* principalOf(context)
    const ws = yield* Workspace.client(yield* ActorSystem)(workspaceId).view({ by: principal.userId })
    const users = yield* usersByIds(ws.members.map((m) => m.userId)).pipe(Effect.orDie)
    return {
      items: ws.members.map((m) => ({ ...m, email: users.get(m.userId)?.email ?? "", name: users.get(m.userId)?.name ?? "" }))
    }
  })

export const addMember = (context: RequestContext, workspaceId: string, email: string, role: typeof AssignableRole.Type) =>
  Effect.gen(function* () {
    yield* workspaceRole(context, workspaceId)
    const principal = yield* principalOf(context)
    const actors = yield* ActorSystem
    const user = yield* Account.client(actors)(normalizeEmail(email))
      .profile({})
      .pipe(
        Effect.catchTag("UserNotFound", () =>
          Effect.fail(
            reject("not_found", "No user has that e-mail; they must register first", [{ path: "body.email", message: "not registered" }])
          )
        )
      )
    const member = yield* Workspace.client(actors)(workspaceId).addMember({ by: principal.userId, userId: user.id, role })
    return { ...member, email: user.email, name: user.name }
  })

export const setMemberRole = (context: RequestContext, workspaceId: string, userId: string, role: typeof AssignableRole.Type) =>
  Effect.gen(function* () {
    yield* workspaceRole(context, workspaceId)
    const principal = yield* principalOf(context)
    const member = yield* Workspace.client(yield* ActorSystem)(workspaceId).setMemberRole({ by: principal.userId, userId, role })
    const users = yield* usersByIds([userId]).pipe(Effect.orDie)
    return { ...member, email: users.get(userId)?.email ?? "", name: users.get(userId)?.name ?? "" }
  })

export const removeMember = (context: RequestContext, workspaceId: string, userId: string) =>
  Effect.gen(function* () {
    yield* workspaceRole(context, workspaceId)
    const principal = yield* principalOf(context)
    yield* Workspace.client(yield* ActorSystem)(workspaceId).removeMember({ by: principal.userId, userId })
  })

export const transferOwnership = (context: RequestContext, workspaceId: string, userId: string) =>
  Effect.gen(function* () {
    yield* workspaceRole(context, workspaceId)
    const principal = yield* principalOf(context)
    const ws = yield* Workspace.client(yield* ActorSystem)(workspaceId).transferOwnership({ by: principal.userId, userId })
    return summarize(ws, principal.userId)
  })

export const WorkspaceParams = Schema.Struct({ workspaceId: Id })
export const MemberParams = Schema.Struct({ workspaceId: Id, userId: Id })
export const AddMemberBody = Schema.Struct({ email: Email, role: AssignableRole })
