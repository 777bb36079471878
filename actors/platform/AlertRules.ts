/**
 * Operator alert rules over platform metrics (one persisted actor for the
 * platform): "fire when the metric over the last N minutes is above X".
 * Rules are evaluated when read, against the metric sources this node has
 * (see AlertMetrics.ts); a metric without a source reports `unavailable`.
 */
import { randomUUID } from "node:crypto"
import { Effect, Schema } from "effect"
import { Actor } from "../../runtime/Actor.ts"
import { Id, Name, Timestamp, now } from "../Fields.ts"

export const AlertMetric = Schema.Literals(["error_rate", "server_error_rate", "dlq_depth", "automation_failures"]).annotate({
  description:
    "error_rate: share of requests answered 4xx or 5xx (0–1); server_error_rate: share answered 5xx; dlq_depth: webhook deliveries in the dead-letter queue; automation_failures: failed automation runs in the window"
})
export type AlertMetric = typeof AlertMetric.Type

export const AlertRule = Schema.Struct({
  id: Id,
  name: Schema.String,
  metric: AlertMetric,
  threshold: Schema.Number.annotate({ description: "The rule fires when the metric is above this value" }),
  windowMinutes: Schema.Int,
  createdBy: Schema.String,
  createdAt: Timestamp
}).annotate({ identifier: "AlertRule" })
export type AlertRule = typeof AlertRule.Type

export const NewAlertRule = Schema.Struct({
  name: Name(120),
  metric: AlertMetric,
  threshold: Schema.Finite.check(Schema.isGreaterThanOrEqualTo(0)),
  windowMinutes: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 1440 })))
})

const MAX_RULES = 200

const RulesState = Schema.Struct({ rules: Schema.Array(AlertRule) })
type RulesState = typeof RulesState.Type

export const PLATFORM = "platform"

/** The platform holds at most `max` alert rules. */
export class TooManyAlertRules extends Schema.TaggedError<TooManyAlertRules>()("TooManyAlertRules", { max: Schema.Number }) {
  override get message() {
    return `At most ${this.max} alert rules`
  }
}

export class AlertRuleNotFound extends Schema.TaggedError<AlertRuleNotFound>()("AlertRuleNotFound", {}) {
  override get message() {
    return "No such alert rule"
  }
}

export type AlertRuleError = TooManyAlertRules | AlertRuleNotFound

export const AlertRules = Actor<RulesState>()({
  kind: "platformAlertRules",
  state: RulesState,
  initial: () => ({ rules: [] }),
  messages: {
    list: { payload: Schema.Struct({}), success: Schema.Array(AlertRule), error: Schema.Never },
    create: { payload: Schema.Struct({ ...NewAlertRule.fields, by: Schema.String }), success: AlertRule, error: TooManyAlertRules },
    delete: { payload: Schema.Struct({ ruleId: Schema.String }), success: Schema.Void, error: AlertRuleNotFound }
  },
  handlers: {
    list: (_, ctx) => Effect.succeed(ctx.state.rules),
    create: ({ by, windowMinutes, ...input }, ctx) =>
      Effect.gen(function* () {
        if (ctx.state.rules.length >= MAX_RULES) return yield* new TooManyAlertRules({ max: MAX_RULES })
        const rule: AlertRule = {
          id: randomUUID(),
          ...input,
          name: input.name.trim(),
          windowMinutes: windowMinutes ?? 5,
          createdBy: by,
          createdAt: now()
        }
        ctx.setState({ rules: [...ctx.state.rules, rule] })
        return rule
      }),
    delete: ({ ruleId }, ctx) =>
      Effect.gen(function* () {
        if (!ctx.state.rules.some((rule) => rule.id === ruleId)) return yield* new AlertRuleNotFound()
        ctx.setState({ rules: ctx.state.rules.filter((rule) => rule.id !== ruleId) })
      })
  }
})
