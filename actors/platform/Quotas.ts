/**
 * A workspace's quotas, set by internal services (the hosting plan's limits):
 * most members, tasks and stored bytes. Persisted per workspace. The member
 * quota is also handed to the identity workspace, which refuses a member
 * beyond it; tasks and storage are checked before creation through `check`.
 */
import { Effect, Schema } from "effect"
import { Actor } from "../../runtime/Actor.ts"
import { Timestamp, now } from "../Fields.ts"

export const Limit = Schema.NullOr(Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))).annotate({ description: "null: unlimited" })

export const QuotaLimits = Schema.Struct({ members: Limit, tasks: Limit, storageBytes: Limit }).annotate({ identifier: "QuotaLimits" })
export type QuotaLimits = typeof QuotaLimits.Type

export const QuotaResource = Schema.Literals(["members", "tasks", "storageBytes"])
export type QuotaResource = typeof QuotaResource.Type

const QuotaState = Schema.Struct({ limits: QuotaLimits, updatedAt: Schema.NullOr(Schema.String), updatedBy: Schema.NullOr(Schema.String) })
type QuotaState = typeof QuotaState.Type

export const QuotaView = Schema.Struct({
  limits: QuotaLimits,
  updatedAt: Schema.NullOr(Timestamp),
  updatedBy: Schema.NullOr(Schema.String)
})

export const unlimited: QuotaLimits = { members: null, tasks: null, storageBytes: null }

export const WorkspaceQuota = Actor<QuotaState>()({
  kind: "workspaceQuota",
  state: QuotaState,
  initial: () => ({ limits: unlimited, updatedAt: null, updatedBy: null }),
  messages: {
    get: { payload: Schema.Struct({}), success: QuotaView, error: Schema.Never },
    set: {
      payload: Schema.Struct({
        by: Schema.String,
        members: Schema.optionalKey(Limit),
        tasks: Schema.optionalKey(Limit),
        storageBytes: Schema.optionalKey(Limit)
      }),
      success: QuotaView,
      error: Schema.Never
    },
    reset: { payload: Schema.Struct({ by: Schema.String }), success: QuotaView, error: Schema.Never }
  },
  handlers: {
    get: (_, ctx) => Effect.succeed(ctx.state),
    set: ({ by, ...patch }, ctx) =>
      Effect.sync(() => {
        const next = { limits: { ...ctx.state.limits, ...patch }, updatedAt: now(), updatedBy: by }
        ctx.setState(next)
        return next
      }),
    reset: ({ by }, ctx) =>
      Effect.sync(() => {
        const next = { limits: unlimited, updatedAt: now(), updatedBy: by }
        ctx.setState(next)
        return next
      })
  }
})

/** Whether `amount` more of a resource fits under its limit, given what is used. */
export const fits = (limit: number | null, used: number, amount: number) => limit === null || used + amount <= limit
