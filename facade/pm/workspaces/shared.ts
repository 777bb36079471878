/**
 * What the resources of the pm tag "Workspaces" share: the tag, scopes, route
 * parameters, examples, the member shape, and the authorization and patch helpers.
 */
import { Effect, Schema, Struct } from "effect"
import { Email, Id, normalizeEmail, Timestamp } from "../../../actors/Fields.ts"
import { Account } from "../../../actors/identity/Account.ts"
import { atLeast, Role, Workspace } from "../../../actors/identity/Workspace.ts"
import { PmOrganization } from "../../../actors/pm/OrganizationActors.ts"
import { rosterOf } from "../../../actors/pm/Roster.ts"
import { send } from "../../../actors/pm/WorkActor.ts"
import { type Config, configOf } from "../../../actors/pm/WorkspaceConfig.ts"
import { ActorSystem, clientIn } from "../../../runtime/ActorSystem.ts"
import { reject } from "../../../runtime/Rejection.ts"
import type { RequestContext } from "../../Operation.ts"
import * as W from "../../shared/WorkspaceAccess.ts"
import { at0, inWorkspace, orDieSql } from "../WorkAccess.ts"
import { Counts as TaskCounts } from "../LevelOperations.ts"

export const tag = "Workspaces"
export const service = "pm"
export const ws = W.exampleWorkspace.id
export const read = ["workspaces:read"]
export const write = ["workspaces:write"]
export const Items = <S extends Schema.Top>(item: S) => Schema.Struct({ items: Schema.Array(item) })
export const WorkspaceParams = W.WorkspaceParams
export const MemberParams = W.MemberParams
export const wsp = { workspaceId: ws }
export const bob = W.exampleMember
export const alice = { userId: W.exampleWorkspace.ownerId, email: "alice@example.com", name: "Alice" }
export const later = "2026-11-28T12:00:00.000Z"

/** The workspace's identity actor (members, roles, guests, deletion), asked through the ActorSystem in context. */
export const identity = clientIn(Workspace)

export const admin = (context: RequestContext, workspaceId: string) => inWorkspace(context, workspaceId, "admin")

export const owner = (context: RequestContext, workspaceId: string) =>
  Effect.flatMap(inWorkspace(context, workspaceId), (caller) =>
    caller.role === "owner" ? Effect.succeed(caller) : Effect.fail(reject("forbidden", "Only the workspace's owner may do this"))
  )

/** The struct with every field optional (a patch of it). */
export const partial = <Fields extends Schema.Struct.Fields>(struct: Schema.Struct<Fields>) =>
  struct.mapFields(Struct.map(Schema.optionalKey))

/** Drops undefined values (optional keys left out of a patch). */
export const defined = (patch: object) => Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined))

export const requireNonEmpty = (patch: object) =>
  Object.keys(defined(patch)).length === 0
    ? Effect.fail(reject("invalid", "Nothing to change", [{ path: "body", message: "no field given" }]))
    : Effect.void

export const MemberDetail = Schema.Struct({
  userId: Id,
  email: Email,
  name: Schema.String,
  role: Role,
  addedAt: Timestamp,
  guest: Schema.Boolean,
  guestExpiresAt: Schema.NullOr(Timestamp)
}).annotate({ identifier: "WorkspaceMemberDetail", description: "A member with their role and, for a guest, when their access ends." })
export const exampleDetail = { ...bob, guest: false, guestExpiresAt: null }

export const userByEmail = (email: string, path: string) =>
  Effect.gen(function* () {
    const actors = yield* ActorSystem
    return yield* Account.client(actors)(normalizeEmail(email))
      .profile({})
      .pipe(
        Effect.catchTag("UserNotFound", () =>
          Effect.fail(reject("not_found", "No user has that e-mail; they must register first", [{ path, message: "not registered" }]))
        )
      )
  })

export const summaryOf = (context: RequestContext, workspaceId: string) => W.getWorkspace(context, workspaceId)

export const isGuest = (workspaceId: string, userId: string) =>
  Effect.map(orDieSql(rosterOf(workspaceId)), (roster) => roster.find((m) => m.userId === userId)?.guest ?? false)

export const logoUrl = (workspaceId: string, config: Config) =>
  config.logo === null ? null : `/pm/v1/workspaces/${workspaceId}/logo?v=${encodeURIComponent(config.logo.updatedAt)}`

export const futureDate = (value: string | null | undefined, path: string) =>
  Effect.gen(function* () {
    if (value === undefined || value === null) return value
    const parsed = Date.parse(value)
    if (Number.isNaN(parsed)) return yield* reject("invalid", `Invalid ${path}: not a date`, [{ path, message: "not a date" }])
    if (parsed <= Date.now()) return yield* reject("invalid", `Invalid ${path}: must be in the future`, [{ path, message: "in the past" }])
    return new Date(parsed).toISOString()
  })

export const DateTimeString = Schema.String.check(
  Schema.isPattern(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?(?:Z|[+-]\d{2}:?\d{2})$/, {
    expected: "an ISO 8601 date-time with a zone, e.g. 2026-12-31T23:59:00Z"
  })
).annotate({ format: "date-time" })

export const BrandingView = Schema.Struct({
  name: Schema.String,
  initials: Schema.String,
  color: Schema.NullOr(Schema.String),
  tagline: Schema.String,
  logoUrl: Schema.NullOr(Schema.String),
  logo: Schema.NullOr(Schema.Struct({ contentType: Schema.String, size: Schema.Number, updatedAt: Timestamp }))
}).annotate({ identifier: "WorkspaceBranding" })

export const initialsOf = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => [...w][0]!.toUpperCase())
    .join("")

export const brandingView = (workspaceId: string, name: string, config: Config) => ({
  name,
  initials: initialsOf(name),
  color: config.branding.color,
  tagline: config.branding.tagline,
  logoUrl: logoUrl(workspaceId, config),
  logo: config.logo === null ? null : { contentType: config.logo.contentType, size: config.logo.size, updatedAt: config.logo.updatedAt }
})
export const exampleBranding = {
  name: "Acme",
  initials: "A",
  color: "#7b68ee",
  tagline: "We build rockets",
  logoUrl: `/pm/v1/workspaces/${ws}/logo?v=${encodeURIComponent(at0)}`,
  logo: { contentType: "image/png", size: 20480, updatedAt: at0 }
}

export const updateSection = (
  context: RequestContext,
  workspaceId: string,
  section: "general" | "features" | "defaultViews" | "security" | "branding",
  patch: object
) =>
  Effect.gen(function* () {
    const caller = yield* admin(context, workspaceId)
    yield* requireNonEmpty(patch)
    return yield* send(PmOrganization, workspaceId, "updateSection", caller.userId, { section, patch: defined(patch) })
  })

export const Counts = TaskCounts.annotate({ identifier: "WorkspaceTaskCounts" })
export const exampleCounts = { total: 12, open: 5, active: 3, done: 2, closed: 2, overdue: 1 }

export const configOfWorkspace = (workspaceId: string) => orDieSql(configOf(workspaceId))

export const Joined = Schema.Struct({ workspace: W.WorkspaceSummary, member: MemberDetail }).annotate({ identifier: "JoinedWorkspace" })
export const exampleJoined = { workspace: { ...W.exampleWorkspace, role: "member" }, member: exampleDetail }

export const permissionRules: ReadonlyArray<{ id: string; description: string; minimumRole: Role }> = [
  {
    id: "workspace.read",
    description: "See the workspace, its members, spaces and tasks (private spaces as their member)",
    minimumRole: "viewer"
  },
  { id: "favorites.manage", description: "Star and unstar spaces, folders, lists and tasks", minimumRole: "viewer" },
  { id: "tasks.write", description: "Create and change tasks, comments, spaces, folders and lists", minimumRole: "member" },
  { id: "tasks.share", description: "Share tasks by public link", minimumRole: "member" },
  { id: "members.invite", description: "Invite people by e-mail (members only when the workspace allows it)", minimumRole: "admin" },
  { id: "members.manage", description: "Add, remove, deactivate members and change their roles", minimumRole: "admin" },
  { id: "guests.manage", description: "Add guests and change their access", minimumRole: "admin" },
  { id: "settings.manage", description: "Change settings, features, security policy and branding", minimumRole: "admin" },
  { id: "workspace.rename", description: "Rename the workspace", minimumRole: "admin" },
  { id: "structure.import", description: "Import a workspace structure", minimumRole: "admin" },
  { id: "audit.read", description: "Read the membership audit and usage", minimumRole: "admin" },
  { id: "seats.manage", description: "Set the seat limit", minimumRole: "owner" },
  { id: "ownership.transfer", description: "Transfer ownership", minimumRole: "owner" },
  { id: "workspace.delete", description: "Delete (and restore) the workspace", minimumRole: "owner" }
]

export const Permissions = Schema.Struct({
  role: Role,
  guest: Schema.Boolean,
  allowed: Schema.Record(Schema.String, Schema.Boolean),
  rules: Schema.Array(Schema.Struct({ id: Schema.String, description: Schema.String, minimumRole: Role }))
}).annotate({ identifier: "WorkspacePermissions" })

export const permissionsOf = (role: Role, guest: boolean, config: Config) => ({
  role,
  guest,
  allowed: Object.fromEntries(
    permissionRules.map((rule) => [
      rule.id,
      rule.id === "members.invite"
        ? atLeast(role, "admin") || (config.security.membersCanInvite && role === "member" && !guest)
        : rule.id === "guests.manage"
          ? atLeast(role, "admin") && config.features.guests
          : rule.id === "tasks.share"
            ? atLeast(role, "member") && config.features.publicSharing
            : atLeast(role, rule.minimumRole)
    ])
  ),
  rules: permissionRules
})
