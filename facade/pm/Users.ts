/**
 * pm tag "Users" (23): profiles, status, settings (display, notification and
 * per-workspace preferences), avatars and password management. A user is the
 * identity Account (e-mail, name, password); everything else lives in the
 * user's own `UserSettings` actor. Co-workers — people sharing a workspace —
 * see each other's profiles and avatars; nobody else does (404).
 */
import { createHash, randomUUID } from "node:crypto"
import { Effect, Schema } from "effect"
import { readFile, removeFile, storeThen } from "../../actors/Files.ts"
import { showingUser } from "../../actors/pm/Staleness.ts"
import { membershipsOf } from "../../actors/pm/Team.ts"
import { visibleSpaceIds } from "../../actors/pm/WorkspaceReads.ts"
import { invalidate } from "../../actors/pm/WorkActor.ts"
import { Account, Password } from "../../actors/identity/Account.ts"
import { sessionIdsOf, usersByIds, type WorkspaceRecord, workspacesOf } from "../../actors/identity/IdentityQueries.ts"
import { Session } from "../../actors/identity/Session.ts"
import { Role } from "../../actors/identity/Workspace.ts"
import { Email, Id, Name, Timestamp, normalizeEmail, now } from "../../actors/Fields.ts"
import { listNotifications, Notification } from "../../actors/pm/Notifications.ts"
import { assessPassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, PASSWORD_MIN_SCORE } from "../../actors/pm/PasswordStrength.ts"
import {
  DateFormat,
  Locale,
  notificationReasons,
  Theme,
  TimeFormat,
  TimeZone,
  userStatusPresets,
  UserStatusPreset,
  ViewType,
  WeekStartDay
} from "../../actors/pm/ReferenceData.ts"
import { profileOf, settingsOf, UserProfile } from "../../actors/pm/UserDirectory.ts"
import {
  type AvatarInfo,
  DisplaySettings,
  NotificationPreferences,
  UserSettings,
  UserStatus,
  WorkspacePreferences,
  defaultWorkspacePreferences
} from "../../actors/pm/UserSettings.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { reject } from "../../runtime/Rejection.ts"
import { principalOf, userOf, workspaceRole } from "../Access.ts"
import { raw, type RequestContext, tagGroup } from "../Operation.ts"
import { visibleWorkspaceIds, workspaceScope } from "./Viewers.ts"
import { usersExamples } from "./Users.examples.ts"
const read = ["users:read"]
const write = ["users:write"]

// ---------------------------------------------------------------------------
// Helpers

const actors = ActorSystem.use(Effect.succeed)
const settingsActor = <Tag extends keyof typeof UserSettings.messages & string>(
  userId: string,
  tagName: Tag,
  payload: (typeof UserSettings.messages)[Tag]["payload"]["Type"]
) => ActorSystem.use((system) => system.ask(UserSettings, userId, tagName, payload))

/** The caller's user id and e-mail (for an API key: its creator's). */
const me = (context: RequestContext) =>
  Effect.gen(function* () {
    const principal = yield* principalOf(context)
    if (principal.kind === "user") return { userId: principal.userId, email: principal.email }
    const user = (yield* usersByIds([principal.userId]).pipe(Effect.orDie)).get(principal.userId)
    if (user === undefined) return yield* reject("unauthorized", "The key's owner no longer exists")
    return { userId: user.id, email: user.email }
  })

const myProfile = (context: RequestContext) =>
  Effect.gen(function* () {
    const { userId, email } = yield* me(context)
    const user = yield* Effect.flatMap(actors, (system) => Account.client(system)(normalizeEmail(email)).profile({}))
    const settings = yield* settingsActor(userId, "view", {})
    return profileOf(user, settings)
  })

/** Whether the caller may see `userId`: themselves, or someone sharing one of the caller's (visible) workspaces. */
const mayView = (context: RequestContext, userId: string) =>
  Effect.gen(function* () {
    const principal = yield* principalOf(context)
    if (principal.kind === "user" && principal.userId === userId) return true
    const mine = new Set(yield* visibleWorkspaceIds(context))
    const theirs = yield* workspacesOf(userId).pipe(Effect.orDie)
    return theirs.some((ws) => mine.has(ws.id))
  })

const profilesOf = (userIds: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const users = yield* usersByIds(userIds).pipe(Effect.orDie)
    const settings = yield* settingsOf(userIds).pipe(Effect.orDie)
    return userIds.flatMap((id) => {
      const user = users.get(id)
      return user ? [profileOf(user, settings.get(id))] : []
    })
  })

const notFoundUser = reject("not_found", "No such user")

const roleOf = (workspace: WorkspaceRecord, userId: string) => workspace.members.find((m) => m.userId === userId)?.role as Role | undefined

/** Spaces of the workspace the caller may see (for preferences that point at spaces). */
const checkSpaces = (workspaceId: string, userId: string, role: Role, spaceIds: ReadonlyArray<string>, path: string) =>
  Effect.gen(function* () {
    if (spaceIds.length === 0) return
    const admin = role === "owner" || role === "admin"
    const known = yield* visibleSpaceIds(workspaceId, { userId, admin }, spaceIds).pipe(Effect.orDie)
    const index = spaceIds.findIndex((id) => !known.has(id))
    if (index >= 0)
      return yield* reject("invalid", "No such space in this workspace", [
        { path: spaceIds.length === 1 && !path.endsWith("Ids") ? path : `${path}.${index}`, message: "unknown space" }
      ])
  })

// Avatars: the bytes must be what the Content-Type says.
const AVATAR_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"]
const AVATAR_MAX_BYTES = 2 * 1024 * 1024
const looksLike = (contentType: string, bytes: Uint8Array) => {
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to))
  switch (contentType) {
    case "image/png":
      return bytes.length > 8 && bytes[0] === 0x89 && ascii(1, 4) === "PNG"
    case "image/jpeg":
      return bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff
    case "image/gif":
      return bytes.length > 6 && (ascii(0, 6) === "GIF87a" || ascii(0, 6) === "GIF89a")
    case "image/webp":
      return bytes.length > 12 && ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP"
    default:
      return false
  }
}

// ---------------------------------------------------------------------------
// Schemas and examples

const ProfileText = (max: number) => Schema.NullOr(Schema.String.check(Schema.isMaxLength(max)))
const Phone = Schema.NullOr(Schema.String.check(Schema.isPattern(/^\+?[0-9 ()./-]{3,30}$/, { expected: "a phone number" })))

const MyDataExport = Schema.Struct({
  exportedAt: Timestamp,
  profile: UserProfile,
  settings: DisplaySettings.annotate({ identifier: "UserSettings" }),
  notificationPreferences: NotificationPreferences.annotate({ identifier: "NotificationPreferences" }),
  workspacePreferences: Schema.Record(Schema.String, WorkspacePreferences.annotate({ identifier: "WorkspacePreferences" })).annotate({
    description: "By workspace id"
  }),
  workspaces: Schema.Array(Schema.Struct({ id: Id, name: Schema.String, role: Schema.NullOr(Role) })),
  teams: Schema.Array(Schema.Struct({ teamId: Id, name: Schema.String, workspaceId: Id, role: Schema.String, addedAt: Schema.String })),
  notifications: Schema.Array(Notification)
}).annotate({ identifier: "MyDataExport", description: "Everything pm keeps about the caller." })

const WorkspaceUser = Schema.Struct({ ...UserProfile.fields, role: Role }).annotate({ identifier: "WorkspaceUser" })
const ReasonToggles = Schema.Struct(
  Object.fromEntries(notificationReasons.map((reason) => [reason, Schema.optionalKey(Schema.Boolean)])) as Record<
    (typeof notificationReasons)[number],
    Schema.optionalKey<Schema.Boolean>
  >
)
const StrengthReport = Schema.Struct({
  score: Schema.Number.annotate({ description: "0 (trivially guessed) to 4 (strong)" }),
  acceptable: Schema.Boolean,
  warnings: Schema.Array(Schema.String),
  suggestions: Schema.Array(Schema.String)
}).annotate({ identifier: "PasswordStrength" })

const { operation } = tagGroup("pm", "Users", usersExamples)

export const usersOperations = [
  // -- profile ---------------------------------------------------------------
  operation({
    operationId: "getMyProfile",
    method: "GET",
    path: "/v1/users/me",
    summary: "The caller's profile (for an API key: its owner's)",
    auth: "both",
    scopes: read,
    responses: { 200: { description: "Profile", schema: UserProfile } },
    handler: (_r, context) => myProfile(context)
  }),
  operation({
    operationId: "updateMyProfile",
    method: "PATCH",
    path: "/v1/users/me",
    summary: "Change the caller's name, title, department, bio or phone",
    description: "Fields left out are unchanged; null clears one.",
    auth: "both",
    scopes: write,
    body: Schema.Struct({
      name: Schema.optionalKey(Name(200)),
      title: Schema.optionalKey(ProfileText(100)),
      department: Schema.optionalKey(ProfileText(100)),
      bio: Schema.optionalKey(ProfileText(2000)),
      phone: Schema.optionalKey(Phone)
    }),
    responses: { 200: { description: "Profile", schema: UserProfile } },
    handler: ({ body }, context) =>
      Effect.gen(function* () {
        const { userId, email } = yield* me(context)
        const { name, ...details } = body
        if (name !== undefined) {
          yield* Effect.flatMap(actors, (system) => Account.client(system)(normalizeEmail(email)).rename({ name }))
          // Tasks kept in memory show their assignees' names.
          yield* Effect.flatMap(Effect.orDie(showingUser(userId)), (stale) => invalidate(stale))
        }
        if (Object.keys(details).length > 0) yield* settingsActor(userId, "updateProfile", details)
        return yield* myProfile(context)
      })
  }),
  operation({
    operationId: "getUserProfile",
    method: "GET",
    path: "/v1/users/{userId}",
    summary: "A co-worker's profile",
    description: "Only people sharing a workspace with the caller (for an API key: in its workspace) are found.",
    auth: "both",
    scopes: read,
    params: Schema.Struct({ userId: Id }),
    responses: { 200: { description: "Profile", schema: UserProfile }, 404: { description: "No such user, or not a co-worker" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        if (!(yield* mayView(context, params.userId))) return yield* notFoundUser
        const [profile] = yield* profilesOf([params.userId])
        return profile ?? (yield* notFoundUser)
      })
  }),
  operation({
    operationId: "listWorkspaceUsers",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/users",
    summary: "The people in a workspace with their profiles and roles",
    auth: "both",
    scopes: read,
    params: Schema.Struct({ workspaceId: Id }),
    query: Schema.Struct({
      q: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(100)).annotate({ description: "Part of the name or e-mail" })),
      role: Schema.optionalKey(Role)
    }),
    responses: { 200: { description: "Users, by name", schema: Schema.Struct({ items: Schema.Array(WorkspaceUser) }) } },
    handler: ({ params, query: q }, context) =>
      Effect.gen(function* () {
        yield* workspaceRole(context, params.workspaceId)
        const workspace = (yield* workspacesOf((yield* principalOf(context)).userId).pipe(Effect.orDie)).find(
          (w) => w.id === params.workspaceId
        )
        const members = workspace?.members ?? []
        const needle = q.q?.trim().toLowerCase()
        const items = (yield* profilesOf(members.map((m) => m.userId)))
          .map((profile) => ({ ...profile, role: roleOf(workspace!, profile.id) ?? "viewer" }))
          .filter(
            (user) =>
              (q.role === undefined || user.role === q.role) &&
              (needle === undefined || user.name.toLowerCase().includes(needle) || user.email.includes(needle))
          )
          .sort((a, b) => a.name.localeCompare(b.name) || a.email.localeCompare(b.email))
        return { items }
      })
  }),
  operation({
    operationId: "lookupWorkspaceUserByEmail",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/users/lookup",
    summary: "Find a workspace member by e-mail (for e-mail-based assignment and mentions)",
    auth: "both",
    scopes: read,
    params: Schema.Struct({ workspaceId: Id }),
    query: Schema.Struct({ email: Email }),
    responses: {
      200: { description: "The member", schema: WorkspaceUser },
      404: { description: "Nobody in the workspace has that e-mail" }
    },
    handler: ({ params, query: q }, context) =>
      Effect.gen(function* () {
        yield* workspaceRole(context, params.workspaceId)
        const user = yield* Effect.flatMap(actors, (system) => Account.client(system)(normalizeEmail(q.email)).profile({})).pipe(
          Effect.catchTag("UserNotFound", () =>
            Effect.fail(reject("not_found", "Nobody in this workspace has that e-mail", [{ path: "query.email", message: "not a member" }]))
          )
        )
        const workspace = (yield* workspacesOf(user.id).pipe(Effect.orDie)).find((w) => w.id === params.workspaceId)
        const role = workspace ? roleOf(workspace, user.id) : undefined
        if (role === undefined)
          return yield* reject("not_found", "Nobody in this workspace has that e-mail", [{ path: "query.email", message: "not a member" }])
        const [profile] = yield* profilesOf([user.id])
        return { ...profile!, role }
      })
  }),
  operation({
    operationId: "getUsersBatch",
    method: "POST",
    path: "/v1/users/batch",
    summary: "Profiles of several co-workers at once (e.g. to render assignees)",
    auth: "both",
    scopes: read,
    body: Schema.Struct({ ids: Schema.Array(Id).check(Schema.isMinLength(1), Schema.isMaxLength(100)) }),
    responses: {
      200: {
        description: "Found profiles, and the ids that are unknown or not co-workers",
        schema: Schema.Struct({ items: Schema.Array(UserProfile), missing: Schema.Array(Id) })
      }
    },
    handler: ({ body }, context) =>
      Effect.gen(function* () {
        const ids = [...new Set(body.ids)]
        const visible = yield* Effect.filter(ids, (id) => mayView(context, id), { concurrency: 8 })
        const items = yield* profilesOf(visible)
        const found = new Set(items.map((p) => p.id))
        return { items, missing: ids.filter((id) => !found.has(id)) }
      })
  }),
  // -- status ----------------------------------------------------------------
  operation({
    operationId: "setMyStatus",
    method: "PUT",
    path: "/v1/users/me/status",
    summary: "Set the caller's status (free text or a preset), optionally clearing itself later",
    description:
      "Give `text` (and `emoji`) or a `preset` from /v1/reference-data/user-status-presets. `clearAfterMinutes` or `clearAt` ends it; a preset's default duration applies otherwise.",
    auth: "both",
    scopes: write,
    body: Schema.Struct({
      text: Schema.optionalKey(Name(100)),
      emoji: Schema.optionalKey(Schema.NullOr(Schema.String.check(Schema.isMaxLength(16)))),
      preset: Schema.optionalKey(UserStatusPreset),
      clearAfterMinutes: Schema.optionalKey(Schema.NullOr(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 60 * 24 * 90 })))),
      clearAt: Schema.optionalKey(Schema.NullOr(Timestamp))
    }),
    responses: { 200: { description: "The status", schema: UserStatus } },
    handler: ({ body }, context) =>
      Effect.gen(function* () {
        const { userId } = yield* me(context)
        const preset = body.preset === undefined ? undefined : userStatusPresets.find((p) => p.id === body.preset)
        const text = body.text ?? preset?.text
        if (text === undefined)
          return yield* reject("invalid", "Give a text or a preset", [{ path: "body.text", message: "required without preset" }])
        if (body.clearAt != null && body.clearAfterMinutes != null) {
          return yield* reject("invalid", "Give clearAt or clearAfterMinutes, not both", [
            { path: "body.clearAt", message: "conflicts with clearAfterMinutes" }
          ])
        }
        let clearAt: string | null = null
        if (body.clearAt != null) {
          const at = Date.parse(body.clearAt)
          if (Number.isNaN(at) || at <= Date.now())
            return yield* reject("invalid", "clearAt must be a future date-time", [{ path: "body.clearAt", message: "not in the future" }])
          clearAt = new Date(at).toISOString()
        } else {
          const minutes = body.clearAfterMinutes !== undefined ? body.clearAfterMinutes : (preset?.defaultMinutes ?? null)
          clearAt = minutes === null || body.clearAt === null ? null : new Date(Date.now() + minutes * 60_000).toISOString()
        }
        return yield* settingsActor(userId, "setStatus", {
          text: text.trim(),
          emoji: body.emoji !== undefined ? body.emoji : (preset?.emoji ?? null),
          clearAt
        })
      })
  }),
  operation({
    operationId: "clearMyStatus",
    method: "DELETE",
    path: "/v1/users/me/status",
    summary: "Clear the caller's status",
    auth: "both",
    scopes: write,
    responses: { 204: { description: "Cleared" } },
    handler: (_r, context) => Effect.flatMap(me(context), ({ userId }) => Effect.asVoid(settingsActor(userId, "clearStatus", {})))
  }),
  // -- settings --------------------------------------------------------------
  operation({
    operationId: "getMySettings",
    method: "GET",
    path: "/v1/users/me/settings",
    summary: "The caller's display settings: time zone, locale, date and time formats, week start, theme, default workspace",
    auth: "both",
    scopes: read,
    responses: { 200: { description: "Settings", schema: DisplaySettings.annotate({ identifier: "UserSettings" }) } },
    handler: (_r, context) => Effect.flatMap(me(context), ({ userId }) => Effect.map(settingsActor(userId, "view", {}), (s) => s.settings))
  }),
  operation({
    operationId: "updateMySettings",
    method: "PATCH",
    path: "/v1/users/me/settings",
    summary: "Change display settings",
    description:
      "Values come from /v1/reference-data (time-zones, locales, date-formats, time-formats, week-start-days, themes). Fields left out are unchanged.",
    auth: "both",
    scopes: write,
    body: Schema.Struct({
      timezone: Schema.optionalKey(TimeZone),
      locale: Schema.optionalKey(Locale),
      dateFormat: Schema.optionalKey(DateFormat),
      timeFormat: Schema.optionalKey(TimeFormat),
      weekStart: Schema.optionalKey(WeekStartDay),
      theme: Schema.optionalKey(Theme),
      defaultWorkspaceId: Schema.optionalKey(Schema.NullOr(Id))
    }),
    responses: { 200: { description: "Settings", schema: DisplaySettings } },
    handler: ({ body }, context) =>
      Effect.gen(function* () {
        const { userId } = yield* me(context)
        if (body.defaultWorkspaceId != null)
          yield* workspaceScope(context, body.defaultWorkspaceId).pipe(
            Effect.catchTag("Rejection", () =>
              Effect.fail(
                reject("invalid", "Not one of your workspaces", [{ path: "body.defaultWorkspaceId", message: "unknown workspace" }])
              )
            )
          )
        return yield* settingsActor(userId, "updateSettings", body)
      })
  }),
  operation({
    operationId: "resetMySettings",
    method: "DELETE",
    path: "/v1/users/me/settings",
    summary: "Reset display settings to the defaults",
    auth: "both",
    scopes: write,
    responses: { 200: { description: "Default settings", schema: DisplaySettings } },
    handler: (_r, context) => Effect.flatMap(me(context), ({ userId }) => settingsActor(userId, "resetSettings", {}))
  }),
  operation({
    operationId: "getMyNotificationPreferences",
    method: "GET",
    path: "/v1/users/me/settings/notifications",
    summary: "Which notification reasons the caller receives, and muted workspaces",
    auth: "both",
    scopes: read,
    responses: { 200: { description: "Preferences", schema: NotificationPreferences.annotate({ identifier: "NotificationPreferences" }) } },
    handler: (_r, context) =>
      Effect.flatMap(me(context), ({ userId }) => Effect.map(settingsActor(userId, "view", {}), (s) => s.notifications))
  }),
  operation({
    operationId: "updateMyNotificationPreferences",
    method: "PATCH",
    path: "/v1/users/me/settings/notifications",
    summary: "Switch notification reasons on or off, or mute workspaces",
    description:
      "Muted reasons and workspaces create no notifications for the caller from then on. Reasons: /v1/reference-data/notification-reasons.",
    auth: "both",
    scopes: write,
    body: Schema.Struct({
      reasons: Schema.optionalKey(ReasonToggles),
      mutedWorkspaceIds: Schema.optionalKey(Schema.Array(Id).check(Schema.isMaxLength(100)))
    }),
    responses: { 200: { description: "Preferences", schema: NotificationPreferences } },
    handler: ({ body }, context) =>
      Effect.gen(function* () {
        const { userId } = yield* me(context)
        if (body.mutedWorkspaceIds !== undefined) {
          const visible = new Set(yield* visibleWorkspaceIds(context))
          const index = body.mutedWorkspaceIds.findIndex((id) => !visible.has(id))
          if (index >= 0)
            return yield* reject("invalid", "Not one of your workspaces", [
              { path: `body.mutedWorkspaceIds.${index}`, message: "unknown workspace" }
            ])
        }
        return yield* settingsActor(userId, "updateNotifications", {
          ...(body.reasons !== undefined ? { reasons: body.reasons as Record<string, boolean> } : {}),
          ...(body.mutedWorkspaceIds !== undefined ? { mutedWorkspaceIds: body.mutedWorkspaceIds } : {})
        })
      })
  }),
  operation({
    operationId: "getMyWorkspacePreferences",
    method: "GET",
    path: "/v1/users/me/workspaces/{workspaceId}/preferences",
    summary: "The caller's preferences in one workspace: home space, default view type, sidebar, pinned spaces",
    auth: "both",
    scopes: read,
    params: Schema.Struct({ workspaceId: Id }),
    responses: { 200: { description: "Preferences", schema: WorkspacePreferences.annotate({ identifier: "WorkspacePreferences" }) } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* workspaceRole(context, params.workspaceId)
        const { userId } = yield* me(context)
        return (yield* settingsActor(userId, "view", {})).workspaces[params.workspaceId] ?? defaultWorkspacePreferences
      })
  }),
  operation({
    operationId: "updateMyWorkspacePreferences",
    method: "PATCH",
    path: "/v1/users/me/workspaces/{workspaceId}/preferences",
    summary: "Change the caller's preferences in one workspace",
    description: "Spaces must be ones the caller can see in that workspace.",
    auth: "both",
    scopes: write,
    params: Schema.Struct({ workspaceId: Id }),
    body: Schema.Struct({
      homeSpaceId: Schema.optionalKey(Schema.NullOr(Id)),
      defaultViewType: Schema.optionalKey(Schema.NullOr(ViewType)),
      sidebarCollapsed: Schema.optionalKey(Schema.Boolean),
      pinnedSpaceIds: Schema.optionalKey(Schema.Array(Id).check(Schema.isMaxLength(20)))
    }),
    responses: { 200: { description: "Preferences", schema: WorkspacePreferences } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const role = yield* workspaceRole(context, params.workspaceId)
        const { userId } = yield* me(context)
        if (body.homeSpaceId != null) yield* checkSpaces(params.workspaceId, userId, role, [body.homeSpaceId], "body.homeSpaceId")
        if (body.pinnedSpaceIds !== undefined)
          yield* checkSpaces(params.workspaceId, userId, role, [...new Set(body.pinnedSpaceIds)], "body.pinnedSpaceIds")
        return yield* settingsActor(userId, "updateWorkspacePreferences", {
          workspaceId: params.workspaceId,
          ...body,
          ...(body.pinnedSpaceIds !== undefined ? { pinnedSpaceIds: [...new Set(body.pinnedSpaceIds)] } : {})
        })
      })
  }),
  // -- avatar ----------------------------------------------------------------
  operation({
    operationId: "uploadMyAvatar",
    method: "PUT",
    path: "/v1/users/me/avatar",
    summary: "Upload the caller's avatar (the image bytes are the request body: PNG, JPEG, GIF or WebP, at most 2 MiB)",
    auth: "both",
    scopes: write,
    upload: { contentTypes: AVATAR_TYPES, maxBytes: AVATAR_MAX_BYTES },
    responses: {
      200: {
        description: "Stored",
        schema: Schema.Struct({ avatarUrl: Schema.String, contentType: Schema.String, size: Schema.Number, updatedAt: Timestamp }).annotate(
          { identifier: "Avatar" }
        )
      },
      413: { description: "Larger than 2 MiB" },
      415: { description: "Not PNG, JPEG, GIF or WebP" }
    },
    handler: ({ upload }, context) =>
      Effect.gen(function* () {
        const { userId } = yield* me(context)
        if (upload === undefined) return yield* reject("invalid", "The image is the request body", [{ path: "body", message: "missing" }])
        if (!looksLike(upload.contentType, upload.bytes))
          return yield* reject("invalid", `The body is not a ${upload.contentType} image`, [
            { path: "body", message: "content does not match Content-Type" }
          ])
        const key = `pm/avatars/${userId}/${randomUUID()}`
        const { avatar, previous } = yield* storeThen(
          key,
          upload,
          settingsActor(userId, "setAvatar", { key, contentType: upload.contentType, size: upload.bytes.length })
        )
        if (previous !== null) yield* removeFile(previous.key).pipe(Effect.ignore)
        return {
          avatarUrl: `/pm/v1/users/${userId}/avatar?v=${encodeURIComponent(avatar.updatedAt)}`,
          contentType: avatar.contentType,
          size: avatar.size,
          updatedAt: avatar.updatedAt
        }
      })
  }),
  operation({
    operationId: "deleteMyAvatar",
    method: "DELETE",
    path: "/v1/users/me/avatar",
    summary: "Remove the caller's avatar",
    auth: "both",
    scopes: write,
    responses: { 204: { description: "Removed (or there was none)" } },
    handler: (_r, context) =>
      Effect.gen(function* () {
        const { userId } = yield* me(context)
        const { previous } = yield* settingsActor(userId, "clearAvatar", {})
        if (previous !== null) yield* removeFile(previous.key).pipe(Effect.ignore)
      })
  }),
  operation({
    operationId: "getUserAvatar",
    method: "GET",
    path: "/v1/users/{userId}/avatar",
    summary: "A co-worker's (or the caller's own) avatar image",
    auth: "both",
    scopes: read,
    params: Schema.Struct({ userId: Id }),
    responses: { 200: { description: "The image", contentType: "image/*" }, 404: { description: "No avatar, or not a co-worker" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        if (!(yield* mayView(context, params.userId))) return yield* notFoundUser
        const avatar: typeof AvatarInfo.Type | null =
          (yield* settingsOf([params.userId]).pipe(Effect.orDie)).get(params.userId)?.avatar ?? null
        if (avatar === null) return yield* reject("not_found", "This user has no avatar")
        const blob = yield* readFile(avatar.key)
        if (blob === undefined) return yield* reject("not_found", "This user has no avatar")
        return raw(avatar.contentType, blob.bytes, {
          etag: `"${createHash("sha256").update(avatar.key).digest("base64url").slice(0, 22)}"`,
          "cache-control": "private, max-age=86400",
          "x-content-type-options": "nosniff"
        })
      })
  }),
  // -- password --------------------------------------------------------------
  operation({
    operationId: "getPasswordPolicy",
    method: "GET",
    path: "/v1/users/password-policy",
    summary: "What a password must be",
    auth: "public",
    scopes: [],
    responses: {
      200: {
        description: "Policy",
        schema: Schema.Struct({
          minLength: Schema.Number,
          maxLength: Schema.Number,
          minScore: Schema.Number,
          rules: Schema.Array(Schema.String)
        }).annotate({ identifier: "PasswordPolicy" })
      }
    },
    handler: () =>
      Effect.succeed({
        minLength: PASSWORD_MIN_LENGTH,
        maxLength: PASSWORD_MAX_LENGTH,
        minScore: PASSWORD_MIN_SCORE,
        rules: [
          `At least ${PASSWORD_MIN_LENGTH} and at most ${PASSWORD_MAX_LENGTH} characters`,
          `A strength score of at least ${PASSWORD_MIN_SCORE} of 4 (see POST /v1/users/password-strength) when changed through /v1/users/me/password`,
          "Not one of the most common passwords, and not your name or e-mail address",
          "Changing it ends every other session"
        ]
      })
  }),
  operation({
    operationId: "checkPasswordStrength",
    method: "POST",
    path: "/v1/users/password-strength",
    summary: "Score a candidate password (0–4) with warnings and suggestions; nothing is stored",
    auth: "public",
    scopes: [],
    body: Schema.Struct({
      password: Schema.String.check(Schema.isMaxLength(PASSWORD_MAX_LENGTH)),
      email: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(254))),
      name: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(200)))
    }),
    responses: { 200: { description: "Assessment", schema: StrengthReport } },
    handler: ({ body }) =>
      Effect.succeed(
        assessPassword(body.password, {
          ...(body.email !== undefined ? { email: body.email } : {}),
          ...(body.name !== undefined ? { name: body.name } : {})
        })
      )
  }),
  operation({
    operationId: "verifyMyPassword",
    method: "POST",
    path: "/v1/users/me/password/verify",
    summary: "Re-check the caller's password before a sensitive action",
    description: "Repeated failures lock the account for a while (429), like logins.",
    auth: "jwt",
    scopes: [],
    body: Schema.Struct({ password: Schema.String.check(Schema.isMaxLength(PASSWORD_MAX_LENGTH)) }),
    responses: {
      200: { description: "Verified", schema: Schema.Struct({ verified: Schema.Boolean, verifiedAt: Timestamp }) },
      400: { description: "Wrong password" }
    },
    handler: ({ body }, context) =>
      Effect.gen(function* () {
        const user = yield* userOf(context)
        yield* Effect.flatMap(actors, (system) =>
          Account.client(system)(normalizeEmail(user.email)).authenticate({ password: body.password })
        ).pipe(
          Effect.catchTag("InvalidCredentials", () =>
            Effect.fail(reject("invalid", "The password is wrong", [{ path: "body.password", message: "does not match" }]))
          )
        )
        return { verified: true, verifiedAt: now() }
      })
  }),
  operation({
    operationId: "changeMyPassword",
    method: "POST",
    path: "/v1/users/me/password",
    summary: "Change the caller's password, enforcing the strength policy",
    description:
      "Requires the current password; the new one must score at least the policy's minimum and differ from the current one. Every other session ends.",
    auth: "jwt",
    scopes: [],
    body: Schema.Struct({ currentPassword: Schema.String.check(Schema.isMaxLength(PASSWORD_MAX_LENGTH)), newPassword: Password }),
    responses: {
      200: {
        description: "Changed",
        schema: Schema.Struct({ changedAt: Timestamp, sessionsEnded: Schema.Number, strength: StrengthReport })
      },
      400: { description: "Wrong current password, or a weak new one" }
    },
    handler: ({ body }, context) =>
      Effect.gen(function* () {
        const user = yield* userOf(context)
        const strength = assessPassword(body.newPassword, { email: user.email, name: user.name })
        if (!strength.acceptable) {
          return yield* reject("invalid", `The new password is too weak: ${strength.warnings.join("; ") || "too easy to guess"}`, [
            { path: "body.newPassword", message: "too weak" }
          ])
        }
        if (body.newPassword === body.currentPassword)
          return yield* reject("invalid", "The new password must differ from the current one", [
            { path: "body.newPassword", message: "unchanged" }
          ])
        const system = yield* actors
        const { changedAt } = yield* Account.client(system)(normalizeEmail(user.email)).changePassword(body)
        const others = (yield* sessionIdsOf(user.userId).pipe(Effect.orDie)).filter((id) => id !== user.sessionId)
        yield* Effect.forEach(others, (id) => Session.client(system)(id).revoke({ userId: user.userId, reason: "password changed" }), {
          concurrency: 8
        })
        return { changedAt, sessionsEnded: others.length, strength }
      })
  }),
  // -- data ------------------------------------------------------------------
  operation({
    operationId: "exportMyData",
    method: "GET",
    path: "/v1/users/me/export",
    summary: "Download everything pm keeps about the caller as JSON",
    description: "Profile, settings, preferences, workspaces and roles, team memberships and the latest 1000 notifications.",
    auth: "jwt",
    scopes: [],
    responses: { 200: { description: "A JSON document (attachment)", schema: MyDataExport } },
    handler: (_r, context) =>
      Effect.gen(function* () {
        const user = yield* userOf(context)
        const profile = yield* myProfile(context)
        const settings = yield* settingsActor(user.userId, "view", {})
        const workspaces = yield* workspacesOf(user.userId).pipe(Effect.orDie)
        const memberships = yield* membershipsOf(user.userId).pipe(Effect.orDie)
        const notifications = yield* listNotifications({ userId: user.userId, workspaceIds: workspaces.map((w) => w.id) }, 1000)
        const document = {
          exportedAt: now(),
          profile,
          settings: settings.settings,
          notificationPreferences: settings.notifications,
          workspacePreferences: settings.workspaces,
          workspaces: workspaces.map((w) => ({ id: w.id, name: w.name, role: roleOf(w, user.userId) ?? null })),
          teams: memberships,
          notifications: notifications.items
        }
        return raw("application/json; charset=utf-8", JSON.stringify(document, null, 2), {
          "content-disposition": `attachment; filename="atrium-pm-export-${user.userId}.json"`
        })
      })
  })
]
