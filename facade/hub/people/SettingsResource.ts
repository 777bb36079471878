/**
 * hub tag "Settings Resource" (7): the caller's own hub settings — language
 * and time zone, how the meeting bot records for them, and the e-mails they
 * get after meetings. Personal: a user (or their API key) reads and changes
 * only their own.
 */
import { Effect, type Schema } from "effect"
import {
  GeneralPatch,
  HubSettings,
  HubUserSettings,
  NotificationPatch,
  NotificationSettings,
  RecordingPatch,
  RecordingSettings
} from "../../../actors/hub/people/HubUserSettings.ts"
import { ActorSystem } from "../../../runtime/ActorSystem.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { type RequestContext, tagGroup } from "../../Operation.ts"
import { viewerOf } from "./Viewer.ts"
import { settingsResourceExamples, exampleSettings } from "./SettingsResource.examples.ts"

const service = "hub"
const tag = "Settings Resource"

const { operation } = tagGroup(service, tag, settingsResourceExamples)

type Message = "view" | "updateGeneral" | "updateRecording" | "updateNotifications" | "reset"

const ask = (context: RequestContext, message: Message, patch?: Record<string, unknown>) =>
  Effect.gen(function* () {
    const viewer = yield* viewerOf(context)
    const system = yield* ActorSystem
    if (message === "view" || message === "reset") return yield* system.ask(HubUserSettings, viewer.userId, message, {})
    if (patch === undefined || Object.keys(patch).length === 0)
      return yield* reject("invalid", "Give at least one setting to change", [{ path: "body", message: "empty" }])
    return yield* system.ask(HubUserSettings, viewer.userId, message, { patch })
  })

const section = <N extends "recording" | "notifications", P extends Schema.Top>(
  name: N,
  schema: Schema.Codec<HubSettings[N], any>,
  patch: P,
  ids: { readonly get: string; readonly update: string },
  what: string,
  examplePatch: Record<string, unknown>
) => [
  operation({
    operationId: ids.get,
    method: "GET",
    path: `/v1/users/me/settings/${name}`,
    summary: `Your ${what} settings`,
    auth: "both",
    scopes: ["users:read"],
    responses: { 200: { description: "Settings", schema } },
    examples: [{ name: "get", response: { status: 200, body: exampleSettings[name] } }],
    handler: (_, context) => Effect.map(ask(context, "view"), (settings) => settings[name])
  }),
  operation({
    operationId: ids.update,
    method: "PATCH",
    path: `/v1/users/me/settings/${name}`,
    summary: `Change your ${what} settings (fields left out are unchanged)`,
    auth: "both",
    scopes: ["users:write"],
    body: patch,
    responses: { 200: { description: "Settings", schema } },
    examples: [
      { name: "change", request: { body: examplePatch }, response: { status: 200, body: { ...exampleSettings[name], ...examplePatch } } }
    ],
    handler: ({ body }, context) =>
      Effect.map(
        ask(context, name === "recording" ? "updateRecording" : "updateNotifications", body as Record<string, unknown>),
        (settings) => settings[name]
      )
  })
]

export const settingsResourceOperations = [
  operation({
    operationId: "getMyHubSettings",
    method: "GET",
    path: "/v1/users/me/settings",
    summary: "All your hub settings: general, recording and notifications",
    auth: "both",
    scopes: ["users:read"],
    responses: { 200: { description: "Settings", schema: HubSettings } },
    handler: (_, context) => ask(context, "view")
  }),
  operation({
    operationId: "updateMyHubSettings",
    method: "PATCH",
    path: "/v1/users/me/settings",
    summary: "Change your language, transcript language or time zone (fields left out are unchanged)",
    description: "`transcriptLanguage` null means: detect the language of each meeting.",
    auth: "both",
    scopes: ["users:write"],
    body: GeneralPatch,
    responses: { 200: { description: "Settings", schema: HubSettings } },
    handler: ({ body }, context) => ask(context, "updateGeneral", body as Record<string, unknown>)
  }),
  operation({
    operationId: "resetMyHubSettings",
    method: "DELETE",
    path: "/v1/users/me/settings",
    summary: "Reset all your hub settings to their defaults",
    auth: "both",
    scopes: ["users:write"],
    responses: { 200: { description: "Default settings", schema: HubSettings } },
    handler: (_, context) => ask(context, "reset")
  }),
  ...section(
    "recording",
    RecordingSettings,
    RecordingPatch,
    { get: "getMyRecordingSettings", update: "updateMyRecordingSettings" },
    "meeting-bot recording",
    { autoJoin: "all", recordExternalMeetings: true }
  ),
  ...section(
    "notifications",
    NotificationSettings,
    NotificationPatch,
    { get: "getMyNotificationSettings", update: "updateMyNotificationSettings" },
    "meeting e-mail",
    { recapRecipients: "participants", weeklyDigest: true }
  )
]
