/**
 * pm tag "Activity Log" (14): who changed what, read from the event log every
 * change is appended to — by workspace, space, list, task, user, type and
 * time — and statistics over it (per day, type, user, space, task). The log
 * keeps the most recent events per workspace (see `PM_EVENT_RETENTION`).
 */
import { Effect, Schema } from "effect"
import { Id, Timestamp } from "../../actors/Fields.ts"
import { usersByIds } from "../../actors/identity/IdentityQueries.ts"
import * as Activity from "../../actors/pm/ActivityLog.ts"
import type { ChangeScope } from "../../actors/pm/ChangeLog.ts"
import { eventFrame, type LoggedEvent } from "../../actors/pm/EventLog.ts"
import { locateList, locateSpace, locateTask } from "../../actors/pm/Locate.ts"
import { TimeZone } from "../../actors/pm/ReferenceData.ts"
import { resolveScope, visiblePrivateSpaces, type Viewer } from "../../actors/pm/Visibility.ts"
import { DateTime, isoDate } from "../../actors/pm/WorkRecords.ts"
import type { ActorError } from "../../runtime/ActorError.ts"
import { type Rejection, reject } from "../../runtime/Rejection.ts"
import { principalOf } from "../Access.ts"
import { raw, type RequestContext, tagGroup } from "../Operation.ts"
import { viewerOf } from "./Viewers.ts"
import { activityLogExamples, ws, ids, alice, exampleEvent } from "./ActivityLog.examples.ts"

const tag = "Activity Log"
const service = "pm"

const { operation } = tagGroup(service, tag, activityLogExamples)
const scopes = ["tasks:read"]

// ---------------------------------------------------------------------------
// Shapes

const UserRef = Schema.Struct({ id: Id, name: Schema.String, email: Schema.String }).annotate({ identifier: "ActivityActor" })

const ActivityEvent = Schema.Struct({
  seq: Schema.Number.annotate({ description: "Position in the workspace's log (increasing, gap-free)" }),
  type: Schema.String.annotate({ examples: ["task.updated"] }),
  workspaceId: Id,
  scope: Schema.Literals(["workspace", "space", "list", "task"]),
  entityId: Schema.String,
  path: Schema.Struct({
    spaceId: Schema.optionalKey(Schema.String),
    listId: Schema.optionalKey(Schema.String),
    taskId: Schema.optionalKey(Schema.String)
  }),
  data: Schema.Record(Schema.String, Schema.Unknown),
  actorId: Schema.String,
  actor: Schema.NullOr(UserRef),
  at: Timestamp
}).annotate({ identifier: "ActivityEvent", description: "One change, as the live streams delivered it, with who made it." })

const ActivityPage = Schema.Struct({
  items: Schema.Array(ActivityEvent),
  nextBefore: Schema.NullOr(Schema.Number).annotate({ description: "Pass as `before` for the next (older) page; null on the last page" })
}).annotate({ identifier: "ActivityPage" })

const Types = Schema.String.check(
  Schema.isMaxLength(500),
  Schema.isPattern(/^[\w-]+(?:\.[\w-]+)*(?:,[\w-]+(?:\.[\w-]+)*)*$/, { expected: "comma-separated event types, e.g. task.updated,comment" })
).annotate({ description: "Comma-separated: an exact type (`task.updated`) or a family (`task` = every `task.*`)" })
const PositiveInt = (max: number) => Schema.FiniteFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: max }))

const Filters = {
  type: Schema.optionalKey(Types),
  actorId: Schema.optionalKey(Id),
  from: Schema.optionalKey(DateTime.annotate({ description: "Inclusive" })),
  to: Schema.optionalKey(DateTime.annotate({ description: "Exclusive" }))
}
const PageQuery = Schema.Struct({
  ...Filters,
  before: Schema.optionalKey(PositiveInt(Number.MAX_SAFE_INTEGER)),
  limit: Schema.optionalKey(PositiveInt(200))
})
const RangeQuery = Schema.Struct(Filters)

type Filters = { type?: string; actorId?: string; from?: string; to?: string }

// ---------------------------------------------------------------------------
// Helpers

/** The calendar date in `value` exists (2026-02-31 does not; `Date` would roll it over). */
const realCalendarDate = (value: string) => {
  const [y, m, d] = value.slice(0, 10).split("-").map(Number) as [number, number, number]
  const date = new Date(Date.UTC(y, m - 1, d))
  return date.getUTCMonth() === m - 1 && date.getUTCDate() === d
}

const when = (value: string | undefined, field: string) => {
  if (value === undefined) return Effect.succeed(undefined)
  const iso = realCalendarDate(value) ? isoDate(value) : undefined
  return iso === undefined
    ? Effect.fail(reject("invalid", `${field} is not a real date`, [{ path: `query.${field}`, message: "not a date" }]))
    : Effect.succeed(iso)
}

/** The activity filter for a viewer and the common query parameters. */
const filterOf = (viewer: Viewer, query: Filters, narrow: Partial<Activity.ActivityFilter> = {}) =>
  Effect.gen(function* () {
    const from = yield* when(query.from, "from")
    const to = yield* when(query.to, "to")
    if (from !== undefined && to !== undefined && from >= to)
      return yield* reject("invalid", "from must be before to", [{ path: "query.to", message: "not after from" }])
    const privateSpaces = yield* visiblePrivateSpaces(viewer).pipe(Effect.orDie)
    return {
      workspaceId: viewer.workspaceId,
      privateSpaces,
      ...narrow,
      ...(query.actorId !== undefined ? { actorId: query.actorId } : {}),
      ...(query.type !== undefined ? { types: query.type.split(",") } : {}),
      ...(from !== undefined ? { from } : {}),
      ...(to !== undefined ? { to } : {})
    } satisfies Activity.ActivityFilter
  })

/** The viewer of the workspace an entity lives in, when they may see the entity (404 otherwise). */
const entityViewer = (context: RequestContext, scope: Exclude<ChangeScope, "workspace">, id: string) =>
  Effect.gen(function* () {
    const notFound = reject("not_found", `No such ${scope}`)
    const locate = scope === "space" ? locateSpace(id) : scope === "list" ? locateList(id) : locateTask(id)
    const located = yield* locate.pipe(
      Effect.catchTag("PlaceNotFound", () => Effect.fail(notFound)),
      Effect.catchTag("SqlError", Effect.die)
    )
    const viewer = yield* viewerOf(context, located.workspaceId).pipe(Effect.catchTag("Rejection", () => Effect.fail(notFound)))
    yield* resolveScope(viewer, scope, id).pipe(Effect.catchTag("SqlError", Effect.die))
    return viewer
  })

/** Feedback boards' and wiki spaces' events share the log; the queries leave them out, and a pm page never carries one. */
const isPmScope = (scope: ChangeScope): scope is Exclude<ChangeScope, "board" | "wikiSpace"> => scope !== "board" && scope !== "wikiSpace"

const withActors = (events: ReadonlyArray<LoggedEvent>) =>
  Effect.gen(function* () {
    const users = yield* usersByIds([...new Set(events.map((e) => e.actorId))]).pipe(Effect.orDie)
    return events.flatMap((event) => {
      const { scope } = event
      if (!isPmScope(scope)) return []
      const user = users.get(event.actorId)
      return [{ ...eventFrame(event), scope, actor: user ? { id: user.id, name: user.name, email: user.email } : null }]
    })
  })

const page = (filter: Activity.ActivityFilter, query: { before?: number; limit?: number }) =>
  Effect.gen(function* () {
    const { events, nextBefore } = yield* Activity.listActivity(filter, query.limit ?? 50, query.before).pipe(Effect.orDie)
    return { items: yield* withActors(events), nextBefore }
  })

/** [from, to) defaulting to the last 30 days, at most `maxDays` long. */
const window = (query: Filters, maxDays: number) =>
  Effect.gen(function* () {
    const to = (yield* when(query.to, "to")) ?? new Date().toISOString()
    const from = (yield* when(query.from, "from")) ?? new Date(Date.parse(to) - 30 * 86_400_000).toISOString()
    if (from >= to) return yield* reject("invalid", "from must be before to", [{ path: "query.to", message: "not after from" }])
    if (Date.parse(to) - Date.parse(from) > maxDays * 86_400_000) {
      return yield* reject("invalid", `The range is limited to ${maxDays} days`, [
        { path: "query.from", message: `more than ${maxDays} days before to` }
      ])
    }
    return { from, to }
  })

const workspaceViewer = (context: RequestContext, workspaceId: string) => viewerOf(context, workspaceId)
const examplePage = { items: [exampleEvent], nextBefore: null }
const WsParams = Schema.Struct({ workspaceId: Id })

const listOperation = (
  operationId: string,
  path: string,
  summary: string,
  params: Schema.Top,
  handler: (params: any, query: any, context: RequestContext) => Effect.Effect<typeof ActivityPage.Type, Rejection | ActorError, any>,
  exampleParams: Record<string, string>
) =>
  operation({
    operationId,
    method: "GET",
    path,
    summary,
    auth: "both",
    scopes,
    params,
    query: PageQuery,
    responses: { 200: { description: "Events, newest first", schema: ActivityPage } },
    examples: [
      { name: "recent", request: { params: exampleParams, query: { limit: "20" } }, response: { status: 200, body: examplePage } }
    ],
    handler: ({ params, query }, context) => handler(params, query, context)
  })

export const activityLogOperations = [
  listOperation(
    "listWorkspaceActivity",
    "/v1/workspaces/{workspaceId}/activity",
    "A workspace's activity, newest first (filter by type, user, time)",
    WsParams,
    (params, query, context) =>
      Effect.gen(function* () {
        const viewer = yield* workspaceViewer(context, params.workspaceId)
        return yield* page(yield* filterOf(viewer, query), query)
      }),
    { workspaceId: ws }
  ),
  listOperation(
    "listSpaceActivity",
    "/v1/spaces/{spaceId}/activity",
    "A space's activity, including its folders, lists and tasks",
    Schema.Struct({ spaceId: Id }),
    (params, query, context) =>
      Effect.gen(function* () {
        const viewer = yield* entityViewer(context, "space", params.spaceId)
        return yield* page(yield* filterOf(viewer, query, { spaceId: params.spaceId }), query)
      }),
    { spaceId: ids.spaceId }
  ),
  listOperation(
    "listListActivity",
    "/v1/lists/{listId}/activity",
    "A list's activity, including its tasks",
    Schema.Struct({ listId: Id }),
    (params, query, context) =>
      Effect.gen(function* () {
        const viewer = yield* entityViewer(context, "list", params.listId)
        return yield* page(yield* filterOf(viewer, query, { listId: params.listId }), query)
      }),
    { listId: ids.listId }
  ),
  listOperation(
    "listTaskActivity",
    "/v1/tasks/{taskId}/activity",
    "A task's history: every change to it, its comments, fields and assignees",
    Schema.Struct({ taskId: Id }),
    (params, query, context) =>
      Effect.gen(function* () {
        const viewer = yield* entityViewer(context, "task", params.taskId)
        return yield* page(yield* filterOf(viewer, query, { taskId: params.taskId }), query)
      }),
    { taskId: ids.taskId }
  ),
  listOperation(
    "listUserActivity",
    "/v1/workspaces/{workspaceId}/users/{userId}/activity",
    "What one member did in the workspace",
    Schema.Struct({ workspaceId: Id, userId: Id }),
    (params, query, context) =>
      Effect.gen(function* () {
        const viewer = yield* workspaceViewer(context, params.workspaceId)
        return yield* page(yield* filterOf(viewer, { ...query, actorId: params.userId }), query)
      }),
    { workspaceId: ws, userId: alice.id }
  ),
  listOperation(
    "listMyActivity",
    "/v1/workspaces/{workspaceId}/activity/mine",
    "What the caller did in the workspace",
    WsParams,
    (params, query, context) =>
      Effect.gen(function* () {
        const viewer = yield* workspaceViewer(context, params.workspaceId)
        const principal = yield* principalOf(context)
        return yield* page(yield* filterOf(viewer, { ...query, actorId: principal.userId }), query)
      }),
    { workspaceId: ws }
  ),
  operation({
    operationId: "getActivityEvent",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/activity/{seq}",
    summary: "One event of the workspace's log, by seq",
    auth: "both",
    scopes,
    params: Schema.Struct({ workspaceId: Id, seq: PositiveInt(Number.MAX_SAFE_INTEGER) }),
    responses: {
      200: { description: "The event", schema: ActivityEvent },
      404: { description: "No such event (or pruned, or not visible)" }
    },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const viewer = yield* workspaceViewer(context, params.workspaceId)
        const event = yield* Activity.activityEvent(yield* filterOf(viewer, {}), params.seq).pipe(Effect.orDie)
        if (event === undefined) return yield* reject("not_found", "No such event")
        return (yield* withActors([event]))[0]
      })
  }),
  operation({
    operationId: "getActivitySummary",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/activity/stats/summary",
    summary: "Totals of the workspace's activity: events, distinct people, first and last, per scope",
    auth: "both",
    scopes,
    params: WsParams,
    query: RangeQuery,
    responses: {
      200: {
        description: "Summary",
        schema: Schema.Struct({
          total: Schema.Number,
          actors: Schema.Number,
          firstAt: Schema.NullOr(Timestamp),
          lastAt: Schema.NullOr(Timestamp),
          firstSeq: Schema.NullOr(Schema.Number),
          lastSeq: Schema.NullOr(Schema.Number),
          byScope: Schema.Struct({ workspace: Schema.Number, space: Schema.Number, list: Schema.Number, task: Schema.Number })
        }).annotate({ identifier: "ActivitySummary" })
      }
    },
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        const viewer = yield* workspaceViewer(context, params.workspaceId)
        return yield* Activity.activitySummary(yield* filterOf(viewer, query)).pipe(Effect.orDie)
      })
  }),
  operation({
    operationId: "getActivityPerDay",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/activity/stats/daily",
    summary: "Events per day (in a time zone), zero-filled; the last 30 days unless from/to say otherwise (at most 366)",
    auth: "both",
    scopes,
    params: WsParams,
    query: Schema.Struct({ ...Filters, timezone: Schema.optionalKey(TimeZone) }),
    responses: {
      200: {
        description: "Days",
        schema: Schema.Struct({
          timezone: Schema.String,
          items: Schema.Array(Schema.Struct({ date: Schema.String, count: Schema.Number }))
        }).annotate({ identifier: "ActivityPerDay" })
      }
    },
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        const viewer = yield* workspaceViewer(context, params.workspaceId)
        const range = yield* window(query, 366)
        const timezone = query.timezone ?? "UTC"
        const filter = yield* filterOf(viewer, { ...query, ...range })
        return { timezone, items: yield* Activity.activityPerDay({ ...filter, ...range }, timezone).pipe(Effect.orDie) }
      })
  }),
  operation({
    operationId: "getActivityPerType",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/activity/stats/types",
    summary: "Events per type, most frequent first",
    auth: "both",
    scopes,
    params: WsParams,
    query: RangeQuery,
    responses: {
      200: {
        description: "Types",
        schema: Schema.Struct({
          items: Schema.Array(Schema.Struct({ type: Schema.String, count: Schema.Number, lastAt: Timestamp }))
        }).annotate({ identifier: "ActivityPerType" })
      }
    },
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        const viewer = yield* workspaceViewer(context, params.workspaceId)
        return { items: yield* Activity.activityPerType(yield* filterOf(viewer, query)).pipe(Effect.orDie) }
      })
  }),
  operation({
    operationId: "getActivityPerUser",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/activity/stats/users",
    summary: "Events per person, most active first",
    auth: "both",
    scopes,
    params: WsParams,
    query: RangeQuery,
    responses: {
      200: {
        description: "People",
        schema: Schema.Struct({
          items: Schema.Array(
            Schema.Struct({ userId: Schema.String, name: Schema.NullOr(Schema.String), count: Schema.Number, lastAt: Timestamp })
          )
        }).annotate({ identifier: "ActivityPerUser" })
      }
    },
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        const viewer = yield* workspaceViewer(context, params.workspaceId)
        const rows = yield* Activity.activityPerActor(yield* filterOf(viewer, query)).pipe(Effect.orDie)
        const users = yield* usersByIds(rows.map((r) => r.userId)).pipe(Effect.orDie)
        return { items: rows.map((r) => ({ ...r, name: users.get(r.userId)?.name ?? null })) }
      })
  }),
  operation({
    operationId: "getActivityPerSpace",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/activity/stats/spaces",
    summary: "Events per space, busiest first",
    auth: "both",
    scopes,
    params: WsParams,
    query: RangeQuery,
    responses: {
      200: {
        description: "Spaces",
        schema: Schema.Struct({
          items: Schema.Array(
            Schema.Struct({ spaceId: Schema.String, name: Schema.NullOr(Schema.String), count: Schema.Number, lastAt: Timestamp })
          )
        }).annotate({ identifier: "ActivityPerSpace" })
      }
    },
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        const viewer = yield* workspaceViewer(context, params.workspaceId)
        return { items: yield* Activity.activityPerSpace(yield* filterOf(viewer, query)).pipe(Effect.orDie) }
      })
  }),
  operation({
    operationId: "getMostActiveTasks",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/activity/stats/tasks",
    summary: "The tasks with the most activity",
    auth: "both",
    scopes,
    params: WsParams,
    query: Schema.Struct({ ...Filters, limit: Schema.optionalKey(PositiveInt(100)) }),
    responses: {
      200: {
        description: "Tasks",
        schema: Schema.Struct({
          items: Schema.Array(
            Schema.Struct({
              taskId: Schema.String,
              name: Schema.NullOr(Schema.String),
              shortId: Schema.NullOr(Schema.String),
              count: Schema.Number,
              lastAt: Timestamp
            })
          )
        }).annotate({ identifier: "MostActiveTasks" })
      }
    },
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        const viewer = yield* workspaceViewer(context, params.workspaceId)
        return { items: yield* Activity.mostActiveTasks(yield* filterOf(viewer, query), query.limit ?? 10).pipe(Effect.orDie) }
      })
  }),
  operation({
    operationId: "exportActivity",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/activity/export",
    summary: "Download the workspace's activity as CSV, oldest first",
    auth: "both",
    scopes,
    params: WsParams,
    query: Schema.Struct({ ...Filters, limit: Schema.optionalKey(PositiveInt(50_000)) }),
    responses: {
      200: {
        description: "CSV: seq, at, type, scope, entityId, spaceId, listId, taskId, actorId, actorName, data (JSON)",
        contentType: "text/csv"
      }
    },
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        const viewer = yield* workspaceViewer(context, params.workspaceId)
        const events = yield* Activity.exportActivity(yield* filterOf(viewer, query), query.limit ?? 10_000).pipe(Effect.orDie)
        const rows = yield* withActors(events)
        const cell = (value: unknown) => {
          const text = value === null || value === undefined ? "" : typeof value === "string" ? value : JSON.stringify(value)
          // Quote when needed; neutralize spreadsheet formulas.
          const safe = /^[=+\-@]/.test(text) ? `'${text}` : text
          return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe
        }
        const header = "seq,at,type,scope,entityId,spaceId,listId,taskId,actorId,actorName,data"
        const lines = rows.map((r) =>
          [r.seq, r.at, r.type, r.scope, r.entityId, r.path.spaceId, r.path.listId, r.path.taskId, r.actorId, r.actor?.name, r.data]
            .map(cell)
            .join(",")
        )
        return raw("text/csv; charset=utf-8", [header, ...lines].join("\n") + "\n", {
          "content-disposition": `attachment; filename="activity-${params.workspaceId}.csv"`
        })
      })
  })
]
