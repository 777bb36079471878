/** The hub's personal and people-facing operations: calendar, personal webhooks, settings, users, tags, sharing, views, reporting, chat ingestion. */
import { Calendar } from "../../../actors/hub/calendar/Calendar.ts"
import { HubUserProfile } from "../../../actors/hub/people/HubUserProfile.ts"
import { HubUserSettings } from "../../../actors/hub/people/HubUserSettings.ts"
import { CallShares } from "../../../actors/hub/people/CallShares.ts"
import { UserViews } from "../../../actors/hub/people/UserViews.ts"
import { WorkspaceTags } from "../../../actors/hub/people/WorkspaceTags.ts"
import { HubUserWebhooks } from "../../../actors/hub/webhooks/HubUserWebhooks.ts"
import { ChatLibrary } from "../../../actors/hub/chat/ChatLibrary.ts"
import type { ActorKind } from "../../../runtime/Actor.ts"
import type { AnyOperation } from "../../Operation.ts"
import { calendarOperations } from "./Calendar.ts"
import { calendarSyncOperations } from "./CalendarSync.ts"
import { chatIngestionResourceOperations } from "./ChatIngestionResource.ts"
import { calendarResourceOperations } from "./CalendarResource.ts"
import { reportingResourceOperations } from "./ReportingResource.ts"
import { notificationDeliveryOperations } from "./NotificationDelivery.ts"
import { settingsResourceOperations } from "./SettingsResource.ts"
import { shareTeamResourceOperations } from "./ShareTeamResource.ts"
import { tagResourceOperations } from "./TagResource.ts"
import { userResourceOperations } from "./UserResource.ts"
import { userViewResourceOperations } from "./UserViewResource.ts"
import { userWebhookOperations } from "./UserWebhook.ts"

export const hubPeopleActorKinds: ReadonlyArray<ActorKind> = [
  Calendar,
  HubUserSettings,
  HubUserProfile,
  WorkspaceTags,
  CallShares,
  UserViews,
  HubUserWebhooks,
  ChatLibrary
]

export const hubPeopleOperations: ReadonlyArray<AnyOperation> = [
  ...calendarOperations,
  ...calendarResourceOperations,
  ...calendarSyncOperations,
  ...userWebhookOperations,
  ...settingsResourceOperations,
  ...notificationDeliveryOperations,
  ...userResourceOperations,
  ...tagResourceOperations,
  ...shareTeamResourceOperations,
  ...userViewResourceOperations,
  ...reportingResourceOperations,
  ...chatIngestionResourceOperations
]
