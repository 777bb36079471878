/**
 * pm tag "Admin - Automations" (1): automation rules failing across every
 * workspace (failed actions, loops cut, runs interrupted), for operators only.
 */
import { Effect, Schema } from "effect"
import { FailingRule, failingRules } from "../../../actors/pmops/AutomationRules.ts"
import { operation } from "../../Operation.ts"
import { requirePlatformAdmin } from "../../PlatformAdmin.ts"
import { at0, exampleIds as ids, Limit, orDieSql } from "../WorkAccess.ts"

const Since = Schema.String.check(
  Schema.isPattern(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/, { expected: "an ISO timestamp in UTC" })
)

export const adminAutomationsOperations = [
  operation({
    service: "pm",
    tag: "Admin - Automations",
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
    examples: [
      {
        name: "failing",
        response: {
          status: 200,
          body: {
            items: [
              {
                ruleId: "b2c3d4e5-f6a7-4b8c-9d0e-1f2a3b4c5d6e",
                workspaceId: ids.workspace,
                name: "Urgent bugs go to review",
                enabled: true,
                failures: 3,
                runs: 40,
                lastFailureAt: at0,
                lastError: 'set_status: No status named "in review" in this list'
              }
            ]
          }
        }
      }
    ],
    handler: ({ query }, context) =>
      Effect.gen(function* () {
        yield* requirePlatformAdmin(context)
        const since = query.since ?? new Date(Date.now() - 7 * 86_400_000).toISOString()
        return { items: yield* orDieSql(failingRules(since, query.limit ?? 50)) }
      })
  })
]
