/** A workspace as operators and internal services see it: identity state, pm usage, quota. Shared by Admin and Internal. */
import { Effect, Schema } from "effect"
import { usersByIds } from "../../../actors/identity/IdentityQueries.ts"
import { MemberLimits, Role, Suspension, Workspace } from "../../../actors/identity/Workspace.ts"
import { Id, Timestamp } from "../../../actors/Fields.ts"
import { usageOf } from "../../../actors/pm/WorkspaceStats.ts"
import { QuotaLimits, WorkspaceQuota } from "../../../actors/platform/Quotas.ts"
import { ActorSystem } from "../../../runtime/ActorSystem.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { at, ids } from "./Shared.ts"

export const WorkspaceUsage = Schema.Struct({
  members: Schema.Number,
  tasks: Schema.Number,
  storageBytes: Schema.Number,
  spaces: Schema.Number,
  lists: Schema.Number
}).annotate({ identifier: "OperatorWorkspaceUsage" })
export type WorkspaceUsage = typeof WorkspaceUsage.Type

export const OperatorWorkspace = Schema.Struct({
  id: Id,
  name: Schema.String,
  status: Schema.Literals(["active", "suspended", "deleted"]),
  owner: Schema.Struct({ id: Schema.String, email: Schema.String, name: Schema.String }),
  members: Schema.Array(
    Schema.Struct({ userId: Id, email: Schema.String, name: Schema.String, role: Role, guest: Schema.Boolean, addedAt: Timestamp })
  ),
  suspension: Schema.NullOr(Suspension),
  deletedAt: Schema.NullOr(Timestamp),
  limits: MemberLimits,
  quota: QuotaLimits,
  usage: WorkspaceUsage,
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotate({ identifier: "OperatorWorkspace" })
export type OperatorWorkspace = typeof OperatorWorkspace.Type

export const exampleOperatorWorkspace = {
  id: ids.workspace,
  name: "Acme",
  status: "active",
  owner: { id: ids.owner, email: "alice@example.com", name: "Alice" },
  members: [{ userId: ids.owner, email: "alice@example.com", name: "Alice", role: "owner", guest: false, addedAt: at }],
  suspension: null,
  deletedAt: null,
  limits: { seats: 10, quota: null },
  quota: { members: null, tasks: 10000, storageBytes: 10737418240 },
  usage: { members: 1, tasks: 42, storageBytes: 1048576, spaces: 2, lists: 5 },
  createdAt: at,
  updatedAt: at
}

export const usageOfWorkspace = (workspaceId: string, members: number) =>
  Effect.map(
    Effect.orDie(usageOf(workspaceId)),
    (usage): WorkspaceUsage => ({
      members,
      tasks: usage.tasks,
      storageBytes: usage.attachmentBytes,
      spaces: usage.spaces,
      lists: usage.lists
    })
  )

/** Everything an operator needs about one workspace (deleted ones too). */
export const inspectWorkspace = (workspaceId: string) =>
  Effect.gen(function* () {
    const actors = yield* ActorSystem
    const ws = yield* Workspace.client(actors)(workspaceId).inspect({})
    const users = yield* Effect.orDie(usersByIds([ws.ownerId, ...ws.members.map((m) => m.userId)]))
    const quota = yield* WorkspaceQuota.client(actors)(workspaceId).get({})
    const usage = yield* usageOfWorkspace(workspaceId, ws.members.length)
    const owner = users.get(ws.ownerId)
    return {
      id: ws.id,
      name: ws.name,
      status: !ws.exists ? "deleted" : ws.suspension !== null ? "suspended" : "active",
      owner: { id: ws.ownerId, email: owner?.email ?? "", name: owner?.name ?? "" },
      members: ws.members.map((m) => ({
        userId: m.userId,
        email: users.get(m.userId)?.email ?? "",
        name: users.get(m.userId)?.name ?? "",
        role: m.role,
        guest: ws.guests.includes(m.userId),
        addedAt: m.addedAt
      })),
      suspension: ws.suspension,
      deletedAt: ws.deletedAt,
      limits: ws.limits,
      quota: quota.limits,
      usage,
      createdAt: ws.createdAt,
      updatedAt: ws.updatedAt
    } satisfies OperatorWorkspace
  })

/** The workspace must exist (not deleted) for a lifecycle change other than restore. */
export const existingWorkspace = (workspaceId: string) =>
  Effect.gen(function* () {
    const ws = yield* Workspace.client(yield* ActorSystem)(workspaceId).inspect({})
    return ws.exists ? ws : yield* reject("not_found", "No such workspace (it is deleted)")
  })
