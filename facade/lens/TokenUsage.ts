/**
 * Token Usage Resource (12): every metered Lens run (local engine or model
 * call) per workspace and user — records, totals grouped six ways, the
 * caller's own usage, a CSV export, recording a model call made by another
 * part of the pipeline, and purging old records. Admins see everyone; a
 * member sees their own usage only.
 */
import { Effect, Schema } from "effect"
import { atLeast } from "../../actors/identity/Workspace.ts"
import { Id } from "../../actors/Fields.ts"
import { charge, LensAccount } from "../../actors/lens/LensAccount.ts"
import {
  type UsageFilter,
  type usageGroupings,
  UsageRecord,
  usageRecord,
  usageRecords,
  UsageTotals,
  usageTotals
} from "../../actors/lens/Metering.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { reject } from "../../runtime/Rejection.ts"
import { principalOf, workspaceRole } from "../Access.ts"
import { type AnyOperation, raw, type RequestContext, tagGroup } from "../Operation.ts"
import { orDieSql } from "../pm/WorkAccess.ts"

import { tokenUsageExamples, exampleParams, exampleTotals } from "./TokenUsage.examples.ts"

const service = "hub"
const tag = "Token Usage Resource"

const { operation } = tagGroup(service, tag, tokenUsageExamples)
const params = Schema.Struct({ workspaceId: Id })
const Engine = Schema.Literals(["local", "model"])
const Instant = Schema.String.check(
  Schema.isPattern(/^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2}))?$/, { expected: "an ISO date or date-time" })
)
const Filters = {
  userId: Schema.optionalKey(Id),
  engine: Schema.optionalKey(Engine),
  from: Schema.optionalKey(Instant),
  to: Schema.optionalKey(Instant)
}
const Page = {
  limit: Schema.optionalKey(Schema.FiniteFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 500 }))),
  offset: Schema.optionalKey(Schema.FiniteFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 0, maximum: 1_000_000 })))
}

/** The filter the caller may use: admins any user's, members only their own. */
const filterFor = (
  context: RequestContext,
  workspaceId: string,
  query: { userId?: string; engine?: "local" | "model"; from?: string; to?: string },
  admin: boolean
) =>
  Effect.gen(function* () {
    const role = yield* workspaceRole(context, workspaceId)
    const principal = yield* principalOf(context)
    if (admin && !atLeast(role, "admin")) return yield* reject("forbidden", "Requires the admin role in this workspace")
    const filter: UsageFilter = { workspaceId, ...query, ...(admin ? {} : { userId: principal.userId }) }
    return filter
  })

const grouped = (grouping: Exclude<keyof typeof usageGroupings, "all">, operationId: string, what: string): AnyOperation =>
  operation({
    operationId,
    method: "GET",
    path: `/v1/workspaces/{workspaceId}/token-usage/by-${grouping}`,
    summary: `Token usage and credits per ${what} (admin)`,
    auth: "jwt",
    scopes: [],
    params,
    query: Schema.Struct(Filters),
    responses: { 200: { description: `Totals per ${what}`, schema: Schema.Struct({ items: Schema.Array(UsageTotals) }) } },
    examples: [
      {
        name: "totals",
        request: { params: exampleParams },
        response: { status: 200, body: { items: [{ ...exampleTotals, key: grouping === "engine" ? "local" : "x" }] } }
      }
    ],
    handler: ({ params, query }, context) =>
      orDieSql(
        Effect.flatMap(filterFor(context, params.workspaceId, query, true), (filter) =>
          Effect.map(usageTotals(filter, grouping), (items) => ({ items }))
        )
      )
  })

const csvCell = (value: unknown) => {
  const text = value === null || value === undefined ? "" : String(value)
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

export const tokenUsageOperations: ReadonlyArray<AnyOperation> = [
  operation({
    operationId: "listTokenUsage",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/token-usage",
    summary: "Metered Lens runs of the workspace, newest first (admin)",
    auth: "jwt",
    scopes: [],
    params,
    query: Schema.Struct({ ...Filters, ...Page }),
    responses: { 200: { description: "Records", schema: Schema.Struct({ items: Schema.Array(UsageRecord) }) } },
    handler: ({ params, query }, context) =>
      orDieSql(
        Effect.gen(function* () {
          const { limit, offset, ...filters } = query
          const filter = yield* filterFor(context, params.workspaceId, filters, true)
          return { items: yield* usageRecords(filter, limit ?? 50, offset ?? 0) }
        })
      )
  }),
  operation({
    operationId: "getTokenUsage",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/token-usage/records/{usageId}",
    summary: "One metered run (admin, or the member who ran it)",
    auth: "jwt",
    scopes: [],
    params: Schema.Struct({ workspaceId: Id, usageId: Id }),
    responses: { 200: { description: "The record", schema: UsageRecord }, 404: { description: "No such record" } },
    handler: ({ params }, context) =>
      orDieSql(
        Effect.gen(function* () {
          const role = yield* workspaceRole(context, params.workspaceId)
          const principal = yield* principalOf(context)
          const record = yield* usageRecord(params.workspaceId, params.usageId)
          if (record === undefined || (!atLeast(role, "admin") && record.userId !== principal.userId))
            return yield* reject("not_found", "No such usage record")
          return record
        })
      )
  }),
  operation({
    operationId: "getTokenUsageSummary",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/token-usage/summary",
    summary: "Total runs, tokens and credits of the workspace (admin)",
    auth: "jwt",
    scopes: [],
    params,
    query: Schema.Struct(Filters),
    responses: { 200: { description: "Totals", schema: UsageTotals } },
    handler: ({ params, query }, context) =>
      orDieSql(
        Effect.flatMap(filterFor(context, params.workspaceId, query, true), (filter) =>
          Effect.map(
            usageTotals(filter, "all"),
            (rows) => rows[0] ?? { key: "all", runs: 0, promptTokens: 0, completionTokens: 0, credits: 0 }
          )
        )
      )
  }),
  grouped("user", "getTokenUsageByUser", "user"),
  grouped("day", "getTokenUsageByDay", "day (UTC)"),
  grouped("purpose", "getTokenUsageByPurpose", "purpose (chat, stream, bot, flow)"),
  grouped("engine", "getTokenUsageByEngine", "engine (local or model)"),
  grouped("model", "getTokenUsageByModel", "model"),
  operation({
    operationId: "getMyTokenUsage",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/token-usage/me",
    summary: "Your own metered runs in the workspace, with totals",
    auth: "jwt",
    scopes: [],
    params,
    query: Schema.Struct({ engine: Filters.engine, from: Filters.from, to: Filters.to, ...Page }),
    responses: { 200: { description: "Your usage", schema: Schema.Struct({ totals: UsageTotals, items: Schema.Array(UsageRecord) }) } },
    handler: ({ params, query }, context) =>
      orDieSql(
        Effect.gen(function* () {
          const { limit, offset, ...filters } = query
          const filter = yield* filterFor(context, params.workspaceId, filters, false)
          const totals = (yield* usageTotals(filter, "all"))[0] ?? { key: "all", runs: 0, promptTokens: 0, completionTokens: 0, credits: 0 }
          return { totals, items: yield* usageRecords(filter, limit ?? 50, offset ?? 0) }
        })
      )
  }),
  operation({
    operationId: "exportTokenUsage",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/token-usage/export",
    summary: "The workspace's metered runs as CSV (admin; at most 10 000 rows, newest first)",
    auth: "jwt",
    scopes: [],
    params,
    query: Schema.Struct(Filters),
    responses: { 200: { description: "CSV", contentType: "text/csv" } },
    handler: ({ params, query }, context) =>
      orDieSql(
        Effect.gen(function* () {
          const filter = yield* filterFor(context, params.workspaceId, query, true)
          const rows = yield* usageRecords(filter, 10_000, 0)
          const columns = [
            "id",
            "userId",
            "engine",
            "purpose",
            "model",
            "promptTokens",
            "completionTokens",
            "credits",
            "durationMs",
            "createdAt"
          ] as const
          const csv = [columns.join(","), ...rows.map((row) => columns.map((c) => csvCell(row[c])).join(","))].join("\n")
          return raw("text/csv", `${csv}\n`, { "content-disposition": 'attachment; filename="token-usage.csv"' })
        })
      )
  }),
  operation({
    operationId: "recordTokenUsage",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/token-usage",
    summary: "Meter a model call made on the workspace's behalf outside Lens chat (admin); its credits are deducted",
    auth: "jwt",
    scopes: [],
    params,
    body: Schema.Struct({
      purpose: Schema.String.check(Schema.isPattern(/^[a-z0-9_:-]{1,40}$/, { expected: "a short purpose such as summary" })),
      model: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(100)),
      promptTokens: Schema.Number.check(Schema.isInt(), Schema.isBetween({ minimum: 0, maximum: 10_000_000 })),
      completionTokens: Schema.Number.check(Schema.isInt(), Schema.isBetween({ minimum: 0, maximum: 10_000_000 })),
      durationMs: Schema.optionalKey(Schema.Number.check(Schema.isInt(), Schema.isBetween({ minimum: 0, maximum: 86_400_000 })))
    }),
    responses: { 201: { description: "Metered", schema: Schema.Struct({ credits: Schema.Number }) } },
    handler: ({ params, body }, context) =>
      orDieSql(
        Effect.gen(function* () {
          yield* workspaceRole(context, params.workspaceId, "admin")
          const principal = yield* principalOf(context)
          const credits = yield* charge(params.workspaceId, [
            {
              userId: principal.userId,
              engine: "model",
              purpose: body.purpose,
              model: body.model,
              promptTokens: body.promptTokens,
              completionTokens: body.completionTokens,
              durationMs: body.durationMs ?? 0
            }
          ])
          return { credits }
        })
      )
  }),
  operation({
    operationId: "purgeTokenUsage",
    method: "DELETE",
    path: "/v1/workspaces/{workspaceId}/token-usage",
    summary: "Delete the workspace's usage records older than `before` (owner); balances are unchanged",
    auth: "jwt",
    scopes: [],
    params,
    query: Schema.Struct({ before: Instant }),
    responses: { 200: { description: "How many records were deleted", schema: Schema.Struct({ deleted: Schema.Number }) } },
    handler: ({ params, query }, context) =>
      orDieSql(
        Effect.gen(function* () {
          yield* workspaceRole(context, params.workspaceId, "owner")
          return yield* LensAccount.client(yield* ActorSystem)(params.workspaceId).purgeUsage({ before: query.before })
        })
      )
  })
]
