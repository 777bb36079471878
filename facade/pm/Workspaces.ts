/**
 * pm tag "Workspaces" (82): workspace CRUD and lifecycle (delete with a
 * restore window, ownership, leaving), the switcher, settings (general,
 * features, default views, security policy, seat limit), branding and logo,
 * statistics and usage, hierarchy reads (tree, folders, short-id resolution,
 * search, archive, statuses, custom fields and tags across spaces, export
 * and import of the structure), members (roles, removal, bulk changes,
 * deactivation, search, summaries, export, permissions), invitations by
 * e-mail (accept, decline, revoke, resend, expiry), the invite link, guests,
 * joining by e-mail domain, and the membership audit.
 *
 * Membership is the identity workspace actor's (shared with the hub), which
 * keeps the membership history the audit reads (whichever service made the
 * change); pm's own workspace data (settings, invitations, the invite link,
 * deactivations) is written by the workspace's `PmOrganization` actor, whose
 * changes are `workspace.*` and `invitation.*` events of the change log.
 */
import { SpaceTemplateSchema } from "./Spaces.ts"
import { randomUUID } from "node:crypto"
import { Effect, Schema, Struct } from "effect"
import { Email, Id, Name, normalizeEmail, Timestamp } from "../../actors/Fields.ts"
import { Account } from "../../actors/identity/Account.ts"
import { workspacesOf } from "../../actors/identity/IdentityQueries.ts"
import { AssignableRole, atLeast, RESTORE_DAYS, Role, Workspace } from "../../actors/identity/Workspace.ts"
import { deactivationsOf } from "../../actors/pm/Deactivations.ts"
import {
  getInvitation, Invitation, InvitationStatus, InvitationToken, invitationByToken, invitationsFor, invitationsOf, InviteCode, InviteLink, inviteLinkByCode, inviteLinkOf
} from "../../actors/pm/Invitations.ts"
import { locateSpace } from "../../actors/pm/Locate.ts"
import { userRefs } from "../../actors/pm/Members.ts"
import { PmOrganization, PmPersonal } from "../../actors/pm/OrganizationActors.ts"
import { requireSeats, rosterEntry, rosterOf, seatUsage, storedWorkspace } from "../../actors/pm/Roster.ts"
import { spaceTemplate } from "../../actors/pm/StructureCommands.ts"
import * as Reads from "../../actors/pm/StructureReads.ts"
import { send } from "../../actors/pm/WorkActor.ts"
import { PmSpace, PmWorkspace } from "../../actors/pm/WorkActors.ts"
import {
  Branding, type Config, configOf, DefaultViews, defaults, domainOf, Features as WorkspaceFeatures, General, Security
} from "../../actors/pm/WorkspaceConfig.ts"
import { effectiveAt, fieldsAt, outlineOf } from "../../actors/pm/WorkspaceOutline.ts"
import * as Stats from "../../actors/pm/WorkspaceStats.ts"
import { Color, Features as SpaceFeatures, FieldType, ShortId, StatusType, TaskDefaults } from "../../actors/pm/WorkRecords.ts"
import { BlobStore } from "../../persistence/BlobStore.ts"
import { query } from "../../persistence/Sql.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { reject } from "../../runtime/Rejection.ts"
import { principalOf, userOf } from "../Access.ts"
import { operation, raw, type RequestContext } from "../Operation.ts"
import * as W from "../shared/WorkspaceAccess.ts"
import { ArchivedQuery, at0, exampleIds as ids, inWorkspace, Limit, Offset, onFolder, onList, onSpace, onTask, orDieSql, pageOf } from "./WorkAccess.ts"

const tag = "Workspaces"
const service = "pm"
const ws = W.exampleWorkspace.id
const read = ["workspaces:read"]
const write = ["workspaces:write"]
const Items = <S extends Schema.Top>(item: S) => Schema.Struct({ items: Schema.Array(item) })
const WorkspaceParams = W.WorkspaceParams
const MemberParams = W.MemberParams
const wsp = { workspaceId: ws }
const bob = W.exampleMember
const alice = { userId: W.exampleWorkspace.ownerId, email: "alice@example.com", name: "Alice" }
const later = "2026-11-28T12:00:00.000Z"

// ---------------------------------------------------------------------------
// Shared pieces

const identity = <Tag extends keyof typeof Workspace.messages & string>(workspaceId: string, message: Tag, payload: (typeof Workspace.messages)[Tag]["payload"]["Type"]) =>
  ActorSystem.use((actors) => actors.ask(Workspace, workspaceId, message, payload as never)) as Effect.Effect<
    (typeof Workspace.messages)[Tag]["success"]["Type"],
    any,
    ActorSystem
  >

const admin = (context: RequestContext, workspaceId: string) => inWorkspace(context, workspaceId, "admin")

const owner = (context: RequestContext, workspaceId: string) =>
  Effect.flatMap(inWorkspace(context, workspaceId), (caller) =>
    caller.role === "owner" ? Effect.succeed(caller) : Effect.fail(reject("forbidden", "Only the workspace's owner may do this")))

const partial = <S extends Schema.Struct<any>>(struct: S) => struct.mapFields(Struct.map(Schema.optionalKey)) as unknown as Schema.Struct<{ [K in keyof S["fields"]]: Schema.optionalKey<S["fields"][K]> }>

/** Drops undefined values (optional keys left out of a patch). */
const defined = (patch: object) => Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined))

const requireNonEmpty = (patch: object) =>
  Object.keys(defined(patch)).length === 0 ? Effect.fail(reject("invalid", "Nothing to change", [{ path: "body", message: "no field given" }])) : Effect.void

const MemberDetail = Schema.Struct({
  userId: Id,
  email: Email,
  name: Schema.String,
  role: Role,
  addedAt: Timestamp,
  guest: Schema.Boolean,
  guestExpiresAt: Schema.NullOr(Timestamp)
}).annotate({ identifier: "WorkspaceMemberDetail", description: "A member with their role and, for a guest, when their access ends." })
const exampleDetail = { ...bob, guest: false, guestExpiresAt: null }

const userByEmail = (email: string, path: string) =>
  Effect.gen(function* () {
    const actors = yield* ActorSystem
    return yield* actors.ask(Account, normalizeEmail(email), "profile", {}).pipe(
      Effect.catchTag("Rejection", () => Effect.fail(reject("not_found", "No user has that e-mail; they must register first", [{ path, message: "not registered" }])))
    )
  })

const summaryOf = (context: RequestContext, workspaceId: string) => W.getWorkspace(context, workspaceId)

const isGuest = (workspaceId: string, userId: string) =>
  Effect.map(orDieSql(rosterOf(workspaceId)), (roster) => roster.find((m) => m.userId === userId)?.guest ?? false)

const logoUrl = (workspaceId: string, config: Config) =>
  config.logo === null ? null : `/pm/v1/workspaces/${workspaceId}/logo?v=${encodeURIComponent(config.logo.updatedAt)}`

const csvCell = (value: unknown) => {
  const text = value === null || value === undefined ? "" : String(value)
  // A leading =, +, - or @ would be a formula in a spreadsheet.
  const safe = /^[=+\-@]/.test(text) ? `'${text}` : text
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe
}
const csv = (rows: ReadonlyArray<ReadonlyArray<unknown>>) => rows.map((row) => row.map(csvCell).join(",")).join("\r\n") + "\r\n"

const maskEmail = (email: string) => {
  const [local = "", domain = ""] = email.split("@")
  return `${local.slice(0, 1)}${"*".repeat(Math.max(1, local.length - 1))}@${domain}`
}

const futureDate = (value: string | null | undefined, path: string) =>
  Effect.gen(function* () {
    if (value === undefined || value === null) return value
    const parsed = Date.parse(value)
    if (Number.isNaN(parsed)) return yield* reject("invalid", `Invalid ${path}: not a date`, [{ path, message: "not a date" }])
    if (parsed <= Date.now()) return yield* reject("invalid", `Invalid ${path}: must be in the future`, [{ path, message: "in the past" }])
    return new Date(parsed).toISOString()
  })

const DateTimeString = Schema.String.check(
  Schema.isPattern(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?(?:Z|[+-]\d{2}:?\d{2})$/, { expected: "an ISO 8601 date-time with a zone, e.g. 2026-12-31T23:59:00Z" })
).annotate({ format: "date-time" })

// ---------------------------------------------------------------------------
// Settings and branding shapes

const SettingsView = Schema.Struct({
  general: General,
  features: WorkspaceFeatures,
  defaultViews: DefaultViews,
  branding: Branding,
  seatLimit: Schema.NullOr(Schema.Number),
  updatedAt: Schema.NullOr(Timestamp)
}).annotate({ identifier: "PmWorkspaceSettings", description: "Project management's settings of a workspace (the security policy is read separately, by admins)." })

const settingsView = (config: Config) => ({
  general: config.general, features: config.features, defaultViews: config.defaultViews, branding: config.branding, seatLimit: config.seatLimit, updatedAt: config.updatedAt
})
const exampleSettings = { ...defaults, seatLimit: null, updatedAt: at0 }

const BrandingView = Schema.Struct({
  name: Schema.String,
  initials: Schema.String,
  color: Schema.NullOr(Schema.String),
  tagline: Schema.String,
  logoUrl: Schema.NullOr(Schema.String),
  logo: Schema.NullOr(Schema.Struct({ contentType: Schema.String, size: Schema.Number, updatedAt: Timestamp }))
}).annotate({ identifier: "WorkspaceBranding" })

const initialsOf = (name: string) => name.split(/\s+/).filter(Boolean).slice(0, 2).map((w) => [...w][0]!.toUpperCase()).join("")

const brandingView = (workspaceId: string, name: string, config: Config) => ({
  name,
  initials: initialsOf(name),
  color: config.branding.color,
  tagline: config.branding.tagline,
  logoUrl: logoUrl(workspaceId, config),
  logo: config.logo === null ? null : { contentType: config.logo.contentType, size: config.logo.size, updatedAt: config.logo.updatedAt }
})
const exampleBranding = { name: "Acme", initials: "A", color: "#7b68ee", tagline: "We build rockets", logoUrl: `/pm/v1/workspaces/${ws}/logo?v=${encodeURIComponent(at0)}`, logo: { contentType: "image/png", size: 20480, updatedAt: at0 } }

const LOGO_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"]
const LOGO_MAX_BYTES = 1024 * 1024

const looksLike = (contentType: string, bytes: Uint8Array) => {
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to))
  switch (contentType) {
    case "image/png": return bytes.length > 8 && bytes[0] === 0x89 && ascii(1, 4) === "PNG"
    case "image/jpeg": return bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff
    case "image/gif": return bytes.length > 6 && (ascii(0, 6) === "GIF87a" || ascii(0, 6) === "GIF89a")
    case "image/webp": return bytes.length > 12 && ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP"
    default: return false
  }
}

const updateSection = (context: RequestContext, workspaceId: string, section: "general" | "features" | "defaultViews" | "security" | "branding", patch: object) =>
  Effect.gen(function* () {
    const caller = yield* admin(context, workspaceId)
    yield* requireNonEmpty(patch)
    return yield* send(PmOrganization, workspaceId, "updateSection", caller.userId, { section, patch: defined(patch) })
  })

const sectionOperations = (
  section: "features" | "defaultViews",
  path: string,
  schema: Schema.Top,
  names: { get: string; update: string; what: string },
  example: Record<string, unknown>,
  patchExample: Record<string, unknown>
) => [
  operation({
    service, tag, operationId: names.get, method: "GET", path, summary: `The workspace's ${names.what}`, auth: "both", scopes: read, params: WorkspaceParams,
    responses: { 200: { description: names.what, schema } },
    examples: [{ name: "get", request: { params: wsp }, response: { status: 200, body: example } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* inWorkspace(context, params.workspaceId)
        return (yield* orDieSql(configOf(params.workspaceId)))[section]
      })
  }),
  operation({
    service, tag, operationId: names.update, method: "PATCH", path, summary: `Change the workspace's ${names.what} (admin)`, auth: "both", scopes: write, params: WorkspaceParams,
    body: partial(schema as Schema.Struct<any>),
    responses: { 200: { description: `The ${names.what} now`, schema } },
    examples: [{ name: "update", request: { params: wsp, body: patchExample }, response: { status: 200, body: { ...example, ...patchExample } } }],
    handler: ({ params, body }, context) => Effect.map(updateSection(context, params.workspaceId, section, body as object), (config) => config[section])
  })
]

// ---------------------------------------------------------------------------
// Stats shapes

const Counts = Schema.Struct({ total: Schema.Number, open: Schema.Number, active: Schema.Number, done: Schema.Number, closed: Schema.Number, overdue: Schema.Number }).annotate({ identifier: "WorkspaceTaskCounts" })
const exampleCounts = { total: 12, open: 5, active: 3, done: 2, closed: 2, overdue: 1 }

const configOfWorkspace = (workspaceId: string) => orDieSql(configOf(workspaceId))

// ---------------------------------------------------------------------------
// Hierarchy shapes

const StructureDocument = Schema.Struct({
  format: Schema.Literal("atrium.pm.workspace-structure"),
  version: Schema.Literal(1),
  exportedAt: Schema.optionalKey(Schema.String),
  workspace: Schema.optionalKey(Schema.Struct({
    name: Schema.optionalKey(Schema.String),
    settings: Schema.optionalKey(Schema.Struct({
      general: Schema.optionalKey(partial(General)),
      features: Schema.optionalKey(partial(WorkspaceFeatures)),
      defaultViews: Schema.optionalKey(partial(DefaultViews))
    }))
  })),
  spaces: Schema.Array(SpaceTemplateSchema).check(Schema.isMaxLength(100))
}).annotate({ identifier: "WorkspaceStructure", description: "A workspace's structure without ids or tasks: spaces with their statuses, custom fields, folders and lists, and the workspace settings." })

const exampleStructure = {
  format: "atrium.pm.workspace-structure", version: 1, exportedAt: at0,
  workspace: { name: "Acme", settings: { general: defaults.general, features: defaults.features, defaultViews: defaults.defaultViews } },
  spaces: [{
    name: "Engineering", description: "", color: "#7b68ee", statuses: [{ name: "to do", type: "open", color: "#87909e" }, { name: "done", type: "done", color: "#30a46c" }],
    customFields: [{ name: "Environment", type: "dropdown", required: false, config: { options: [{ name: "production" }, { name: "staging" }] } }],
    folders: [{ name: "Q4 roadmap", lists: [{ name: "Backlog" }] }], lists: []
  }]
}

const LiteNode = Schema.Struct({ id: Id, shortId: Schema.String, name: Schema.String, archived: Schema.Boolean })
const HierarchyList = Schema.Struct({
  ...LiteNode.fields,
  statusesFrom: Schema.Literals(["space", "folder", "list"]),
  statusCount: Schema.Number,
  customFieldCount: Schema.Number,
  tasks: Schema.Number,
  unfinishedTasks: Schema.Number
})
const Hierarchy = Schema.Struct({
  workspace: Schema.Struct({ id: Id, name: Schema.String }),
  spaces: Schema.Array(Schema.Struct({
    ...LiteNode.fields,
    isPrivate: Schema.Boolean,
    folders: Schema.Array(Schema.Struct({ ...LiteNode.fields, lists: Schema.Array(HierarchyList) })),
    lists: Schema.Array(HierarchyList)
  })),
  totals: Schema.Struct({ spaces: Schema.Number, folders: Schema.Number, lists: Schema.Number, tasks: Schema.Number })
}).annotate({ identifier: "WorkspaceHierarchy" })
const exampleHierarchyList = { id: ids.list, shortId: "L-1", name: "Backlog", archived: false, statusesFrom: "space", statusCount: 4, customFieldCount: 1, tasks: 12, unfinishedTasks: 8 }

const SearchHit = Schema.Struct({
  type: Schema.Literals(["space", "folder", "list", "task"]),
  id: Id, shortId: Schema.String, name: Schema.String, path: Schema.String, archived: Schema.Boolean
}).annotate({ identifier: "WorkspaceSearchHit" })

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`)

// ---------------------------------------------------------------------------
// Invitation flows

const ExpiringGuest = Schema.Struct({ expiresAt: Schema.NullOr(DateTimeString).annotate({ description: "When the guest's access ends (null: when removed)" }) })
const InvitationBody = Schema.Struct({
  email: Email,
  role: AssignableRole,
  guest: Schema.optionalKey(ExpiringGuest.annotate({ description: "Invite as a guest (no seat; access may end at a date)" })),
  message: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(1000)))
})
const CreatedInvitation = Schema.Struct({
  invitation: Invitation,
  token: InvitationToken.annotate({ description: "The accept token for the invitee's link (shown once)" })
}).annotate({ identifier: "CreatedWorkspaceInvitation" })
const exampleInvitation = {
  id: ids.entry, workspaceId: ws, email: "carol@example.com", role: "member", guest: false, guestExpiresAt: null, message: "Join us!",
  status: "pending", invitedBy: { id: alice.userId, name: "Alice" }, createdAt: at0, expiresAt: later, resendCount: 0, lastSentAt: at0, respondedAt: null
}
const exampleInviteToken = "pminv_c2hvd24gb25jZSwga2VlcCBpdCBzZWNyZXQgcGxlYXNlISEh"

/** May the caller invite (admins; members when the policy allows, as members or viewers and not as guests)? */
const mayInvite = (context: RequestContext, workspaceId: string, invitations: ReadonlyArray<{ role: string; guest?: unknown }>) =>
  Effect.gen(function* () {
    const caller = yield* inWorkspace(context, workspaceId, "member")
    if (caller.admin) return caller
    const config = yield* configOfWorkspace(workspaceId)
    if (!config.security.membersCanInvite || (yield* isGuest(workspaceId, caller.userId))) return yield* reject("forbidden", "Only admins may invite to this workspace")
    if (invitations.some((i) => i.role === "admin" || i.guest !== undefined)) return yield* reject("forbidden", "Members may invite members and viewers only; admins invite admins and guests")
    return caller
  })

/** The invitation, when the caller may manage it (an admin, or who sent it). */
const manageableInvitation = (context: RequestContext, workspaceId: string, invitationId: string) =>
  Effect.gen(function* () {
    const caller = yield* inWorkspace(context, workspaceId, "member")
    const invitation = yield* orDieSql(getInvitation(invitationId))
    if (invitation.workspaceId !== workspaceId) return yield* reject("not_found", "No such invitation")
    if (!caller.admin && invitation.invitedBy.id !== caller.userId) return yield* reject("forbidden", "Only an admin or who sent the invitation may change it")
    return { caller, invitation }
  })

const Joined = Schema.Struct({ workspace: W.WorkspaceSummary, member: MemberDetail }).annotate({ identifier: "JoinedWorkspace" })
const exampleJoined = { workspace: { ...W.exampleWorkspace, role: "member" }, member: exampleDetail }

/** Takes the invitation, then has the identity workspace admit the caller (giving the invitation back if that fails). */
const acceptInvitation = (context: RequestContext, invitation: typeof Invitation.Type) =>
  Effect.gen(function* () {
    const user = yield* userOf(context)
    if (invitation.email !== normalizeEmail(user.email)) return yield* reject("not_found", "No such invitation")
    yield* send(PmOrganization, invitation.workspaceId, "claimInvitation", user.userId, { invitationId: invitation.id, email: user.email })
    yield* identity(invitation.workspaceId, "admit", {
      userId: user.userId, role: invitation.role, via: "invitation", by: invitation.invitedBy.id, ...(invitation.guest ? { guest: { expiresAt: invitation.guestExpiresAt } } : {})
    }).pipe(Effect.tapError(() => send(PmOrganization, invitation.workspaceId, "reopenInvitation", user.userId, { invitationId: invitation.id }).pipe(Effect.ignore)))
    return { workspace: yield* summaryOf(context, invitation.workspaceId), member: yield* orDieSql(rosterEntry(invitation.workspaceId, user.userId)) }
  })

const InvitationParams = Schema.Struct({ workspaceId: Id, invitationId: Id })
const MyInvitationParams = Schema.Struct({ invitationId: Id })

// ---------------------------------------------------------------------------
// Guests

const GuestView = Schema.Struct({
  ...MemberDetail.fields,
  spaces: Schema.Array(Schema.Struct({ id: Id, name: Schema.String })).annotate({ description: "Private spaces the guest belongs to" })
}).annotate({ identifier: "WorkspaceGuest" })
const exampleGuest = { ...exampleDetail, role: "viewer", guest: true, guestExpiresAt: later, spaces: [{ id: ids.space, name: "Client portal" }] }

const guestsWithSpaces = (workspaceId: string, userIds?: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const roster = (yield* orDieSql(rosterOf(workspaceId))).filter((m) => m.guest && (userIds === undefined || userIds.includes(m.userId)))
    if (roster.length === 0) return []
    const spaces = yield* orDieSql(query<{ userId: string; id: string; name: string }>(
      `SELECT m.user_id AS "userId", s.id, s.name FROM pm_space_members m JOIN pm_spaces s ON s.id = m.space_id
        WHERE s.workspace_id = $1 AND s.deleted_at IS NULL AND m.user_id = ANY($2::text[]) ORDER BY s.position, s.created_at`,
      [workspaceId, roster.map((m) => m.userId)]
    ))
    return roster.map((m) => ({ ...m, spaces: spaces.filter((s) => s.userId === m.userId).map(({ id, name }) => ({ id, name })) }))
  })

const aGuest = (workspaceId: string, userId: string) =>
  Effect.flatMap(guestsWithSpaces(workspaceId, [userId]), (guests) => (guests[0] ? Effect.succeed(guests[0]) : Effect.fail(reject("not_found", "No such guest"))))

// ---------------------------------------------------------------------------
// Permissions

const permissionRules: ReadonlyArray<{ id: string; description: string; minimumRole: Role }> = [
  { id: "workspace.read", description: "See the workspace, its members, spaces and tasks (private spaces as their member)", minimumRole: "viewer" },
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

const Permissions = Schema.Struct({
  role: Role,
  guest: Schema.Boolean,
  allowed: Schema.Record(Schema.String, Schema.Boolean),
  rules: Schema.Array(Schema.Struct({ id: Schema.String, description: Schema.String, minimumRole: Role }))
}).annotate({ identifier: "WorkspacePermissions" })

const permissionsOf = (role: Role, guest: boolean, config: Config) => ({
  role,
  guest,
  allowed: Object.fromEntries(permissionRules.map((rule) => [
    rule.id,
    rule.id === "members.invite"
      ? atLeast(role, "admin") || (config.security.membersCanInvite && role === "member" && !guest)
      : rule.id === "guests.manage" ? atLeast(role, "admin") && config.features.guests
      : rule.id === "tasks.share" ? atLeast(role, "member") && config.features.publicSharing
      : atLeast(role, rule.minimumRole)
  ])),
  rules: permissionRules
})

// ---------------------------------------------------------------------------
// Audit

const AuditUser = Schema.Struct({ id: Schema.String, name: Schema.String, email: Schema.String })
const AuditEntry = Schema.Struct({
  seq: Schema.Number,
  type: Schema.String,
  at: Timestamp,
  by: AuditUser,
  user: Schema.NullOr(AuditUser).annotate({ description: "The member concerned" }),
  data: Schema.Record(Schema.String, Schema.Unknown)
}).annotate({ identifier: "MembershipAuditEntry" })

/** A page of the membership history, newest first. */
const auditPage = (context: RequestContext, workspaceId: string, filter: { type?: string; userId?: string; before?: number; limit: number }) =>
  Effect.gen(function* () {
    const caller = yield* admin(context, workspaceId)
    const history = yield* identity(workspaceId, "history", { by: caller.userId })
    const matching = [...history].reverse().filter((entry) =>
      (filter.type === undefined || entry.type === filter.type || entry.type.startsWith(`${filter.type}.`)) &&
      (filter.userId === undefined || entry.userId === filter.userId || entry.by === filter.userId) &&
      (filter.before === undefined || entry.seq < filter.before))
    const page = matching.slice(0, filter.limit)
    const users = yield* orDieSql(userRefs(page.flatMap((e) => [e.by, ...(e.userId ? [e.userId] : [])])))
    const person = (id: string) => ({ id, name: users.get(id)?.name ?? "", email: users.get(id)?.email ?? "" })
    return {
      items: page.map((e) => ({ seq: e.seq, type: e.type, at: e.at, by: person(e.by), user: e.userId ? person(e.userId) : null, data: e.data })),
      nextBefore: matching.length > filter.limit ? page[page.length - 1]!.seq : null
    }
  })

// ---------------------------------------------------------------------------
// Operations

const DeletedWorkspace = Schema.Struct({ id: Id, name: Schema.String, deletedAt: Timestamp, restorableUntil: Timestamp }).annotate({ identifier: "DeletedWorkspace" })
const restorableUntil = (deletedAt: string) => new Date(Date.parse(deletedAt) + RESTORE_DAYS * 86_400_000).toISOString()

const SwitcherEntry = Schema.Struct({
  id: Id, name: Schema.String, role: Role, memberCount: Schema.Number, color: Schema.NullOr(Schema.String), logoUrl: Schema.NullOr(Schema.String),
  unreadNotifications: Schema.Number, position: Schema.NullOr(Schema.Number)
}).annotate({ identifier: "WorkspaceSwitcherEntry" })

const lifecycleOperations = [
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
    summary: "List the caller's workspaces", auth: "both", scopes: read,
    responses: { 200: { description: "Workspaces", schema: Items(W.WorkspaceSummary) } },
    examples: [{ name: "list", response: { status: 200, body: { items: [W.exampleWorkspace] } } }],
    handler: (_r, context) => W.listWorkspaces(context)
  }),
  operation({
    service, tag, operationId: "getWorkspace", method: "GET", path: "/v1/workspaces/{workspaceId}",
    summary: "Get one workspace", auth: "both", scopes: read, params: WorkspaceParams,
    responses: { 200: { description: "The workspace", schema: W.WorkspaceSummary } },
    examples: [{ name: "get", request: { params: wsp }, response: { status: 200, body: W.exampleWorkspace } }],
    handler: ({ params }, context) => W.getWorkspace(context, params.workspaceId)
  }),
  operation({
    service, tag, operationId: "updateWorkspace", method: "PATCH", path: "/v1/workspaces/{workspaceId}",
    summary: "Rename a workspace (admin)", auth: "both", scopes: write, params: WorkspaceParams,
    body: Schema.Struct({ name: Name() }),
    responses: { 200: { description: "Updated", schema: W.WorkspaceSummary } },
    examples: [{ name: "rename", request: { params: wsp, body: { name: "Acme Inc" } }, response: { status: 200, body: { ...W.exampleWorkspace, name: "Acme Inc" } } }],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const renamed = yield* W.renameWorkspace(context, params.workspaceId, body.name)
        return renamed
      })
  }),
  operation({
    service, tag, operationId: "deleteWorkspace", method: "DELETE", path: "/v1/workspaces/{workspaceId}",
    summary: `Delete a workspace (owner only): it disappears for everyone; its owner can restore it within ${RESTORE_DAYS} days`,
    description: "The workspace's exact name must be given as `confirm`, so a workspace is never deleted by a stray request.",
    auth: "jwt", scopes: [], params: WorkspaceParams, query: Schema.Struct({ confirm: Schema.String.check(Schema.isMaxLength(200)).annotate({ description: "The workspace's name" }) }),
    responses: { 200: { description: "Deleted", schema: DeletedWorkspace }, 400: { description: "confirm is not the name" }, 403: { description: "Not the owner" } },
    examples: [{ name: "delete", request: { params: wsp, query: { confirm: "Acme" } }, response: { status: 200, body: { id: ws, name: "Acme", deletedAt: at0, restorableUntil: restorableUntil(at0) } } }],
    handler: ({ params, query: q }, context) =>
      Effect.gen(function* () {
        const caller = yield* owner(context, params.workspaceId)
        const current = yield* summaryOf(context, params.workspaceId)
        if (q.confirm !== current.name) return yield* reject("invalid", "confirm must be the workspace's exact name", [{ path: "query.confirm", message: `must be "${current.name}"` }])
        const { deletedAt } = yield* identity(params.workspaceId, "delete", { by: caller.userId })
        return { id: params.workspaceId, name: current.name, deletedAt, restorableUntil: restorableUntil(deletedAt) }
      })
  }),
  operation({
    service, tag, operationId: "restoreWorkspace", method: "POST", path: "/v1/workspaces/{workspaceId}/restore",
    summary: `Restore a deleted workspace (its owner, within ${RESTORE_DAYS} days)`, auth: "jwt", scopes: [], params: WorkspaceParams,
    responses: { 200: { description: "Restored", schema: W.WorkspaceSummary }, 404: { description: "No deleted workspace of the caller's with this id" } },
    examples: [{ name: "restore", request: { params: wsp }, response: { status: 200, body: W.exampleWorkspace } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const user = yield* userOf(context)
        yield* identity(params.workspaceId, "restore", { by: user.userId })
        return yield* summaryOf(context, params.workspaceId)
      })
  }),
  operation({
    service, tag, operationId: "listDeletedWorkspaces", method: "GET", path: "/v1/workspaces/deleted",
    summary: "The caller's deleted workspaces that can still be restored", auth: "jwt", scopes: [],
    responses: { 200: { description: "Deleted workspaces, most recent first", schema: Items(DeletedWorkspace) } },
    examples: [{ name: "deleted", response: { status: 200, body: { items: [{ id: ws, name: "Acme", deletedAt: at0, restorableUntil: restorableUntil(at0) }] } } }],
    handler: (_r, context) =>
      Effect.gen(function* () {
        const user = yield* userOf(context)
        const rows = yield* orDieSql(query<{ id: string; name: string; deletedAt: string }>(
          `SELECT id, state->>'name' AS name, state->>'deletedAt' AS "deletedAt" FROM actor_state
            WHERE kind = 'workspace' AND state->>'ownerId' = $1 AND state->>'deletedAt' IS NOT NULL AND NOT (state->>'exists')::boolean
            ORDER BY state->>'deletedAt' DESC`,
          [user.userId]
        ))
        return { items: rows.map((r) => ({ ...r, restorableUntil: restorableUntil(r.deletedAt) })).filter((r) => Date.parse(r.restorableUntil) > Date.now()) }
      })
  }),
  operation({
    service, tag, operationId: "leaveWorkspace", method: "POST", path: "/v1/workspaces/{workspaceId}/leave",
    summary: "Leave a workspace (the owner must transfer ownership first)", auth: "jwt", scopes: [], params: WorkspaceParams,
    responses: { 204: { description: "Left" }, 409: { description: "The caller owns the workspace" } },
    examples: [{ name: "leave", request: { params: wsp }, response: { status: 204 } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId)
        yield* identity(params.workspaceId, "removeMember", { by: caller.userId, userId: caller.userId })
      })
  }),
  operation({
    service, tag, operationId: "transferWorkspaceOwnership", method: "POST", path: "/v1/workspaces/{workspaceId}/ownership",
    summary: "Transfer ownership to another member (owner only; the old owner becomes admin)", auth: "jwt", scopes: [],
    params: WorkspaceParams, body: Schema.Struct({ userId: Id }),
    responses: { 200: { description: "Transferred", schema: W.WorkspaceSummary }, 400: { description: "Not a member, or a guest" } },
    examples: [{ name: "transfer", request: { params: wsp, body: { userId: bob.userId } }, response: { status: 200, body: { ...W.exampleWorkspace, ownerId: bob.userId, role: "admin" } } }],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        yield* owner(context, params.workspaceId)
        const moved = yield* W.transferOwnership(context, params.workspaceId, body.userId).pipe(
          Effect.mapError((e) => (e._tag === "Rejection" && e.code === "invalid" ? reject("invalid", e.message, [{ path: "body.userId", message: e.details?.[0]?.message ?? "invalid" }]) : e))
        )
        return moved
      })
  }),
  operation({
    service, tag, operationId: "getWorkspaceProfile", method: "GET", path: "/v1/workspaces/{workspaceId}/profile",
    summary: "A workspace at a glance: name, branding, preferences, counts, seats, and what the caller may do", auth: "both", scopes: read, params: WorkspaceParams,
    responses: {
      200: {
        description: "Overview",
        schema: Schema.Struct({
          workspace: W.WorkspaceSummary,
          description: Schema.String,
          branding: BrandingView,
          general: General,
          counts: Schema.Struct({ spaces: Schema.Number, folders: Schema.Number, lists: Schema.Number, tasks: Counts, members: Schema.Number, guests: Schema.Number }),
          seats: Schema.Struct({ limit: Schema.NullOr(Schema.Number), members: Schema.Number, guests: Schema.Number, pendingInvitations: Schema.Number, available: Schema.NullOr(Schema.Number) }),
          you: Permissions
        }).annotate({ identifier: "WorkspaceOverview" })
      }
    },
    examples: [{
      name: "overview", request: { params: wsp },
      response: {
        status: 200,
        body: {
          workspace: W.exampleWorkspace, description: "", branding: exampleBranding, general: defaults.general,
          counts: { spaces: 2, folders: 3, lists: 7, tasks: exampleCounts, members: 3, guests: 0 },
          seats: { limit: 10, members: 3, guests: 0, pendingInvitations: 1, available: 6 },
          you: permissionsOf("owner", false, { ...defaults, logo: null, seatLimit: 10, updatedBy: null, updatedAt: null })
        }
      }
    }],
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
          counts: { spaces: outline.spaces.length, folders: outline.folders.length, lists: outline.lists.length, tasks: Stats.sum(counts.values()), members: seats.members, guests: seats.guests },
          seats,
          you: permissionsOf(caller.role, guest, config)
        }
      })
  }),
  operation({
    service, tag, operationId: "getWorkspaceSwitcher", method: "GET", path: "/v1/workspaces/switcher",
    summary: "The caller's workspaces for a switcher: in their order, with color, logo and unread notifications",
    description: "For an API key: only its workspace.", auth: "both", scopes: read,
    responses: { 200: { description: "Workspaces", schema: Items(SwitcherEntry) } },
    examples: [{ name: "switcher", response: { status: 200, body: { items: [{ id: ws, name: "Acme", role: "owner", memberCount: 3, color: "#7b68ee", logoUrl: null, unreadNotifications: 2, position: 1 }] } } }],
    handler: (_r, context) =>
      Effect.gen(function* () {
        const principal = yield* principalOf(context)
        const all = yield* orDieSql(workspacesOf(principal.userId))
        const mine = principal.kind === "apiKey" ? all.filter((w) => w.id === principal.workspaceId) : all
        if (mine.length === 0) return { items: [] }
        const idsOf = mine.map((w) => w.id)
        const order = yield* orDieSql(query<{ workspaceId: string; position: number }>(`SELECT workspace_id AS "workspaceId", position FROM pm_workspace_order WHERE user_id = $1`, [principal.userId]))
        const unread = yield* orDieSql(query<{ workspaceId: string; n: number }>(
          `SELECT workspace_id AS "workspaceId", count(*)::int AS n FROM pm_notifications WHERE user_id = $1 AND read_at IS NULL AND workspace_id = ANY($2::text[]) GROUP BY workspace_id`,
          [principal.userId, idsOf]
        ))
        const configs = yield* Effect.forEach(idsOf, (id) => configOfWorkspace(id))
        const positionOf = new Map(order.map((o) => [o.workspaceId, o.position] as const))
        const unreadOf = new Map(unread.map((u) => [u.workspaceId, u.n] as const))
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
    service, tag, operationId: "reorderMyWorkspaces", method: "PUT", path: "/v1/workspaces/order",
    summary: "Set the order of the caller's workspaces in the switcher", auth: "jwt", scopes: [],
    body: Schema.Struct({ workspaceIds: Schema.Array(Id).check(Schema.isMaxLength(500)) }),
    responses: { 200: { description: "The order", schema: Schema.Struct({ workspaceIds: Schema.Array(Id) }) } },
    examples: [{ name: "order", request: { body: { workspaceIds: [ws] } }, response: { status: 200, body: { workspaceIds: [ws] } } }],
    handler: ({ body }, context) =>
      Effect.gen(function* () {
        const user = yield* userOf(context)
        const mine = new Set((yield* orDieSql(workspacesOf(user.userId))).map((w) => w.id))
        const seen = new Set<string>()
        for (const [index, id] of body.workspaceIds.entries()) {
          if (!mine.has(id)) return yield* reject("invalid", "Only workspaces the caller belongs to can be ordered", [{ path: `body.workspaceIds.${index}`, message: "not one of your workspaces" }])
          if (seen.has(id)) return yield* reject("invalid", "A workspace is listed twice", [{ path: `body.workspaceIds.${index}`, message: "duplicate" }])
          seen.add(id)
        }
        yield* send(PmPersonal, user.userId, "setWorkspaceOrder", user.userId, { workspaceIds: body.workspaceIds })
        return { workspaceIds: body.workspaceIds }
      })
  })
]

const settingsOperations = [
  operation({
    service, tag, operationId: "getWorkspaceSettings", method: "GET", path: "/v1/workspaces/{workspaceId}/settings",
    summary: "The workspace's settings: preferences, features, default views, branding, seat limit", auth: "both", scopes: read, params: WorkspaceParams,
    responses: { 200: { description: "Settings", schema: SettingsView } },
    examples: [{ name: "get", request: { params: wsp }, response: { status: 200, body: exampleSettings } }],
    handler: ({ params }, context) => Effect.andThen(inWorkspace(context, params.workspaceId), Effect.map(configOfWorkspace(params.workspaceId), settingsView))
  }),
  operation({
    service, tag, operationId: "updateWorkspaceSettings", method: "PATCH", path: "/v1/workspaces/{workspaceId}/settings",
    summary: "Change the workspace's preferences: time zone, week start, formats, locale, description (admin)",
    description: "The time zone and week start define the days and weeks of the workspace statistics.",
    auth: "both", scopes: write, params: WorkspaceParams, body: partial(General),
    responses: { 200: { description: "Settings", schema: SettingsView } },
    examples: [{ name: "berlin", request: { params: wsp, body: { timeZone: "Europe/Berlin", weekStart: "monday" } }, response: { status: 200, body: { ...exampleSettings, general: { ...defaults.general, timeZone: "Europe/Berlin" } } } }],
    handler: ({ params, body }, context) => Effect.map(updateSection(context, params.workspaceId, "general", body), settingsView)
  }),
  operation({
    service, tag, operationId: "resetWorkspaceSettings", method: "DELETE", path: "/v1/workspaces/{workspaceId}/settings",
    summary: "Reset preferences, features, default views, security policy and branding colors to the defaults (admin; the logo and seat limit stay)",
    auth: "both", scopes: write, params: WorkspaceParams,
    responses: { 200: { description: "Settings", schema: SettingsView } },
    examples: [{ name: "reset", request: { params: wsp }, response: { status: 200, body: exampleSettings } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* admin(context, params.workspaceId)
        return settingsView(yield* send(PmOrganization, params.workspaceId, "resetConfig", caller.userId, {}))
      })
  }),
  ...sectionOperations("features", "/v1/workspaces/{workspaceId}/features", WorkspaceFeatures,
    { get: "getWorkspaceFeatures", update: "updateWorkspaceFeatures", what: "features (public sharing, guests, invite links, joining by e-mail domain)" },
    defaults.features, { publicSharing: false }),
  ...sectionOperations("defaultViews", "/v1/workspaces/{workspaceId}/default-views", DefaultViews,
    { get: "getWorkspaceDefaultViews", update: "updateWorkspaceDefaultViews", what: "default views per level" },
    defaults.defaultViews, { list: "board" }),
  operation({
    service, tag, operationId: "getWorkspaceSecurityPolicy", method: "GET", path: "/v1/workspaces/{workspaceId}/security",
    summary: "The invitation and sharing policy (admin)", auth: "both", scopes: read, params: WorkspaceParams,
    responses: { 200: { description: "Policy", schema: Security } },
    examples: [{ name: "get", request: { params: wsp }, response: { status: 200, body: defaults.security } }],
    handler: ({ params }, context) => Effect.andThen(admin(context, params.workspaceId), Effect.map(configOfWorkspace(params.workspaceId), (c) => c.security))
  }),
  operation({
    service, tag, operationId: "updateWorkspaceSecurityPolicy", method: "PATCH", path: "/v1/workspaces/{workspaceId}/security",
    summary: "Change the invitation and sharing policy: allowed and auto-join e-mail domains, who may invite, invitation expiry, longest public link (admin)",
    auth: "both", scopes: write, params: WorkspaceParams, body: partial(Security),
    responses: { 200: { description: "Policy", schema: Security } },
    examples: [{ name: "domains", request: { params: wsp, body: { allowedEmailDomains: ["acme.com"], maxShareLinkDays: 30 } }, response: { status: 200, body: { ...defaults.security, allowedEmailDomains: ["acme.com"], maxShareLinkDays: 30 } } }],
    handler: ({ params, body }, context) =>
      Effect.map(
        updateSection(context, params.workspaceId, "security", {
          ...body,
          ...(body.allowedEmailDomains ? { allowedEmailDomains: [...new Set(body.allowedEmailDomains.map((d) => d.toLowerCase()))] } : {}),
          ...(body.autoJoinDomains ? { autoJoinDomains: [...new Set(body.autoJoinDomains.map((d) => d.toLowerCase()))] } : {})
        }),
        (c) => c.security
      )
  }),
  operation({
    service, tag, operationId: "setWorkspaceSeatLimit", method: "PUT", path: "/v1/workspaces/{workspaceId}/seat-limit",
    summary: "Set how many members (guests excluded) the workspace may have (owner only; null: unlimited)",
    description: "Pending invitations reserve seats. Refused (409) below the current number of members.",
    auth: "jwt", scopes: [], params: WorkspaceParams,
    body: Schema.Struct({ seatLimit: Schema.NullOr(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 100_000 }))) }),
    responses: { 200: { description: "Seats", schema: Schema.Struct({ limit: Schema.NullOr(Schema.Number), members: Schema.Number, guests: Schema.Number, pendingInvitations: Schema.Number, available: Schema.NullOr(Schema.Number) }).annotate({ identifier: "WorkspaceSeats" }) } },
    examples: [{ name: "ten", request: { params: wsp, body: { seatLimit: 10 } }, response: { status: 200, body: { limit: 10, members: 3, guests: 1, pendingInvitations: 1, available: 6 } } }],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* owner(context, params.workspaceId)
        const usage = yield* orDieSql(seatUsage(params.workspaceId))
        if (body.seatLimit !== null && body.seatLimit < usage.members) {
          return yield* reject("conflict", `The workspace has ${usage.members} members; remove some first`, [{ path: "body.seatLimit", message: `below the ${usage.members} current members` }])
        }
        yield* send(PmOrganization, params.workspaceId, "setSeatLimit", caller.userId, { seatLimit: body.seatLimit })
        return yield* orDieSql(seatUsage(params.workspaceId))
      })
  }),
  operation({
    service, tag, operationId: "getWorkspaceBranding", method: "GET", path: "/v1/workspaces/{workspaceId}/branding",
    summary: "The workspace's branding: color, tagline, initials and logo", auth: "both", scopes: read, params: WorkspaceParams,
    responses: { 200: { description: "Branding", schema: BrandingView } },
    examples: [{ name: "get", request: { params: wsp }, response: { status: 200, body: exampleBranding } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const workspace = yield* summaryOf(context, params.workspaceId)
        return brandingView(params.workspaceId, workspace.name, yield* configOfWorkspace(params.workspaceId))
      })
  }),
  operation({
    service, tag, operationId: "updateWorkspaceBranding", method: "PATCH", path: "/v1/workspaces/{workspaceId}/branding",
    summary: "Change the workspace's color or tagline (admin)", auth: "both", scopes: write, params: WorkspaceParams,
    body: Schema.Struct({ color: Schema.optionalKey(Schema.NullOr(Color)), tagline: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(200))) }),
    responses: { 200: { description: "Branding", schema: BrandingView } },
    examples: [{ name: "color", request: { params: wsp, body: { color: "#7b68ee" } }, response: { status: 200, body: exampleBranding } }],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const config = yield* updateSection(context, params.workspaceId, "branding", body)
        return brandingView(params.workspaceId, (yield* summaryOf(context, params.workspaceId)).name, config)
      })
  }),
  operation({
    service, tag, operationId: "uploadWorkspaceLogo", method: "PUT", path: "/v1/workspaces/{workspaceId}/logo",
    summary: "Upload the workspace's logo (the image is the request body: PNG, JPEG, GIF or WebP, at most 1 MiB; admin)",
    auth: "both", scopes: write, params: WorkspaceParams, upload: { contentTypes: LOGO_TYPES, maxBytes: LOGO_MAX_BYTES },
    responses: { 200: { description: "Stored", schema: BrandingView }, 413: { description: "Larger than 1 MiB" }, 415: { description: "Not an accepted image type" } },
    examples: [{ name: "png", request: { params: wsp }, response: { status: 200, body: exampleBranding } }],
    handler: ({ params, upload }, context) =>
      Effect.gen(function* () {
        const caller = yield* admin(context, params.workspaceId)
        if (upload === undefined) return yield* reject("invalid", "The image is the request body", [{ path: "body", message: "missing" }])
        if (!looksLike(upload.contentType, upload.bytes)) return yield* reject("invalid", `The body is not a ${upload.contentType} image`, [{ path: "body", message: "content does not match Content-Type" }])
        const blobs = yield* BlobStore
        const key = `pm/workspace-logos/${params.workspaceId}/${randomUUID()}`
        yield* blobs.put(key, upload.bytes, upload.contentType).pipe(Effect.orDie)
        const { previous } = yield* send(PmOrganization, params.workspaceId, "setLogo", caller.userId, {
          logo: { key, contentType: upload.contentType, size: upload.bytes.length, updatedAt: new Date().toISOString() }
        }).pipe(Effect.tapError(() => blobs.delete(key).pipe(Effect.ignore)))
        if (previous !== null) yield* blobs.delete(previous.key).pipe(Effect.ignore)
        return brandingView(params.workspaceId, (yield* summaryOf(context, params.workspaceId)).name, yield* configOfWorkspace(params.workspaceId))
      })
  }),
  operation({
    service, tag, operationId: "getWorkspaceLogo", method: "GET", path: "/v1/workspaces/{workspaceId}/logo",
    summary: "The workspace's logo image (members)", auth: "both", scopes: read, params: WorkspaceParams,
    responses: { 200: { description: "The image", contentType: "image/*" }, 404: { description: "No logo" } },
    examples: [{ name: "logo", request: { params: wsp }, response: { status: 200 } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* inWorkspace(context, params.workspaceId)
        const logo = (yield* configOfWorkspace(params.workspaceId)).logo
        if (logo === null) return yield* reject("not_found", "The workspace has no logo")
        const blob = yield* (yield* BlobStore).get(logo.key).pipe(Effect.orDie)
        if (blob === undefined) return yield* reject("not_found", "The workspace has no logo")
        return raw(logo.contentType, blob.bytes, { etag: `"${logo.key.split("/").pop()}"`, "cache-control": "private, max-age=86400", "x-content-type-options": "nosniff" })
      })
  }),
  operation({
    service, tag, operationId: "deleteWorkspaceLogo", method: "DELETE", path: "/v1/workspaces/{workspaceId}/logo",
    summary: "Remove the workspace's logo (admin)", auth: "both", scopes: write, params: WorkspaceParams,
    responses: { 204: { description: "Removed" }, 404: { description: "No logo" } },
    examples: [{ name: "remove", request: { params: wsp }, response: { status: 204 } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* admin(context, params.workspaceId)
        const { previous } = yield* send(PmOrganization, params.workspaceId, "setLogo", caller.userId, { logo: null })
        if (previous !== null) yield* (yield* BlobStore).delete(previous.key).pipe(Effect.ignore)
      })
  })
]

const statsOperations = [
  operation({
    service, tag, operationId: "getWorkspaceStats", method: "GET", path: "/v1/workspaces/{workspaceId}/stats",
    summary: "Workspace statistics: spaces, folders, lists, tasks by status type, overdue, unassigned, this week's due and finished tasks, members by role",
    description: "Counts what the caller can see. \"This week\" follows the workspace's time zone and week start.",
    auth: "both", scopes: read, params: WorkspaceParams,
    responses: {
      200: {
        description: "Statistics",
        schema: Schema.Struct({
          spaces: Schema.Number, folders: Schema.Number, lists: Schema.Number,
          tasks: Counts,
          unassigned: Schema.Number,
          thisWeek: Schema.Struct({ from: Timestamp, to: Timestamp, due: Schema.Number, completed: Schema.Number, created: Schema.Number }),
          members: Schema.Struct({ owner: Schema.Number, admin: Schema.Number, member: Schema.Number, viewer: Schema.Number, guests: Schema.Number }),
          timeZone: Schema.String
        }).annotate({ identifier: "WorkspaceStats" })
      }
    },
    examples: [{
      name: "stats", request: { params: wsp },
      response: { status: 200, body: { spaces: 2, folders: 3, lists: 7, tasks: exampleCounts, unassigned: 2, thisWeek: { from: "2026-11-16T00:00:00.000Z", to: "2026-11-23T00:00:00.000Z", due: 3, completed: 4, created: 6 }, members: { owner: 1, admin: 1, member: 4, viewer: 2, guests: 1 }, timeZone: "UTC" } }
    }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId)
        const config = yield* configOfWorkspace(params.workspaceId)
        const outline = yield* orDieSql(outlineOf(params.workspaceId, caller.viewer))
        const counts = yield* orDieSql(Stats.countsBySpace(params.workspaceId, caller.viewer))
        const week = Stats.currentWeek(new Date(), config.general.timeZone, config.general.weekStart)
        const window = yield* orDieSql(Stats.taskWindow(params.workspaceId, caller.viewer, week.start, week.end))
        const roster = yield* orDieSql(rosterOf(params.workspaceId))
        const byRole = (role: Role) => roster.filter((m) => m.role === role).length
        return {
          spaces: outline.spaces.length, folders: outline.folders.length, lists: outline.lists.length,
          tasks: Stats.sum(counts.values()),
          unassigned: window.unassigned,
          thisWeek: { from: week.start.toISOString(), to: week.end.toISOString(), due: window.dueInWindow, completed: window.completedInWindow, created: window.createdInWindow },
          members: { owner: byRole("owner"), admin: byRole("admin"), member: byRole("member"), viewer: byRole("viewer"), guests: roster.filter((m) => m.guest).length },
          timeZone: config.general.timeZone
        }
      })
  }),
  operation({
    service, tag, operationId: "getWorkspaceSpaceStats", method: "GET", path: "/v1/workspaces/{workspaceId}/stats/spaces",
    summary: "Task counts by status type for each space the caller can see", auth: "both", scopes: read, params: WorkspaceParams,
    responses: { 200: { description: "Per space", schema: Items(Schema.Struct({ spaceId: Id, shortId: Schema.String, name: Schema.String, isPrivate: Schema.Boolean, folders: Schema.Number, lists: Schema.Number, tasks: Counts }).annotate({ identifier: "WorkspaceSpaceStats" })) } },
    examples: [{ name: "spaces", request: { params: wsp }, response: { status: 200, body: { items: [{ spaceId: ids.space, shortId: "S-1", name: "Engineering", isPrivate: false, folders: 1, lists: 3, tasks: exampleCounts }] } } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId)
        const outline = yield* orDieSql(outlineOf(params.workspaceId, caller.viewer))
        const counts = yield* orDieSql(Stats.countsBySpace(params.workspaceId, caller.viewer))
        return {
          items: outline.spaces.map((s) => ({
            spaceId: s.id, shortId: s.shortId, name: s.name, isPrivate: s.isPrivate,
            folders: outline.folders.filter((f) => f.spaceId === s.id).length,
            lists: outline.lists.filter((l) => l.spaceId === s.id).length,
            tasks: Stats.sum([counts.get(s.id) ?? { total: 0, open: 0, active: 0, done: 0, closed: 0, overdue: 0 }])
          }))
        }
      })
  }),
  operation({
    service, tag, operationId: "getWorkspaceWorkload", method: "GET", path: "/v1/workspaces/{workspaceId}/stats/workload",
    summary: "Each member's unfinished tasks: how many, overdue, due within the next days, estimated minutes; and the unassigned ones",
    auth: "both", scopes: read, params: WorkspaceParams,
    query: Schema.Struct({ days: Schema.optionalKey(Schema.FiniteFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 90 })).annotate({ description: "\"Due soon\" window in days (default 7)" })) }),
    responses: {
      200: {
        description: "Workload",
        schema: Schema.Struct({
          items: Schema.Array(Schema.Struct({ userId: Id, name: Schema.String, email: Schema.String, openTasks: Schema.Number, overdueTasks: Schema.Number, dueSoon: Schema.Number, estimateMinutes: Schema.Number })),
          unassigned: Schema.Number, days: Schema.Number
        }).annotate({ identifier: "WorkspaceWorkload" })
      }
    },
    examples: [{ name: "workload", request: { params: wsp }, response: { status: 200, body: { items: [{ userId: bob.userId, name: "Bob", email: bob.email, openTasks: 5, overdueTasks: 1, dueSoon: 2, estimateMinutes: 480 }], unassigned: 2, days: 7 } } }],
    handler: ({ params, query: q }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId)
        const days = q.days ?? 7
        const load = yield* orDieSql(Stats.workload(params.workspaceId, caller.viewer, new Date(Date.now() + days * 86_400_000)))
        const roster = yield* orDieSql(rosterOf(params.workspaceId))
        const window = yield* orDieSql(Stats.taskWindow(params.workspaceId, caller.viewer, new Date(), new Date()))
        const items = roster.map((m) => ({
          userId: m.userId, name: m.name, email: m.email,
          openTasks: load.get(m.userId)?.openTasks ?? 0, overdueTasks: load.get(m.userId)?.overdueTasks ?? 0,
          dueSoon: load.get(m.userId)?.dueSoon ?? 0, estimateMinutes: load.get(m.userId)?.estimateMinutes ?? 0
        })).sort((a, b) => b.openTasks - a.openTasks || a.name.localeCompare(b.name))
        return { items, unassigned: window.unassigned, days }
      })
  }),
  operation({
    service, tag, operationId: "getWorkspaceThroughput", method: "GET", path: "/v1/workspaces/{workspaceId}/stats/throughput",
    summary: "Tasks created and finished per day (in the workspace's time zone) over the last days", auth: "both", scopes: read, params: WorkspaceParams,
    query: Schema.Struct({ days: Schema.optionalKey(Schema.FiniteFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 90 })).annotate({ description: "How many days, today included (default 14)" })) }),
    responses: {
      200: {
        description: "Per day, oldest first",
        schema: Schema.Struct({ timeZone: Schema.String, from: Timestamp, days: Schema.Array(Schema.Struct({ date: Schema.String, created: Schema.Number, completed: Schema.Number })) }).annotate({ identifier: "WorkspaceThroughput" })
      }
    },
    examples: [{ name: "week", request: { params: wsp, query: { days: "2" } }, response: { status: 200, body: { timeZone: "UTC", from: "2026-11-20T00:00:00.000Z", days: [{ date: "2026-11-20", created: 4, completed: 2 }, { date: "2026-11-21", created: 1, completed: 3 }] } } }],
    handler: ({ params, query: q }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId)
        const timeZone = (yield* configOfWorkspace(params.workspaceId)).general.timeZone
        return { timeZone, ...(yield* orDieSql(Stats.throughput(params.workspaceId, caller.viewer, q.days ?? 14, timeZone))) }
      })
  }),
  operation({
    service, tag, operationId: "getWorkspaceUsage", method: "GET", path: "/v1/workspaces/{workspaceId}/usage",
    summary: "What the workspace uses: seats against the limit, storage (attachments, logo), counts of spaces, lists, tasks, comments and public links (admin)",
    auth: "both", scopes: read, params: WorkspaceParams,
    responses: {
      200: {
        description: "Usage",
        schema: Schema.Struct({
          seats: Schema.Struct({ limit: Schema.NullOr(Schema.Number), members: Schema.Number, guests: Schema.Number, pendingInvitations: Schema.Number, available: Schema.NullOr(Schema.Number) }),
          storage: Schema.Struct({ attachments: Schema.Number, attachmentBytes: Schema.Number, logoBytes: Schema.Number, totalBytes: Schema.Number }),
          counts: Schema.Struct({ spaces: Schema.Number, folders: Schema.Number, lists: Schema.Number, tasks: Schema.Number, comments: Schema.Number, activeShareLinks: Schema.Number })
        }).annotate({ identifier: "WorkspaceUsage" })
      }
    },
    examples: [{
      name: "usage", request: { params: wsp },
      response: { status: 200, body: { seats: { limit: 10, members: 3, guests: 1, pendingInvitations: 1, available: 6 }, storage: { attachments: 4, attachmentBytes: 1048576, logoBytes: 20480, totalBytes: 1069056 }, counts: { spaces: 2, folders: 3, lists: 7, tasks: 120, comments: 340, activeShareLinks: 2 } } }
    }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* admin(context, params.workspaceId)
        const usage = yield* orDieSql(Stats.usageOf(params.workspaceId))
        const logoBytes = (yield* configOfWorkspace(params.workspaceId)).logo?.size ?? 0
        return {
          seats: yield* orDieSql(seatUsage(params.workspaceId)),
          storage: { attachments: usage.attachmentCount, attachmentBytes: usage.attachmentBytes, logoBytes, totalBytes: usage.attachmentBytes + logoBytes },
          counts: { spaces: usage.spaces, folders: usage.folders, lists: usage.lists, tasks: usage.tasks, comments: usage.comments, activeShareLinks: usage.activeShareLinks }
        }
      })
  })
]

const FolderEntry = Schema.Struct({ id: Id, shortId: Schema.String, name: Schema.String, spaceId: Id, space: Schema.String, lists: Schema.Number, archived: Schema.Boolean }).annotate({ identifier: "WorkspaceFolderEntry" })
const Resolved = Schema.Struct({
  type: Schema.Literals(["space", "folder", "list", "task"]), id: Id, shortId: Schema.String, name: Schema.String,
  spaceId: Id, folderId: Schema.NullOr(Id), listId: Schema.NullOr(Id), path: Schema.String, archived: Schema.Boolean
}).annotate({ identifier: "ResolvedShortId" })

const hierarchyOperations = [
  operation({
    service, tag, operationId: "getWorkspaceHierarchy", method: "GET", path: "/v1/workspaces/{workspaceId}/hierarchy",
    summary: "Everything under a workspace: spaces → folders → lists, where each list's statuses come from, its fields and task counts",
    auth: "both", scopes: ["tasks:read"], params: WorkspaceParams, query: Schema.Struct({ archived: Schema.optionalKey(ArchivedQuery) }),
    responses: { 200: { description: "The hierarchy", schema: Hierarchy } },
    examples: [{
      name: "tree", request: { params: wsp },
      response: {
        status: 200,
        body: {
          workspace: { id: ws, name: "Acme" },
          spaces: [{ id: ids.space, shortId: "S-1", name: "Engineering", archived: false, isPrivate: false, folders: [{ id: ids.folder, shortId: "F-1", name: "Q4 roadmap", archived: false, lists: [exampleHierarchyList] }], lists: [] }],
          totals: { spaces: 1, folders: 1, lists: 1, tasks: 12 }
        }
      }
    }],
    handler: ({ params, query: q }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId)
        const workspace = yield* summaryOf(context, params.workspaceId)
        const onlyArchived = q.archived === "only"
        // "only": archived items, and the unarchived ancestors that hold them.
        const o = yield* orDieSql(outlineOf(params.workspaceId, caller.viewer, q.archived === undefined || q.archived === "exclude" ? "exclude" : "include"))
        const listNode = (l: (typeof o.lists)[number]) => {
          const chain = { spaceId: l.spaceId, folderId: l.folderId, listId: l.id }
          const statuses = effectiveAt(o, chain)
          return {
            id: l.id, shortId: l.shortId, name: l.name, archived: l.archived, statusesFrom: statuses.from, statusCount: statuses.items.length,
            customFieldCount: fieldsAt(o, chain).length, tasks: o.taskCounts.get(l.id)?.total ?? 0, unfinishedTasks: o.taskCounts.get(l.id)?.unfinished ?? 0
          }
        }
        const keepList = (l: (typeof o.lists)[number]) => !onlyArchived || l.archived
        const keepFolder = (f: (typeof o.folders)[number]) => !onlyArchived || f.archived || o.lists.some((l) => l.folderId === f.id && l.archived)
        const keepSpace = (s: (typeof o.spaces)[number]) => !onlyArchived || s.archived || o.folders.some((f) => f.spaceId === s.id && keepFolder(f)) || o.lists.some((l) => l.spaceId === s.id && l.archived)
        const spaces = o.spaces.filter(keepSpace).map((s) => ({
          id: s.id, shortId: s.shortId, name: s.name, archived: s.archived, isPrivate: s.isPrivate,
          folders: o.folders.filter((f) => f.spaceId === s.id && keepFolder(f)).map((f) => ({
            id: f.id, shortId: f.shortId, name: f.name, archived: f.archived, lists: o.lists.filter((l) => l.folderId === f.id && keepList(l)).map(listNode)
          })),
          lists: o.lists.filter((l) => l.spaceId === s.id && l.folderId === null && keepList(l)).map(listNode)
        }))
        const lists = spaces.flatMap((s) => [...s.lists, ...s.folders.flatMap((f) => f.lists)])
        return {
          workspace: { id: params.workspaceId, name: workspace.name },
          spaces,
          totals: { spaces: spaces.length, folders: spaces.reduce((n, s) => n + s.folders.length, 0), lists: lists.length, tasks: lists.reduce((n, l) => n + l.tasks, 0) }
        }
      })
  }),
  operation({
    service, tag, operationId: "listWorkspaceFolders", method: "GET", path: "/v1/workspaces/{workspaceId}/folders",
    summary: "Every folder of the workspace the caller can see, with its space and number of lists", auth: "both", scopes: ["tasks:read"], params: WorkspaceParams,
    query: Schema.Struct({ archived: Schema.optionalKey(ArchivedQuery) }),
    responses: { 200: { description: "Folders", schema: Items(FolderEntry) } },
    examples: [{ name: "folders", request: { params: wsp }, response: { status: 200, body: { items: [{ id: ids.folder, shortId: "F-1", name: "Q4 roadmap", spaceId: ids.space, space: "Engineering", lists: 3, archived: false }] } } }],
    handler: ({ params, query: q }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId)
        const rows = yield* orDieSql(query<{ id: string; shortId: string; name: string; spaceId: string; space: string; lists: number; archived: boolean }>(
          `SELECT f.id, f.short_id AS "shortId", f.name, s.id AS "spaceId", s.name AS space, f.archived_at IS NOT NULL AS archived,
                  (SELECT count(*)::int FROM pm_lists l WHERE l.folder_id = f.id AND l.deleted_at IS NULL AND l.archived_at IS NULL) AS lists
             FROM pm_folders f JOIN pm_spaces s ON s.id = f.space_id
            WHERE f.workspace_id = $1 AND f.deleted_at IS NULL AND s.deleted_at IS NULL AND ${Reads.visibleSpace("s", 2, 3)}
              AND ${q.archived === "include" ? "TRUE" : q.archived === "only" ? "f.archived_at IS NOT NULL" : "f.archived_at IS NULL AND s.archived_at IS NULL"}
            ORDER BY s.position, f.position, f.created_at`,
          [params.workspaceId, caller.userId, caller.admin]
        ))
        return { items: rows }
      })
  }),
  operation({
    service, tag, operationId: "resolveWorkspaceShortId", method: "GET", path: "/v1/workspaces/{workspaceId}/resolve/{shortId}",
    summary: "What a short id (S-1, F-2, L-3, T-42) names: its kind, id, name and place", auth: "both", scopes: ["tasks:read"],
    params: Schema.Struct({ workspaceId: Id, shortId: ShortId }),
    responses: { 200: { description: "Resolved", schema: Resolved }, 404: { description: "Nothing the caller can see has it" } },
    examples: [{ name: "task", request: { params: { workspaceId: ws, shortId: "T-42" } }, response: { status: 200, body: { type: "task", id: ids.task, shortId: "T-42", name: "Ship the login page", spaceId: ids.space, folderId: ids.folder, listId: ids.list, path: "Engineering / Q4 roadmap / Backlog", archived: false } } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* inWorkspace(context, params.workspaceId)
        const shortId = params.shortId.trim().toUpperCase()
        const prefix = shortId.split("-")[0]
        const notFound = reject("not_found", `Nothing has the short id ${shortId}`, [{ path: "path.shortId", message: "not found" }])
        const table = prefix === "S" ? "pm_spaces" : prefix === "F" ? "pm_folders" : prefix === "L" ? "pm_lists" : prefix === "T" ? "pm_tasks" : undefined
        if (table === undefined) return yield* notFound
        const found = yield* orDieSql(query<{ id: string }>(`SELECT id FROM ${table} WHERE workspace_id = $1 AND short_id = $2 AND deleted_at IS NULL`, [params.workspaceId, shortId]))
        if (found.length === 0) return yield* notFound
        const id = found[0]!.id
        const type = prefix === "S" ? "space" as const : prefix === "F" ? "folder" as const : prefix === "L" ? "list" as const : "task" as const
        const reach = type === "space" ? onSpace : type === "folder" ? onFolder : type === "list" ? onList : onTask
        const { at } = yield* reach(context, id).pipe(Effect.mapError((e) => (e._tag === "Rejection" && e.code === "not_found" ? notFound : e)))
        const names = yield* orDieSql(query<{ space: string; folder: string | null; list: string | null; name: string }>(
          `SELECT s.name AS space, f.name AS folder, l.name AS list,
                  COALESCE((SELECT name FROM pm_tasks WHERE id = $4), l.name, f.name, s.name) AS name
             FROM pm_spaces s LEFT JOIN pm_folders f ON f.id = $2 LEFT JOIN pm_lists l ON l.id = $3 WHERE s.id = $1`,
          [at.spaceId, at.folderId ?? "", at.listId ?? "", at.taskId ?? ""]
        ))
        const n = names[0]!
        const parts = type === "space" ? [] : type === "folder" ? [n.space] : type === "list" ? [n.space, n.folder] : [n.space, n.folder, n.list]
        const path = parts.filter((p): p is string => p !== null).join(" / ")
        return { type, id, shortId, name: n.name, spaceId: at.spaceId, folderId: at.folderId, listId: at.listId, path, archived: at.archived }
      })
  }),
  operation({
    service, tag, operationId: "searchWorkspace", method: "GET", path: "/v1/workspaces/{workspaceId}/search",
    summary: "Find spaces, folders, lists and tasks by name (exact matches first, then prefixes, then the rest)", auth: "both", scopes: ["tasks:read"], params: WorkspaceParams,
    query: Schema.Struct({
      q: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200), Schema.isPattern(/\S/, { expected: "a non-blank text" })),
      types: Schema.optionalKey(Schema.String.check(Schema.isPattern(/^(space|folder|list|task)(,(space|folder|list|task))*$/, { expected: "kinds separated by commas: space,folder,list,task" }))),
      includeArchived: Schema.optionalKey(Schema.Literals(["true", "false"])),
      limit: Schema.optionalKey(Schema.FiniteFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 100 })))
    }),
    responses: { 200: { description: "Matches", schema: Items(SearchHit) } },
    examples: [{ name: "login", request: { params: wsp, query: { q: "login" } }, response: { status: 200, body: { items: [{ type: "task", id: ids.task, shortId: "T-42", name: "Ship the login page", path: "Engineering / Q4 roadmap / Backlog", archived: false }] } } }],
    handler: ({ params, query: q }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId)
        const types = q.types ? q.types.split(",") : ["space", "folder", "list", "task"]
        const archived = q.includeArchived === "true"
        const text = q.q.trim().toLowerCase()
        const rows = yield* orDieSql(query<{ type: "space" | "folder" | "list" | "task"; id: string; shortId: string; name: string; space: string; folder: string | null; list: string | null; archived: boolean; rank: number }>(
          `SELECT * FROM (
             SELECT 'space' AS type, s.id, s.short_id AS "shortId", s.name, s.name AS space, NULL::text AS folder, NULL::text AS list, s.archived_at IS NOT NULL AS archived
               FROM pm_spaces s WHERE s.workspace_id = $1 AND s.deleted_at IS NULL AND ${Reads.visibleSpace("s", 2, 3)}
             UNION ALL
             SELECT 'folder', f.id, f.short_id, f.name, s.name, NULL, NULL, f.archived_at IS NOT NULL OR s.archived_at IS NOT NULL
               FROM pm_folders f JOIN pm_spaces s ON s.id = f.space_id WHERE f.workspace_id = $1 AND f.deleted_at IS NULL AND s.deleted_at IS NULL AND ${Reads.visibleSpace("s", 2, 3)}
             UNION ALL
             SELECT 'list', l.id, l.short_id, l.name, s.name, f.name, NULL, l.archived_at IS NOT NULL OR s.archived_at IS NOT NULL
               FROM pm_lists l JOIN pm_spaces s ON s.id = l.space_id LEFT JOIN pm_folders f ON f.id = l.folder_id
              WHERE l.workspace_id = $1 AND l.deleted_at IS NULL AND s.deleted_at IS NULL AND ${Reads.visibleSpace("s", 2, 3)}
             UNION ALL
             SELECT 'task', t.id, t.short_id, t.name, s.name, f.name, l.name, t.archived_at IS NOT NULL OR l.archived_at IS NOT NULL OR s.archived_at IS NOT NULL
               FROM pm_tasks t JOIN pm_lists l ON l.id = t.list_id JOIN pm_spaces s ON s.id = t.space_id LEFT JOIN pm_folders f ON f.id = l.folder_id
              WHERE t.workspace_id = $1 AND t.deleted_at IS NULL AND l.deleted_at IS NULL AND s.deleted_at IS NULL AND ${Reads.visibleSpace("s", 2, 3)}
           ) x
           WHERE x.type = ANY($4::text[]) AND lower(x.name) LIKE $5 ESCAPE '\\' AND ($6::boolean OR NOT x.archived)
           ORDER BY CASE WHEN lower(x.name) = $7 THEN 0 WHEN lower(x.name) LIKE $8 ESCAPE '\\' THEN 1 ELSE 2 END, length(x.name), lower(x.name), x.id
           LIMIT $9`,
          [params.workspaceId, caller.userId, caller.admin, types, `%${escapeLike(text)}%`, archived, text, `${escapeLike(text)}%`, q.limit ?? 20]
        ))
        return {
          items: rows.map((r) => ({
            type: r.type, id: r.id, shortId: r.shortId, name: r.name, archived: r.archived,
            path: r.type === "space" ? "" : [r.space, r.folder, r.list].filter((p): p is string => p !== null).join(" / ")
          }))
        }
      })
  }),
  operation({
    service, tag, operationId: "listWorkspaceArchive", method: "GET", path: "/v1/workspaces/{workspaceId}/archived",
    summary: "The workspace's archived spaces, folders and lists (what can be restored), with their places", auth: "both", scopes: ["tasks:read"], params: WorkspaceParams,
    responses: {
      200: {
        description: "Archived items",
        schema: Schema.Struct({
          spaces: Schema.Array(Schema.Struct({ id: Id, shortId: Schema.String, name: Schema.String, archivedAt: Schema.NullOr(Timestamp) })),
          folders: Schema.Array(Schema.Struct({ id: Id, shortId: Schema.String, name: Schema.String, space: Schema.String, archivedAt: Schema.NullOr(Timestamp) })),
          lists: Schema.Array(Schema.Struct({ id: Id, shortId: Schema.String, name: Schema.String, path: Schema.String, archivedAt: Schema.NullOr(Timestamp) })),
          archivedTasks: Schema.Number
        }).annotate({ identifier: "WorkspaceArchive" })
      }
    },
    examples: [{ name: "archive", request: { params: wsp }, response: { status: 200, body: { spaces: [], folders: [{ id: ids.folder, shortId: "F-1", name: "2025 roadmap", space: "Engineering", archivedAt: at0 }], lists: [], archivedTasks: 14 } } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId)
        const spaces = yield* orDieSql(Reads.listSpaces(params.workspaceId, caller.viewer, "only"))
        const folders = yield* orDieSql(query<{ id: string; shortId: string; name: string; space: string; archivedAt: string }>(
          `SELECT f.id, f.short_id AS "shortId", f.name, s.name AS space, f.archived_at AS "archivedAt" FROM pm_folders f JOIN pm_spaces s ON s.id = f.space_id
            WHERE f.workspace_id = $1 AND f.deleted_at IS NULL AND f.archived_at IS NOT NULL AND s.deleted_at IS NULL AND ${Reads.visibleSpace("s", 2, 3)}
            ORDER BY f.archived_at DESC`,
          [params.workspaceId, caller.userId, caller.admin]
        ))
        const lists = yield* orDieSql(Reads.listAllLists(params.workspaceId, caller.viewer, "only"))
        const tasks = yield* orDieSql(query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pm_tasks t JOIN pm_spaces s ON s.id = t.space_id
            WHERE t.workspace_id = $1 AND t.deleted_at IS NULL AND t.archived_at IS NOT NULL AND s.deleted_at IS NULL AND ${Reads.visibleSpace("s", 2, 3)}`,
          [params.workspaceId, caller.userId, caller.admin]
        ))
        return {
          spaces: spaces.map((s) => ({ id: s.id, shortId: s.shortId, name: s.name, archivedAt: s.archivedAt })),
          folders,
          lists: lists.map((l) => ({ id: l.id, shortId: l.shortId, name: l.name, path: [l.spaceName, l.folderName].filter((p): p is string => p !== null).join(" / "), archivedAt: l.archivedAt })),
          archivedTasks: tasks[0]!.n
        }
      })
  }),
  operation({
    service, tag, operationId: "exportWorkspaceStructure", method: "GET", path: "/v1/workspaces/{workspaceId}/export",
    summary: "Download the workspace's structure as JSON: settings and every space the caller can see with its statuses, custom fields, folders and lists (no tasks)",
    auth: "both", scopes: ["tasks:read"], params: WorkspaceParams,
    responses: { 200: { description: "The structure (a JSON file)", schema: StructureDocument, contentType: "application/json" } },
    examples: [{ name: "export", request: { params: wsp }, response: { status: 200, body: exampleStructure } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId)
        const workspace = yield* summaryOf(context, params.workspaceId)
        const config = yield* configOfWorkspace(params.workspaceId)
        const spaces = yield* orDieSql(Reads.listSpaces(params.workspaceId, caller.viewer))
        const templates = yield* orDieSql(Effect.forEach(spaces, (s) => spaceTemplate(s.id)))
        const document = {
          format: "atrium.pm.workspace-structure", version: 1, exportedAt: new Date().toISOString(),
          workspace: { name: workspace.name, settings: { general: config.general, features: config.features, defaultViews: config.defaultViews } },
          spaces: templates
        }
        const filename = `${workspace.name.replace(/[^\w.-]+/g, "_").slice(0, 60) || "workspace"}-structure.json`
        return raw("application/json; charset=utf-8", JSON.stringify(document, null, 2), { "content-disposition": `attachment; filename="${filename}"` })
      })
  }),
  operation({
    service, tag, operationId: "importWorkspaceStructure", method: "POST", path: "/v1/workspaces/{workspaceId}/import",
    summary: "Create spaces (with statuses, custom fields, folders and lists) from an exported structure, and optionally take its settings (admin)",
    auth: "both", scopes: ["workspaces:write", "tasks:write"], params: WorkspaceParams,
    body: Schema.Struct({ structure: StructureDocument, applySettings: Schema.optionalKey(Schema.Boolean.annotate({ description: "Also take its preferences, features and default views (default false)" })) }),
    responses: { 201: { description: "Created", schema: Schema.Struct({ spaces: Schema.Array(Schema.Struct({ id: Id, shortId: Schema.String, name: Schema.String })), settingsApplied: Schema.Boolean }).annotate({ identifier: "WorkspaceImportResult" }) } },
    examples: [{ name: "import", request: { params: wsp, body: { structure: exampleStructure } }, response: { status: 201, body: { spaces: [{ id: ids.space, shortId: "S-3", name: "Engineering" }], settingsApplied: false } } }],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* admin(context, params.workspaceId)
        for (const [index, space] of body.structure.spaces.entries()) {
          const sets = [[`body.structure.spaces.${index}.statuses`, space.statuses] as const, ...(space.folders ?? []).map((f, i) => [`body.structure.spaces.${index}.folders.${i}.statuses`, f.statuses] as const)]
          for (const [path, statuses] of sets) {
            if (statuses !== undefined && statuses.length > 0 && !statuses.some((s) => s.type === "open")) {
              return yield* reject("invalid", "A workflow needs an open status", [{ path, message: "no status of type open" }])
            }
          }
        }
        const created: Array<{ id: string; shortId: string; name: string }> = []
        for (const template of body.structure.spaces) {
          const space = (yield* send(PmWorkspace, params.workspaceId, "importSpace", caller.userId, { template: template as never })) as { id: string; shortId: string; name: string }
          created.push({ id: space.id, shortId: space.shortId, name: space.name })
        }
        const settings = body.structure.workspace?.settings
        if (body.applySettings && settings) {
          for (const section of ["general", "features", "defaultViews"] as const) {
            const patch = settings[section]
            if (patch && Object.keys(patch).length > 0) yield* send(PmOrganization, params.workspaceId, "updateSection", caller.userId, { section, patch: defined(patch) })
          }
        }
        return { spaces: created, settingsApplied: Boolean(body.applySettings && settings) }
      })
  }),
  operation({
    service, tag, operationId: "listWorkspaceStatuses", method: "GET", path: "/v1/workspaces/{workspaceId}/statuses",
    summary: "Every workflow status used in the workspace, by name: its type, colors, where it is defined and how many tasks are in it", auth: "both", scopes: ["tasks:read"], params: WorkspaceParams,
    responses: {
      200: {
        description: "Statuses",
        schema: Items(Schema.Struct({
          name: Schema.String, types: Schema.Array(StatusType), colors: Schema.Array(Schema.String),
          definedIn: Schema.Array(Schema.Struct({ scopeType: Schema.Literals(["space", "folder", "list"]), scopeId: Id, name: Schema.String })), tasks: Schema.Number
        }).annotate({ identifier: "WorkspaceStatusUsage" }))
      }
    },
    examples: [{ name: "statuses", request: { params: wsp }, response: { status: 200, body: { items: [{ name: "in progress", types: ["active"], colors: ["#5f55ee"], definedIn: [{ scopeType: "space", scopeId: ids.space, name: "Engineering" }], tasks: 3 }] } } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId)
        const outline = yield* orDieSql(outlineOf(params.workspaceId, caller.viewer, "include"))
        const scopeName = new Map<string, { type: "space" | "folder" | "list"; name: string }>([
          ...outline.spaces.map((s) => [s.id, { type: "space" as const, name: s.name }] as const),
          ...outline.folders.map((f) => [f.id, { type: "folder" as const, name: f.name }] as const),
          ...outline.lists.map((l) => [l.id, { type: "list" as const, name: l.name }] as const)
        ])
        const counts = yield* orDieSql(query<{ status: string; n: number }>(
          `SELECT lower(t.status) AS status, count(*)::int AS n FROM pm_tasks t JOIN pm_spaces s ON s.id = t.space_id
            WHERE t.workspace_id = $1 AND t.deleted_at IS NULL AND t.archived_at IS NULL AND s.deleted_at IS NULL AND ${Reads.visibleSpace("s", 2, 3)} GROUP BY lower(t.status)`,
          [params.workspaceId, caller.userId, caller.admin]
        ))
        const byName = new Map<string, { name: string; types: Set<string>; colors: Set<string>; definedIn: Array<{ scopeType: "space" | "folder" | "list"; scopeId: string; name: string }> }>()
        for (const [scopeId, statuses] of outline.statuses) {
          const scope = scopeName.get(scopeId)
          if (scope === undefined) continue
          for (const status of statuses) {
            const key = status.name.toLowerCase()
            const entry = byName.get(key) ?? { name: status.name, types: new Set(), colors: new Set(), definedIn: [] }
            entry.types.add(status.type)
            entry.colors.add(status.color)
            entry.definedIn.push({ scopeType: scope.type, scopeId, name: scope.name })
            byName.set(key, entry)
          }
        }
        const taskCount = new Map(counts.map((c) => [c.status, c.n] as const))
        return {
          items: [...byName.entries()].map(([key, e]) => ({ name: e.name, types: [...e.types] as Array<"open">, colors: [...e.colors], definedIn: e.definedIn, tasks: taskCount.get(key) ?? 0 }))
            .sort((a, b) => b.definedIn.length - a.definedIn.length || a.name.localeCompare(b.name))
        }
      })
  }),
  operation({
    service, tag, operationId: "listWorkspaceCustomFields", method: "GET", path: "/v1/workspaces/{workspaceId}/custom-fields",
    summary: "Every custom field defined in the workspace: where, its type and options, and how many tasks have a value", auth: "both", scopes: ["tasks:read"], params: WorkspaceParams,
    query: Schema.Struct({ type: Schema.optionalKey(FieldType) }),
    responses: {
      200: {
        description: "Fields",
        schema: Items(Schema.Struct({
          id: Id, name: Schema.String, type: FieldType, required: Schema.Boolean, options: Schema.Array(Schema.String),
          scopeType: Schema.Literals(["space", "folder", "list"]), scopeId: Id, scopeName: Schema.String, space: Schema.String, values: Schema.Number
        }).annotate({ identifier: "WorkspaceCustomField" }))
      }
    },
    examples: [{ name: "fields", request: { params: wsp }, response: { status: 200, body: { items: [{ id: ids.field, name: "Environment", type: "dropdown", required: false, options: ["production", "staging"], scopeType: "space", scopeId: ids.space, scopeName: "Engineering", space: "Engineering", values: 7 }] } } }],
    handler: ({ params, query: q }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId)
        const outline = yield* orDieSql(outlineOf(params.workspaceId, caller.viewer, "include"))
        const spaceOf = new Map<string, { name: string; space: string }>([
          ...outline.spaces.map((s) => [s.id, { name: s.name, space: s.name }] as const),
          ...outline.folders.map((f) => [f.id, { name: f.name, space: outline.spaces.find((s) => s.id === f.spaceId)?.name ?? "" }] as const),
          ...outline.lists.map((l) => [l.id, { name: l.name, space: outline.spaces.find((s) => s.id === l.spaceId)?.name ?? "" }] as const)
        ])
        const fields = [...outline.fields.values()].flat().filter((f) => spaceOf.has(f.scopeId) && (q.type === undefined || f.type === q.type))
        const values = fields.length === 0 ? [] : yield* orDieSql(query<{ fieldId: string; n: number }>(
          `SELECT v.field_id AS "fieldId", count(*)::int AS n FROM pm_task_custom_values v JOIN pm_tasks t ON t.id = v.task_id
            WHERE v.field_id = ANY($1::text[]) AND t.deleted_at IS NULL GROUP BY v.field_id`,
          [fields.map((f) => f.id)]
        ))
        const valueCount = new Map(values.map((v) => [v.fieldId, v.n] as const))
        return {
          items: fields.map((f) => ({
            id: f.id, name: f.name, type: f.type, required: f.required, options: (f.config.options ?? []).map((o) => o.name),
            scopeType: f.scopeType, scopeId: f.scopeId, scopeName: spaceOf.get(f.scopeId)!.name, space: spaceOf.get(f.scopeId)!.space, values: valueCount.get(f.id) ?? 0
          }))
        }
      })
  }),
  operation({
    service, tag, operationId: "listWorkspaceTags", method: "GET", path: "/v1/workspaces/{workspaceId}/tags",
    summary: "Every tag of the workspace's spaces the caller can see, with how many tasks carry it", auth: "both", scopes: ["tasks:read"], params: WorkspaceParams,
    responses: { 200: { description: "Tags", schema: Items(Schema.Struct({ id: Id, name: Schema.String, color: Schema.String, spaceId: Id, space: Schema.String, tasks: Schema.Number }).annotate({ identifier: "WorkspaceTag" })) } },
    examples: [{ name: "tags", request: { params: wsp }, response: { status: 200, body: { items: [{ id: ids.tag, name: "frontend", color: "#7b68ee", spaceId: ids.space, space: "Engineering", tasks: 5 }] } } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId)
        const rows = yield* orDieSql(query<{ id: string; name: string; color: string; spaceId: string; space: string; tasks: number }>(
          `SELECT g.id, g.name, g.color, s.id AS "spaceId", s.name AS space,
                  (SELECT count(*)::int FROM pm_task_tags tt JOIN pm_tasks t ON t.id = tt.task_id WHERE tt.tag_id = g.id AND t.deleted_at IS NULL) AS tasks
             FROM pm_tags g JOIN pm_spaces s ON s.id = g.space_id
            WHERE g.workspace_id = $1 AND s.deleted_at IS NULL AND ${Reads.visibleSpace("s", 2, 3)}
            ORDER BY lower(g.name), s.position`,
          [params.workspaceId, caller.userId, caller.admin]
        ))
        return { items: rows }
      })
  })
]

const BulkResult = Schema.Struct({
  ref: Schema.String.annotate({ description: "The e-mail or user id of the row" }),
  ok: Schema.Boolean,
  member: Schema.optionalKey(MemberDetail),
  error: Schema.optionalKey(Schema.Struct({ code: Schema.String, message: Schema.String }))
}).annotate({ identifier: "BulkMemberResult" })

const failure = (error: unknown) =>
  typeof error === "object" && error !== null && (error as { _tag?: string })._tag === "Rejection"
    ? { code: (error as { code: string }).code, message: (error as { message: string }).message }
    : undefined

const Deactivated = Schema.Struct({ userId: Id, email: Schema.String, name: Schema.String, role: AssignableRole, deactivatedBy: Id, deactivatedAt: Timestamp }).annotate({ identifier: "DeactivatedMember" })

const membersOperations = [
  operation({
    service, tag, operationId: "listWorkspaceMembers", method: "GET", path: "/v1/workspaces/{workspaceId}/members",
    summary: "List a workspace's members", auth: "both", scopes: read, params: WorkspaceParams,
    responses: { 200: { description: "Members", schema: Items(W.MemberView) } },
    examples: [{ name: "members", request: { params: wsp }, response: { status: 200, body: { items: [W.exampleMember] } } }],
    handler: ({ params }, context) => W.listMembers(context, params.workspaceId)
  }),
  operation({
    service, tag, operationId: "addWorkspaceMember", method: "POST", path: "/v1/workspaces/{workspaceId}/members",
    summary: "Add a registered user by e-mail (admin)", description: "Takes a seat: refused (409) when the workspace's seat limit is reached.",
    auth: "both", scopes: write, params: WorkspaceParams, body: W.AddMemberBody,
    responses: { 201: { description: "Added", schema: W.MemberView }, 404: { description: "No user with that e-mail" }, 409: { description: "Already a member, or no free seat" } },
    examples: [{ name: "add", request: { params: wsp, body: { email: "bob@example.com", role: "member" } }, response: { status: 201, body: W.exampleMember } }],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId)
        if (caller.admin) yield* orDieSql(requireSeats(params.workspaceId, 1))
        const member = yield* W.addMember(context, params.workspaceId, body.email, body.role)
        return member
      })
  }),
  operation({
    service, tag, operationId: "getMyWorkspaceMembership", method: "GET", path: "/v1/workspaces/{workspaceId}/members/me",
    summary: "The caller's own membership: role, since when, guest access", auth: "both", scopes: read, params: WorkspaceParams,
    responses: { 200: { description: "Membership", schema: MemberDetail } },
    examples: [{ name: "me", request: { params: wsp }, response: { status: 200, body: exampleDetail } }],
    handler: ({ params }, context) => Effect.flatMap(inWorkspace(context, params.workspaceId), (caller) => orDieSql(rosterEntry(params.workspaceId, caller.userId)))
  }),
  operation({
    service, tag, operationId: "searchWorkspaceMembers", method: "GET", path: "/v1/workspaces/{workspaceId}/members/search",
    summary: "Find members by name or e-mail, role or guest status (paged)", auth: "both", scopes: read, params: WorkspaceParams,
    query: Schema.Struct({
      q: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(200)).annotate({ description: "Part of a name or e-mail (case-insensitive)" })),
      role: Schema.optionalKey(Role),
      guest: Schema.optionalKey(Schema.Literals(["true", "false"])),
      offset: Schema.optionalKey(Offset), limit: Schema.optionalKey(Limit)
    }),
    responses: { 200: { description: "A page of members, by name", schema: Schema.Struct({ items: Schema.Array(MemberDetail), total: Schema.Number, offset: Schema.Number, limit: Schema.Number }).annotate({ identifier: "WorkspaceMemberPage" }) } },
    examples: [{ name: "bob", request: { params: wsp, query: { q: "bob" } }, response: { status: 200, body: { items: [exampleDetail], total: 1, offset: 0, limit: 50 } } }],
    handler: ({ params, query: q }, context) =>
      Effect.gen(function* () {
        yield* inWorkspace(context, params.workspaceId)
        const text = q.q?.trim().toLowerCase() ?? ""
        const matches = (yield* orDieSql(rosterOf(params.workspaceId)))
          .filter((m) => (text === "" || m.name.toLowerCase().includes(text) || m.email.toLowerCase().includes(text)) && (q.role === undefined || m.role === q.role) && (q.guest === undefined || m.guest === (q.guest === "true")))
          .sort((a, b) => a.name.localeCompare(b.name) || a.email.localeCompare(b.email))
        const { offset, limit } = pageOf(q)
        return { items: matches.slice(offset, offset + limit), total: matches.length, offset, limit }
      })
  }),
  operation({
    service, tag, operationId: "exportWorkspaceMembers", method: "GET", path: "/v1/workspaces/{workspaceId}/members/export",
    summary: "Download the members as CSV: e-mail, name, role, guest, access end, joined (admin)", auth: "both", scopes: read, params: WorkspaceParams,
    responses: { 200: { description: "CSV file", contentType: "text/csv" } },
    examples: [{ name: "csv", request: { params: wsp }, response: { status: 200, body: "email,name,role,guest,guestExpiresAt,addedAt\r\nbob@example.com,Bob,member,false,,2026-11-21T12:05:00.000Z\r\n" } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* admin(context, params.workspaceId)
        const roster = yield* orDieSql(rosterOf(params.workspaceId))
        const body = csv([["email", "name", "role", "guest", "guestExpiresAt", "addedAt"], ...roster.map((m) => [m.email, m.name, m.role, m.guest, m.guestExpiresAt, m.addedAt])])
        return raw("text/csv; charset=utf-8", body, { "content-disposition": `attachment; filename="members-${params.workspaceId}.csv"` })
      })
  }),
  operation({
    service, tag, operationId: "bulkAddWorkspaceMembers", method: "POST", path: "/v1/workspaces/{workspaceId}/members/bulk",
    summary: "Add up to 100 registered users by e-mail (admin); each row succeeds or fails on its own", auth: "both", scopes: write, params: WorkspaceParams,
    body: Schema.Struct({ members: Schema.Array(W.AddMemberBody).check(Schema.isMinLength(1), Schema.isMaxLength(100)) }),
    responses: { 200: { description: "One result per row, in order", schema: Items(BulkResult) } },
    examples: [{ name: "bulk", request: { params: wsp, body: { members: [{ email: "bob@example.com", role: "member" }, { email: "ghost@example.com", role: "viewer" }] } }, response: { status: 200, body: { items: [{ ref: "bob@example.com", ok: true, member: exampleDetail }, { ref: "ghost@example.com", ok: false, error: { code: "not_found", message: "No user has that e-mail; they must register first" } }] } } }],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* admin(context, params.workspaceId)
        const items = []
        for (const [index, row] of body.members.entries()) {
          const attempt = yield* Effect.result(Effect.gen(function* () {
            yield* orDieSql(requireSeats(params.workspaceId, 1))
            const user = yield* userByEmail(row.email, `body.members.${index}.email`)
            yield* identity(params.workspaceId, "addMember", { by: caller.userId, userId: user.id, role: row.role })
            return yield* orDieSql(rosterEntry(params.workspaceId, user.id))
          }))
          if (attempt._tag === "Success") items.push({ ref: normalizeEmail(row.email), ok: true, member: attempt.success })
          else {
            const error = failure(attempt.failure)
            if (error === undefined) return yield* Effect.fail(attempt.failure)
            items.push({ ref: normalizeEmail(row.email), ok: false, error })
          }
        }
        return { items }
      })
  }),
  operation({
    service, tag, operationId: "bulkRemoveWorkspaceMembers", method: "POST", path: "/v1/workspaces/{workspaceId}/members/bulk-remove",
    summary: "Remove up to 100 members (admin); each row succeeds or fails on its own (the owner is never removed)", auth: "both", scopes: write, params: WorkspaceParams,
    body: Schema.Struct({ userIds: Schema.Array(Id).check(Schema.isMinLength(1), Schema.isMaxLength(100)) }),
    responses: { 200: { description: "One result per row, in order", schema: Items(BulkResult) } },
    examples: [{ name: "bulk", request: { params: wsp, body: { userIds: [bob.userId] } }, response: { status: 200, body: { items: [{ ref: bob.userId, ok: true }] } } }],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* admin(context, params.workspaceId)
        const items = []
        for (const userId of new Set(body.userIds)) {
          const attempt = yield* Effect.result(Effect.gen(function* () {
            yield* orDieSql(rosterEntry(params.workspaceId, userId))
            yield* identity(params.workspaceId, "removeMember", { by: caller.userId, userId })
          }))
          if (attempt._tag === "Success") items.push({ ref: userId, ok: true })
          else {
            const error = failure(attempt.failure)
            if (error === undefined) return yield* Effect.fail(attempt.failure)
            items.push({ ref: userId, ok: false, error })
          }
        }
        return { items }
      })
  }),
  operation({
    service, tag, operationId: "listDeactivatedWorkspaceMembers", method: "GET", path: "/v1/workspaces/{workspaceId}/members/deactivated",
    summary: "Deactivated members, who can be brought back with their role (admin)", auth: "both", scopes: read, params: WorkspaceParams,
    responses: { 200: { description: "Deactivated members, most recent first", schema: Items(Deactivated) } },
    examples: [{ name: "deactivated", request: { params: wsp }, response: { status: 200, body: { items: [{ userId: bob.userId, email: bob.email, name: "Bob", role: "member", deactivatedBy: alice.userId, deactivatedAt: at0 }] } } }],
    handler: ({ params }, context) => Effect.andThen(admin(context, params.workspaceId), Effect.map(orDieSql(deactivationsOf(params.workspaceId)), (items) => ({ items })))
  }),
  operation({
    service, tag, operationId: "getWorkspaceMember", method: "GET", path: "/v1/workspaces/{workspaceId}/members/{userId}",
    summary: "One member: role, since when, guest access", auth: "both", scopes: read, params: MemberParams,
    responses: { 200: { description: "The member", schema: MemberDetail }, 404: { description: "Not a member" } },
    examples: [{ name: "member", request: { params: { workspaceId: ws, userId: bob.userId } }, response: { status: 200, body: exampleDetail } }],
    handler: ({ params }, context) => Effect.andThen(inWorkspace(context, params.workspaceId), orDieSql(rosterEntry(params.workspaceId, params.userId)))
  }),
  operation({
    service, tag, operationId: "updateWorkspaceMemberRole", method: "PATCH", path: "/v1/workspaces/{workspaceId}/members/{userId}",
    summary: "Change a member's role (admin; the owner's role changes only by transferring ownership; guests cannot be admins)",
    auth: "both", scopes: write, params: MemberParams, body: Schema.Struct({ role: AssignableRole }),
    responses: { 200: { description: "Updated", schema: MemberDetail }, 409: { description: "The owner, or a guest made admin" } },
    examples: [{ name: "promote", request: { params: { workspaceId: ws, userId: bob.userId }, body: { role: "admin" } }, response: { status: 200, body: { ...exampleDetail, role: "admin" } } }],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        yield* admin(context, params.workspaceId)
        yield* orDieSql(rosterEntry(params.workspaceId, params.userId))
        yield* W.setMemberRole(context, params.workspaceId, params.userId, body.role)
        return yield* orDieSql(rosterEntry(params.workspaceId, params.userId))
      })
  }),
  operation({
    service, tag, operationId: "removeWorkspaceMember", method: "DELETE", path: "/v1/workspaces/{workspaceId}/members/{userId}",
    summary: "Remove a member (admin), or leave (yourself); the owner cannot be removed", auth: "both", scopes: write, params: MemberParams,
    responses: { 204: { description: "Removed" }, 409: { description: "The owner" } },
    examples: [{ name: "remove", request: { params: { workspaceId: ws, userId: bob.userId } }, response: { status: 204 } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* inWorkspace(context, params.workspaceId)
        yield* orDieSql(rosterEntry(params.workspaceId, params.userId))
        yield* W.removeMember(context, params.workspaceId, params.userId)
      })
  }),
  operation({
    service, tag, operationId: "getWorkspaceMemberSummary", method: "GET", path: "/v1/workspaces/{workspaceId}/members/{userId}/summary",
    summary: "What a member does here: assigned tasks (open, done, overdue), tasks created, comments, time tracked and when last active",
    description: "Counts only what the caller can see (private spaces as their member or admin).",
    auth: "both", scopes: read, params: MemberParams,
    responses: {
      200: {
        description: "Summary",
        schema: Schema.Struct({
          member: MemberDetail,
          assigned: Schema.Struct({ open: Schema.Number, done: Schema.Number, overdue: Schema.Number }),
          created: Schema.Number, comments: Schema.Number, trackedMinutes: Schema.Number,
          lastActiveAt: Schema.NullOr(Timestamp), changesLast30Days: Schema.Number
        }).annotate({ identifier: "WorkspaceMemberSummary" })
      }
    },
    examples: [{ name: "summary", request: { params: { workspaceId: ws, userId: bob.userId } }, response: { status: 200, body: { member: exampleDetail, assigned: { open: 4, done: 12, overdue: 1 }, created: 9, comments: 23, trackedMinutes: 640, lastActiveAt: at0, changesLast30Days: 57 } } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId)
        const member = yield* orDieSql(rosterEntry(params.workspaceId, params.userId))
        const visible = Reads.visibleSpace("s", 3, 4)
        const rows = yield* orDieSql(query<{ open: number; done: number; overdue: number; created: number; comments: number; tracked: number; lastActiveAt: string | null; recent: number }>(
          `SELECT
             (SELECT count(*) FILTER (WHERE t.closed_at IS NULL)::int FROM pm_task_assignees a JOIN pm_tasks t ON t.id = a.task_id JOIN pm_spaces s ON s.id = t.space_id
               WHERE a.user_id = $2 AND t.workspace_id = $1 AND t.deleted_at IS NULL AND s.deleted_at IS NULL AND ${visible}) AS open,
             (SELECT count(*) FILTER (WHERE t.closed_at IS NOT NULL)::int FROM pm_task_assignees a JOIN pm_tasks t ON t.id = a.task_id JOIN pm_spaces s ON s.id = t.space_id
               WHERE a.user_id = $2 AND t.workspace_id = $1 AND t.deleted_at IS NULL AND s.deleted_at IS NULL AND ${visible}) AS done,
             (SELECT count(*) FILTER (WHERE t.closed_at IS NULL AND t.due_date < now())::int FROM pm_task_assignees a JOIN pm_tasks t ON t.id = a.task_id JOIN pm_spaces s ON s.id = t.space_id
               WHERE a.user_id = $2 AND t.workspace_id = $1 AND t.deleted_at IS NULL AND s.deleted_at IS NULL AND ${visible}) AS overdue,
             (SELECT count(*)::int FROM pm_tasks t JOIN pm_spaces s ON s.id = t.space_id WHERE t.created_by = $2 AND t.workspace_id = $1 AND t.deleted_at IS NULL AND s.deleted_at IS NULL AND ${visible}) AS created,
             (SELECT count(*)::int FROM pm_comments c JOIN pm_tasks t ON t.id = c.task_id JOIN pm_spaces s ON s.id = t.space_id
               WHERE c.author_id = $2 AND c.workspace_id = $1 AND c.deleted_at IS NULL AND t.deleted_at IS NULL AND ${visible}) AS comments,
             (SELECT COALESCE(sum(EXTRACT(EPOCH FROM (COALESCE(e.ended_at, now()) - e.started_at)) / 60), 0)::int FROM pm_time_entries e JOIN pm_tasks t ON t.id = e.task_id JOIN pm_spaces s ON s.id = t.space_id
               WHERE e.user_id = $2 AND e.workspace_id = $1 AND t.deleted_at IS NULL AND ${visible}) AS tracked,
             (SELECT max(at) FROM pm_events WHERE workspace_id = $1 AND actor_id = $2) AS "lastActiveAt",
             (SELECT count(*)::int FROM pm_events WHERE workspace_id = $1 AND actor_id = $2 AND at > now() - interval '30 days') AS recent`,
          [params.workspaceId, params.userId, caller.userId, caller.admin]
        ))
        const r = rows[0]!
        return {
          member,
          assigned: { open: r.open, done: r.done, overdue: r.overdue },
          created: r.created, comments: r.comments, trackedMinutes: r.tracked, lastActiveAt: r.lastActiveAt, changesLast30Days: r.recent
        }
      })
  }),
  operation({
    service, tag, operationId: "listWorkspaceMemberSpaces", method: "GET", path: "/v1/workspaces/{workspaceId}/members/{userId}/spaces",
    summary: "The spaces a member can reach, and why: every public space, private ones as their member, all as an admin (admins, or the member themself)",
    auth: "both", scopes: read, params: MemberParams,
    responses: { 200: { description: "Spaces", schema: Items(Schema.Struct({ id: Id, shortId: Schema.String, name: Schema.String, isPrivate: Schema.Boolean, access: Schema.Literals(["public", "member", "admin"]) }).annotate({ identifier: "MemberSpaceAccess" })) } },
    examples: [{ name: "spaces", request: { params: { workspaceId: ws, userId: bob.userId } }, response: { status: 200, body: { items: [{ id: ids.space, shortId: "S-1", name: "Engineering", isPrivate: false, access: "public" }] } } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId)
        if (!caller.admin && caller.userId !== params.userId) return yield* reject("forbidden", "Only admins see other members' access")
        const member = yield* orDieSql(rosterEntry(params.workspaceId, params.userId))
        const memberAdmin = atLeast(member.role, "admin")
        const spaces = yield* orDieSql(Reads.listSpaces(params.workspaceId, { userId: member.userId, admin: memberAdmin }))
        const memberships = new Set((yield* orDieSql(query<{ spaceId: string }>(`SELECT space_id AS "spaceId" FROM pm_space_members WHERE user_id = $1`, [member.userId]))).map((r) => r.spaceId))
        return {
          items: spaces.map((s) => ({
            id: s.id, shortId: s.shortId, name: s.name, isPrivate: s.isPrivate,
            access: !s.isPrivate ? "public" as const : memberships.has(s.id) ? "member" as const : "admin" as const
          }))
        }
      })
  }),
  operation({
    service, tag, operationId: "deactivateWorkspaceMember", method: "POST", path: "/v1/workspaces/{workspaceId}/members/{userId}/deactivate",
    summary: "Deactivate a member (admin): they lose access at once, their role is kept for reactivation; their tasks and history stay",
    auth: "both", scopes: write, params: MemberParams,
    responses: { 200: { description: "Deactivated", schema: Deactivated }, 409: { description: "The owner, or yourself (leave instead)" } },
    examples: [{ name: "deactivate", request: { params: { workspaceId: ws, userId: bob.userId } }, response: { status: 200, body: { userId: bob.userId, email: bob.email, name: "Bob", role: "member", deactivatedBy: alice.userId, deactivatedAt: at0 } } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* admin(context, params.workspaceId)
        if (params.userId === caller.userId) return yield* reject("conflict", "You cannot deactivate yourself; leave the workspace instead")
        const entry = yield* orDieSql(rosterEntry(params.workspaceId, params.userId))
        if (entry.role === "owner") return yield* reject("conflict", "The owner cannot be deactivated")
        yield* identity(params.workspaceId, "removeMember", { by: caller.userId, userId: params.userId, reason: "deactivated" })
        yield* send(PmOrganization, params.workspaceId, "recordDeactivation", caller.userId, { userId: params.userId, role: entry.role })
        return (yield* orDieSql(deactivationsOf(params.workspaceId, params.userId)))[0]!
      })
  }),
  operation({
    service, tag, operationId: "reactivateWorkspaceMember", method: "POST", path: "/v1/workspaces/{workspaceId}/members/{userId}/reactivate",
    summary: "Bring a deactivated member back with the role they had (admin; takes a seat)", auth: "both", scopes: write, params: MemberParams,
    responses: { 200: { description: "Member again", schema: MemberDetail }, 404: { description: "Not deactivated" }, 409: { description: "No free seat" } },
    examples: [{ name: "reactivate", request: { params: { workspaceId: ws, userId: bob.userId } }, response: { status: 200, body: exampleDetail } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* admin(context, params.workspaceId)
        if ((yield* orDieSql(deactivationsOf(params.workspaceId, params.userId))).length === 0) return yield* reject("not_found", "No deactivated member with this id")
        yield* orDieSql(requireSeats(params.workspaceId, 1))
        const role = yield* send(PmOrganization, params.workspaceId, "takeDeactivation", caller.userId, { userId: params.userId })
        yield* identity(params.workspaceId, "admit", { userId: params.userId, role, via: "reactivation", by: caller.userId }).pipe(
          Effect.tapError(() => send(PmOrganization, params.workspaceId, "restoreDeactivation", caller.userId, { userId: params.userId, role }).pipe(Effect.ignore))
        )
        return yield* orDieSql(rosterEntry(params.workspaceId, params.userId))
      })
  }),
  operation({
    service, tag, operationId: "getWorkspacePermissions", method: "GET", path: "/v1/workspaces/{workspaceId}/permissions",
    summary: "What each role may do in this workspace, and what the caller may do (following the workspace's features and policy)",
    auth: "both", scopes: read, params: WorkspaceParams,
    responses: { 200: { description: "Permissions", schema: Permissions } },
    examples: [{ name: "member", request: { params: wsp }, response: { status: 200, body: permissionsOf("member", false, { ...defaults, logo: null, seatLimit: null, updatedBy: null, updatedAt: null }) } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId)
        return permissionsOf(caller.role, yield* isGuest(params.workspaceId, caller.userId), yield* configOfWorkspace(params.workspaceId))
      })
  })
]

const MyInvitation = Schema.Struct({ ...Invitation.fields, workspaceName: Schema.String }).annotate({ identifier: "MyWorkspaceInvitation" })
const InvitationPreview = Schema.Struct({
  workspaceName: Schema.String, invitedBy: Schema.String, emailHint: Schema.String.annotate({ description: "The invited address, masked" }),
  role: AssignableRole, guest: Schema.Boolean, status: InvitationStatus, expiresAt: Timestamp
}).annotate({ identifier: "WorkspaceInvitationPreview" })
const CreatedInviteLink = Schema.Struct({ link: InviteLink, code: InviteCode.annotate({ description: "Shown once: whoever has it can join (POST /pm/v1/workspace-invitations/join)" }) }).annotate({ identifier: "CreatedWorkspaceInviteLink" })
const exampleInviteLink = { enabled: true, codePrefix: "pmjoin_a1B2c3", role: "member", createdBy: alice.userId, createdAt: at0, expiresAt: later, maxUses: 20, uses: 3 }
const exampleCode = "pmjoin_a1B2c3RlbGwgbm9ib2R5IGJ1dCB5b3VyIHRlYW0gcGxlYXNlIQ"

const invitationOperations = [
  operation({
    service, tag, operationId: "createWorkspaceInvitation", method: "POST", path: "/v1/workspaces/{workspaceId}/invitations",
    summary: "Invite someone by e-mail (admins; members too when the policy allows); the accept token is returned once",
    description: "One pending invitation per address. Refused when the address is a member, outside the allowed domains, or no seat is free (guests take none). Expires after the workspace's invitation expiry.",
    auth: "both", scopes: write, params: WorkspaceParams, body: InvitationBody,
    responses: { 201: { description: "Invited", schema: CreatedInvitation }, 409: { description: "Already a member or invited, or no free seat" } },
    examples: [{ name: "invite", request: { params: wsp, body: { email: "carol@example.com", role: "member", message: "Join us!" } }, response: { status: 201, body: { invitation: exampleInvitation, token: exampleInviteToken } } }],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* mayInvite(context, params.workspaceId, [body])
        const guest = body.guest ? { expiresAt: (yield* futureDate(body.guest.expiresAt, "body.guest.expiresAt")) ?? null } : undefined
        return yield* send(PmOrganization, params.workspaceId, "createInvitation", caller.userId, { ...body, ...(guest ? { guest } : {}) })
      })
  }),
  operation({
    service, tag, operationId: "bulkCreateWorkspaceInvitations", method: "POST", path: "/v1/workspaces/{workspaceId}/invitations/bulk",
    summary: "Invite up to 50 people at once; each address succeeds or fails on its own", auth: "both", scopes: write, params: WorkspaceParams,
    body: Schema.Struct({ invitations: Schema.Array(InvitationBody).check(Schema.isMinLength(1), Schema.isMaxLength(50)) }),
    responses: {
      200: {
        description: "One result per address, in order",
        schema: Items(Schema.Struct({ email: Schema.String, invitation: Schema.optionalKey(Invitation), token: Schema.optionalKey(InvitationToken), error: Schema.optionalKey(Schema.Struct({ code: Schema.String, message: Schema.String })) }).annotate({ identifier: "BulkInvitationResult" }))
      }
    },
    examples: [{ name: "bulk", request: { params: wsp, body: { invitations: [{ email: "carol@example.com", role: "member" }] } }, response: { status: 200, body: { items: [{ email: "carol@example.com", invitation: exampleInvitation, token: exampleInviteToken }] } } }],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* mayInvite(context, params.workspaceId, body.invitations)
        const invitations = []
        for (const [index, item] of body.invitations.entries()) {
          const guest = item.guest ? { expiresAt: (yield* futureDate(item.guest.expiresAt, `body.invitations.${index}.guest.expiresAt`)) ?? null } : undefined
          invitations.push({ ...item, ...(guest ? { guest } : {}) })
        }
        return { items: yield* send(PmOrganization, params.workspaceId, "createInvitations", caller.userId, { invitations }) }
      })
  }),
  operation({
    service, tag, operationId: "listWorkspaceInvitations", method: "GET", path: "/v1/workspaces/{workspaceId}/invitations",
    summary: "The workspace's invitations, newest first (filter by status or e-mail)", auth: "both", scopes: read, params: WorkspaceParams,
    query: Schema.Struct({ status: Schema.optionalKey(InvitationStatus), email: Schema.optionalKey(Email) }),
    responses: { 200: { description: "Invitations (tokens are never shown again)", schema: Items(Invitation) } },
    examples: [{ name: "pending", request: { params: wsp, query: { status: "pending" } }, response: { status: 200, body: { items: [exampleInvitation] } } }],
    handler: ({ params, query: q }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId, "member")
        const config = yield* configOfWorkspace(params.workspaceId)
        if (!caller.admin && !config.security.membersCanInvite) return yield* reject("forbidden", "Only admins see the invitations")
        const items = yield* orDieSql(invitationsOf(params.workspaceId, { ...(q.status ? { status: q.status } : {}), ...(q.email ? { email: q.email } : {}) }))
        // Members who may invite see the invitations they sent.
        return { items: caller.admin ? items : items.filter((i) => i.invitedBy.id === caller.userId) }
      })
  }),
  operation({
    service, tag, operationId: "getWorkspaceInvitation", method: "GET", path: "/v1/workspaces/{workspaceId}/invitations/{invitationId}",
    summary: "One invitation (admins, or who sent it)", auth: "both", scopes: read, params: InvitationParams,
    responses: { 200: { description: "The invitation", schema: Invitation } },
    examples: [{ name: "get", request: { params: { workspaceId: ws, invitationId: ids.entry } }, response: { status: 200, body: exampleInvitation } }],
    handler: ({ params }, context) => Effect.map(manageableInvitation(context, params.workspaceId, params.invitationId), ({ invitation }) => invitation)
  }),
  operation({
    service, tag, operationId: "updateWorkspaceInvitation", method: "PATCH", path: "/v1/workspaces/{workspaceId}/invitations/{invitationId}",
    summary: "Change a pending invitation's role or message (admins, or who sent it)", auth: "both", scopes: write, params: InvitationParams,
    body: Schema.Struct({ role: Schema.optionalKey(AssignableRole), message: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(1000))) }),
    responses: { 200: { description: "Updated", schema: Invitation }, 409: { description: "No longer pending" } },
    examples: [{ name: "viewer", request: { params: { workspaceId: ws, invitationId: ids.entry }, body: { role: "viewer" } }, response: { status: 200, body: { ...exampleInvitation, role: "viewer" } } }],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { caller } = yield* manageableInvitation(context, params.workspaceId, params.invitationId)
        yield* requireNonEmpty(body)
        if (!caller.admin && body.role === "admin") return yield* reject("forbidden", "Only admins invite admins")
        return yield* send(PmOrganization, params.workspaceId, "updateInvitation", caller.userId, { invitationId: params.invitationId, ...body })
      })
  }),
  operation({
    service, tag, operationId: "revokeWorkspaceInvitation", method: "DELETE", path: "/v1/workspaces/{workspaceId}/invitations/{invitationId}",
    summary: "Revoke a pending invitation: its link stops working (admins, or who sent it)", auth: "both", scopes: write, params: InvitationParams,
    responses: { 200: { description: "Revoked", schema: Invitation }, 409: { description: "No longer pending" } },
    examples: [{ name: "revoke", request: { params: { workspaceId: ws, invitationId: ids.entry } }, response: { status: 200, body: { ...exampleInvitation, status: "revoked", respondedAt: at0 } } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const { caller } = yield* manageableInvitation(context, params.workspaceId, params.invitationId)
        return yield* send(PmOrganization, params.workspaceId, "revokeInvitation", caller.userId, { invitationId: params.invitationId })
      })
  }),
  operation({
    service, tag, operationId: "resendWorkspaceInvitation", method: "POST", path: "/v1/workspaces/{workspaceId}/invitations/{invitationId}/resend",
    summary: "Send a pending (or expired) invitation again: a new token, the expiry restarts, the old link stops working", auth: "both", scopes: write, params: InvitationParams,
    responses: { 200: { description: "Resent", schema: CreatedInvitation }, 409: { description: "Accepted, declined or revoked" } },
    examples: [{ name: "resend", request: { params: { workspaceId: ws, invitationId: ids.entry } }, response: { status: 200, body: { invitation: { ...exampleInvitation, resendCount: 1 }, token: exampleInviteToken } } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const { caller } = yield* manageableInvitation(context, params.workspaceId, params.invitationId)
        return yield* send(PmOrganization, params.workspaceId, "resendInvitation", caller.userId, { invitationId: params.invitationId })
      })
  }),
  operation({
    service, tag, operationId: "listMyWorkspaceInvitations", method: "GET", path: "/v1/workspace-invitations",
    summary: "Pending invitations addressed to the caller's e-mail", auth: "jwt", scopes: [],
    responses: { 200: { description: "Invitations", schema: Items(MyInvitation) } },
    examples: [{ name: "mine", response: { status: 200, body: { items: [{ ...exampleInvitation, workspaceName: "Acme" }] } } }],
    handler: (_r, context) => Effect.flatMap(userOf(context), (user) => Effect.map(orDieSql(invitationsFor(user.email)), (items) => ({ items })))
  }),
  operation({
    service, tag, operationId: "previewWorkspaceInvitation", method: "GET", path: "/v1/workspace-invitations/preview",
    summary: "What an invitation link offers, before signing up or in (no credentials): workspace, inviter, role, state", auth: "public", scopes: [],
    query: Schema.Struct({ token: InvitationToken }),
    responses: { 200: { description: "Preview", schema: InvitationPreview }, 404: { description: "Unknown token" } },
    examples: [{ name: "preview", request: { query: { token: exampleInviteToken } }, response: { status: 200, body: { workspaceName: "Acme", invitedBy: "Alice", emailHint: "c****@example.com", role: "member", guest: false, status: "pending", expiresAt: later } } }],
    handler: ({ query: q }) =>
      Effect.gen(function* () {
        const invitation = yield* orDieSql(invitationByToken(q.token))
        const workspace = yield* orDieSql(storedWorkspace(invitation.workspaceId))
        if (workspace === undefined) return yield* reject("not_found", "This invitation does not exist")
        return {
          workspaceName: workspace.name, invitedBy: invitation.invitedBy.name, emailHint: maskEmail(invitation.email),
          role: invitation.role, guest: invitation.guest, status: invitation.status, expiresAt: invitation.expiresAt
        }
      })
  }),
  operation({
    service, tag, operationId: "acceptWorkspaceInvitation", method: "POST", path: "/v1/workspace-invitations/accept",
    summary: "Accept an invitation with the token from its link (the caller's e-mail must be the invited one)", auth: "jwt", scopes: [],
    body: Schema.Struct({ token: InvitationToken }),
    responses: { 200: { description: "Joined", schema: Joined }, 404: { description: "Unknown token, or addressed to someone else" }, 409: { description: "Expired, no longer pending, already a member, or no free seat" } },
    examples: [{ name: "accept", request: { body: { token: exampleInviteToken } }, response: { status: 200, body: exampleJoined } }],
    handler: ({ body }, context) => Effect.flatMap(orDieSql(invitationByToken(body.token)), (invitation) => acceptInvitation(context, invitation))
  }),
  operation({
    service, tag, operationId: "acceptWorkspaceInvitationById", method: "POST", path: "/v1/workspace-invitations/{invitationId}/accept",
    summary: "Accept one of the caller's pending invitations (from the in-app list)", auth: "jwt", scopes: [], params: MyInvitationParams,
    responses: { 200: { description: "Joined", schema: Joined }, 404: { description: "No invitation of the caller's" }, 409: { description: "Expired, no longer pending, already a member, or no free seat" } },
    examples: [{ name: "accept", request: { params: { invitationId: ids.entry } }, response: { status: 200, body: exampleJoined } }],
    handler: ({ params }, context) => Effect.flatMap(orDieSql(getInvitation(params.invitationId)), (invitation) => acceptInvitation(context, invitation))
  }),
  operation({
    service, tag, operationId: "declineWorkspaceInvitation", method: "POST", path: "/v1/workspace-invitations/{invitationId}/decline",
    summary: "Decline one of the caller's pending invitations", auth: "jwt", scopes: [], params: MyInvitationParams,
    responses: { 200: { description: "Declined", schema: Invitation }, 404: { description: "No invitation of the caller's" } },
    examples: [{ name: "decline", request: { params: { invitationId: ids.entry } }, response: { status: 200, body: { ...exampleInvitation, status: "declined", respondedAt: at0 } } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const user = yield* userOf(context)
        const invitation = yield* orDieSql(getInvitation(params.invitationId))
        if (invitation.email !== normalizeEmail(user.email)) return yield* reject("not_found", "No such invitation")
        return yield* send(PmOrganization, invitation.workspaceId, "declineInvitation", user.userId, { invitationId: invitation.id, email: user.email })
      })
  }),
  operation({
    service, tag, operationId: "getWorkspaceInviteLink", method: "GET", path: "/v1/workspaces/{workspaceId}/invite-link",
    summary: "The workspace's shareable invite link: whether it works, its role, expiry and uses (admin; the code itself is shown only when made)",
    auth: "both", scopes: read, params: WorkspaceParams,
    responses: { 200: { description: "The link", schema: InviteLink } },
    examples: [{ name: "get", request: { params: wsp }, response: { status: 200, body: exampleInviteLink } }],
    handler: ({ params }, context) => Effect.andThen(admin(context, params.workspaceId), orDieSql(inviteLinkOf(params.workspaceId)))
  }),
  operation({
    service, tag, operationId: "createWorkspaceInviteLink", method: "POST", path: "/v1/workspaces/{workspaceId}/invite-link",
    summary: "Make a new invite link (the old one stops working), optionally expiring or limited in uses (admin); the code is returned once",
    auth: "both", scopes: write, params: WorkspaceParams,
    body: Schema.Struct({
      role: Schema.optionalKey(Schema.Literals(["member", "viewer"]).annotate({ description: "Role of who joins (default: the policy's auto-join role, at most member)" })),
      expiresAt: Schema.optionalKey(Schema.NullOr(DateTimeString)),
      maxUses: Schema.optionalKey(Schema.NullOr(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 10_000 }))))
    }),
    responses: { 201: { description: "Created", schema: CreatedInviteLink }, 403: { description: "Invite links are turned off" } },
    examples: [{ name: "create", request: { params: wsp, body: { role: "member", maxUses: 20 } }, response: { status: 201, body: { link: exampleInviteLink, code: exampleCode } } }],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* admin(context, params.workspaceId)
        const expiresAt = yield* futureDate(body.expiresAt, "body.expiresAt")
        const policyRole = (yield* configOfWorkspace(params.workspaceId)).security.autoJoinRole
        const role = body.role ?? (policyRole === "admin" ? "member" : policyRole)
        return yield* send(PmOrganization, params.workspaceId, "createInviteLink", caller.userId, { role, expiresAt: expiresAt ?? null, maxUses: body.maxUses ?? null })
      })
  }),
  operation({
    service, tag, operationId: "disableWorkspaceInviteLink", method: "DELETE", path: "/v1/workspaces/{workspaceId}/invite-link",
    summary: "Turn the invite link off (admin)", auth: "both", scopes: write, params: WorkspaceParams,
    responses: { 204: { description: "Disabled" }, 404: { description: "There is none" } },
    examples: [{ name: "disable", request: { params: wsp }, response: { status: 204 } }],
    handler: ({ params }, context) => Effect.flatMap(admin(context, params.workspaceId), (caller) => send(PmOrganization, params.workspaceId, "disableInviteLink", caller.userId, {}))
  }),
  operation({
    service, tag, operationId: "joinWorkspaceByInviteLink", method: "POST", path: "/v1/workspace-invitations/join",
    summary: "Join a workspace with the code of its invite link (takes a seat)", auth: "jwt", scopes: [],
    body: Schema.Struct({ code: InviteCode }),
    responses: { 200: { description: "Joined", schema: Joined }, 404: { description: "Unknown, expired or used-up link" }, 409: { description: "Already a member, or no free seat" } },
    examples: [{ name: "join", request: { body: { code: exampleCode } }, response: { status: 200, body: exampleJoined } }],
    handler: ({ body }, context) =>
      Effect.gen(function* () {
        const user = yield* userOf(context)
        const link = yield* orDieSql(inviteLinkByCode(body.code))
        if ((yield* orDieSql(rosterOf(link.workspaceId))).some((m) => m.userId === user.userId)) return yield* reject("conflict", "Already a member of this workspace")
        const { role } = yield* send(PmOrganization, link.workspaceId, "claimInviteLink", user.userId, { code: body.code })
        yield* identity(link.workspaceId, "admit", { userId: user.userId, role, via: "invite_link" }).pipe(
          Effect.tapError(() => send(PmOrganization, link.workspaceId, "unclaimInviteLink", user.userId, {}).pipe(Effect.ignore))
        )
        return { workspace: yield* summaryOf(context, link.workspaceId), member: yield* orDieSql(rosterEntry(link.workspaceId, user.userId)) }
      })
  })
]

const guestOperations = [
  operation({
    service, tag, operationId: "addWorkspaceGuest", method: "POST", path: "/v1/workspaces/{workspaceId}/guests",
    summary: "Add a registered user as a guest (admin): a member or viewer without a seat, whose access can end at a date, optionally let into private spaces",
    auth: "both", scopes: write, params: WorkspaceParams,
    body: Schema.Struct({
      email: Email,
      role: Schema.optionalKey(Schema.Literals(["member", "viewer"]).annotate({ description: "default viewer" })),
      expiresAt: Schema.optionalKey(Schema.NullOr(DateTimeString).annotate({ description: "When their access ends (null or absent: when removed)" })),
      spaceIds: Schema.optionalKey(Schema.Array(Id).check(Schema.isMaxLength(50)).annotate({ description: "Private spaces to let them into" }))
    }),
    responses: { 201: { description: "Added", schema: GuestView }, 403: { description: "Guests are turned off" }, 404: { description: "No user with that e-mail" }, 409: { description: "Already a member" } },
    examples: [{ name: "guest", request: { params: wsp, body: { email: "bob@example.com", expiresAt: later, spaceIds: [ids.space] } }, response: { status: 201, body: exampleGuest } }],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* admin(context, params.workspaceId)
        if (!(yield* configOfWorkspace(params.workspaceId)).features.guests) return yield* reject("forbidden", "Guests are turned off in this workspace")
        const expiresAt = (yield* futureDate(body.expiresAt, "body.expiresAt")) ?? null
        const spaceIds = [...new Set(body.spaceIds ?? [])]
        for (const [index, spaceId] of spaceIds.entries()) {
          const space = yield* orDieSql(Effect.option(locateSpace(spaceId)))
          if (space._tag === "None" || space.value.workspaceId !== params.workspaceId || !space.value.isPrivate) {
            return yield* reject("invalid", "Guests are let into private spaces of this workspace only", [{ path: `body.spaceIds.${index}`, message: "not a private space of this workspace" }])
          }
        }
        const user = yield* userByEmail(body.email, "body.email")
        yield* identity(params.workspaceId, "admit", { userId: user.id, role: body.role ?? "viewer", guest: { expiresAt }, via: "guest", by: caller.userId })
        for (const spaceId of spaceIds) yield* send(PmSpace, spaceId, "addMember", caller.userId, { userId: user.id })
        return yield* aGuest(params.workspaceId, user.id)
      })
  }),
  operation({
    service, tag, operationId: "listWorkspaceGuests", method: "GET", path: "/v1/workspaces/{workspaceId}/guests",
    summary: "The workspace's guests, when their access ends, and the private spaces they are in", auth: "both", scopes: read, params: WorkspaceParams,
    responses: { 200: { description: "Guests", schema: Items(GuestView) } },
    examples: [{ name: "guests", request: { params: wsp }, response: { status: 200, body: { items: [exampleGuest] } } }],
    handler: ({ params }, context) => Effect.andThen(inWorkspace(context, params.workspaceId), Effect.map(guestsWithSpaces(params.workspaceId), (items) => ({ items })))
  }),
  operation({
    service, tag, operationId: "updateWorkspaceGuest", method: "PATCH", path: "/v1/workspaces/{workspaceId}/guests/{userId}",
    summary: "Change when a guest's access ends (admin)", auth: "both", scopes: write, params: MemberParams,
    body: Schema.Struct({ expiresAt: Schema.NullOr(DateTimeString) }),
    responses: { 200: { description: "Updated", schema: GuestView }, 404: { description: "Not a guest" } },
    examples: [{ name: "extend", request: { params: { workspaceId: ws, userId: bob.userId }, body: { expiresAt: later } }, response: { status: 200, body: exampleGuest } }],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* admin(context, params.workspaceId)
        yield* aGuest(params.workspaceId, params.userId)
        const expiresAt = (yield* futureDate(body.expiresAt, "body.expiresAt")) ?? null
        yield* identity(params.workspaceId, "setGuest", { by: caller.userId, userId: params.userId, guest: { expiresAt } })
        return yield* aGuest(params.workspaceId, params.userId)
      })
  }),
  operation({
    service, tag, operationId: "removeWorkspaceGuest", method: "DELETE", path: "/v1/workspaces/{workspaceId}/guests/{userId}",
    summary: "Remove a guest (admin)", auth: "both", scopes: write, params: MemberParams,
    responses: { 204: { description: "Removed" }, 404: { description: "Not a guest" } },
    examples: [{ name: "remove", request: { params: { workspaceId: ws, userId: bob.userId } }, response: { status: 204 } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* admin(context, params.workspaceId)
        yield* aGuest(params.workspaceId, params.userId)
        yield* identity(params.workspaceId, "removeMember", { by: caller.userId, userId: params.userId })
      })
  }),
  operation({
    service, tag, operationId: "convertWorkspaceGuest", method: "POST", path: "/v1/workspaces/{workspaceId}/guests/{userId}/convert",
    summary: "Make a guest a full member with a role (admin; takes a seat; their access no longer ends)", auth: "both", scopes: write, params: MemberParams,
    body: Schema.Struct({ role: AssignableRole }),
    responses: { 200: { description: "A full member now", schema: MemberDetail }, 404: { description: "Not a guest" }, 409: { description: "No free seat" } },
    examples: [{ name: "convert", request: { params: { workspaceId: ws, userId: bob.userId }, body: { role: "member" } }, response: { status: 200, body: exampleDetail } }],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* admin(context, params.workspaceId)
        const guest = yield* aGuest(params.workspaceId, params.userId)
        yield* orDieSql(requireSeats(params.workspaceId, 1))
        yield* identity(params.workspaceId, "setGuest", { by: caller.userId, userId: params.userId, guest: null })
        if (guest.role !== body.role) yield* identity(params.workspaceId, "setMemberRole", { by: caller.userId, userId: params.userId, role: body.role })
        return yield* orDieSql(rosterEntry(params.workspaceId, params.userId))
      })
  })
]

const Joinable = Schema.Struct({ id: Id, name: Schema.String, role: AssignableRole, memberCount: Schema.Number }).annotate({ identifier: "JoinableWorkspace" })

/** Workspaces the user may join by their e-mail domain (not already a member). */
const joinableFor = (userId: string, email: string) =>
  Effect.gen(function* () {
    const domain = domainOf(email)
    const rows = yield* orDieSql(query<{ workspaceId: string }>(
      `SELECT workspace_id AS "workspaceId" FROM pm_workspace_settings WHERE (features->>'domainJoin')::boolean AND security->'autoJoinDomains' ? $1`,
      [domain]
    ))
    const result: Array<{ id: string; name: string; role: typeof AssignableRole.Type; memberCount: number }> = []
    for (const row of rows) {
      const workspace = yield* orDieSql(storedWorkspace(row.workspaceId))
      if (workspace === undefined || workspace.members.some((m) => m.userId === userId)) continue
      const config = yield* configOfWorkspace(row.workspaceId)
      result.push({ id: row.workspaceId, name: workspace.name, role: config.security.autoJoinRole, memberCount: workspace.members.length })
    }
    return result.sort((a, b) => a.name.localeCompare(b.name))
  })

const joinOperations = [
  operation({
    service, tag, operationId: "listJoinableWorkspaces", method: "GET", path: "/v1/workspaces/joinable",
    summary: "Workspaces the caller may join by themselves because of their e-mail domain", auth: "jwt", scopes: [],
    responses: { 200: { description: "Joinable workspaces", schema: Items(Joinable) } },
    examples: [{ name: "joinable", response: { status: 200, body: { items: [{ id: ws, name: "Acme", role: "member", memberCount: 12 }] } } }],
    handler: (_r, context) => Effect.flatMap(userOf(context), (user) => Effect.map(joinableFor(user.userId, user.email), (items) => ({ items })))
  }),
  operation({
    service, tag, operationId: "joinWorkspaceByDomain", method: "POST", path: "/v1/workspaces/{workspaceId}/join",
    summary: "Join a workspace that lets in the caller's e-mail domain (with the policy's auto-join role; takes a seat)", auth: "jwt", scopes: [], params: WorkspaceParams,
    responses: { 200: { description: "Joined", schema: Joined }, 404: { description: "No such workspace open to the caller's domain" }, 409: { description: "No free seat" } },
    examples: [{ name: "join", request: { params: wsp }, response: { status: 200, body: exampleJoined } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const user = yield* userOf(context)
        const joinable = (yield* joinableFor(user.userId, user.email)).find((w) => w.id === params.workspaceId)
        if (joinable === undefined) return yield* reject("not_found", "No such workspace open to your e-mail domain")
        if (joinable.role !== "viewer") yield* orDieSql(requireSeats(params.workspaceId, 1))
        yield* identity(params.workspaceId, "admit", { userId: user.userId, role: joinable.role, via: "domain" })
        return { workspace: yield* summaryOf(context, params.workspaceId), member: yield* orDieSql(rosterEntry(params.workspaceId, user.userId)) }
      })
  }),
  operation({
    service, tag, operationId: "listWorkspaceMembershipAudit", method: "GET", path: "/v1/workspaces/{workspaceId}/audit",
    summary: "The membership audit, newest first: who added, removed, let in (and how) or changed the role of whom, guests, ownership, renaming, deletion (admin)",
    description: "Covers changes made through any service (the hub's member operations too). Invitation and settings changes are in the activity log.",
    auth: "both", scopes: read, params: WorkspaceParams,
    query: Schema.Struct({
      type: Schema.optionalKey(Schema.String.check(Schema.isPattern(/^(member|guest|ownership|workspace)(\.[a-z_]+)?$/, { expected: "a change type or family, e.g. member or member.role_changed" }))),
      userId: Schema.optionalKey(Id.annotate({ description: "Entries about or by this user" })),
      before: Schema.optionalKey(Schema.FiniteFromString.check(Schema.isInt(), Schema.isGreaterThan(0)).annotate({ description: "nextBefore of the previous page" })),
      limit: Schema.optionalKey(Schema.FiniteFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 200 })))
    }),
    responses: { 200: { description: "A page of entries", schema: Schema.Struct({ items: Schema.Array(AuditEntry), nextBefore: Schema.NullOr(Schema.Number) }).annotate({ identifier: "MembershipAuditPage" }) } },
    examples: [{ name: "audit", request: { params: wsp, query: { type: "member" } }, response: { status: 200, body: { items: [{ seq: 42, type: "member.role_changed", at: at0, by: { id: alice.userId, name: "Alice", email: alice.email }, user: { id: bob.userId, name: "Bob", email: bob.email }, data: { from: "member", to: "admin" } }], nextBefore: null } } }],
    handler: ({ params, query: q }, context) =>
      auditPage(context, params.workspaceId, { ...(q.type ? { type: q.type } : {}), ...(q.userId ? { userId: q.userId } : {}), ...(q.before ? { before: q.before } : {}), limit: q.limit ?? 50 })
  })
]

export const workspacesOperations = [
  ...lifecycleOperations,
  ...settingsOperations,
  ...statsOperations,
  ...hierarchyOperations,
  ...membersOperations,
  ...invitationOperations,
  ...guestOperations,
  ...joinOperations
]
