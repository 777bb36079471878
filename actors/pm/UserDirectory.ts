/**
 * Users as pm shows them: the identity Account (name, e-mail) joined with
 * the user's own settings (profile details, status, avatar). The read module
 * of the `UserSettings` actor: the one place that reads its persisted state
 * (write-through, so it is current).
 */
import { Effect, Schema } from "effect"
import * as SqlSchema from "../../persistence/SqlSchema.ts"
import { Email, Id, Timestamp } from "../Fields.ts"
import type { User } from "../identity/Account.ts"
import { currentStatus, SettingsState, USER_SETTINGS_KIND, UserStatus } from "./UserSettings.ts"

export const UserProfile = Schema.Struct({
  id: Id,
  email: Email,
  name: Schema.String,
  createdAt: Timestamp,
  title: Schema.NullOr(Schema.String),
  department: Schema.NullOr(Schema.String),
  bio: Schema.NullOr(Schema.String),
  phone: Schema.NullOr(Schema.String),
  avatarUrl: Schema.NullOr(Schema.String).annotate({ description: "Relative URL of the avatar image, or null" }),
  status: Schema.NullOr(UserStatus)
}).annotate({ identifier: "UserProfile", description: "A user as their co-workers see them." })
export type UserProfile = typeof UserProfile.Type

/** Persisted settings of these users (absent: never changed anything). */
export const settingsOf = (userIds: ReadonlyArray<string>) =>
  userIds.length === 0
    ? Effect.succeed(new Map<string, SettingsState>())
    : Effect.map(findSettings(userIds), (rows) => new Map(rows.map((row) => [row.id, row.state] as const)))

const findSettings = SqlSchema.findAll({
  Request: Schema.Array(Schema.String),
  Result: Schema.Struct({ id: Schema.String, state: SettingsState }),
  execute: (userIds) => ["SELECT id, state FROM actor_state WHERE kind = $1 AND id = ANY($2::text[])", [USER_SETTINGS_KIND, userIds]]
})

export const avatarUrlOf = (userId: string, settings: SettingsState | undefined) =>
  settings?.avatar ? `/pm/v1/users/${userId}/avatar?v=${encodeURIComponent(settings.avatar.updatedAt)}` : null

export const profileOf = (user: User, settings: SettingsState | undefined): UserProfile => ({
  id: user.id,
  email: user.email,
  name: user.name,
  createdAt: user.createdAt,
  title: settings?.profile.title ?? null,
  department: settings?.profile.department ?? null,
  bio: settings?.profile.bio ?? null,
  phone: settings?.profile.phone ?? null,
  avatarUrl: avatarUrlOf(user.id, settings),
  status: currentStatus(settings?.status ?? null)
})
