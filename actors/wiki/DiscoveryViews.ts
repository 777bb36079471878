/**
 * Shared pieces of the wiki's discovery operations (search, export/import,
 * public wiki, dashboards, favorites, settings): query parameter schemas,
 * small DTOs several tags answer, date ranges, and example values.
 */
import { Effect, Schema } from "effect"
import { reject } from "../../runtime/Rejection.ts"

/** `?limit=` between 1 and `max`. */
export const Limit = (max = 100) =>
  Schema.FiniteFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: max })).annotate({
    description: `How many to return (1-${max})`
  })

export const Offset = Schema.FiniteFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 0, maximum: 10_000 })).annotate({
  description: "How many to skip (0-10000)"
})

/** An ISO-8601 date or date-time in a query string. */
export const DateParam = Schema.String.check(
  Schema.isPattern(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})?)?$/, {
    expected: "an ISO-8601 date or date-time, e.g. 2026-11-01 or 2026-11-01T00:00:00Z"
  }),
  Schema.makeFilter((value: string) => !Number.isNaN(Date.parse(value)) || "not a real date")
).annotate({ format: "date-time", examples: ["2026-11-01T00:00:00Z"] })

export const BooleanParam = Schema.Literals(["true", "false"]).annotate({ description: "true or false" })

export const Interval = Schema.Literals(["day", "week", "month"]).annotate({ description: "Bucket size of the time series (default day)" })
export type Interval = typeof Interval.Type

const DAY = 86_400_000
const MAX_BUCKETS = 400

/**
 * The `[from, to)` range of a report: `to` defaults to now, `from` to 30 days
 * before `to`. Refuses reversed ranges, and ranges with too many buckets.
 */
export const reportRange = (query: { readonly from?: string; readonly to?: string }, interval: Interval = "day") =>
  Effect.gen(function* () {
    const to = query.to !== undefined ? new Date(query.to) : new Date()
    const from = query.from !== undefined ? new Date(query.from) : new Date(to.getTime() - 30 * DAY)
    if (from.getTime() >= to.getTime()) {
      return yield* reject("invalid", "from must be before to", [{ path: "query.from", message: "must be before to" }])
    }
    const bucket = interval === "day" ? DAY : interval === "week" ? 7 * DAY : 28 * DAY
    if ((to.getTime() - from.getTime()) / bucket > MAX_BUCKETS) {
      return yield* reject("invalid", `The range spans more than ${MAX_BUCKETS} ${interval}s; use a larger interval or a shorter range`, [
        { path: "query.from", message: "range too long for the interval" }
      ])
    }
    return { from: from.toISOString(), to: to.toISOString(), interval }
  })

export const ReportRange = Schema.Struct({
  from: Schema.String,
  to: Schema.String,
  interval: Interval
}).annotate({ identifier: "WikiReportRange" })

export const PageRef = Schema.Struct({
  pageId: Schema.String,
  title: Schema.String,
  slug: Schema.String,
  icon: Schema.NullOr(Schema.String),
  spaceId: Schema.String,
  spaceKey: Schema.String,
  spaceName: Schema.String
}).annotate({ identifier: "WikiPageRef" })
export type PageRef = typeof PageRef.Type

export const pageRefOf = (row: Record<string, any>): PageRef => ({
  pageId: row.id,
  title: row.title,
  slug: row.slug,
  icon: row.icon ?? null,
  spaceId: row.space_id,
  spaceKey: row.space_key,
  spaceName: row.space_name
})

export const ex = {
  workspaceId: "0b9e4c1a-6f0e-4d5f-9a77-3f7c2f1e8a10",
  userId: "6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f",
  otherUserId: "7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d",
  spaceId: "5d0c3b2a-1f4e-4a6b-9c8d-7e6f5a4b3c2d",
  pageId: "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
  childPageId: "1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e",
  jobId: "3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f",
  searchId: "4d5e6f7a-8b9c-4d0e-9f1a-2b3c4d5e6f7a",
  at: "2026-11-21T12:00:00.000Z"
} as const

export const examplePageRef: PageRef = {
  pageId: ex.pageId,
  title: "Deployment runbook",
  slug: "deployment-runbook",
  icon: "🚀",
  spaceId: ex.spaceId,
  spaceKey: "ENG",
  spaceName: "Engineering"
}
