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
import { operation } from "../../Operation.ts"
import { requestCounts } from "../../RequestMetrics.ts"
import { asOperator, at, audited, ids, OPERATOR_NOTE } from "./Shared.ts"
import { registerPmOpsAlertSources } from "../../../actors/pmops/AlertSources.ts"

const tag = "Admin - Alerts"
const service = "pm"

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

const exampleRule = {
  id: "5b6c7d8e-9f0a-4b1c-8d2e-3f4a5b6c7d8e",
  name: "Server errors above 1%",
  metric: "server_error_rate",
  threshold: 0.01,
  windowMinutes: 5,
  createdBy: `user:${ids.owner}`,
  createdAt: at
}

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

export const adminAlertsOperations = [
  operation({
    service,
    tag,
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
    examples: [
      {
        name: "all",
        request: { query: {} },
        response: { status: 200, body: { items: [{ ...exampleRule, state: "ok", value: 0, evaluatedAt: at, detail: null }], firing: 0 } }
      }
    ],
    handler: ({ query }, context) =>
      Effect.gen(function* () {
        yield* asOperator(context)
        const rules = yield* (yield* ActorSystem).ask(AlertRules, PLATFORM, "list", {})
        const evaluated = yield* Effect.forEach(rules, evaluate)
        return {
          items: evaluated.filter((rule) => query.state === undefined || rule.state === query.state),
          firing: evaluated.filter((rule) => rule.state === "firing").length
        }
      })
  }),
  operation({
    service,
    tag,
    operationId: "createPlatformAlertRule",
    method: "POST",
    path: "/v1/admin/alerts/rules",
    summary: "Add an alert rule: fire when a metric over a window is above a threshold",
    description: `${OPERATOR_NOTE} Rates are between 0 and 1; the window defaults to 5 minutes.`,
    auth: "jwt",
    scopes: [],
    body: NewAlertRule,
    responses: { 201: { description: "Created", schema: AlertRule } },
    examples: [
      {
        name: "server-errors",
        request: { body: { name: "Server errors above 1%", metric: "server_error_rate", threshold: 0.01, windowMinutes: 5 } },
        response: { status: 201, body: exampleRule }
      }
    ],
    handler: ({ body }, context) =>
      Effect.gen(function* () {
        const operator = yield* asOperator(context)
        const rule = yield* (yield* ActorSystem).ask(AlertRules, PLATFORM, "create", { ...body, by: operator.actor })
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
    service,
    tag,
    operationId: "deletePlatformAlertRule",
    method: "DELETE",
    path: "/v1/admin/alerts/rules/{ruleId}",
    summary: "Remove an alert rule",
    description: OPERATOR_NOTE,
    auth: "jwt",
    scopes: [],
    params: Schema.Struct({ ruleId: Id }),
    responses: { 204: { description: "Removed" }, 404: { description: "No such rule" } },
    examples: [{ name: "remove", request: { params: { ruleId: exampleRule.id } }, response: { status: 204 } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const operator = yield* asOperator(context)
        yield* (yield* ActorSystem).ask(AlertRules, PLATFORM, "delete", { ruleId: params.ruleId })
        yield* audited({ actor: operator.actor, action: "alert_rule.deleted", targetType: "alert_rule", targetId: params.ruleId })
      })
  })
]
