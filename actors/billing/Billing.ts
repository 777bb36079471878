/**
 * A workspace's subscription (one persisted actor per workspace): plan and
 * seats, status, billing contact, invoices, and the payment provider's
 * events applied to them. Seats bound the members (the facade hands the
 * seat count to the identity workspace, which refuses members beyond it);
 * seats cannot go below the members there are.
 *
 * Provider events are idempotent by event id (the ids applied are kept) and
 * ordered by event time: an event older than the last one applied to the
 * same thing (the subscription's status, or one invoice) changes nothing.
 */
import { randomUUID } from "node:crypto"
import { Effect, Schema } from "effect"
import { Actor } from "../../runtime/Actor.ts"
import {
  AlreadyCanceling,
  FewerSeatsThanMembers,
  NoPaidSubscription,
  NoPlanChosen,
  NotCanceling,
  PaymentEventStatusMissing,
  SeatsOutOfPlanRange,
  SubscriptionCanceled
} from "./BillingErrors.ts"
import { Timestamp, now } from "../Fields.ts"
import { type PlanId, PlanId as PlanIdSchema, planOf } from "./Plans.ts"

export const SubscriptionStatus = Schema.Literals(["active", "past_due", "canceled"])

export const InvoiceLine = Schema.Struct({
  description: Schema.String,
  quantity: Schema.Number,
  unitAmountCents: Schema.Number,
  amountCents: Schema.Number
})

export const Invoice = Schema.Struct({
  id: Schema.String,
  number: Schema.String,
  status: Schema.Literals(["open", "paid", "uncollectible", "void"]),
  currency: Schema.Literal("usd"),
  amountDueCents: Schema.Number,
  amountPaidCents: Schema.Number,
  lines: Schema.Array(InvoiceLine),
  periodStart: Timestamp,
  periodEnd: Timestamp,
  createdAt: Timestamp,
  paidAt: Schema.NullOr(Timestamp),
  /** Time of the last provider event applied to this invoice (ordering). */
  eventAt: Schema.NullOr(Timestamp)
}).annotate({ identifier: "Invoice" })
export type Invoice = typeof Invoice.Type

export const BillingContact = Schema.Struct({
  email: Schema.NullOr(Schema.String),
  companyName: Schema.NullOr(Schema.String),
  taxId: Schema.NullOr(Schema.String),
  address: Schema.NullOr(Schema.String)
}).annotate({ identifier: "BillingContact" })
export type BillingContact = typeof BillingContact.Type

const BillingState = Schema.Struct({
  planId: PlanIdSchema,
  /** Seats paid for; null while the workspace never chose a plan (no seat limit). */
  seats: Schema.NullOr(Schema.Number),
  status: SubscriptionStatus,
  cancelAtPeriodEnd: Schema.Boolean,
  periodStart: Schema.NullOr(Schema.String),
  periodEnd: Schema.NullOr(Schema.String),
  contact: BillingContact,
  invoices: Schema.Array(Invoice),
  invoiceCount: Schema.Number,
  /** Provider event ids applied, newest last (bounded). */
  appliedEvents: Schema.Array(Schema.String),
  /** Time of the last provider event applied to the status. */
  statusEventAt: Schema.NullOr(Schema.String),
  updatedAt: Schema.NullOr(Schema.String)
})
type BillingState = typeof BillingState.Type

export const Subscription = Schema.Struct({
  planId: PlanIdSchema,
  seats: Schema.NullOr(Schema.Number),
  status: SubscriptionStatus,
  cancelAtPeriodEnd: Schema.Boolean,
  currentPeriodStart: Schema.NullOr(Timestamp),
  currentPeriodEnd: Schema.NullOr(Timestamp),
  contact: BillingContact,
  updatedAt: Schema.NullOr(Timestamp)
}).annotate({ identifier: "BillingSubscription" })
export type Subscription = typeof Subscription.Type

export const ProviderEvent = Schema.Struct({
  id: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200)),
  type: Schema.Literals([
    "invoice.paid",
    "invoice.payment_failed",
    "invoice.uncollectible",
    "subscription.updated",
    "subscription.canceled"
  ]),
  /** When the provider created the event (ISO 8601). */
  createdAt: Timestamp.check(Schema.isPattern(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/)),
  data: Schema.Struct({
    workspaceId: Schema.String.check(Schema.isUUID()),
    invoiceId: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(200))),
    status: Schema.optionalKey(SubscriptionStatus),
    amountPaidCents: Schema.optionalKey(Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)))
  })
}).annotate({ identifier: "PaymentEvent" })
export type ProviderEvent = typeof ProviderEvent.Type

export const EventOutcome = Schema.Struct({
  eventId: Schema.String,
  outcome: Schema.Literals(["applied", "duplicate", "stale", "ignored"]),
  detail: Schema.NullOr(Schema.String)
})

const APPLIED_EVENTS_KEPT = 1000
const INVOICES_KEPT = 240
const PERIOD_DAYS = 30
const DAY = 86_400_000

const emptyContact: BillingContact = { email: null, companyName: null, taxId: null, address: null }

const subscriptionOf = (state: BillingState): Subscription => ({
  planId: state.planId,
  seats: state.seats,
  status: state.status,
  cancelAtPeriodEnd: state.cancelAtPeriodEnd,
  currentPeriodStart: state.periodStart,
  currentPeriodEnd: state.periodEnd,
  contact: state.contact,
  updatedAt: state.updatedAt
})

/** An invoice for `seats` of the plan over the rest of the period (prorated by days left). */
const invoiceFor = (state: BillingState, planId: PlanId, seats: number, periodStart: string, periodEnd: string, label: string): Invoice => {
  const plan = planOf(planId)
  const daysLeft = Math.max(1, Math.ceil((Date.parse(periodEnd) - Date.now()) / DAY))
  const unit = Math.round((plan.pricePerSeatCents * Math.min(daysLeft, PERIOD_DAYS)) / PERIOD_DAYS)
  const amount = unit * seats
  const createdAt = now()
  return {
    id: randomUUID(),
    number: `INV-${String(state.invoiceCount + 1).padStart(5, "0")}`,
    status: amount === 0 ? "paid" : "open",
    currency: "usd",
    amountDueCents: amount,
    amountPaidCents: 0,
    lines: [{ description: `${plan.name}: ${label}`, quantity: seats, unitAmountCents: unit, amountCents: amount }],
    periodStart,
    periodEnd,
    createdAt,
    paidAt: amount === 0 ? createdAt : null,
    eventAt: null
  }
}

const withInvoice = (state: BillingState, invoice: Invoice): BillingState => ({
  ...state,
  invoices: [...state.invoices, invoice].slice(-INVOICES_KEPT),
  invoiceCount: state.invoiceCount + 1
})

const By = { by: Schema.String }

const outOfRange = (plan: { readonly name: string; readonly minSeats: number; readonly maxSeats: number }) =>
  new SeatsOutOfPlanRange({ plan: plan.name, minSeats: plan.minSeats, maxSeats: plan.maxSeats })

export const Billing = Actor<BillingState>()({
  kind: "workspaceBilling",
  state: BillingState,
  initial: () => ({
    planId: "free",
    seats: null,
    status: "active",
    cancelAtPeriodEnd: false,
    periodStart: null,
    periodEnd: null,
    contact: emptyContact,
    invoices: [],
    invoiceCount: 0,
    appliedEvents: [],
    statusEventAt: null,
    updatedAt: null
  }),
  messages: {
    subscription: { payload: Schema.Struct({}), success: Subscription, error: Schema.Never },
    /** Moves to a plan with a number of seats (at least `members`), invoicing the rest of the period. */
    changePlan: {
      payload: Schema.Struct({ ...By, planId: PlanIdSchema, seats: Schema.Number, members: Schema.Number }),
      success: Schema.Struct({ subscription: Subscription, invoice: Schema.NullOr(Invoice) }),
      error: Schema.Union([SeatsOutOfPlanRange, FewerSeatsThanMembers])
    },
    setSeats: {
      payload: Schema.Struct({ ...By, seats: Schema.Number, members: Schema.Number }),
      success: Schema.Struct({ subscription: Subscription, invoice: Schema.NullOr(Invoice) }),
      error: Schema.Union([NoPlanChosen, SubscriptionCanceled, SeatsOutOfPlanRange, FewerSeatsThanMembers])
    },
    cancel: { payload: Schema.Struct({ ...By }), success: Subscription, error: Schema.Union([NoPaidSubscription, AlreadyCanceling]) },
    resume: { payload: Schema.Struct({ ...By }), success: Subscription, error: Schema.Union([NotCanceling, SubscriptionCanceled]) },
    updateContact: {
      payload: Schema.Struct({
        ...By,
        email: Schema.optionalKey(Schema.NullOr(Schema.String)),
        companyName: Schema.optionalKey(Schema.NullOr(Schema.String)),
        taxId: Schema.optionalKey(Schema.NullOr(Schema.String)),
        address: Schema.optionalKey(Schema.NullOr(Schema.String))
      }),
      success: Subscription,
      error: Schema.Never
    },
    invoices: { payload: Schema.Struct({}), success: Schema.Array(Invoice), error: Schema.Never },
    applyEvent: { payload: ProviderEvent, success: EventOutcome, error: PaymentEventStatusMissing }
  },
  handlers: {
    subscription: (_, ctx) => Effect.succeed(subscriptionOf(ctx.state)),
    changePlan: ({ planId, seats, members }, ctx) =>
      Effect.gen(function* () {
        const plan = planOf(planId)
        if (seats < plan.minSeats || seats > plan.maxSeats) return yield* outOfRange(plan)
        if (seats < members) return yield* new FewerSeatsThanMembers({ members, removing: false })
        const start = now()
        const end = new Date(Date.now() + PERIOD_DAYS * DAY).toISOString()
        const invoice = invoiceFor(ctx.state, planId, seats, start, end, `${seats} seats`)
        const next = withInvoice(
          { ...ctx.state, planId, seats, status: "active", cancelAtPeriodEnd: false, periodStart: start, periodEnd: end, updatedAt: start },
          invoice
        )
        ctx.setState(next)
        return { subscription: subscriptionOf(next), invoice }
      }),
    setSeats: ({ seats, members }, ctx) =>
      Effect.gen(function* () {
        const state = ctx.state
        const plan = planOf(state.planId)
        if (state.seats === null || state.periodStart === null || state.periodEnd === null) return yield* new NoPlanChosen()
        if (state.status === "canceled") return yield* new SubscriptionCanceled({ ended: false })
        if (seats < plan.minSeats || seats > plan.maxSeats) return yield* outOfRange(plan)
        if (seats < members) return yield* new FewerSeatsThanMembers({ members, removing: true })
        const added = seats - state.seats
        const invoice = added > 0 ? invoiceFor(state, state.planId, added, now(), state.periodEnd, `${added} added seats (prorated)`) : null
        const changed = { ...state, seats, updatedAt: now() }
        const next = invoice ? withInvoice(changed, invoice) : changed
        ctx.setState(next)
        return { subscription: subscriptionOf(next), invoice }
      }),
    cancel: (_, ctx) =>
      Effect.gen(function* () {
        if (ctx.state.seats === null || ctx.state.planId === "free") return yield* new NoPaidSubscription()
        if (ctx.state.status === "canceled" || ctx.state.cancelAtPeriodEnd) return yield* new AlreadyCanceling()
        const next = { ...ctx.state, cancelAtPeriodEnd: true, updatedAt: now() }
        ctx.setState(next)
        return subscriptionOf(next)
      }),
    resume: (_, ctx) =>
      Effect.gen(function* () {
        if (!ctx.state.cancelAtPeriodEnd) return yield* new NotCanceling()
        if (ctx.state.status === "canceled") return yield* new SubscriptionCanceled({ ended: true })
        const next = { ...ctx.state, cancelAtPeriodEnd: false, updatedAt: now() }
        ctx.setState(next)
        return subscriptionOf(next)
      }),
    updateContact: ({ by: _by, ...patch }, ctx) =>
      Effect.sync(() => {
        const next = { ...ctx.state, contact: { ...ctx.state.contact, ...patch }, updatedAt: now() }
        ctx.setState(next)
        return subscriptionOf(next)
      }),
    invoices: (_, ctx) => Effect.succeed([...ctx.state.invoices].reverse()),
    applyEvent: (event, ctx) =>
      Effect.gen(function* () {
        const state = ctx.state
        const outcome = (kind: "applied" | "duplicate" | "stale" | "ignored", detail: string | null = null) => ({
          eventId: event.id,
          outcome: kind,
          detail
        })
        if (state.appliedEvents.includes(event.id)) return outcome("duplicate", "Already applied")
        const remember = (next: BillingState): BillingState => ({
          ...next,
          appliedEvents: [...next.appliedEvents, event.id].slice(-APPLIED_EVENTS_KEPT)
        })
        const eventAt = event.createdAt
        if (event.type.startsWith("invoice.")) {
          const invoice = state.invoices.find((inv) => inv.id === event.data.invoiceId)
          if (invoice === undefined) {
            ctx.setState(remember(state))
            return outcome("ignored", "No such invoice in this workspace")
          }
          if (invoice.eventAt !== null && invoice.eventAt > eventAt) {
            ctx.setState(remember(state))
            return outcome("stale", "A later event about this invoice was applied")
          }
          const status = event.type === "invoice.paid" ? "paid" : event.type === "invoice.uncollectible" ? "uncollectible" : "open"
          const updated: Invoice = {
            ...invoice,
            status,
            eventAt,
            amountPaidCents: status === "paid" ? (event.data.amountPaidCents ?? invoice.amountDueCents) : invoice.amountPaidCents,
            paidAt: status === "paid" ? eventAt : invoice.paidAt
          }
          const invoices = state.invoices.map((inv) => (inv.id === invoice.id ? updated : inv))
          const unpaid = invoices.some((inv) => inv.status === "uncollectible" || (inv.status === "open" && inv.eventAt !== null))
          const subscriptionStatus = state.status === "canceled" ? "canceled" : unpaid ? "past_due" : "active"
          ctx.setState(remember({ ...state, invoices, status: subscriptionStatus, updatedAt: now() }))
          return outcome("applied")
        }
        if (state.statusEventAt !== null && state.statusEventAt > eventAt) {
          ctx.setState(remember(state))
          return outcome("stale", "A later subscription event was applied")
        }
        const status = event.type === "subscription.canceled" ? "canceled" : event.data.status
        if (status === undefined) return yield* new PaymentEventStatusMissing()
        ctx.setState(
          remember({
            ...state,
            status,
            cancelAtPeriodEnd: status === "canceled" ? false : state.cancelAtPeriodEnd,
            statusEventAt: eventAt,
            updatedAt: now()
          })
        )
        return outcome("applied")
      })
  }
})
