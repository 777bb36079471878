/**
 * pm tags "Admin - Stats" (2) and "Admin - Activity" (1): platform-wide
 * counts, daily growth, and the audit trail of what operators, internal
 * services and the payment provider changed.
 */
import { Effect, Schema } from "effect"
import { dailyGrowth, platformCounts } from "../../../actors/identity/IdentityQueries.ts"
import { AuditEntry, auditEntries } from "../../../actors/platform/PlatformAudit.ts"
import { Id, Timestamp } from "../../../actors/Fields.ts"
import { tagGroup } from "../../Operation.ts"
import { requestCounts } from "../../RequestMetrics.ts"
import { asOperator, OPERATOR_NOTE } from "./Shared.ts"
import { adminStatsExamples, adminActivityExamples } from "./AdminInsights.examples.ts"
const Days = (max: number) => Schema.FiniteFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: max }))

const PlatformStats = Schema.Struct({
  windowDays: Schema.Number,
  users: Schema.Struct({ total: Schema.Number, deactivated: Schema.Number, newInWindow: Schema.Number }),
  workspaces: Schema.Struct({ total: Schema.Number, suspended: Schema.Number, deleted: Schema.Number, newInWindow: Schema.Number }),
  memberships: Schema.Number,
  liveSessions: Schema.Number,
  activeApiKeys: Schema.Number,
  requestsLastHour: Schema.Struct({ total: Schema.Number, clientErrors: Schema.Number, serverErrors: Schema.Number }).annotate({
    description: "Requests answered by this node in the last 60 minutes"
  })
}).annotate({ identifier: "PlatformStats" })

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString()

const adminStatsTag = tagGroup("pm", "Admin - Stats", adminStatsExamples)
const adminActivityTag = tagGroup("pm", "Admin - Activity", adminActivityExamples)

export const adminInsightsOperations = [
  adminStatsTag.operation({
    operationId: "getPlatformStats",
    method: "GET",
    path: "/v1/admin/stats",
    summary: "Platform totals: users, workspaces, memberships, sessions, API keys, recent requests",
    description: OPERATOR_NOTE,
    auth: "jwt",
    scopes: [],
    query: Schema.Struct({ windowDays: Schema.optionalKey(Days(365)) }),
    responses: { 200: { description: "Totals", schema: PlatformStats } },
    handler: ({ query }, context) =>
      Effect.gen(function* () {
        yield* asOperator(context)
        const windowDays = query.windowDays ?? 30
        const counts = yield* Effect.orDie(platformCounts(daysAgo(windowDays)))
        return {
          windowDays,
          users: { total: counts.users, deactivated: counts.deactivatedUsers, newInWindow: counts.usersCreatedInWindow },
          workspaces: {
            total: counts.workspaces,
            suspended: counts.suspendedWorkspaces,
            deleted: counts.deletedWorkspaces,
            newInWindow: counts.workspacesCreatedInWindow
          },
          memberships: counts.memberships,
          liveSessions: counts.liveSessions,
          activeApiKeys: counts.activeApiKeys,
          requestsLastHour: requestCounts(60)
        }
      })
  }),
  adminStatsTag.operation({
    operationId: "getPlatformGrowth",
    method: "GET",
    path: "/v1/admin/stats/growth",
    summary: "Sign-ups and new workspaces per UTC day",
    description: `${OPERATOR_NOTE} Every day of the range is listed, zeros included.`,
    auth: "jwt",
    scopes: [],
    query: Schema.Struct({ days: Schema.optionalKey(Days(366)) }),
    responses: {
      200: {
        description: "One entry per day, oldest first",
        schema: Schema.Struct({
          from: Schema.String,
          days: Schema.Array(Schema.Struct({ day: Schema.String, users: Schema.Number, workspaces: Schema.Number }))
        })
      }
    },
    handler: ({ query }, context) =>
      Effect.gen(function* () {
        yield* asOperator(context)
        const days = query.days ?? 30
        const from = daysAgo(days - 1).slice(0, 10)
        const rows = new Map((yield* Effect.orDie(dailyGrowth(from))).map((row) => [row.day, row] as const))
        const series = Array.from({ length: days }, (_, index) => {
          const day = new Date(Date.parse(`${from}T00:00:00.000Z`) + index * 86_400_000).toISOString().slice(0, 10)
          return { day, users: rows.get(day)?.users ?? 0, workspaces: rows.get(day)?.workspaces ?? 0 }
        })
        return { from, days: series }
      })
  }),
  adminActivityTag.operation({
    operationId: "listPlatformActivity",
    method: "GET",
    path: "/v1/admin/activity",
    summary: "The platform audit trail: changes by operators, internal services and the payment provider",
    description: `${OPERATOR_NOTE} Newest first; pass the last entry's id as \`before\` for the next page.`,
    auth: "jwt",
    scopes: [],
    query: Schema.Struct({
      actor: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(200))),
      action: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(100))),
      workspaceId: Schema.optionalKey(Id),
      since: Schema.optionalKey(Timestamp.check(Schema.isPattern(/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/))),
      before: Schema.optionalKey(Schema.String.check(Schema.isPattern(/^\d{1,18}$/))),
      limit: Schema.optionalKey(Days(200))
    }),
    responses: {
      200: { description: "Entries", schema: Schema.Struct({ items: Schema.Array(AuditEntry), nextBefore: Schema.NullOr(Schema.String) }) }
    },
    handler: ({ query }, context) =>
      Effect.gen(function* () {
        yield* asOperator(context)
        const limit = query.limit ?? 50
        const items = yield* Effect.orDie(
          auditEntries({
            actor: query.actor ?? null,
            action: query.action ?? null,
            workspaceId: query.workspaceId ?? null,
            since: query.since ?? null,
            before: query.before ?? null,
            limit
          })
        )
        return { items, nextBefore: items.length === limit ? items[items.length - 1]!.id : null }
      })
  })
]
