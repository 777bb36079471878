/**
 * A user's own settings, beside the identity Account (which keeps credentials,
 * e-mail and display name): profile details, a status, the avatar, display
 * preferences, notification preferences and per-workspace preferences. One
 * actor per user id; its persisted state is read by others only through
 * `UserDirectory.settingsOf` (e.g. the ChangeLog, to honour muted notifications).
 * Values are validated by the facade against the reference data; the actor
 * keeps them consistent (e.g. an expired status reads as none).
 */
import { Effect, Schema } from "effect"
import { Actor } from "../../runtime/Actor.ts"
import { Timestamp, now } from "../Fields.ts"
import { notificationReasons, type NotificationReason } from "./ReferenceData.ts"

export const USER_SETTINGS_KIND = "pmUserSettings"

const Str = Schema.String
const NullStr = Schema.NullOr(Schema.String)

export const ProfileDetails = Schema.Struct({
  title: NullStr,
  department: NullStr,
  bio: NullStr,
  phone: NullStr
})
export type ProfileDetails = typeof ProfileDetails.Type

export const UserStatus = Schema.Struct({
  text: Str,
  emoji: NullStr,
  /** When the status clears itself (null: until cleared). */
  clearAt: Schema.NullOr(Timestamp),
  setAt: Timestamp
}).annotate({ identifier: "UserStatus" })
export type UserStatus = typeof UserStatus.Type

export const AvatarInfo = Schema.Struct({ key: Str, contentType: Str, size: Schema.Number, updatedAt: Timestamp })
export type AvatarInfo = typeof AvatarInfo.Type

export const DisplaySettings = Schema.Struct({
  timezone: Str,
  locale: Str,
  dateFormat: Str,
  timeFormat: Str,
  weekStart: Str,
  theme: Str,
  defaultWorkspaceId: NullStr
})
export type DisplaySettings = typeof DisplaySettings.Type

export const NotificationPreferences = Schema.Struct({
  /** false: notifications for that reason are not created for this user. */
  reasons: Schema.Record(Schema.String, Schema.Boolean),
  mutedWorkspaceIds: Schema.Array(Str)
})
export type NotificationPreferences = typeof NotificationPreferences.Type

export const WorkspacePreferences = Schema.Struct({
  homeSpaceId: NullStr,
  defaultViewType: NullStr,
  sidebarCollapsed: Schema.Boolean,
  pinnedSpaceIds: Schema.Array(Str)
})
export type WorkspacePreferences = typeof WorkspacePreferences.Type

export const SettingsState = Schema.Struct({
  profile: ProfileDetails,
  status: Schema.NullOr(UserStatus),
  avatar: Schema.NullOr(AvatarInfo),
  settings: DisplaySettings,
  notifications: NotificationPreferences,
  workspaces: Schema.Record(Schema.String, WorkspacePreferences),
  updatedAt: Schema.NullOr(Timestamp)
})
export type SettingsState = typeof SettingsState.Type

export const defaultDisplaySettings: DisplaySettings = {
  timezone: "UTC",
  locale: "en-US",
  dateFormat: "YYYY-MM-DD",
  timeFormat: "24h",
  weekStart: "monday",
  theme: "system",
  defaultWorkspaceId: null
}

export const defaultNotificationPreferences: NotificationPreferences = {
  reasons: Object.fromEntries(notificationReasons.map((reason) => [reason, true])),
  mutedWorkspaceIds: []
}

export const defaultWorkspacePreferences: WorkspacePreferences = {
  homeSpaceId: null,
  defaultViewType: null,
  sidebarCollapsed: false,
  pinnedSpaceIds: []
}

const initial = (): SettingsState => ({
  profile: { title: null, department: null, bio: null, phone: null },
  status: null,
  avatar: null,
  settings: defaultDisplaySettings,
  notifications: defaultNotificationPreferences,
  workspaces: {},
  updatedAt: null
})

/** The status as it reads now: an expired one is none. */
export const currentStatus = (status: UserStatus | null, at = Date.now()): UserStatus | null =>
  status !== null && status.clearAt !== null && Date.parse(status.clearAt) <= at ? null : status

const StateView = SettingsState

const touch = (state: SettingsState, patch: Partial<SettingsState>): SettingsState => ({ ...state, ...patch, updatedAt: now() })

const defined = <T extends object>(patch: T): Partial<T> =>
  Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) as Partial<T>

export const UserSettings = Actor<SettingsState>()({
  kind: USER_SETTINGS_KIND,
  state: SettingsState,
  initial,
  messages: {
    view: { payload: Schema.Struct({}), success: StateView, error: Schema.Never },
    updateProfile: {
      payload: Schema.Struct({
        title: Schema.optionalKey(NullStr),
        department: Schema.optionalKey(NullStr),
        bio: Schema.optionalKey(NullStr),
        phone: Schema.optionalKey(NullStr)
      }),
      success: ProfileDetails,
      error: Schema.Never
    },
    setStatus: {
      payload: Schema.Struct({ text: Str, emoji: NullStr, clearAt: Schema.NullOr(Timestamp) }),
      success: UserStatus,
      error: Schema.Never
    },
    clearStatus: { payload: Schema.Struct({}), success: Schema.Struct({ cleared: Schema.Boolean }), error: Schema.Never },
    /** Records the new avatar; returns the previous one so its blob can be deleted. */
    setAvatar: {
      payload: Schema.Struct({ key: Str, contentType: Str, size: Schema.Number }),
      success: Schema.Struct({ avatar: AvatarInfo, previous: Schema.NullOr(AvatarInfo) }),
      error: Schema.Never
    },
    clearAvatar: { payload: Schema.Struct({}), success: Schema.Struct({ previous: Schema.NullOr(AvatarInfo) }), error: Schema.Never },
    updateSettings: {
      payload: Schema.Struct({
        timezone: Schema.optionalKey(Str),
        locale: Schema.optionalKey(Str),
        dateFormat: Schema.optionalKey(Str),
        timeFormat: Schema.optionalKey(Str),
        weekStart: Schema.optionalKey(Str),
        theme: Schema.optionalKey(Str),
        defaultWorkspaceId: Schema.optionalKey(NullStr)
      }),
      success: DisplaySettings,
      error: Schema.Never
    },
    resetSettings: { payload: Schema.Struct({}), success: DisplaySettings, error: Schema.Never },
    updateNotifications: {
      payload: Schema.Struct({
        reasons: Schema.optionalKey(Schema.Record(Schema.String, Schema.Boolean)),
        mutedWorkspaceIds: Schema.optionalKey(Schema.Array(Str))
      }),
      success: NotificationPreferences,
      error: Schema.Never
    },
    updateWorkspacePreferences: {
      payload: Schema.Struct({
        workspaceId: Str,
        homeSpaceId: Schema.optionalKey(NullStr),
        defaultViewType: Schema.optionalKey(NullStr),
        sidebarCollapsed: Schema.optionalKey(Schema.Boolean),
        pinnedSpaceIds: Schema.optionalKey(Schema.Array(Str))
      }),
      success: WorkspacePreferences,
      error: Schema.Never
    }
  },
  handlers: {
    view: (_, ctx) => Effect.succeed({ ...ctx.state, status: currentStatus(ctx.state.status) }),
    updateProfile: (patch, ctx) =>
      Effect.sync(() => {
        const profile = { ...ctx.state.profile, ...defined(patch) }
        ctx.setState(touch(ctx.state, { profile }))
        return profile
      }),
    setStatus: ({ text, emoji, clearAt }, ctx) =>
      Effect.sync(() => {
        const status: UserStatus = { text, emoji, clearAt, setAt: now() }
        ctx.setState(touch(ctx.state, { status }))
        return status
      }),
    clearStatus: (_, ctx) =>
      Effect.sync(() => {
        const cleared = currentStatus(ctx.state.status) !== null
        if (ctx.state.status !== null) ctx.setState(touch(ctx.state, { status: null }))
        return { cleared }
      }),
    setAvatar: ({ key, contentType, size }, ctx) =>
      Effect.sync(() => {
        const avatar: AvatarInfo = { key, contentType, size, updatedAt: now() }
        const previous = ctx.state.avatar
        ctx.setState(touch(ctx.state, { avatar }))
        return { avatar, previous }
      }),
    clearAvatar: (_, ctx) =>
      Effect.sync(() => {
        const previous = ctx.state.avatar
        if (previous !== null) ctx.setState(touch(ctx.state, { avatar: null }))
        return { previous }
      }),
    updateSettings: (patch, ctx) =>
      Effect.sync(() => {
        const settings = { ...ctx.state.settings, ...defined(patch) }
        ctx.setState(touch(ctx.state, { settings }))
        return settings
      }),
    resetSettings: (_, ctx) =>
      Effect.sync(() => {
        ctx.setState(touch(ctx.state, { settings: defaultDisplaySettings }))
        return defaultDisplaySettings
      }),
    updateNotifications: ({ reasons, mutedWorkspaceIds }, ctx) =>
      Effect.sync(() => {
        const notifications: NotificationPreferences = {
          reasons: { ...ctx.state.notifications.reasons, ...reasons },
          mutedWorkspaceIds: mutedWorkspaceIds ? [...new Set(mutedWorkspaceIds)] : ctx.state.notifications.mutedWorkspaceIds
        }
        ctx.setState(touch(ctx.state, { notifications }))
        return notifications
      }),
    updateWorkspacePreferences: ({ workspaceId, ...patch }, ctx) =>
      Effect.sync(() => {
        const current = ctx.state.workspaces[workspaceId] ?? defaultWorkspacePreferences
        const next: WorkspacePreferences = { ...current, ...defined(patch) }
        ctx.setState(touch(ctx.state, { workspaces: { ...ctx.state.workspaces, [workspaceId]: next } }))
        return next
      })
  }
})

/** Whether the user gets in-app notifications for `reason` in `workspaceId`. */
export const wantsNotification = (prefs: NotificationPreferences, workspaceId: string, reason: NotificationReason) =>
  !prefs.mutedWorkspaceIds.includes(workspaceId) && prefs.reasons[reason] !== false
