/** The plans a workspace can be on: a price per seat and month, and what bounds the seats. */
import { Schema } from "effect"

export const PlanId = Schema.Literals(["free", "team", "business"])
export type PlanId = typeof PlanId.Type

export const Plan = Schema.Struct({
  id: PlanId,
  name: Schema.String,
  description: Schema.String,
  currency: Schema.Literal("usd"),
  pricePerSeatCents: Schema.Number.annotate({ description: "Per seat and month, in cents" }),
  minSeats: Schema.Number,
  maxSeats: Schema.Number,
  features: Schema.Array(Schema.String)
}).annotate({ identifier: "BillingPlan" })
export type Plan = typeof Plan.Type

export const plans: ReadonlyArray<Plan> = [
  {
    id: "free",
    name: "Free",
    description: "Small teams getting started",
    currency: "usd",
    pricePerSeatCents: 0,
    minSeats: 1,
    maxSeats: 5,
    features: ["Unlimited tasks", "Wiki", "Feedback board"]
  },
  {
    id: "team",
    name: "Team",
    description: "Growing teams: automations, webhooks, guests",
    currency: "usd",
    pricePerSeatCents: 800,
    minSeats: 2,
    maxSeats: 500,
    features: ["Everything in Free", "Automations", "Webhooks", "Guests", "Push notifications"]
  },
  {
    id: "business",
    name: "Business",
    description: "Companies: single sign-on, enforced SSO, audit",
    currency: "usd",
    pricePerSeatCents: 1600,
    minSeats: 5,
    maxSeats: 5000,
    features: ["Everything in Team", "OpenID Connect SSO", "Enforced SSO", "Audit log export"]
  }
]

export const planOf = (id: PlanId): Plan => plans.find((plan) => plan.id === id)!
