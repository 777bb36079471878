/**
 * The personal webhook event "meeting.processed": enqueued for the given
 * users' enabled webhooks INSIDE the caller's SQL transaction (run it within
 * `Sql.transaction`, beside the write that marks the recording ready), so
 * the event exists exactly when that change committed; the DeliveryEngine
 * sends it. The payload is thin: ids to fetch the meeting with.
 */
import { Effect } from "effect"
import { enqueueDeliveries } from "../../webhooks/WebhookOutbox.ts"
import { MEETING_PROCESSED, subscribers, USER_WEBHOOK_SOURCE } from "./UserWebhooks.ts"

export interface ProcessedMeeting {
  readonly workspaceId: string
  readonly recordingId: number | string
  readonly callId: number | string
  readonly callUuid: string
  readonly status?: "ready" | "failed"
}

/** Enqueues one delivery per enabled webhook of each user; returns the delivery ids. */
export const enqueueMeetingProcessed = (meeting: ProcessedMeeting, userIds: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    if (userIds.length === 0) return [] as ReadonlyArray<string>
    const hooks = yield* subscribers([...new Set(userIds)], MEETING_PROCESSED)
    return yield* enqueueDeliveries(
      hooks.map((hook) => ({
        source: USER_WEBHOOK_SOURCE,
        endpointId: hook.id,
        ownerId: hook.user_id,
        eventType: MEETING_PROCESSED,
        data: {
          workspaceId: meeting.workspaceId,
          recordingId: String(meeting.recordingId),
          callId: String(meeting.callId),
          callUuid: meeting.callUuid,
          status: meeting.status ?? "ready"
        }
      }))
    )
  })
