/**
 * pm tag "Admin DLQ" (7): the webhook dead-letter queue across workspaces,
 * for operators only (platform admins from ATRIUM_PLATFORM_ADMINS; API keys
 * and workspace roles never): list, inspect, replay one, replay in bulk,
 * delete one, purge, stats.
 */
import { Effect, Schema } from "effect"
import {
  DeadLetter,
  DeadLetterDetail,
  DeadLetterFilter,
  deadLetter,
  deleteDeadLetter,
  DlqStats,
  dlqStats,
  listDeadLetters,
  purgeDeadLetters,
  replayDeadLetter,
  replayDeadLetters
} from "../../../actors/pmops/DeadLetters.ts"
import { Name } from "../../../actors/Fields.ts"
import { tagGroup } from "../../Operation.ts"
import { requirePlatformAdmin } from "../../PlatformAdmin.ts"
import { Limit, Offset, orDieSql, pageOf } from "../WorkAccess.ts"
import { adminDlqExamples } from "./AdminDlq.examples.ts"
const LetterParams = Schema.Struct({ deliveryId: Name(100) })

const Replayed = Schema.Struct({ replayed: Schema.Number, ids: Schema.Array(Schema.String) })

const { operation } = tagGroup("pm", "Admin DLQ", adminDlqExamples)

export const adminDlqOperations = [
  operation({
    operationId: "listDeadLetters",
    method: "GET",
    path: "/v1/admin/dlq",
    summary: "Webhook deliveries that exhausted their retries, newest first (operator)",
    auth: "jwt",
    scopes: [],
    query: Schema.Struct({ ...DeadLetterFilter.fields, offset: Schema.optionalKey(Offset), limit: Schema.optionalKey(Limit) }),
    responses: {
      200: { description: "Dead letters", schema: Schema.Struct({ items: Schema.Array(DeadLetter), total: Schema.Number }) },
      403: { description: "Not a platform admin" }
    },
    handler: ({ query }, context) =>
      Effect.gen(function* () {
        yield* requirePlatformAdmin(context)
        const { offset: _o, limit: _l, ...filter } = query
        return yield* orDieSql(listDeadLetters(filter, pageOf(query)))
      })
  }),
  operation({
    operationId: "getDlqStats",
    method: "GET",
    path: "/v1/admin/dlq/stats",
    summary: "Depth of the dead-letter queue, pending deliveries, deliveries of the last day, disabled endpoints (operator)",
    auth: "jwt",
    scopes: [],
    responses: { 200: { description: "Stats", schema: DlqStats }, 403: { description: "Not a platform admin" } },
    handler: (_, context) => Effect.andThen(requirePlatformAdmin(context), orDieSql(dlqStats))
  }),
  operation({
    operationId: "getDeadLetter",
    method: "GET",
    path: "/v1/admin/dlq/{deliveryId}",
    summary: "One dead letter with the body that was sent (operator)",
    auth: "jwt",
    scopes: [],
    params: LetterParams,
    responses: { 200: { description: "Dead letter", schema: DeadLetterDetail }, 404: { description: "No such dead letter" } },
    handler: ({ params }, context) => Effect.andThen(requirePlatformAdmin(context), orDieSql(deadLetter(params.deliveryId)))
  }),
  operation({
    operationId: "replayDeadLetter",
    method: "POST",
    path: "/v1/admin/dlq/{deliveryId}/replay",
    summary: "Queue one dead letter again with a fresh retry budget and its original webhook-id (operator)",
    auth: "jwt",
    scopes: [],
    params: LetterParams,
    responses: { 202: { description: "Queued again", schema: Replayed }, 404: { description: "No such dead letter" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* requirePlatformAdmin(context)
        const rows = yield* orDieSql(replayDeadLetter(params.deliveryId))
        return { replayed: rows.length, ids: rows.map((r) => r.id) }
      })
  }),
  operation({
    operationId: "replayDeadLetters",
    method: "POST",
    path: "/v1/admin/dlq/replay",
    summary: "Queue many dead letters again: the given ids, or all matching the filter (operator)",
    auth: "jwt",
    scopes: [],
    body: Schema.Struct({
      ids: Schema.optionalKey(Schema.Array(Name(100)).check(Schema.isMinLength(1), Schema.isMaxLength(1000))),
      ...DeadLetterFilter.fields,
      limit: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 10_000 })))
    }),
    responses: { 202: { description: "Queued again", schema: Replayed } },
    handler: ({ body }, context) =>
      Effect.gen(function* () {
        yield* requirePlatformAdmin(context)
        const { ids: chosen, limit, ...filter } = body
        const replayed = yield* orDieSql(replayDeadLetters({ ...(chosen ? { ids: chosen } : {}), filter, limit: limit ?? 1000 }))
        return { replayed: replayed.length, ids: replayed }
      })
  }),
  operation({
    operationId: "deleteDeadLetter",
    method: "DELETE",
    path: "/v1/admin/dlq/{deliveryId}",
    summary: "Drop one dead letter for good (operator)",
    auth: "jwt",
    scopes: [],
    params: LetterParams,
    responses: { 204: { description: "Deleted" }, 404: { description: "No such dead letter" } },
    handler: ({ params }, context) => Effect.andThen(requirePlatformAdmin(context), orDieSql(deleteDeadLetter(params.deliveryId)))
  }),
  operation({
    operationId: "purgeDeadLetters",
    method: "DELETE",
    path: "/v1/admin/dlq",
    summary: "Drop every dead letter matching the filter (all when none) (operator)",
    auth: "jwt",
    scopes: [],
    query: DeadLetterFilter,
    responses: { 200: { description: "How many were dropped", schema: Schema.Struct({ purged: Schema.Number }) } },
    handler: ({ query }, context) =>
      Effect.gen(function* () {
        yield* requirePlatformAdmin(context)
        return { purged: yield* orDieSql(purgeDeadLetters(query)) }
      })
  })
]
