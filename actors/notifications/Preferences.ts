/**
 * Per user and kind: how notifications reach them by e-mail. Rows only for
 * the kinds a user changed; the rest follow `defaultModes`. A user writes
 * only their own rows (single statements), so no actor serializes them.
 */
import { Effect, Schema } from "effect"
import { query } from "../../persistence/Sql.ts"
import { Area, DeliveryMode, defaultModes, kindAreas, NotificationKind, notificationKinds } from "./Kinds.ts"

export const KindPreference = Schema.Struct({
  kind: NotificationKind,
  mode: DeliveryMode,
  default: DeliveryMode,
  areas: Schema.Array(Area).annotate({ description: "The areas whose notifications of this kind are mailed" })
}).annotate({ identifier: "NotificationKindDelivery" })

export const DeliveryPreferences = Schema.Struct({
  kinds: Schema.Array(KindPreference)
}).annotate({
  identifier: "NotificationDelivery",
  description: "How each kind of notification reaches you by e-mail (digests at 08:00 in your profile's time zone)"
})
export type DeliveryPreferences = typeof DeliveryPreferences.Type

export const preferencesOf = (userId: string) =>
  Effect.map(
    query<{ kind: string; mode: DeliveryMode }>("SELECT kind, mode FROM notification_delivery_preferences WHERE user_id = $1", [userId]),
    (rows): DeliveryPreferences => {
      const chosen = new Map(rows.map((row) => [row.kind, row.mode] as const))
      return {
        kinds: notificationKinds.map((kind) => ({
          kind,
          mode: chosen.get(kind) ?? defaultModes[kind],
          default: defaultModes[kind],
          areas: kindAreas(kind)
        }))
      }
    }
  )

/** The mode the user has now for one kind. */
export const modeOf = (userId: string, kind: NotificationKind) =>
  Effect.map(
    query<{ mode: DeliveryMode }>("SELECT mode FROM notification_delivery_preferences WHERE user_id = $1 AND kind = $2", [userId, kind]),
    (rows): DeliveryMode => rows[0]?.mode ?? defaultModes[kind]
  )

export const setPreferences = (userId: string, modes: Partial<Record<NotificationKind, DeliveryMode>>) =>
  Effect.gen(function* () {
    const entries = Object.entries(modes).filter((entry): entry is [NotificationKind, DeliveryMode] => entry[1] !== undefined)
    if (entries.length > 0)
      yield* query(
        `INSERT INTO notification_delivery_preferences (user_id, kind, mode)
         SELECT $1, k.kind, k.mode FROM unnest($2::text[], $3::text[]) AS k (kind, mode)
         ON CONFLICT (user_id, kind) DO UPDATE SET mode = excluded.mode, updated_at = now()`,
        [userId, entries.map(([kind]) => kind), entries.map(([, mode]) => mode)]
      )
    return yield* preferencesOf(userId)
  })
