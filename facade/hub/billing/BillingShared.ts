/** What the hub's billing operations share: who may act, and example values (made-up ids the fuzz seed replaces). */
import { Effect, Schema } from "effect"
import { Id } from "../../../actors/Fields.ts"
import { principalOf, workspaceRole } from "../../Access.ts"
import type { RequestContext } from "../../Operation.ts"
import { exampleIds } from "../calls/Examples.ts"

export const WorkspaceParams = Schema.Struct({ workspaceId: Id })
export const params = { workspaceId: exampleIds.workspaceId }

/** The caller (a user session) with at least `minimum` in the workspace, as the billing history names them. */
export const billingCaller = (context: RequestContext, workspaceId: string, minimum: "admin" | "owner") =>
  Effect.gen(function* () {
    yield* workspaceRole(context, workspaceId, minimum)
    return `user:${(yield* principalOf(context)).userId}`
  })

const at = "2026-11-21T12:00:00.000Z"
const periodEnd = "2026-12-21T12:00:00.000Z"

export const exampleSubscription = {
  planId: "team",
  seats: 10,
  status: "active",
  cancelAtPeriodEnd: false,
  currentPeriodStart: at,
  currentPeriodEnd: periodEnd,
  contact: { email: "billing@acme.example", companyName: "Acme Inc.", taxId: null, address: null },
  updatedAt: at
}

export const exampleInvoice = {
  id: "8e9f0a1b-2c3d-4e5f-8a6b-7c8d9e0f1a2b",
  number: "INV-00001",
  status: "open",
  currency: "usd",
  amountDueCents: 8000,
  amountPaidCents: 0,
  lines: [{ description: "Team: 10 seats", quantity: 10, unitAmountCents: 800, amountCents: 8000 }],
  periodStart: at,
  periodEnd,
  createdAt: at,
  paidAt: null,
  eventAt: null
}
