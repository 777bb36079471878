/**
 * Reports over page activity (views, edits) and content (pages created,
 * stale pages): the wiki dashboard for a workspace member — counting only
 * pages they may read — and the analytics of a public wiki for its admins.
 * Time series are zero-filled buckets (day, ISO week from Monday, or month)
 * over `[from, to)`, in UTC.
 */
import { Effect } from "effect"
import { query } from "../../persistence/Sql.ts"
import type { Interval } from "./DiscoveryViews.ts"
import { type Reader, visibleTo } from "./VisiblePages.ts"

export interface Range {
  readonly from: string
  readonly to: string
  readonly interval: Interval
}

/** Whose pages a report counts: what a reader may see (optionally one space), or all pages of one space. */
export type ReportScope =
  | { readonly _tag: "reader"; readonly reader: Reader; readonly spaceId?: string | undefined }
  | { readonly _tag: "space"; readonly spaceId: string }

/** `WITH RECURSIVE … scoped_pages AS (…)` (pages, archived ones included unless `activeOnly`), params from `$first`. */
const scoped = (scope: ReportScope, first: number, activeOnly = false) => {
  if (scope._tag === "space") {
    return {
      ctes: `WITH RECURSIVE scoped_pages AS (SELECT * FROM wiki_pages WHERE space_id = $${first}${activeOnly ? " AND archived_at IS NULL" : ""}),
             scoped_spaces AS (SELECT * FROM wiki_spaces WHERE id = $${first})`,
      params: [scope.spaceId] as Array<unknown>
    }
  }
  // Readers never count what they may not see (visible_pages already leaves archived pages out).
  const visible = visibleTo(scope.reader, first + 1)
  return {
    ctes: `WITH RECURSIVE ${visible.ctes},
           scoped_spaces AS (SELECT * FROM visible_spaces WHERE $${first}::text IS NULL OR id = $${first}),
           scoped_pages AS (SELECT * FROM visible_pages WHERE space_id IN (SELECT id FROM scoped_spaces))`,
    params: [scope.spaceId ?? null, ...visible.params] as Array<unknown>
  }
}

const buckets = (from: number, to: number, unit: number) =>
  `buckets AS (
     SELECT b AS bucket FROM generate_series(date_trunc($${unit}, $${from}::timestamptz), $${to}::timestamptz - interval '1 millisecond', ('1 ' || $${unit})::interval) b
   )`

const dateOf = (bucket: string) => bucket.slice(0, 10)

export const summary = (scope: ReportScope, range: Range) =>
  Effect.gen(function* () {
    const s = scoped(scope, 3)
    const [row] = yield* query<Record<string, number>>(
      `${s.ctes}
       SELECT (SELECT count(*) FROM scoped_spaces)::int AS spaces,
              (SELECT count(*) FROM scoped_pages)::int AS pages,
              (SELECT count(*) FROM scoped_pages WHERE created_at >= $1 AND created_at < $2)::int AS pages_created,
              (SELECT count(*) FROM scoped_pages WHERE updated_at >= $1 AND updated_at < $2)::int AS pages_updated,
              (SELECT count(*) FROM wiki_page_views v JOIN scoped_pages p ON p.id = v.page_id WHERE v.viewed_at >= $1 AND v.viewed_at < $2)::int AS views,
              (SELECT count(*) FROM wiki_page_views v JOIN scoped_pages p ON p.id = v.page_id WHERE v.viewed_at >= $1 AND v.viewed_at < $2 AND v.source = 'public')::int AS public_views,
              (SELECT count(DISTINCT v.user_id) FROM wiki_page_views v JOIN scoped_pages p ON p.id = v.page_id WHERE v.viewed_at >= $1 AND v.viewed_at < $2 AND v.user_id IS NOT NULL)::int AS viewers,
              (SELECT coalesce(sum(e.changes), 0) FROM wiki_page_edits e JOIN scoped_pages p ON p.id = e.page_id WHERE e.minute >= $1 AND e.minute < $2)::int AS edits,
              (SELECT count(DISTINCT e.user_id) FROM wiki_page_edits e JOIN scoped_pages p ON p.id = e.page_id WHERE e.minute >= $1 AND e.minute < $2 AND e.user_id <> '')::int AS editors`,
      [range.from, range.to, ...s.params]
    )
    return {
      spaces: row!.spaces!,
      pages: row!.pages!,
      pagesCreated: row!.pages_created!,
      pagesUpdated: row!.pages_updated!,
      views: row!.views!,
      publicViews: row!.public_views!,
      uniqueViewers: row!.viewers!,
      edits: row!.edits!,
      activeEditors: row!.editors!
    }
  })

/** Views per bucket; `source` narrows to app or public views. Viewers: distinct users (app) or visitor ids (public). */
export const viewsSeries = (scope: ReportScope, range: Range, source: "app" | "public" | null) =>
  Effect.gen(function* () {
    const s = scoped(scope, 5)
    const rows = yield* query<{ bucket: string; views: number; viewers: number }>(
      `${s.ctes}, ${buckets(1, 2, 3)}
       SELECT b.bucket, count(v.id)::int AS views, count(DISTINCT coalesce(v.user_id, v.visitor_id))::int AS viewers
         FROM buckets b
         LEFT JOIN (SELECT v.* FROM wiki_page_views v JOIN scoped_pages p ON p.id = v.page_id
                     WHERE v.viewed_at >= $1 AND v.viewed_at < $2 AND ($4::text IS NULL OR v.source = $4)) v
           ON date_trunc($3, v.viewed_at) = b.bucket
        GROUP BY b.bucket ORDER BY b.bucket`,
      [range.from, range.to, range.interval, source, ...s.params]
    )
    return rows.map((row) => ({ date: dateOf(row.bucket), views: row.views, viewers: row.viewers }))
  })

export const editsSeries = (scope: ReportScope, range: Range) =>
  Effect.gen(function* () {
    const s = scoped(scope, 4)
    const rows = yield* query<{ bucket: string; edits: number; editors: number; pages: number }>(
      `${s.ctes}, ${buckets(1, 2, 3)}
       SELECT b.bucket, coalesce(sum(e.changes), 0)::int AS edits,
              count(DISTINCT nullif(e.user_id, ''))::int AS editors, count(DISTINCT e.page_id)::int AS pages
         FROM buckets b
         LEFT JOIN (SELECT e.* FROM wiki_page_edits e JOIN scoped_pages p ON p.id = e.page_id
                     WHERE e.minute >= $1 AND e.minute < $2) e
           ON date_trunc($3, e.minute) = b.bucket
        GROUP BY b.bucket ORDER BY b.bucket`,
      [range.from, range.to, range.interval, ...s.params]
    )
    return rows.map((row) => ({ date: dateOf(row.bucket), edits: row.edits, editors: row.editors, pagesEdited: row.pages }))
  })

export const topEditors = (scope: ReportScope, range: Range, limit: number) =>
  Effect.gen(function* () {
    const s = scoped(scope, 4)
    return yield* query<{ user_id: string; edits: number; pages: number; last_edit_at: string }>(
      `${s.ctes}
       SELECT e.user_id, sum(e.changes)::int AS edits, count(DISTINCT e.page_id)::int AS pages, max(e.minute) AS last_edit_at
         FROM wiki_page_edits e JOIN scoped_pages p ON p.id = e.page_id
        WHERE e.minute >= $1 AND e.minute < $2 AND e.user_id <> ''
        GROUP BY e.user_id ORDER BY edits DESC, last_edit_at DESC, e.user_id LIMIT $3`,
      [range.from, range.to, limit, ...s.params]
    )
  })

export const topPages = (scope: ReportScope, range: Range, metric: "views" | "edits", limit: number, source: "app" | "public" | null) =>
  Effect.gen(function* () {
    const s = scoped(scope, 5)
    return yield* query<Record<string, any>>(
      `${s.ctes},
       page_views AS (SELECT v.page_id, count(*)::int AS views, count(DISTINCT coalesce(v.user_id, v.visitor_id))::int AS viewers
                        FROM wiki_page_views v WHERE v.viewed_at >= $1 AND v.viewed_at < $2 AND ($4::text IS NULL OR v.source = $4) GROUP BY v.page_id),
       page_edits AS (SELECT e.page_id, sum(e.changes)::int AS edits FROM wiki_page_edits e WHERE e.minute >= $1 AND e.minute < $2 GROUP BY e.page_id)
       SELECT p.id, p.title, p.slug, p.icon, p.space_id, s.key AS space_key, s.name AS space_name,
              coalesce(pv.views, 0) AS views, coalesce(pv.viewers, 0) AS viewers, coalesce(pe.edits, 0) AS edits
         FROM scoped_pages p JOIN wiki_spaces s ON s.id = p.space_id
         LEFT JOIN page_views pv ON pv.page_id = p.id LEFT JOIN page_edits pe ON pe.page_id = p.id
        WHERE ${metric === "views" ? "pv.views > 0" : "pe.edits > 0"}
        ORDER BY ${metric === "views" ? "pv.views DESC, pv.viewers DESC" : "pe.edits DESC"}, p.title, p.id
        LIMIT $3`,
      [range.from, range.to, limit, source, ...s.params]
    )
  })

export const spaceActivity = (scope: ReportScope, range: Range) =>
  Effect.gen(function* () {
    const s = scoped(scope, 3)
    return yield* query<Record<string, any>>(
      `${s.ctes}
       SELECT s.id, s.key, s.name, s.icon,
              (SELECT count(*) FROM scoped_pages p WHERE p.space_id = s.id)::int AS pages,
              (SELECT count(*) FROM scoped_pages p WHERE p.space_id = s.id AND p.created_at >= $1 AND p.created_at < $2)::int AS pages_created,
              (SELECT count(*) FROM wiki_page_views v JOIN scoped_pages p ON p.id = v.page_id
                WHERE p.space_id = s.id AND v.viewed_at >= $1 AND v.viewed_at < $2)::int AS views,
              (SELECT coalesce(sum(e.changes), 0) FROM wiki_page_edits e JOIN scoped_pages p ON p.id = e.page_id
                WHERE p.space_id = s.id AND e.minute >= $1 AND e.minute < $2)::int AS edits,
              (SELECT max(p.updated_at) FROM scoped_pages p WHERE p.space_id = s.id) AS last_updated_at
         FROM scoped_spaces s
        ORDER BY views DESC, edits DESC, lower(s.name), s.id`,
      [range.from, range.to, ...s.params]
    )
  })

/** Pages created per bucket, and how many existed at the end of each (of those still there and visible). */
export const contentGrowth = (scope: ReportScope, range: Range) =>
  Effect.gen(function* () {
    const s = scoped(scope, 4)
    const rows = yield* query<{ bucket: string; created: number; total: number }>(
      `${s.ctes}, ${buckets(1, 2, 3)}
       SELECT b.bucket,
              (SELECT count(*) FROM scoped_pages p WHERE date_trunc($3, p.created_at) = b.bucket AND p.created_at >= $1 AND p.created_at < $2)::int AS created,
              (SELECT count(*) FROM scoped_pages p WHERE p.created_at < least(b.bucket + ('1 ' || $3)::interval, $2::timestamptz))::int AS total
         FROM buckets b ORDER BY b.bucket`,
      [range.from, range.to, range.interval, ...s.params]
    )
    return rows.map((row) => ({ date: dateOf(row.bucket), created: row.created, total: row.total }))
  })

export const stalePages = (scope: ReportScope, olderThanDays: number, limit: number) =>
  Effect.gen(function* () {
    const s = scoped(scope, 3)
    return yield* query<Record<string, any>>(
      `${s.ctes}
       SELECT p.id, p.title, p.slug, p.icon, p.space_id, s.key AS space_key, s.name AS space_name, p.updated_at, p.updated_by,
              floor(extract(epoch FROM now() - p.updated_at) / 86400)::int AS days
         FROM scoped_pages p JOIN wiki_spaces s ON s.id = p.space_id
        WHERE p.updated_at < now() - make_interval(days => $1)
        ORDER BY p.updated_at, p.id LIMIT $2`,
      [olderThanDays, limit, ...s.params]
    )
  })

/** What visitors searched for on a public wiki: per query, how often, how many results on average, how often none. */
export const publicSearchTerms = (spaceId: string, range: Range, limit: number) =>
  query<{ query: string; searches: number; zero_results: number; average_results: number; last_searched_at: string }>(
    `SELECT query, count(*)::int AS searches, count(*) FILTER (WHERE result_count = 0)::int AS zero_results,
            round(avg(result_count), 1)::float8 AS average_results, max(searched_at) AS last_searched_at
       FROM wiki_public_searches
      WHERE space_id = $1 AND searched_at >= $2 AND searched_at < $3
      GROUP BY query ORDER BY searches DESC, last_searched_at DESC, query LIMIT $4`,
    [spaceId, range.from, range.to, limit]
  )

/** Unique visitors of a public wiki: distinct visitor ids, plus views that gave none (counted once each). */
export const publicVisitors = (spaceId: string, range: Range) =>
  Effect.map(
    query<{ views: number; visitors: number; anonymous: number }>(
      `SELECT count(*)::int AS views, count(DISTINCT visitor_id)::int AS visitors, count(*) FILTER (WHERE visitor_id IS NULL)::int AS anonymous
         FROM wiki_page_views WHERE space_id = $1 AND source = 'public' AND viewed_at >= $2 AND viewed_at < $3`,
      [spaceId, range.from, range.to]
    ),
    (rows) => rows[0]!
  )

/**
 * Records a visitor's search of a public wiki for its analytics (normalized:
 * trimmed, lower case, at most 200 characters). An append to a log that only
 * these reports read, not any actor's state.
 */
export const recordPublicSearch = (spaceId: string, text: string, resultCount: number) =>
  query("INSERT INTO wiki_public_searches (id, space_id, query, result_count) VALUES ($1, $2, $3, $4)", [
    crypto.randomUUID(),
    spaceId,
    text.trim().toLowerCase().slice(0, 200),
    resultCount
  ])
