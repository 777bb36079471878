/**
 * A Workspace: its name, owner, members with roles, and hub settings. One
 * workspace id is valid in the hub, pm, wiki and feedback board alike. Every
 * mutation names who does it (`by`), and the role rules live here.
 *
 * Also: guests (members whose access may end at a date: once it has passed
 * they are no longer members), deletion with a restore window for the owner,
 * and the membership history (every change of members, roles, ownership,
 * name and existence, whichever service made it) that pm's audit reads.
 */
import { Effect, Schema } from "effect"
import { Actor } from "../../runtime/Actor.ts"
import { Id, Name, Timestamp, now } from "../Fields.ts"
import {
  AlreadyAdmitted,
  AlreadyMember,
  CannotBeGuest,
  GuestNotAdmin,
  GuestRoleInvalid,
  InvalidNewOwner,
  MemberLimitReached,
  MemberNotFound,
  NotRestorable,
  OwnerCannotLeave,
  OwnerRoleFixed,
  RoleRequired,
  WorkspaceExists,
  WorkspaceNotFound,
  WorkspaceSuspended
} from "./IdentityErrors.ts"

export const Role = Schema.Literals(["owner", "admin", "member", "viewer"]).annotate({
  description: "owner > admin > member > viewer"
})
export type Role = typeof Role.Type
export const AssignableRole = Schema.Literals(["admin", "member", "viewer"])

const rank: Record<Role, number> = { viewer: 1, member: 2, admin: 3, owner: 4 }
export const atLeast = (role: Role, minimum: Role): boolean => rank[role] >= rank[minimum]

export const IntegrationTarget = Schema.Literals(["tracker", "taskapp", "tablebase", "pm"]).annotate({
  description:
    "Where new action items go: the issue tracker, the task tool, the spreadsheet-database tool, or Atrium's own project management."
})

export const Member = Schema.Struct({ userId: Id, role: Role, addedAt: Timestamp })
export type Member = typeof Member.Type

export const WorkspaceSettings = Schema.Struct({
  preferredIntegrationTarget: Schema.NullOr(IntegrationTarget),
  customPrompt: Schema.NullOr(Schema.String),
  updatedAt: Schema.NullOr(Timestamp)
}).annotate({ identifier: "WorkspaceSettings", description: "Hub settings of a workspace." })
export type WorkspaceSettings = typeof WorkspaceSettings.Type

export const CustomPrompt = Schema.String.check(Schema.isMaxLength(4000)).annotate({
  description: "Prepended to every recording's analysis (at most 4000 characters)."
})

/** A guest: a member with limited, possibly time-boxed access (gone once `expiresAt` passes). */
export const GuestAccess = Schema.Struct({ expiresAt: Schema.NullOr(Timestamp), since: Timestamp })
export type GuestAccess = typeof GuestAccess.Type

/** How long a deleted workspace can be restored by its owner. */
export const RESTORE_DAYS = 30

/**
 * One change of membership or of the workspace itself, whichever service
 * made it (the audit reads these). `type` is one of workspace.created,
 * workspace.renamed, workspace.deleted, workspace.restored, member.added,
 * member.joined, member.role_changed, member.removed, member.left,
 * ownership.transferred, guest.updated, guest.converted, guest.expired.
 */
export const MembershipChange = Schema.Struct({
  seq: Schema.Number,
  type: Schema.String,
  at: Timestamp,
  by: Schema.String,
  userId: Schema.optionalKey(Schema.String),
  data: Schema.Record(Schema.String, Schema.Unknown)
}).annotate({ identifier: "MembershipChange" })
export type MembershipChange = typeof MembershipChange.Type

export const Suspension = Schema.Struct({ at: Timestamp, by: Schema.String, reason: Schema.String }).annotate({
  identifier: "WorkspaceSuspension",
  description: "Why and since when the workspace is suspended; its members' requests are refused until it is resumed."
})
export type Suspension = typeof Suspension.Type

export const MemberLimits = Schema.Struct({
  seats: Schema.NullOr(Schema.Number).annotate({ description: "Seats paid for (billing); null: not limited by billing" }),
  quota: Schema.NullOr(Schema.Number).annotate({ description: "Most members the operator allows; null: no quota" })
}).annotate({ identifier: "MemberLimits" })
export type MemberLimits = typeof MemberLimits.Type

/** The tighter of the seat count and the member quota, if any. */
export const memberLimitOf = (limits: MemberLimits | undefined): number | undefined => {
  const bounds = [limits?.seats, limits?.quota].filter((bound): bound is number => typeof bound === "number")
  return bounds.length === 0 ? undefined : Math.min(...bounds)
}

/** The state, everything an operator inspects: suspension and limits included. */
export const WorkspaceInspection = Schema.Struct({
  id: Schema.String,
  exists: Schema.Boolean,
  name: Schema.String,
  ownerId: Schema.String,
  members: Schema.Array(Member),
  guests: Schema.Array(Schema.String),
  createdAt: Schema.String,
  updatedAt: Schema.String,
  deletedAt: Schema.NullOr(Schema.String),
  suspension: Schema.NullOr(Suspension),
  limits: MemberLimits
})
export type WorkspaceInspection = typeof WorkspaceInspection.Type

/** Changes kept per workspace (the oldest are dropped). */
export const HISTORY_LIMIT = 500

export const WorkspaceState = Schema.Struct({
  id: Schema.String,
  exists: Schema.Boolean,
  name: Schema.String,
  ownerId: Schema.String,
  members: Schema.Array(Member),
  settings: WorkspaceSettings,
  createdAt: Schema.String,
  updatedAt: Schema.String,
  /** Guests by user id (absent in workspaces persisted before guests existed). */
  guests: Schema.optionalKey(Schema.Record(Schema.String, GuestAccess)),
  /** Set while the workspace is deleted (restorable by its owner for RESTORE_DAYS). */
  deletedAt: Schema.optionalKey(Schema.String),
  deletedBy: Schema.optionalKey(Schema.String),
  /** Membership changes, oldest first (absent in workspaces persisted before it existed). */
  history: Schema.optionalKey(Schema.Array(MembershipChange)),
  /** Set while a platform operator (or an internal service) has suspended the workspace: its members are refused. */
  suspension: Schema.optionalKey(Suspension),
  /** Most members allowed: the paid seats and the operator's quota (null: no limit). */
  limits: Schema.optionalKey(MemberLimits)
})
export type WorkspaceState = typeof WorkspaceState.Type

export const WorkspaceView = Schema.Struct({
  id: Id,
  name: Schema.String,
  ownerId: Id,
  members: Schema.Array(Member),
  settings: WorkspaceSettings,
  createdAt: Timestamp,
  updatedAt: Timestamp
})

const defaultSettings: WorkspaceSettings = { preferredIntegrationTarget: null, customPrompt: null, updatedAt: null }

const view = ({
  exists: _exists,
  suspension: _suspension,
  limits: _limits,
  guests: _guests,
  deletedAt: _deletedAt,
  deletedBy: _deletedBy,
  history: _history,
  ...rest
}: WorkspaceState) => rest

type Entry = Omit<MembershipChange, "seq" | "at">

/** The state with `entries` appended to its history (bounded to HISTORY_LIMIT). */
const logged = (state: WorkspaceState, ...entries: ReadonlyArray<Entry>): WorkspaceState => {
  const history = state.history ?? []
  let seq = history.length > 0 ? history[history.length - 1]!.seq : 0
  const at = now()
  return { ...state, history: [...history, ...entries.map((entry) => ({ ...entry, seq: ++seq, at }))].slice(-HISTORY_LIMIT) }
}

export const roleOf = (
  state: { readonly members: ReadonlyArray<{ readonly userId: string; readonly role: Role }> },
  userId: string
): Role | undefined => state.members.find((member) => member.userId === userId)?.role

/** Whether a guest's access has ended (then they are no longer a member). */
export const guestAccessEnded = (access: GuestAccess | undefined, at = Date.now()) =>
  access?.expiresAt != null && Date.parse(access.expiresAt) <= at

/** The state without guests whose access ran out (they are no longer members). */
const withoutExpired = (state: WorkspaceState): WorkspaceState => {
  const gone = Object.entries(state.guests ?? {})
    .filter(([, access]) => guestAccessEnded(access))
    .map(([userId]) => userId)
  if (gone.length === 0) return state
  const guests = { ...state.guests }
  for (const userId of gone) delete guests[userId]
  return logged(
    { ...state, guests, members: state.members.filter((m) => !gone.includes(m.userId)) },
    ...gone.map(
      (userId): Entry => ({ type: "guest.expired", by: userId, userId, data: { expiresAt: state.guests?.[userId]?.expiresAt ?? null } })
    )
  )
}

const existing = (state: WorkspaceState) => (state.exists ? Effect.succeed(withoutExpired(state)) : Effect.fail(new WorkspaceNotFound()))

/** Members of a suspended workspace are refused, with the reason. */
const notSuspended = (state: WorkspaceState) =>
  state.suspension === undefined ? Effect.void : Effect.fail(new WorkspaceSuspended({ reason: state.suspension.reason }))

/** Refuses a new member beyond the seats paid for or the operator's quota. */
const roomForOneMore = (state: WorkspaceState) => {
  const limit = memberLimitOf(state.limits)
  return limit === undefined || state.members.length < limit ? Effect.void : Effect.fail(new MemberLimitReached({ limit }))
}

const inspection = (state: WorkspaceState): WorkspaceInspection => ({
  id: state.id,
  exists: state.exists,
  name: state.name,
  ownerId: state.ownerId,
  members: state.members,
  guests: Object.keys(state.guests ?? {}),
  createdAt: state.createdAt,
  updatedAt: state.updatedAt,
  deletedAt: state.deletedAt ?? null,
  suspension: state.suspension ?? null,
  limits: state.limits ?? { seats: null, quota: null }
})

/** The workspace as `by` may see it: non-members get the same 404 as a missing workspace. */
const asMember = (state: WorkspaceState, by: string, minimum: Role = "viewer") =>
  Effect.gen(function* () {
    const ws = yield* existing(state)
    const role = roleOf(ws, by)
    if (role === undefined) return yield* new WorkspaceNotFound()
    yield* notSuspended(ws)
    if (!atLeast(role, minimum)) return yield* new RoleRequired({ minimum })
    return ws
  })

const touch = (state: WorkspaceState, patch: Partial<WorkspaceState>): WorkspaceState => ({ ...state, ...patch, updatedAt: now() })

const By = { by: Schema.String }

/** What a member's request may meet before its own rules: no such workspace (or not a member), suspended, a role too low. */
const memberRefusals = [WorkspaceNotFound, WorkspaceSuspended, RoleRequired] as const
const AsMember = Schema.Union(memberRefusals)

export const Workspace = Actor<WorkspaceState>()({
  kind: "workspace",
  state: WorkspaceState,
  initial: (id) => ({
    id,
    exists: false,
    name: "",
    ownerId: "",
    members: [],
    settings: defaultSettings,
    createdAt: "",
    updatedAt: ""
  }),
  messages: {
    create: { payload: Schema.Struct({ ...By, name: Name() }), success: WorkspaceView, error: WorkspaceExists },
    /** The workspace as a member sees it. */
    view: { payload: Schema.Struct({ ...By }), success: WorkspaceView, error: AsMember },
    /** The caller's role (not_found when not a member). */
    roleOf: {
      payload: Schema.Struct({ userId: Schema.String }),
      success: Role,
      error: Schema.Union([WorkspaceNotFound, WorkspaceSuspended])
    },
    rename: { payload: Schema.Struct({ ...By, name: Name() }), success: WorkspaceView, error: AsMember },
    addMember: {
      payload: Schema.Struct({ ...By, userId: Schema.String, role: AssignableRole }),
      success: Member,
      error: Schema.Union([...memberRefusals, AlreadyMember, MemberLimitReached])
    },
    setMemberRole: {
      payload: Schema.Struct({ ...By, userId: Schema.String, role: AssignableRole }),
      success: Member,
      error: Schema.Union([...memberRefusals, MemberNotFound, OwnerRoleFixed, GuestNotAdmin])
    },
    /** `reason` says why, for the history (e.g. "deactivated"). */
    removeMember: {
      payload: Schema.Struct({ ...By, userId: Schema.String, reason: Schema.optionalKey(Schema.String) }),
      success: Schema.Void,
      error: Schema.Union([...memberRefusals, MemberNotFound, OwnerCannotLeave])
    },
    transferOwnership: {
      payload: Schema.Struct({ ...By, userId: Schema.String }),
      success: WorkspaceView,
      error: Schema.Union([...memberRefusals, InvalidNewOwner])
    },
    updateSettings: {
      payload: Schema.Struct({
        ...By,
        preferredIntegrationTarget: Schema.optionalKey(Schema.NullOr(IntegrationTarget)),
        customPrompt: Schema.optionalKey(Schema.NullOr(CustomPrompt))
      }),
      success: WorkspaceSettings,
      error: AsMember
    },
    resetSettings: { payload: Schema.Struct({ ...By }), success: WorkspaceSettings, error: AsMember },
    /** Deletes the workspace (owner only): it answers "not found" until the owner restores it. */
    delete: { payload: Schema.Struct({ ...By }), success: Schema.Struct({ deletedAt: Timestamp }), error: AsMember },
    /** Restores a deleted workspace (its owner, within RESTORE_DAYS). */
    restore: { payload: Schema.Struct({ ...By }), success: WorkspaceView, error: NotRestorable },
    /**
     * Admits a user whose right to join was verified by the caller (an
     * accepted invitation, the invite link, an allowed e-mail domain, a
     * reactivation): no acting admin is needed.
     */
    admit: {
      payload: Schema.Struct({
        userId: Schema.String,
        role: AssignableRole,
        guest: Schema.optionalKey(Schema.Struct({ expiresAt: Schema.NullOr(Timestamp) })),
        /** How they came in, for the history (invitation, invite_link, domain, reactivation, guest). */
        via: Schema.optionalKey(Schema.String),
        /** Who let them in, when someone did (an admin adding a guest, reactivating a member). */
        by: Schema.optionalKey(Schema.String)
      }),
      success: Member,
      error: Schema.Union([WorkspaceNotFound, WorkspaceSuspended, AlreadyAdmitted, MemberLimitReached, GuestRoleInvalid])
    },
    /** Makes a member a guest (with an optional end of access), or a full member again (`guest: null`). */
    setGuest: {
      payload: Schema.Struct({
        ...By,
        userId: Schema.String,
        guest: Schema.NullOr(Schema.Struct({ expiresAt: Schema.NullOr(Timestamp) }))
      }),
      success: Schema.Struct({ member: Member, guest: Schema.NullOr(GuestAccess) }),
      error: Schema.Union([...memberRefusals, MemberNotFound, CannotBeGuest])
    },
    /** The membership history, oldest first (admins). */
    history: { payload: Schema.Struct({ ...By }), success: Schema.Array(MembershipChange), error: AsMember },
    /** Everything about the workspace, for the platform operator and internal services (no membership needed). */
    inspect: { payload: Schema.Struct({}), success: WorkspaceInspection, error: WorkspaceNotFound },
    /** Suspends the workspace (operator or internal service): every member request is refused until `resume`. */
    suspend: { payload: Schema.Struct({ ...By, reason: Schema.String }), success: WorkspaceInspection, error: WorkspaceNotFound },
    resume: { payload: Schema.Struct({ ...By }), success: WorkspaceInspection, error: WorkspaceNotFound },
    /** Sets the seats paid for and/or the member quota (billing and operator); left out: unchanged. */
    setLimits: {
      payload: Schema.Struct({
        seats: Schema.optionalKey(Schema.NullOr(Schema.Number)),
        quota: Schema.optionalKey(Schema.NullOr(Schema.Number))
      }),
      success: MemberLimits,
      error: WorkspaceNotFound
    }
  },
  // `view` and `roleOf` only read (roleOf saves an expired guest's leaving when it is the first to notice: see Actor.ts).
  readOnly: ["view", "roleOf"],
  handlers: {
    create: ({ by, name }, ctx) =>
      Effect.gen(function* () {
        if (ctx.state.exists || ctx.state.deletedAt !== undefined) return yield* new WorkspaceExists()
        const at = now()
        const next: WorkspaceState = {
          ...ctx.state,
          exists: true,
          name: name.trim(),
          ownerId: by,
          members: [{ userId: by, role: "owner", addedAt: at }],
          createdAt: at,
          updatedAt: at
        }
        ctx.setState(logged(next, { type: "workspace.created", by, userId: by, data: { name: next.name } }))
        return view(next)
      }),
    view: ({ by }, ctx) => Effect.map(asMember(ctx.state, by), view),
    // Asked by every request of a member (access checks): a read answered synchronously (no generator, which V8
    // would build a map for each time), so it skips the mailbox — except when a guest's access has run out: then it
    // saves their leaving (the first time anyone asks), which makes it a write that time.
    roleOf: ({ userId }, ctx): Effect.Effect<Role, WorkspaceNotFound | WorkspaceSuspended> => {
      if (!ctx.state.exists) return Effect.fail(new WorkspaceNotFound())
      const ws = withoutExpired(ctx.state)
      if (ws !== ctx.state) ctx.setState(ws)
      const role = roleOf(ws, userId)
      if (role === undefined) return Effect.fail(new WorkspaceNotFound())
      return ws.suspension === undefined ? Effect.succeed(role) : Effect.fail(new WorkspaceSuspended({ reason: ws.suspension.reason }))
    },
    rename: ({ by, name }, ctx) =>
      Effect.gen(function* () {
        const ws = yield* asMember(ctx.state, by, "admin")
        const next = touch(ws, { name: name.trim() })
        ctx.setState(next.name === ws.name ? next : logged(next, { type: "workspace.renamed", by, data: { from: ws.name, to: next.name } }))
        return view(next)
      }),
    addMember: ({ by, userId, role }, ctx) =>
      Effect.gen(function* () {
        const ws = yield* asMember(ctx.state, by, "admin")
        if (roleOf(ws, userId) !== undefined) return yield* new AlreadyMember()
        yield* roomForOneMore(ws)
        const member: Member = { userId, role, addedAt: now() }
        ctx.setState(logged(touch(ws, { members: [...ws.members, member] }), { type: "member.added", by, userId, data: { role } }))
        return member
      }),
    setMemberRole: ({ by, userId, role }, ctx) =>
      Effect.gen(function* () {
        const ws = yield* asMember(ctx.state, by, "admin")
        const current = ws.members.find((m) => m.userId === userId)
        if (current === undefined) return yield* new MemberNotFound()
        if (current.role === "owner") return yield* new OwnerRoleFixed()
        if (role === "admin" && ws.guests?.[userId] !== undefined) return yield* new GuestNotAdmin()
        const member: Member = { ...current, role }
        const next = touch(ws, { members: ws.members.map((m) => (m.userId === userId ? member : m)) })
        ctx.setState(
          current.role === role ? next : logged(next, { type: "member.role_changed", by, userId, data: { from: current.role, to: role } })
        )
        return member
      }),
    removeMember: ({ by, userId, reason }, ctx) =>
      Effect.gen(function* () {
        // Anyone may leave; removing someone else takes an admin.
        const ws = yield* asMember(ctx.state, by, by === userId ? "viewer" : "admin")
        const target = ws.members.find((m) => m.userId === userId)
        if (target === undefined) return yield* new MemberNotFound()
        if (target.role === "owner") return yield* new OwnerCannotLeave()
        const { [userId]: _removed, ...guests } = ws.guests ?? {}
        ctx.setState(
          logged(touch(ws, { members: ws.members.filter((m) => m.userId !== userId), ...(ws.guests ? { guests } : {}) }), {
            type: by === userId ? "member.left" : "member.removed",
            by,
            userId,
            data: { role: target.role, guest: ws.guests?.[userId] !== undefined, ...(reason ? { reason } : {}) }
          })
        )
      }),
    transferOwnership: ({ by, userId }, ctx) =>
      Effect.gen(function* () {
        const ws = yield* asMember(ctx.state, by, "owner")
        if (roleOf(ws, userId) === undefined) return yield* new InvalidNewOwner({ guest: false })
        if (ws.guests?.[userId] !== undefined) return yield* new InvalidNewOwner({ guest: true })
        const members = ws.members.map(
          (m): Member => (m.userId === userId ? { ...m, role: "owner" } : m.userId === by ? { ...m, role: "admin" } : m)
        )
        const next = touch(ws, { ownerId: userId, members })
        ctx.setState(logged(next, { type: "ownership.transferred", by, userId, data: { from: by, to: userId } }))
        return view(next)
      }),
    updateSettings: ({ by, ...patch }, ctx) =>
      Effect.gen(function* () {
        const ws = yield* asMember(ctx.state, by, "admin")
        const settings: WorkspaceSettings = { ...ws.settings, ...patch, updatedAt: now() }
        ctx.setState(touch(ws, { settings }))
        return settings
      }),
    resetSettings: ({ by }, ctx) =>
      Effect.gen(function* () {
        const ws = yield* asMember(ctx.state, by, "admin")
        const settings: WorkspaceSettings = { ...defaultSettings, updatedAt: now() }
        ctx.setState(touch(ws, { settings }))
        return settings
      }),
    delete: ({ by }, ctx) =>
      Effect.gen(function* () {
        const ws = yield* asMember(ctx.state, by, "owner")
        const at = now()
        ctx.setState(
          logged(
            { ...ws, exists: false, deletedAt: at, deletedBy: by, updatedAt: at },
            { type: "workspace.deleted", by, data: { name: ws.name } }
          )
        )
        return { deletedAt: at }
      }),
    restore: ({ by }, ctx) =>
      Effect.gen(function* () {
        const state = ctx.state
        // Only the owner learns that a deleted workspace exists.
        if (state.exists || state.deletedAt === undefined || state.ownerId !== by) return yield* new NotRestorable({})
        if (Date.parse(state.deletedAt) + RESTORE_DAYS * 86_400_000 < Date.now()) {
          return yield* new NotRestorable({ expiredAfterDays: RESTORE_DAYS })
        }
        const { deletedAt: _at, deletedBy: _by, ...rest } = state
        const next = withoutExpired({ ...rest, exists: true, updatedAt: now() })
        ctx.setState(logged(next, { type: "workspace.restored", by, data: {} }))
        return view(next)
      }),
    admit: ({ userId, role, guest, via, by }, ctx) =>
      Effect.gen(function* () {
        const ws = yield* existing(ctx.state)
        if (roleOf(ws, userId) !== undefined) return yield* new AlreadyAdmitted()
        yield* notSuspended(ws)
        yield* roomForOneMore(ws)
        if (guest && role === "admin") return yield* new GuestRoleInvalid()
        const member: Member = { userId, role, addedAt: now() }
        const guests = guest ? { ...ws.guests, [userId]: { expiresAt: guest.expiresAt, since: member.addedAt } } : ws.guests
        ctx.setState(
          logged(touch(ws, { members: [...ws.members, member], ...(guests ? { guests } : {}) }), {
            type: "member.joined",
            by: by ?? userId,
            userId,
            data: { role, via: via ?? "admission", guest: guest !== undefined, ...(guest ? { expiresAt: guest.expiresAt } : {}) }
          })
        )
        return member
      }),
    setGuest: ({ by, userId, guest }, ctx) =>
      Effect.gen(function* () {
        const ws = yield* asMember(ctx.state, by, "admin")
        const member = ws.members.find((m) => m.userId === userId)
        if (member === undefined) return yield* new MemberNotFound()
        if (guest !== null && atLeast(member.role, "admin")) return yield* new CannotBeGuest()
        const { [userId]: previous, ...others } = ws.guests ?? {}
        const access: GuestAccess | null = guest === null ? null : { expiresAt: guest.expiresAt, since: previous?.since ?? now() }
        const next = touch(ws, { guests: access === null ? others : { ...others, [userId]: access } })
        ctx.setState(
          access !== null
            ? logged(next, { type: "guest.updated", by, userId, data: { expiresAt: access.expiresAt } })
            : previous !== undefined
              ? logged(next, { type: "guest.converted", by, userId, data: { role: member.role } })
              : next
        )
        return { member, guest: access }
      }),
    history: ({ by }, ctx) => Effect.map(asMember(ctx.state, by, "admin"), (ws) => ws.history ?? []),
    inspect: (_, ctx) =>
      ctx.state.exists || ctx.state.deletedAt !== undefined ? Effect.succeed(inspection(ctx.state)) : Effect.fail(new WorkspaceNotFound()),
    suspend: ({ by, reason }, ctx) =>
      Effect.gen(function* () {
        const ws = yield* existing(ctx.state)
        const next = logged(touch(ws, { suspension: { at: now(), by, reason } }), { type: "workspace.suspended", by, data: { reason } })
        ctx.setState(next)
        return inspection(next)
      }),
    resume: ({ by }, ctx) =>
      Effect.gen(function* () {
        const ws = yield* existing(ctx.state)
        if (ws.suspension === undefined) return inspection(ws)
        const { suspension: _suspension, ...rest } = ws
        const next = logged(touch(rest, {}), { type: "workspace.resumed", by, data: {} })
        ctx.setState(next)
        return inspection(next)
      }),
    setLimits: (patch, ctx) =>
      Effect.gen(function* () {
        const ws = yield* existing(ctx.state)
        const limits: MemberLimits = { seats: null, quota: null, ...ws.limits, ...patch }
        ctx.setState(touch(ws, { limits }))
        return limits
      })
  }
})
