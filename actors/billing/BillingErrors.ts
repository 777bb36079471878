/**
 * The billing actor's domain errors (plans, seats, cancellation, provider
 * events), declared by its messages; the facade answers each with its status
 * in one table (`facade/HttpError.ts`). Messages and details are the replies'
 * exact wording.
 */
import { Schema } from "effect"

/** A plan takes between its `minSeats` and `maxSeats`. */
export class SeatsOutOfPlanRange extends Schema.TaggedError<SeatsOutOfPlanRange>()("SeatsOutOfPlanRange", {
  plan: Schema.String,
  minSeats: Schema.Number,
  maxSeats: Schema.Number
}) {
  override get message() {
    return `The ${this.plan} plan takes ${this.minSeats} to ${this.maxSeats} seats`
  }
  get details() {
    return [{ path: "body.seats", message: `between ${this.minSeats} and ${this.maxSeats} on ${this.plan}` }]
  }
}

/** Every member needs a seat (`removing`: seats are being taken away, not a plan chosen). */
export class FewerSeatsThanMembers extends Schema.TaggedError<FewerSeatsThanMembers>()("FewerSeatsThanMembers", {
  members: Schema.Number,
  removing: Schema.Boolean
}) {
  override get message() {
    return this.removing
      ? `The workspace has ${this.members} members; remove members before removing seats`
      : `The workspace has ${this.members} members; it needs at least that many seats`
  }
  get details() {
    return [{ path: "body.seats", message: `at least ${this.members}` }]
  }
}

export class NoPlanChosen extends Schema.TaggedError<NoPlanChosen>()("NoPlanChosen", {}) {
  override get message() {
    return "Choose a plan first; seats belong to a plan"
  }
}

/** The subscription has ended (`ended`: said when resuming, where it may also be set to cancel). */
export class SubscriptionCanceled extends Schema.TaggedError<SubscriptionCanceled>()("SubscriptionCanceled", { ended: Schema.Boolean }) {
  override get message() {
    return this.ended ? "The subscription has ended; choose a plan again" : "The subscription is canceled; choose a plan again"
  }
}

export class NoPaidSubscription extends Schema.TaggedError<NoPaidSubscription>()("NoPaidSubscription", {}) {
  override get message() {
    return "There is no paid subscription to cancel"
  }
}

export class AlreadyCanceling extends Schema.TaggedError<AlreadyCanceling>()("AlreadyCanceling", {}) {
  override get message() {
    return "The subscription is already canceled or set to cancel"
  }
}

export class NotCanceling extends Schema.TaggedError<NotCanceling>()("NotCanceling", {}) {
  override get message() {
    return "The subscription is not set to cancel"
  }
}

/** A `subscription.updated` event must say the new status. */
export class PaymentEventStatusMissing extends Schema.TaggedError<PaymentEventStatusMissing>()("PaymentEventStatusMissing", {}) {
  override get message() {
    return "subscription.updated needs data.status"
  }
  get details() {
    return [{ path: "body.data.status", message: "required" }] as const
  }
}

export type BillingError =
  | SeatsOutOfPlanRange
  | FewerSeatsThanMembers
  | NoPlanChosen
  | SubscriptionCanceled
  | NoPaidSubscription
  | AlreadyCanceling
  | NotCanceling
  | PaymentEventStatusMissing
