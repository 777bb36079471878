/**
 * pm tag "Admin - Alerts" (3): operator alert rules over platform metrics,
 * evaluated when listed (firing, ok, or unavailable when this node has no
 * source for the metric). The request error rates are this node's.
 */
import { Effect, Schema } from "effect"
import { alertSourceOf, registerAlertSource } from "../../../actors/platform/AlertMetrics.ts"
import { AlertRule, AlertRules, NewAlertRule, PLATFORM } from "../../../actors/platform/AlertRules.ts"
import { Id, Timestamp } from "../../../actors/Fields.ts"
import { ActorSystem } from "../../../runtime/ActorSystem.ts"
import { tagGroup } from "../../Operation.ts"
import { requestCounts } from "../../RequestMetrics.ts"
import { asOperator, audited, OPERATOR_NOTE } from "./Shared.ts"
import { registerPmOpsAlertSources } from "../../../actors/pmops/AlertSources.ts"
import { adminAlertsExamples } from "./AdminAlerts.examples.ts"

const rate = (part: (counts: ReturnType<typeof requestCounts>) => number) => (windowMinutes: number) =>
  Effect.sync(() => {
    const counts = requestCounts(windowMinutes)
    return counts.total === 0 ? 0 : part(counts) / counts.total
  })
registerAlertSource({ metric: "error_rate", read: rate((c) => c.clientErrors + c.serverErrors) })
registerAlertSource({ metric: "server_error_rate", read: rate((c) => c.serverErrors) })
registerPmOpsAlertSources()

const EvaluatedRule = Schema.Struct({
  ...AlertRule.fields,
  state: Schema.Literals(["firing", "ok", "unavailable"]),
  value: Schema.NullOr(Schema.Number),
  evaluatedAt: Timestamp,
  detail: Schema.NullOr(Schema.String)
}).annotate({ identifier: "EvaluatedAlertRule" })

const evaluate = (rule: AlertRule) =>
  Effect.gen(function* () {
    const evaluatedAt = new Date().toISOString()
    const source = alertSourceOf(rule.metric)
    if (source === undefined)
      return {
        ...rule,
        state: "unavailable" as const,
        value: null,
        evaluatedAt,
        detail: `No source for ${rule.metric} is wired on this node`
      }
    const value = yield* source.read(rule.windowMinutes).pipe(Effect.option)
    if (value._tag === "None")
      return { ...rule, state: "unavailable" as const, value: null, evaluatedAt, detail: `Reading ${rule.metric} failed` }
    return {
      ...rule,
      state: value.value > rule.threshold ? ("firing" as const) : ("ok" as const),
      value: value.value,
      evaluatedAt,
      detail: null
    }
  })

const { operation } = tagGroup("pm", "Admin - Alerts", adminAlertsExamples)

export const adminAlertsOperations = [
  operation({
    operationId: "listPlatformAlerts",
    method: "GET",
    path: "/v1/admin/alerts",
    summary: "Every alert rule, evaluated now: firing, ok or unavailable",
    description: OPERATOR_NOTE,
    auth: "jwt",
    scopes: [],
    query: Schema.Struct({ state: Schema.optionalKey(Schema.Literals(["firing", "ok", "unavailable"])) }),
    responses: {
      200: { description: "Rules with their state", schema: Schema.Struct({ items: Schema.Array(EvaluatedRule), firing: Schema.Number }) }
    },
    handler: ({ query }, context) =>
      Effect.gen(function* () {
        yield* asOperator(context)
        const rules = yield* AlertRules.client(yield* ActorSystem)(PLATFORM).list({})
        const evaluated = yield* Effect.forEach(rules, evaluate)
        return {
          items: evaluated.filter((rule) => query.state === undefined || rule.state === query.state),
          firing: evaluated.filter((rule) => rule.state === "firing").length
        }
      })
  }),
  operation({
    operationId: "createPlatformAlertRule",
    method: "POST",
    path: "/v1/admin/alerts/rules",
    summary: "Add an alert rule: fire when a metric over a window is above a threshold",
    description: `${OPERATOR_NOTE} Rates are between 0 and 1; the window defaults to 5 minutes.`,
    auth: "jwt",
    scopes: [],
    body: NewAlertRule,
    responses: { 201: { description: "Created", schema: AlertRule } },
    handler: ({ body }, context) =>
      Effect.gen(function* () {
        const operator = yield* asOperator(context)
        const rule = yield* AlertRules.client(yield* ActorSystem)(PLATFORM).create({ ...body, by: operator.actor })
        yield* audited({
          actor: operator.actor,
          action: "alert_rule.created",
          targetType: "alert_rule",
          targetId: rule.id,
          data: { metric: rule.metric }
        })
        return rule
      })
  }),
  operation({
    operationId: "deletePlatformAlertRule",
    method: "DELETE",
    path: "/v1/admin/alerts/rules/{ruleId}",
    summary: "Remove an alert rule",
    description: OPERATOR_NOTE,
    auth: "jwt",
    scopes: [],
    params: Schema.Struct({ ruleId: Id }),
    responses: { 204: { description: "Removed" }, 404: { description: "No such rule" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const operator = yield* asOperator(context)
        yield* AlertRules.client(yield* ActorSystem)(PLATFORM).delete({ ruleId: params.ruleId })
        yield* audited({ actor: operator.actor, action: "alert_rule.deleted", targetType: "alert_rule", targetId: params.ruleId })
      })
  })
]
