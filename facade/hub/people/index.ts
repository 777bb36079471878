/** The hub's personal and people-facing operations: calendar, personal webhooks, settings, users, tags, sharing, views, reporting, chat ingestion. */
import { Calendar } from "../../../actors/hub/calendar/Calendar.ts"
import { HubUserProfile } from "../../../actors/hub/people/HubUserProfile.ts"
import { HubUserSettings } from "../../../actors/hub/people/HubUserSettings.ts"
import type { ActorKind } from "../../../runtime/Actor.ts"
import type { AnyOperation } from "../../Operation.ts"
import { calendarOperations } from "./Calendar.ts"
import { calendarResourceOperations } from "./CalendarResource.ts"
import { settingsResourceOperations } from "./SettingsResource.ts"
import { userResourceOperations } from "./UserResource.ts"
import { userWebhookOperations } from "./UserWebhook.ts"

export const hubPeopleActorKinds: ReadonlyArray<ActorKind> = [Calendar, HubUserSettings, HubUserProfile]

export const hubPeopleOperations: ReadonlyArray<AnyOperation> = [
  ...calendarOperations,
  ...calendarResourceOperations,
  ...userWebhookOperations,
  ...settingsResourceOperations,
  ...userResourceOperations
]
