/** The hub's personal and people-facing operations: calendar, personal webhooks, settings, users, tags, sharing, views, reporting, chat ingestion. */
import { Calendar } from "../../../actors/hub/calendar/Calendar.ts"
import type { ActorKind } from "../../../runtime/Actor.ts"
import type { AnyOperation } from "../../Operation.ts"
import { calendarOperations } from "./Calendar.ts"
import { calendarResourceOperations } from "./CalendarResource.ts"
import { userWebhookOperations } from "./UserWebhook.ts"

export const hubPeopleActorKinds: ReadonlyArray<ActorKind> = [Calendar]

export const hubPeopleOperations: ReadonlyArray<AnyOperation> = [
  ...calendarOperations,
  ...calendarResourceOperations,
  ...userWebhookOperations
]
