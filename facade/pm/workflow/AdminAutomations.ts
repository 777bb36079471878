/**
 * pm tag "Admin - Automations" (1): automation rules failing across every
 * workspace (failed actions, loops cut, runs interrupted), for operators only.
 */
import { Effect, Schema } from "effect"
import { FailingRule, failingRules } from "../../../actors/pmops/AutomationRules.ts"
import { tagGroup } from "../../Operation.ts"
import { requirePlatformAdmin } from "../../PlatformAdmin.ts"
import { Limit, orDieSql } from "../WorkAccess.ts"
import { adminAutomationsExamples } from "./AdminAutomations.examples.ts"

const Since = Schema.String.check(
  Schema.isPattern(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/, { expected: "an ISO timestamp in UTC" })
)

const { operation } = tagGroup("pm", "Admin - Automations", adminAutomationsExamples)

export const adminAutomationsOperations = [
  operation({
    operationId: "listFailingAutomations",
    method: "GET",
    path: "/v1/admin/automations/failing",
    summary: "Automation rules with failing runs across workspaces, most failures first (operator)",
    description:
      "A run fails when an action failed, when a loop between rules was cut, or when the node running it stopped. Default window: the last 7 days.",
    auth: "jwt",
    scopes: [],
    query: Schema.Struct({
      since: Schema.optionalKey(Since.annotate({ description: "Start of the window (default: 7 days ago)" })),
      limit: Schema.optionalKey(Limit)
    }),
    responses: {
      200: { description: "Failing rules", schema: Schema.Struct({ items: Schema.Array(FailingRule) }) },
      403: { description: "Not a platform admin" }
    },
    handler: ({ query }, context) =>
      Effect.gen(function* () {
        yield* requirePlatformAdmin(context)
        const since = query.since ?? new Date(Date.now() - 7 * 86_400_000).toISOString()
        return { items: yield* orDieSql(failingRules(since, query.limit ?? 50)) }
      })
  })
]
