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
import { operation } from "../../Operation.ts"
import { requirePlatformAdmin } from "../../PlatformAdmin.ts"
import { at0, exampleIds as ids, Limit, Offset, orDieSql, pageOf } from "../WorkAccess.ts"

const tag = "Admin DLQ"
const service = "pm"
const letterId = "msg_9f2c4e1a7b3d4c5e8f6a0b1c2d3e4f5a"
const LetterParams = Schema.Struct({ deliveryId: Name(100) })

const exampleLetter = {
  id: letterId,
  endpointId: "a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d",
  workspaceId: ids.workspace,
  eventSeq: 42,
  eventType: "task.updated",
  entityId: ids.task,
  status: "dead",
  attempts: 8,
  nextAttemptAt: null,
  lastStatus: 503,
  lastError: "HTTP 503",
  createdAt: at0,
  deliveredAt: null,
  deadAt: "2026-11-21T14:12:00.000Z",
  endpointUrl: "https://203.0.113.10/atrium-hooks",
  endpointStatus: "active"
}

const Replayed = Schema.Struct({ replayed: Schema.Number, ids: Schema.Array(Schema.String) })

export const adminDlqOperations = [
  operation({
    service,
    tag,
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
    examples: [{ name: "list", response: { status: 200, body: { items: [exampleLetter], total: 1 } } }],
    handler: ({ query }, context) =>
      Effect.gen(function* () {
        yield* requirePlatformAdmin(context)
        const { offset: _o, limit: _l, ...filter } = query
        return yield* orDieSql(listDeadLetters(filter, pageOf(query)))
      })
  }),
  operation({
    service,
    tag,
    operationId: "getDlqStats",
    method: "GET",
    path: "/v1/admin/dlq/stats",
    summary: "Depth of the dead-letter queue, pending deliveries, deliveries of the last day, disabled endpoints (operator)",
    auth: "jwt",
    scopes: [],
    responses: { 200: { description: "Stats", schema: DlqStats }, 403: { description: "Not a platform admin" } },
    examples: [
      {
        name: "stats",
        response: {
          status: 200,
          body: {
            dead: 1,
            pending: 4,
            deliveredLastDay: 1200,
            disabledEndpoints: 0,
            oldestDeadAt: "2026-11-21T14:12:00.000Z",
            byWorkspace: [{ workspaceId: ids.workspace, dead: 1 }],
            byEventType: [{ eventType: "task.updated", dead: 1 }]
          }
        }
      }
    ],
    handler: (_, context) => Effect.andThen(requirePlatformAdmin(context), orDieSql(dlqStats))
  }),
  operation({
    service,
    tag,
    operationId: "getDeadLetter",
    method: "GET",
    path: "/v1/admin/dlq/{deliveryId}",
    summary: "One dead letter with the body that was sent (operator)",
    auth: "jwt",
    scopes: [],
    params: LetterParams,
    responses: { 200: { description: "Dead letter", schema: DeadLetterDetail }, 404: { description: "No such dead letter" } },
    examples: [
      {
        name: "get",
        request: { params: { deliveryId: letterId } },
        response: {
          status: 200,
          body: { ...exampleLetter, payload: { type: "task.updated", timestamp: at0, data: { seq: 42, entityId: ids.task } } }
        }
      }
    ],
    handler: ({ params }, context) => Effect.andThen(requirePlatformAdmin(context), orDieSql(deadLetter(params.deliveryId)))
  }),
  operation({
    service,
    tag,
    operationId: "replayDeadLetter",
    method: "POST",
    path: "/v1/admin/dlq/{deliveryId}/replay",
    summary: "Queue one dead letter again with a fresh retry budget and its original webhook-id (operator)",
    auth: "jwt",
    scopes: [],
    params: LetterParams,
    responses: { 202: { description: "Queued again", schema: Replayed }, 404: { description: "No such dead letter" } },
    examples: [
      { name: "replay", request: { params: { deliveryId: letterId } }, response: { status: 202, body: { replayed: 1, ids: [letterId] } } }
    ],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* requirePlatformAdmin(context)
        const rows = yield* orDieSql(replayDeadLetter(params.deliveryId))
        return { replayed: rows.length, ids: rows.map((r) => r.id) }
      })
  }),
  operation({
    service,
    tag,
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
    examples: [
      {
        name: "endpoint",
        request: { body: { endpointId: exampleLetter.endpointId } },
        response: { status: 202, body: { replayed: 1, ids: [letterId] } }
      }
    ],
    handler: ({ body }, context) =>
      Effect.gen(function* () {
        yield* requirePlatformAdmin(context)
        const { ids: chosen, limit, ...filter } = body
        const replayed = yield* orDieSql(replayDeadLetters({ ...(chosen ? { ids: chosen } : {}), filter, limit: limit ?? 1000 }))
        return { replayed: replayed.length, ids: replayed }
      })
  }),
  operation({
    service,
    tag,
    operationId: "deleteDeadLetter",
    method: "DELETE",
    path: "/v1/admin/dlq/{deliveryId}",
    summary: "Drop one dead letter for good (operator)",
    auth: "jwt",
    scopes: [],
    params: LetterParams,
    responses: { 204: { description: "Deleted" }, 404: { description: "No such dead letter" } },
    examples: [{ name: "delete", request: { params: { deliveryId: letterId } }, response: { status: 204 } }],
    handler: ({ params }, context) => Effect.andThen(requirePlatformAdmin(context), orDieSql(deleteDeadLetter(params.deliveryId)))
  }),
  operation({
    service,
    tag,
    operationId: "purgeDeadLetters",
    method: "DELETE",
    path: "/v1/admin/dlq",
    summary: "Drop every dead letter matching the filter (all when none) (operator)",
    auth: "jwt",
    scopes: [],
    query: DeadLetterFilter,
    responses: { 200: { description: "How many were dropped", schema: Schema.Struct({ purged: Schema.Number }) } },
    examples: [
      { name: "older", request: { query: { before: "2026-11-20T00:00:00.000Z" } }, response: { status: 200, body: { purged: 1 } } }
    ],
    handler: ({ query }, context) =>
      Effect.gen(function* () {
        yield* requirePlatformAdmin(context)
        return { purged: yield* orDieSql(purgeDeadLetters(query)) }
      })
  })
]
