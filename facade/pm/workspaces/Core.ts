/**
 * pm workspaces themselves: create, list, read, rename, delete with a restore
 * window, ownership, leaving, the profile and the switcher.
 */
import { Effect, Schema } from "effect"
import { Id, Name, Timestamp } from "../../../actors/Fields.ts"
import { deletedWorkspacesOf, workspacesOf } from "../../../actors/identity/IdentityQueries.ts"
import { RESTORE_DAYS, Role } from "../../../actors/identity/Workspace.ts"
import { workspaceOrderOf } from "../../../actors/pm/Favorites.ts"
import { unreadByWorkspace } from "../../../actors/pm/Notifications.ts"
import { PmPersonal } from "../../../actors/pm/OrganizationActors.ts"
import { seatUsage } from "../../../actors/pm/Roster.ts"
import { send } from "../../../actors/pm/WorkActor.ts"
import { General } from "../../../actors/pm/WorkspaceConfig.ts"
import { outlineOf } from "../../../actors/pm/WorkspaceOutline.ts"
import * as Stats from "../../../actors/pm/WorkspaceStats.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { principalOf, userOf } from "../../Access.ts"
import { tagGroup } from "../../Operation.ts"
import * as W from "../../shared/WorkspaceAccess.ts"
import { inWorkspace, orDieSql } from "../WorkAccess.ts"
import {
  tag,
  service,
  read,
  write,
  Items,
  WorkspaceParams,
  identity,
  owner,
  summaryOf,
  isGuest,
  logoUrl,
  BrandingView,
  brandingView,
  Counts,
  configOfWorkspace,
  Permissions,
  permissionsOf
} from "./shared.ts"
import { coreExamples, restorableUntil } from "./Core.examples.ts"

const DeletedWorkspace = Schema.Struct({ id: Id, name: Schema.String, deletedAt: Timestamp, restorableUntil: Timestamp }).annotate({
  identifier: "DeletedWorkspace"
})

const SwitcherEntry = Schema.Struct({
  id: Id,
  name: Schema.String,
  role: Role,
  memberCount: Schema.Number,
  color: Schema.NullOr(Schema.String),
  logoUrl: Schema.NullOr(Schema.String),
  unreadNotifications: Schema.Number,
  position: Schema.NullOr(Schema.Number)
}).annotate({ identifier: "WorkspaceSwitcherEntry" })

const { operation } = tagGroup(service, tag, coreExamples)

export const workspaceCoreOperations = [
  operation({
    operationId: "createWorkspace",
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
    operationId: "listWorkspaces",
    method: "GET",
    path: "/v1/workspaces",
    summary: "List the caller's workspaces",
    auth: "both",
    scopes: read,
    responses: { 200: { description: "Workspaces", schema: Items(W.WorkspaceSummary) } },
    handler: (_r, context) => W.listWorkspaces(context)
  }),
  operation({
    operationId: "getWorkspace",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}",
    summary: "Get one workspace",
    auth: "both",
    scopes: read,
    params: WorkspaceParams,
    responses: { 200: { description: "The workspace", schema: W.WorkspaceSummary } },
    handler: ({ params }, context) => W.getWorkspace(context, params.workspaceId)
  }),
  operation({
    operationId: "updateWorkspace",
    method: "PATCH",
    path: "/v1/workspaces/{workspaceId}",
    summary: "Rename a workspace (admin)",
    auth: "both",
    scopes: write,
    params: WorkspaceParams,
    body: Schema.Struct({ name: Name() }),
    responses: { 200: { description: "Updated", schema: W.WorkspaceSummary } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const renamed = yield* W.renameWorkspace(context, params.workspaceId, body.name)
        return renamed
      })
  }),
  operation({
    operationId: "deleteWorkspace",
    method: "DELETE",
    path: "/v1/workspaces/{workspaceId}",
    summary: `Delete a workspace (owner only): it disappears for everyone; its owner can restore it within ${RESTORE_DAYS} days`,
    description: "The workspace's exact name must be given as `confirm`, so a workspace is never deleted by a stray request.",
    auth: "jwt",
    scopes: [],
    params: WorkspaceParams,
    query: Schema.Struct({ confirm: Schema.String.check(Schema.isMaxLength(200)).annotate({ description: "The workspace's name" }) }),
    responses: {
      200: { description: "Deleted", schema: DeletedWorkspace },
      400: { description: "confirm is not the name" },
      403: { description: "Not the owner" }
    },
    handler: ({ params, query: q }, context) =>
      Effect.gen(function* () {
        const caller = yield* owner(context, params.workspaceId)
        const current = yield* summaryOf(context, params.workspaceId)
        if (q.confirm !== current.name)
          return yield* reject("invalid", "confirm must be the workspace's exact name", [
            { path: "query.confirm", message: `must be "${current.name}"` }
          ])
        const { deletedAt } = yield* identity(params.workspaceId).delete({ by: caller.userId })
        return { id: params.workspaceId, name: current.name, deletedAt, restorableUntil: restorableUntil(deletedAt) }
      })
  }),
  operation({
    operationId: "restoreWorkspace",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/restore",
    summary: `Restore a deleted workspace (its owner, within ${RESTORE_DAYS} days)`,
    auth: "jwt",
    scopes: [],
    params: WorkspaceParams,
    responses: {
      200: { description: "Restored", schema: W.WorkspaceSummary },
      404: { description: "No deleted workspace of the caller's with this id" }
    },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const user = yield* userOf(context)
        yield* identity(params.workspaceId).restore({ by: user.userId })
        return yield* summaryOf(context, params.workspaceId)
      })
  }),
  operation({
    operationId: "listDeletedWorkspaces",
    method: "GET",
    path: "/v1/workspaces/deleted",
    summary: "The caller's deleted workspaces that can still be restored",
    auth: "jwt",
    scopes: [],
    responses: { 200: { description: "Deleted workspaces, most recent first", schema: Items(DeletedWorkspace) } },
    handler: (_r, context) =>
      Effect.gen(function* () {
        const user = yield* userOf(context)
        const rows = yield* orDieSql(deletedWorkspacesOf(user.userId))
        return {
          items: rows
            .map((r) => ({ ...r, restorableUntil: restorableUntil(r.deletedAt) }))
            .filter((r) => Date.parse(r.restorableUntil) > Date.now())
        }
      })
  }),
  operation({
    operationId: "leaveWorkspace",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/leave",
    summary: "Leave a workspace (the owner must transfer ownership first)",
    auth: "jwt",
    scopes: [],
    params: WorkspaceParams,
    responses: { 204: { description: "Left" }, 409: { description: "The caller owns the workspace" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId)
        yield* identity(params.workspaceId).removeMember({ by: caller.userId, userId: caller.userId })
      })
  }),
  operation({
    operationId: "transferWorkspaceOwnership",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/ownership",
    summary: "Transfer ownership to another member (owner only; the old owner becomes admin)",
    auth: "jwt",
    scopes: [],
    params: WorkspaceParams,
    body: Schema.Struct({ userId: Id }),
    responses: { 200: { description: "Transferred", schema: W.WorkspaceSummary }, 400: { description: "Not a member, or a guest" } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        yield* owner(context, params.workspaceId)
        const moved = yield* W.transferOwnership(context, params.workspaceId, body.userId).pipe(
          Effect.catchTag("InvalidNewOwner", (e) =>
            Effect.fail(reject("invalid", e.message, [{ path: "body.userId", message: e.details[0].message }]))
          )
        )
        return moved
      })
  }),
  operation({
    operationId: "getWorkspaceProfile",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/profile",
    summary: "A workspace at a glance: name, branding, preferences, counts, seats, and what the caller may do",
    auth: "both",
    scopes: read,
    params: WorkspaceParams,
    responses: {
      200: {
        description: "Overview",
        schema: Schema.Struct({
          workspace: W.WorkspaceSummary,
          description: Schema.String,
          branding: BrandingView,
          general: General,
          counts: Schema.Struct({
            spaces: Schema.Number,
            folders: Schema.Number,
            lists: Schema.Number,
            tasks: Counts,
            members: Schema.Number,
            guests: Schema.Number
          }),
          seats: Schema.Struct({
            limit: Schema.NullOr(Schema.Number),
            members: Schema.Number,
            guests: Schema.Number,
            pendingInvitations: Schema.Number,
            available: Schema.NullOr(Schema.Number)
          }),
          you: Permissions
        }).annotate({ identifier: "WorkspaceProfile" })
      }
    },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId)
        const workspace = yield* summaryOf(context, params.workspaceId)
        const config = yield* configOfWorkspace(params.workspaceId)
        const outline = yield* orDieSql(outlineOf(params.workspaceId, caller.viewer))
        const counts = yield* orDieSql(Stats.countsBySpace(params.workspaceId, caller.viewer))
        const seats = yield* orDieSql(seatUsage(params.workspaceId))
        const guest = yield* isGuest(params.workspaceId, caller.userId)
        return {
          workspace,
          description: config.general.description,
          branding: brandingView(params.workspaceId, workspace.name, config),
          general: config.general,
          counts: {
            spaces: outline.spaces.length,
            folders: outline.folders.length,
            lists: outline.lists.length,
            tasks: Stats.sum(counts.values()),
            members: seats.members,
            guests: seats.guests
          },
          seats,
          you: permissionsOf(caller.role, guest, config)
        }
      })
  }),
  operation({
    operationId: "getWorkspaceSwitcher",
    method: "GET",
    path: "/v1/workspaces/switcher",
    summary: "The caller's workspaces for a switcher: in their order, with color, logo and unread notifications",
    description: "For an API key: only its workspace.",
    auth: "both",
    scopes: read,
    responses: { 200: { description: "Workspaces", schema: Items(SwitcherEntry) } },
    handler: (_r, context) =>
      Effect.gen(function* () {
        const principal = yield* principalOf(context)
        const all = yield* orDieSql(workspacesOf(principal.userId))
        const mine = principal.kind === "apiKey" ? all.filter((w) => w.id === principal.workspaceId) : all
        if (mine.length === 0) return { items: [] }
        const idsOf = mine.map((w) => w.id)
        const positionOf = yield* orDieSql(workspaceOrderOf(principal.userId))
        const unreadOf = yield* orDieSql(unreadByWorkspace(principal.userId, idsOf))
        const configs = yield* Effect.forEach(idsOf, (id) => configOfWorkspace(id))
        const items = mine.map((w, i) => ({
          id: w.id,
          name: w.name,
          role: (w.members.find((m) => m.userId === principal.userId)?.role ?? "viewer") as Role,
          memberCount: w.members.length,
          color: configs[i]!.branding.color,
          logoUrl: logoUrl(w.id, configs[i]!),
          unreadNotifications: unreadOf.get(w.id) ?? 0,
          position: positionOf.get(w.id) ?? null
        }))
        // Ordered ones first (by position), then the rest as they were (oldest first).
        return { items: [...items].sort((a, b) => (a.position ?? Number.MAX_SAFE_INTEGER) - (b.position ?? Number.MAX_SAFE_INTEGER)) }
      })
  }),
  operation({
    operationId: "reorderMyWorkspaces",
    method: "PUT",
    path: "/v1/workspaces/order",
    summary: "Set the order of the caller's workspaces in the switcher",
    auth: "jwt",
    scopes: [],
    body: Schema.Struct({ workspaceIds: Schema.Array(Id).check(Schema.isMaxLength(500)) }),
    responses: { 200: { description: "The order", schema: Schema.Struct({ workspaceIds: Schema.Array(Id) }) } },
    handler: ({ body }, context) =>
      Effect.gen(function* () {
        const user = yield* userOf(context)
        const mine = new Set((yield* orDieSql(workspacesOf(user.userId))).map((w) => w.id))
        const seen = new Set<string>()
        for (const [index, id] of body.workspaceIds.entries()) {
          if (!mine.has(id))
            return yield* reject("invalid", "Only workspaces the caller belongs to can be ordered", [
              { path: `body.workspaceIds.${index}`, message: "not one of your workspaces" }
            ])
          if (seen.has(id))
            return yield* reject("invalid", "A workspace is listed twice", [{ path: `body.workspaceIds.${index}`, message: "duplicate" }])
          seen.add(id)
        }
        yield* send(PmPersonal, user.userId, "setWorkspaceOrder", user.userId, { workspaceIds: body.workspaceIds })
        return { workspaceIds: body.workspaceIds }
      })
  })
]
