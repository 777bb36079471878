/**
 * A Workspace: its name, owner, members with roles, and hub settings. One
 * workspace id is valid in the hub, pm, wiki and feedback board alike. Every
 * mutation names who does it (`by`), and the role rules live here.
 */
import { Effect, Schema } from "effect"
import { Actor } from "../../runtime/Actor.ts"
import { reject } from "../../runtime/Rejection.ts"
import { Id, Name, Timestamp, now } from "../Fields.ts"

export const Role = Schema.Literals(["owner", "admin", "member", "viewer"]).annotate({
  description: "owner > admin > member > viewer"
})
export type Role = typeof Role.Type
export const AssignableRole = Schema.Literals(["admin", "member", "viewer"])

const rank: Record<Role, number> = { viewer: 1, member: 2, admin: 3, owner: 4 }
export const atLeast = (role: Role, minimum: Role): boolean => rank[role] >= rank[minimum]

export const IntegrationTarget = Schema.Literals(["tracker", "taskapp", "tablebase", "pm"]).annotate({
  description: "Where new action items go: the issue tracker, the task tool, the spreadsheet-database tool, or Atrium's own project management."
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

const WorkspaceState = Schema.Struct({
  id: Schema.String,
  exists: Schema.Boolean,
  name: Schema.String,
  ownerId: Schema.String,
  members: Schema.Array(Member),
  settings: WorkspaceSettings,
  createdAt: Schema.String,
  updatedAt: Schema.String
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

const view = ({ exists: _exists, ...rest }: WorkspaceState) => rest

export const roleOf = (state: Pick<WorkspaceState, "members">, userId: string): Role | undefined =>
  state.members.find((member) => member.userId === userId)?.role

const existing = (state: WorkspaceState) =>
  state.exists ? Effect.succeed(state) : Effect.fail(reject("not_found", "No such workspace"))

/** The workspace as `by` may see it: non-members get the same 404 as a missing workspace. */
const asMember = (state: WorkspaceState, by: string, minimum: Role = "viewer") =>
  Effect.gen(function* () {
    const ws = yield* existing(state)
    const role = roleOf(ws, by)
    if (role === undefined) return yield* reject("not_found", "No such workspace")
    if (!atLeast(role, minimum)) return yield* reject("forbidden", `Requires the ${minimum} role in this workspace`)
    return ws
  })

const touch = (state: WorkspaceState, patch: Partial<WorkspaceState>): WorkspaceState => ({ ...state, ...patch, updatedAt: now() })

const By = { by: Schema.String }

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
    create: { payload: Schema.Struct({ ...By, name: Name() }), success: WorkspaceView },
    /** The workspace as a member sees it. */
    view: { payload: Schema.Struct({ ...By }), success: WorkspaceView },
    /** The caller's role (not_found when not a member). */
    roleOf: { payload: Schema.Struct({ userId: Schema.String }), success: Role },
    rename: { payload: Schema.Struct({ ...By, name: Name() }), success: WorkspaceView },
    addMember: { payload: Schema.Struct({ ...By, userId: Schema.String, role: AssignableRole }), success: Member },
    setMemberRole: { payload: Schema.Struct({ ...By, userId: Schema.String, role: AssignableRole }), success: Member },
    removeMember: { payload: Schema.Struct({ ...By, userId: Schema.String }), success: Schema.Void },
    transferOwnership: { payload: Schema.Struct({ ...By, userId: Schema.String }), success: WorkspaceView },
    updateSettings: {
      payload: Schema.Struct({
        ...By,
        preferredIntegrationTarget: Schema.optionalKey(Schema.NullOr(IntegrationTarget)),
        customPrompt: Schema.optionalKey(Schema.NullOr(CustomPrompt))
      }),
      success: WorkspaceSettings
    },
    resetSettings: { payload: Schema.Struct({ ...By }), success: WorkspaceSettings }
  },
  handlers: {
    create: ({ by, name }, ctx) =>
      Effect.gen(function* () {
        if (ctx.state.exists) return yield* reject("conflict", "Workspace already exists")
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
        ctx.setState(next)
        return view(next)
      }),
    view: ({ by }, ctx) => Effect.map(asMember(ctx.state, by), view),
    roleOf: ({ userId }, ctx) =>
      Effect.gen(function* () {
        const ws = yield* existing(ctx.state)
        const role = roleOf(ws, userId)
        return role === undefined ? yield* reject("not_found", "No such workspace") : role
      }),
    rename: ({ by, name }, ctx) =>
      Effect.gen(function* () {
        const ws = yield* asMember(ctx.state, by, "admin")
        const next = touch(ws, { name: name.trim() })
        ctx.setState(next)
        return view(next)
      }),
    addMember: ({ by, userId, role }, ctx) =>
      Effect.gen(function* () {
        const ws = yield* asMember(ctx.state, by, "admin")
        if (roleOf(ws, userId) !== undefined) return yield* reject("conflict", "Already a member", [{ path: "email", message: "already a member" }])
        const member: Member = { userId, role, addedAt: now() }
        ctx.setState(touch(ws, { members: [...ws.members, member] }))
        return member
      }),
    setMemberRole: ({ by, userId, role }, ctx) =>
      Effect.gen(function* () {
        const ws = yield* asMember(ctx.state, by, "admin")
        const current = ws.members.find((m) => m.userId === userId)
        if (current === undefined) return yield* reject("not_found", "No such member")
        if (current.role === "owner") return yield* reject("conflict", "The owner's role changes only by transferring ownership")
        const member: Member = { ...current, role }
        ctx.setState(touch(ws, { members: ws.members.map((m) => (m.userId === userId ? member : m)) }))
        return member
      }),
    removeMember: ({ by, userId }, ctx) =>
      Effect.gen(function* () {
        // Anyone may leave; removing someone else takes an admin.
        const ws = yield* asMember(ctx.state, by, by === userId ? "viewer" : "admin")
        const target = ws.members.find((m) => m.userId === userId)
        if (target === undefined) return yield* reject("not_found", "No such member")
        if (target.role === "owner") return yield* reject("conflict", "The owner cannot leave; transfer ownership first")
        ctx.setState(touch(ws, { members: ws.members.filter((m) => m.userId !== userId) }))
      }),
    transferOwnership: ({ by, userId }, ctx) =>
      Effect.gen(function* () {
        const ws = yield* asMember(ctx.state, by, "owner")
        if (roleOf(ws, userId) === undefined) return yield* reject("invalid", "The new owner must be a member", [{ path: "userId", message: "not a member" }])
        const members = ws.members.map((m): Member =>
          m.userId === userId ? { ...m, role: "owner" } : m.userId === by ? { ...m, role: "admin" } : m
        )
        const next = touch(ws, { ownerId: userId, members })
        ctx.setState(next)
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
      })
  }
})
