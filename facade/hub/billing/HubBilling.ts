/**
 * hub tag "Hub Billing Resource" (6): the plans, the workspace's billing
 * overview (subscription, plan, seats), plan and seat changes, invoices and
 * the period's usage. The subscription is the workspace's one billing actor
 * (actors/billing/Billing.ts), shared with pm's Billing Resource, so both
 * services see the same plan, seats and invoices. Reading takes a workspace
 * admin, changing the owner; user sessions only (billing is interactive).
 */
import { Effect, Schema } from "effect"
import { Billing, Subscription } from "../../../actors/billing/Billing.ts"
import { Plan, planOf } from "../../../actors/billing/Plans.ts"
import { recordingRows } from "../../../actors/hub/CallRecords.ts"
import { MeetingBots } from "../../../actors/hub/meetings/MeetingBots.ts"
import { Workspace } from "../../../actors/identity/Workspace.ts"
import { Timestamp } from "../../../actors/Fields.ts"
import { ActorSystem } from "../../../runtime/ActorSystem.ts"
import { tagGroup } from "../../Operation.ts"
import { billingCaller, sharedBillingOperations, WorkspaceParams } from "../../shared/BillingOperations.ts"
import { params } from "./BillingShared.ts"
import { hubBillingExamples } from "./HubBilling.examples.ts"

const tag = "Hub Billing Resource"
const service = "hub"

const SeatUse = Schema.Struct({ seats: Schema.NullOr(Schema.Number), used: Schema.Number, available: Schema.NullOr(Schema.Number) })
const Overview = Schema.Struct({ subscription: Subscription, plan: Plan, seats: SeatUse }).annotate({ identifier: "HubBillingOverview" })
const Usage = Schema.Struct({
  periodStart: Timestamp,
  periodEnd: Timestamp,
  seats: SeatUse,
  recordings: Schema.Number.annotate({ description: "Recordings created in the period" }),
  recordedMinutes: Schema.Number.annotate({ description: "Minutes of uploaded media in the period's recordings" }),
  mediaBytes: Schema.Number,
  meetingBots: Schema.Number.annotate({ description: "Recording bots scheduled in the period" }),
  lensCredits: Schema.NullOr(Schema.Number).annotate({ description: "Assistant credits used; null while the assistant is not metered" })
}).annotate({ identifier: "HubBillingUsage" })

const seatUse = (workspaceId: string) =>
  Effect.gen(function* () {
    const actors = yield* ActorSystem
    const ws = yield* Workspace.client(actors)(workspaceId).inspect({})
    const subscription = yield* actors.ask(Billing, workspaceId, "subscription", {})
    const used = ws.members.length
    return {
      subscription,
      seats: { seats: subscription.seats, used, available: subscription.seats === null ? null : Math.max(0, subscription.seats - used) }
    }
  })

/** The subscription's current period, or the calendar month without a paid plan. */
const periodOf = (subscription: Subscription) => {
  if (subscription.currentPeriodStart && subscription.currentPeriodEnd)
    return { start: subscription.currentPeriodStart, end: subscription.currentPeriodEnd }
  const today = new Date()
  return {
    start: new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), 1)).toISOString(),
    end: new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + 1, 1)).toISOString()
  }
}

const shared = sharedBillingOperations(
  service,
  tag,
  {
    listPlans: "listHubBillingPlans",
    changePlan: {
      operationId: "changeHubBillingPlan",
      description: "Seats default to the members there are and may not be fewer (409); they become the most members the workspace can have."
    },
    setSeats: "setHubBillingSeats",
    listInvoices: {
      operationId: "listHubBillingInvoices",
      summary: "The workspace's invoices, newest first, optionally of one status (admin)"
    }
  },
  params
)

const { operation } = tagGroup(service, tag, hubBillingExamples)

export const hubBillingOperations = [
  shared.listPlans,
  operation({
    operationId: "getHubBillingOverview",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/billing",
    summary: "The workspace's subscription, its plan and the seats paid for and taken (admin)",
    auth: "jwt",
    scopes: [],
    params: WorkspaceParams,
    responses: { 200: { description: "Overview", schema: Overview } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* billingCaller(context, params.workspaceId, "admin")
        const { subscription, seats } = yield* seatUse(params.workspaceId)
        return { subscription, plan: planOf(subscription.planId), seats }
      })
  }),
  shared.changePlan,
  shared.setSeats,
  shared.listInvoices,
  operation({
    operationId: "getHubBillingUsage",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/billing/usage",
    summary: "Usage in the current billing period: seats, recordings, recorded minutes, media, meeting bots (admin)",
    auth: "jwt",
    scopes: [],
    params: WorkspaceParams,
    responses: { 200: { description: "Usage", schema: Usage } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* billingCaller(context, params.workspaceId, "admin")
        const { subscription, seats } = yield* seatUse(params.workspaceId)
        const period = periodOf(subscription)
        const recordings = yield* Effect.orDie(
          recordingRows(`r.workspace_id = $1 AND r.created_at >= $2 AND r.created_at < $3`, [params.workspaceId, period.start, period.end])
        )
        const bots = yield* (yield* ActorSystem).ask(MeetingBots, params.workspaceId, "view", {})
        const durationMs = recordings.reduce((sum, recording) => sum + (recording.media?.durationMs ?? 0), 0)
        return {
          periodStart: period.start,
          periodEnd: period.end,
          seats,
          recordings: recordings.length,
          recordedMinutes: Math.round(durationMs / 60_000),
          mediaBytes: recordings.reduce((sum, recording) => sum + (recording.media?.size ?? 0), 0),
          meetingBots: Object.values(bots.bots).filter((bot) => bot.createdAt >= period.start && bot.createdAt < period.end).length,
          lensCredits: null
        }
      })
  })
]
