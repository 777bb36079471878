/**
 * wiki tag "Wiki Dashboard" (8): analytics of a workspace's wiki (or one
 * space) over a period — totals, views and edits over time, the most active
 * editors, the top pages, activity per space, content growth, and pages
 * nobody updated for long. Each member sees numbers about the pages they may
 * read only.
 */
import { Effect, Schema } from "effect"
import { Id } from "../../actors/Fields.ts"
import { usersByIds } from "../../actors/identity/IdentityQueries.ts"
import { DateParam, Interval, Limit, PageRef, pageRefOf, ReportRange, reportRange } from "../../actors/wiki/DiscoveryViews.ts"
import { readerOf } from "../../actors/wiki/VisiblePages.ts"
import {
  contentGrowth,
  editsSeries,
  type ReportScope,
  spaceActivity,
  stalePages,
  summary,
  topEditors,
  topPages,
  viewsSeries
} from "../../actors/wiki/WikiAnalytics.ts"
import { callerOf, spaceAccess } from "../../actors/wiki/WikiAccess.ts"
import { reject } from "../../runtime/Rejection.ts"
import { principalOf } from "../Access.ts"
import { type RequestContext, tagGroup } from "../Operation.ts"
import { wikiDashboardExamples } from "./WikiDashboard.examples.ts"

const Scope = {
  workspaceId: Id,
  spaceId: Schema.optionalKey(Id.annotate({ description: "Only this space" }))
}
const Period = {
  from: Schema.optionalKey(DateParam.annotate({ description: "Start (inclusive); default 30 days before `to`" })),
  to: Schema.optionalKey(DateParam.annotate({ description: "End (exclusive); default now" }))
}

/** The caller's report scope: the pages they may read in the workspace, or in one space of it. */
const reportScope = (context: RequestContext, query: { workspaceId: string; spaceId?: string }) =>
  Effect.gen(function* () {
    const caller = callerOf(yield* principalOf(context))
    const reader = yield* readerOf(caller, query.workspaceId)
    if (query.spaceId !== undefined) {
      const access = yield* spaceAccess(caller, query.spaceId)
      if (access.space.workspaceId !== query.workspaceId) return yield* reject("not_found", "No such space")
    }
    return { _tag: "reader", reader, spaceId: query.spaceId } satisfies ReportScope
  })

const names = (userIds: ReadonlyArray<string>) => Effect.orDie(usersByIds([...new Set(userIds)]))

const { operation } = tagGroup("wiki", "Wiki Dashboard", wikiDashboardExamples)

export const wikiDashboardOperations = [
  operation({
    operationId: "getWikiDashboard",
    method: "GET",
    path: "/v1/dashboard",
    summary: "Wiki totals over a period: spaces, pages, views, edits, active editors",
    auth: "both",
    scopes: ["wiki:read"],
    query: Schema.Struct({ ...Scope, ...Period }),
    responses: {
      200: {
        description: "Totals",
        schema: Schema.Struct({
          range: ReportRange,
          spaces: Schema.Number,
          pages: Schema.Number.annotate({ description: "Pages now (not archived)" }),
          pagesCreated: Schema.Number,
          pagesUpdated: Schema.Number,
          views: Schema.Number.annotate({ description: "All views (app and public)" }),
          publicViews: Schema.Number,
          uniqueViewers: Schema.Number.annotate({ description: "Distinct signed-in readers" }),
          edits: Schema.Number.annotate({ description: "Content changes (live typing folds into about one per editor and minute)" }),
          activeEditors: Schema.Number
        }).annotate({ identifier: "WikiDashboard" })
      }
    },
    handler: ({ query }, context) =>
      Effect.gen(function* () {
        const scope = yield* reportScope(context, query)
        const range = yield* reportRange(query)
        return { range, ...(yield* summary(scope, range).pipe(Effect.orDie)) }
      })
  }),
  operation({
    operationId: "getWikiViewStats",
    method: "GET",
    path: "/v1/dashboard/views",
    summary: "Page views over time",
    description:
      "Views and distinct viewers per day, week or month (zero-filled). `source` narrows to views in the app or on public wikis.",
    auth: "both",
    scopes: ["wiki:read"],
    query: Schema.Struct({
      ...Scope,
      ...Period,
      interval: Schema.optionalKey(Interval),
      source: Schema.optionalKey(Schema.Literals(["app", "public"]))
    }),
    responses: {
      200: {
        description: "Series",
        schema: Schema.Struct({
          range: ReportRange,
          points: Schema.Array(Schema.Struct({ date: Schema.String, views: Schema.Number, viewers: Schema.Number }))
        }).annotate({ identifier: "WikiViewStats" })
      }
    },
    handler: ({ query }, context) =>
      Effect.gen(function* () {
        const scope = yield* reportScope(context, query)
        const range = yield* reportRange(query, query.interval ?? "day")
        return { range, points: yield* viewsSeries(scope, range, query.source ?? null).pipe(Effect.orDie) }
      })
  }),
  operation({
    operationId: "getWikiEditStats",
    method: "GET",
    path: "/v1/dashboard/edits",
    summary: "Edits over time",
    description: "Content changes, distinct editors and pages edited per day, week or month (zero-filled).",
    auth: "both",
    scopes: ["wiki:read"],
    query: Schema.Struct({ ...Scope, ...Period, interval: Schema.optionalKey(Interval) }),
    responses: {
      200: {
        description: "Series",
        schema: Schema.Struct({
          range: ReportRange,
          points: Schema.Array(
            Schema.Struct({ date: Schema.String, edits: Schema.Number, editors: Schema.Number, pagesEdited: Schema.Number })
          )
        }).annotate({ identifier: "WikiEditStats" })
      }
    },
    handler: ({ query }, context) =>
      Effect.gen(function* () {
        const scope = yield* reportScope(context, query)
        const range = yield* reportRange(query, query.interval ?? "day")
        return { range, points: yield* editsSeries(scope, range).pipe(Effect.orDie) }
      })
  }),
  operation({
    operationId: "listWikiActiveEditors",
    method: "GET",
    path: "/v1/dashboard/editors",
    summary: "The most active editors over a period",
    auth: "both",
    scopes: ["wiki:read"],
    query: Schema.Struct({ ...Scope, ...Period, limit: Schema.optionalKey(Limit(100)) }),
    responses: {
      200: {
        description: "Editors, most edits first",
        schema: Schema.Struct({
          range: ReportRange,
          items: Schema.Array(
            Schema.Struct({
              userId: Schema.String,
              name: Schema.String,
              edits: Schema.Number,
              pagesEdited: Schema.Number,
              lastEditAt: Schema.String
            })
          )
        }).annotate({ identifier: "WikiActiveEditors" })
      }
    },
    handler: ({ query }, context) =>
      Effect.gen(function* () {
        const scope = yield* reportScope(context, query)
        const range = yield* reportRange(query)
        const rows = yield* topEditors(scope, range, query.limit ?? 10).pipe(Effect.orDie)
        const users = yield* names(rows.map((row) => row.user_id))
        return {
          range,
          items: rows.map((row) => ({
            userId: row.user_id,
            name: users.get(row.user_id)?.name ?? "",
            edits: row.edits,
            pagesEdited: row.pages,
            lastEditAt: row.last_edit_at
          }))
        }
      })
  }),
  operation({
    operationId: "listWikiTopPages",
    method: "GET",
    path: "/v1/dashboard/top-pages",
    summary: "The most viewed (or most edited) pages over a period",
    auth: "both",
    scopes: ["wiki:read"],
    query: Schema.Struct({
      ...Scope,
      ...Period,
      metric: Schema.optionalKey(Schema.Literals(["views", "edits"])),
      limit: Schema.optionalKey(Limit(100))
    }),
    responses: {
      200: {
        description: "Pages, best first",
        schema: Schema.Struct({
          range: ReportRange,
          metric: Schema.Literals(["views", "edits"]),
          items: Schema.Array(Schema.Struct({ ...PageRef.fields, views: Schema.Number, viewers: Schema.Number, edits: Schema.Number }))
        }).annotate({ identifier: "WikiTopPages" })
      }
    },
    handler: ({ query }, context) =>
      Effect.gen(function* () {
        const scope = yield* reportScope(context, query)
        const range = yield* reportRange(query)
        const metric = query.metric ?? "views"
        const rows = yield* topPages(scope, range, metric, query.limit ?? 10, null).pipe(Effect.orDie)
        return {
          range,
          metric,
          items: rows.map((row) => ({ ...pageRefOf(row), views: row.views, viewers: row.viewers, edits: row.edits }))
        }
      })
  }),
  operation({
    operationId: "getWikiSpaceStats",
    method: "GET",
    path: "/v1/dashboard/spaces",
    summary: "Activity per space over a period: pages, new pages, views, edits, last update",
    auth: "both",
    scopes: ["wiki:read"],
    query: Schema.Struct({ ...Scope, ...Period }),
    responses: {
      200: {
        description: "Spaces, most viewed first",
        schema: Schema.Struct({
          range: ReportRange,
          items: Schema.Array(
            Schema.Struct({
              spaceId: Schema.String,
              key: Schema.String,
              name: Schema.String,
              icon: Schema.NullOr(Schema.String),
              pages: Schema.Number,
              pagesCreated: Schema.Number,
              views: Schema.Number,
              edits: Schema.Number,
              lastUpdatedAt: Schema.NullOr(Schema.String)
            })
          )
        }).annotate({ identifier: "WikiSpaceStats" })
      }
    },
    handler: ({ query }, context) =>
      Effect.gen(function* () {
        const scope = yield* reportScope(context, query)
        const range = yield* reportRange(query)
        const rows = yield* spaceActivity(scope, range).pipe(Effect.orDie)
        return {
          range,
          items: rows.map((row) => ({
            spaceId: row.id,
            key: row.key,
            name: row.name,
            icon: row.icon ?? null,
            pages: row.pages,
            pagesCreated: row.pages_created,
            views: row.views,
            edits: row.edits,
            lastUpdatedAt: row.last_updated_at ?? null
          }))
        }
      })
  }),
  operation({
    operationId: "getWikiContentGrowth",
    method: "GET",
    path: "/v1/dashboard/growth",
    summary: "Content growth: pages created per period and the running total",
    description: "Counts pages that still exist and are not archived.",
    auth: "both",
    scopes: ["wiki:read"],
    query: Schema.Struct({ ...Scope, ...Period, interval: Schema.optionalKey(Interval) }),
    responses: {
      200: {
        description: "Series",
        schema: Schema.Struct({
          range: ReportRange,
          points: Schema.Array(Schema.Struct({ date: Schema.String, created: Schema.Number, total: Schema.Number }))
        }).annotate({ identifier: "WikiContentGrowth" })
      }
    },
    handler: ({ query }, context) =>
      Effect.gen(function* () {
        const scope = yield* reportScope(context, query)
        const range = yield* reportRange(query, query.interval ?? "day")
        return { range, points: yield* contentGrowth(scope, range).pipe(Effect.orDie) }
      })
  }),
  operation({
    operationId: "listWikiStalePages",
    method: "GET",
    path: "/v1/dashboard/stale-pages",
    summary: "Pages nobody updated for a long time (content to review)",
    description: "Pages not updated for `olderThanDays` days (default 90), oldest first.",
    auth: "both",
    scopes: ["wiki:read"],
    query: Schema.Struct({
      ...Scope,
      olderThanDays: Schema.optionalKey(Schema.FiniteFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 0, maximum: 3650 }))),
      limit: Schema.optionalKey(Limit(100))
    }),
    responses: {
      200: {
        description: "Stale pages",
        schema: Schema.Struct({
          olderThanDays: Schema.Number,
          items: Schema.Array(
            Schema.Struct({
              ...PageRef.fields,
              updatedAt: Schema.String,
              updatedBy: Schema.Struct({ userId: Schema.String, name: Schema.String }),
              daysSinceUpdate: Schema.Number
            })
          )
        }).annotate({ identifier: "WikiStalePages" })
      }
    },
    handler: ({ query }, context) =>
      Effect.gen(function* () {
        const scope = yield* reportScope(context, query)
        const olderThanDays = query.olderThanDays ?? 90
        const rows = yield* stalePages(scope, olderThanDays, query.limit ?? 20).pipe(Effect.orDie)
        const users = yield* names(rows.map((row) => row.updated_by))
        return {
          olderThanDays,
          items: rows.map((row) => ({
            ...pageRefOf(row),
            updatedAt: row.updated_at,
            updatedBy: { userId: row.updated_by, name: users.get(row.updated_by)?.name ?? "" },
            daysSinceUpdate: row.days
          }))
        }
      })
  })
]
