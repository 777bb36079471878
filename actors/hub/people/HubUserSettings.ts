/**
 * A user's own hub settings (one `hubUserSettings` actor per user, persisted
 * before every reply): language and time zone, how the meeting bot records
 * for them, and which e-mails they get after meetings. Values arrive checked
 * by the facade's schemas; the actor merges patches and stamps the change.
 */
import { Effect, Schema } from "effect"
import { Actor } from "../../../runtime/Actor.ts"
import { Name, now, Timestamp } from "../../Fields.ts"

export const LANGUAGES = [
  "en",
  "de",
  "fr",
  "es",
  "it",
  "pt",
  "nl",
  "sv",
  "da",
  "nb",
  "fi",
  "pl",
  "cs",
  "ja",
  "ko",
  "zh",
  "ru",
  "tr",
  "ar",
  "hi"
] as const
export const Language = Schema.Literals(LANGUAGES).annotate({ description: "ISO 639-1 code of a supported language" })

const zones = new Set([...Intl.supportedValuesOf("timeZone"), "UTC"])
export const TimeZone = Schema.String.check(
  Schema.makeFilter((zone: string) => zones.has(zone) || "an IANA time zone such as Europe/Berlin")
).annotate({ description: "IANA time zone", examples: ["Europe/Berlin"] })

export const GeneralSettings = Schema.Struct({
  language: Language,
  /** The language meetings are transcribed in; null: detect it. */
  transcriptLanguage: Schema.NullOr(Language),
  timezone: TimeZone
}).annotate({ identifier: "HubGeneralSettings" })

export const AutoJoin = Schema.Literals(["all", "organized", "none"]).annotate({
  description: "Which calendar meetings the bot joins: all with a video link, only the ones you organize, or none"
})
export const ShareScope = Schema.Literals(["private", "participants", "workspace"])

export const RecordingSettings = Schema.Struct({
  autoJoin: AutoJoin,
  /** Whether the bot also joins meetings with people outside the workspace. */
  recordExternalMeetings: Schema.Boolean,
  botName: Name(80),
  /** Who a new recording is shared with by default. */
  defaultShareScope: ShareScope
}).annotate({ identifier: "HubRecordingSettings" })

export const RecapRecipients = Schema.Literals(["me", "participants", "internal"])
export const NotificationSettings = Schema.Struct({
  recapEmail: Schema.Boolean,
  recapRecipients: RecapRecipients,
  actionItemsEmail: Schema.Boolean,
  weeklyDigest: Schema.Boolean,
  sharedWithMeEmail: Schema.Boolean
}).annotate({ identifier: "HubNotificationSettings" })

export const HubSettings = Schema.Struct({
  general: GeneralSettings,
  recording: RecordingSettings,
  notifications: NotificationSettings,
  updatedAt: Schema.NullOr(Timestamp)
}).annotate({ identifier: "HubSettings" })
export type HubSettings = typeof HubSettings.Type

export const defaultHubSettings: HubSettings = {
  general: { language: "en", transcriptLanguage: null, timezone: "UTC" },
  recording: { autoJoin: "organized", recordExternalMeetings: false, botName: "Atrium Notetaker", defaultShareScope: "participants" },
  notifications: { recapEmail: true, recapRecipients: "me", actionItemsEmail: true, weeklyDigest: false, sharedWithMeEmail: true },
  updatedAt: null
}

const partial = <S extends Schema.Struct<any>>(struct: S) =>
  Schema.Struct(Object.fromEntries(Object.entries(struct.fields).map(([key, field]) => [key, Schema.optionalKey(field as Schema.Top)])))

export const GeneralPatch = partial(GeneralSettings)
export const RecordingPatch = partial(RecordingSettings)
export const NotificationPatch = partial(NotificationSettings)

const defined = <T extends object>(patch: T): Partial<T> =>
  Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) as Partial<T>

type Section = "general" | "recording" | "notifications"

const patchSection =
  (section: Section) =>
  ({ patch }: { readonly patch: Record<string, unknown> }, ctx: { state: HubSettings; setState: (next: HubSettings) => void }) =>
    Effect.sync(() => {
      const next = { ...ctx.state, [section]: { ...ctx.state[section], ...defined(patch) }, updatedAt: now() } as HubSettings
      ctx.setState(next)
      return next
    })

export const HubUserSettings = Actor<HubSettings>()({
  kind: "hubUserSettings",
  state: HubSettings,
  initial: () => defaultHubSettings,
  messages: {
    view: { payload: Schema.Struct({}), success: HubSettings, error: Schema.Never },
    updateGeneral: { payload: Schema.Struct({ patch: GeneralPatch }), success: HubSettings, error: Schema.Never },
    updateRecording: { payload: Schema.Struct({ patch: RecordingPatch }), success: HubSettings, error: Schema.Never },
    updateNotifications: { payload: Schema.Struct({ patch: NotificationPatch }), success: HubSettings, error: Schema.Never },
    reset: { payload: Schema.Struct({}), success: HubSettings, error: Schema.Never }
  },
  handlers: {
    view: (_, ctx) => Effect.succeed(ctx.state),
    updateGeneral: patchSection("general"),
    updateRecording: patchSection("recording"),
    updateNotifications: patchSection("notifications"),
    reset: (_, ctx) =>
      Effect.sync(() => {
        const next = { ...defaultHubSettings, updatedAt: now() }
        ctx.setState(next)
        return next
      })
  }
})
