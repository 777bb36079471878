/**
 * Wiki full-text search over page titles and text: `wiki_pages.search_vector`
 * (generated from `title` and `content_text`, GIN-indexed; migration 015) is
 * the index. Keeping it current is keeping `content_text` current: REST
 * edits write it (the editing side), and text typed in the live editor is
 * written here, by a `LiveDocuments.onChange` listener (`searchIndexing`),
 * about a second after the keystrokes.
 */
import { Effect, Layer } from "effect"
import { type DocumentContent, LiveDocuments } from "../LiveDocuments.ts"
import { query, type Sql } from "../../persistence/Sql.ts"
import { userRefJson } from "../identity/IdentityQueries.ts"
import { recordEdit } from "./PageActivity.ts"
import { highlightHtml, type ParsedQuery, SNIPPET_OPTIONS, TITLE_OPTIONS } from "./SearchQuery.ts"
import { type Reader, visibleAmong } from "./VisiblePages.ts"

export interface SearchFilters {
  readonly spaceId?: string | undefined
  readonly authorId?: string | undefined
  readonly updatedAfter?: string | undefined
  readonly updatedBefore?: string | undefined
}

export interface SearchHit {
  readonly pageId: string
  readonly title: string
  readonly titleHighlight: string
  readonly snippet: string
  readonly slug: string
  readonly icon: string | null
  readonly spaceId: string
  readonly spaceKey: string
  readonly spaceName: string
  readonly authorId: string
  readonly updatedAt: string
  readonly rank: number
}

/** Which pages a search may return: those a reader may see, or an explicit set (a public wiki's pages). */
export type SearchScope =
  | { readonly _tag: "reader"; readonly reader: Reader }
  | { readonly _tag: "pages"; readonly pageIds: ReadonlyArray<string> }

/** `WITH RECURSIVE … candidates AS (…)`: the scope's pages matching the query and filters, params from `$first`. */
const candidates = (scope: SearchScope, parsed: ParsedQuery, filters: SearchFilters) => {
  const params: Array<unknown> = [
    parsed.tsquery,
    filters.spaceId ?? null,
    filters.authorId ?? null,
    filters.updatedAfter ?? null,
    filters.updatedBefore ?? null
  ]
  const where = `p.search_vector @@ to_tsquery('simple', $1)
      AND ($2::text IS NULL OR p.space_id = $2) AND ($3::text IS NULL OR p.created_by = $3)
      AND ($4::timestamptz IS NULL OR p.updated_at >= $4) AND ($5::timestamptz IS NULL OR p.updated_at < $5)`
  if (scope._tag === "reader") {
    // The index finds the workspace's hits; only their ancestors are checked for visibility.
    const visible = visibleAmong(scope.reader, params.length + 1, "matches")
    params.push(...visible.params)
    return {
      sql: `WITH RECURSIVE matches AS (SELECT p.* FROM wiki_pages p WHERE p.workspace_id = $${params.length - 3} AND ${where}),
        ${visible.ctes}, candidates AS (SELECT * FROM visible_matches)`,
      params
    }
  }
  params.push(scope.pageIds)
  return {
    sql: `WITH candidates AS (SELECT p.* FROM wiki_pages p WHERE p.id = ANY($${params.length}::text[]) AND ${where})`,
    params
  }
}

/** Ranked hits (title matches weigh more than body matches) with highlighted title and snippet, and the total. */
export const searchPages = (scope: SearchScope, parsed: ParsedQuery, filters: SearchFilters, page: { limit: number; offset: number }) =>
  Effect.gen(function* () {
    const base = candidates(scope, parsed, filters)
    const n = base.params.length
    const rows = yield* query<Record<string, any>>(
      `${base.sql},
       ranked AS (
         SELECT c.id, c.title, c.content_text, c.slug, c.icon, c.space_id, c.created_by, c.updated_at,
                ts_rank(c.search_vector, to_tsquery('simple', $1), 1) AS rank, count(*) OVER () AS total
           FROM candidates c
          ORDER BY rank DESC, c.updated_at DESC, c.id
          LIMIT $${n + 1} OFFSET $${n + 2}
       )
       SELECT r.id, r.title, r.slug, r.icon, r.space_id, r.created_by, r.updated_at, r.rank, r.total,
              s.key AS space_key, s.name AS space_name,
              ts_headline('simple', left(r.content_text, 100000), to_tsquery('simple', $1), $${n + 3}) AS snippet,
              ts_headline('simple', r.title, to_tsquery('simple', $1), $${n + 4}) AS title_highlight
         FROM ranked r JOIN wiki_spaces s ON s.id = r.space_id
        ORDER BY r.rank DESC, r.updated_at DESC, r.id`,
      [...base.params, page.limit, page.offset, SNIPPET_OPTIONS, TITLE_OPTIONS]
    )
    const total =
      rows[0] !== undefined
        ? Number(rows[0].total)
        : page.offset === 0
          ? 0
          : Number((yield* query<{ total: number }>(`${base.sql} SELECT count(*) AS total FROM candidates`, base.params))[0]!.total)
    const results: Array<SearchHit> = rows.map((row) => ({
      pageId: row.id,
      title: row.title,
      titleHighlight: highlightHtml(row.title_highlight),
      snippet: highlightHtml(row.snippet),
      slug: row.slug,
      icon: row.icon ?? null,
      spaceId: row.space_id,
      spaceKey: row.space_key,
      spaceName: row.space_name,
      authorId: row.created_by,
      updatedAt: row.updated_at,
      rank: Math.round(Number(row.rank) * 10000) / 10000
    }))
    return { total, results }
  })

/** How the hits of a search spread over spaces, authors and update age (for filter menus): one statement. */
export const searchFacets = (reader: Reader, parsed: ParsedQuery, filters: SearchFilters) =>
  Effect.gen(function* () {
    const base = candidates({ _tag: "reader", reader }, parsed, filters)
    const [facets] = yield* query<{
      total: number
      day: number
      week: number
      month: number
      year: number
      spaces: Array<{ id: string; key: string; name: string; count: number }>
      authors: Array<{ userId: string; name: string; count: number }>
    }>(
      `${base.sql}
       SELECT count(*)::int AS total,
              count(*) FILTER (WHERE c.updated_at >= now() - interval '1 day')::int AS day,
              count(*) FILTER (WHERE c.updated_at >= now() - interval '7 days')::int AS week,
              count(*) FILTER (WHERE c.updated_at >= now() - interval '30 days')::int AS month,
              count(*) FILTER (WHERE c.updated_at >= now() - interval '365 days')::int AS year,
              COALESCE((SELECT json_agg(x ORDER BY x.count DESC, x.name)
                          FROM (SELECT s.id, s.key, s.name, count(*)::int AS count
                                  FROM candidates c JOIN wiki_spaces s ON s.id = c.space_id GROUP BY s.id, s.key, s.name) x), '[]') AS spaces,
              COALESCE((SELECT json_agg(json_build_object('userId', x.created_by, 'name', COALESCE(${userRefJson("x.created_by")}->>'name', ''), 'count', x.count)
                                        ORDER BY x.count DESC, x.created_by)
                          FROM (SELECT c.created_by, count(*)::int AS count FROM candidates c GROUP BY c.created_by) x), '[]') AS authors
         FROM candidates c`,
      base.params
    )
    return {
      total: facets!.total,
      spaces: facets!.spaces,
      authors: facets!.authors,
      updated: { lastDay: facets!.day, lastWeek: facets!.week, lastMonth: facets!.month, lastYear: facets!.year }
    }
  })

/** Pages whose title matches (prefix words), best first: the quick switcher and link picker. */
export const searchTitles = (reader: Reader, parsed: ParsedQuery, raw: string, spaceId: string | undefined, limit: number) =>
  Effect.gen(function* () {
    const visible = visibleAmong(reader, 5, "matches")
    return yield* query<Record<string, any>>(
      `WITH RECURSIVE matches AS (
         SELECT p.* FROM wiki_pages p
          WHERE p.workspace_id = $5 AND p.search_vector @@ to_tsquery('simple', $1) AND ($2::text IS NULL OR p.space_id = $2)
       ), ${visible.ctes}
       SELECT p.id, p.title, p.slug, p.icon, p.parent_id, p.space_id, p.updated_at, s.key AS space_key, s.name AS space_name,
              (SELECT parent.title FROM wiki_pages parent WHERE parent.id = p.parent_id) AS parent_title
         FROM visible_matches p JOIN wiki_spaces s ON s.id = p.space_id
        ORDER BY (lower(p.title) = lower($3)) DESC, (lower(p.title) LIKE lower($3) || '%') DESC, length(p.title), p.updated_at DESC, p.id
        LIMIT $4`,
      [parsed.tsquery, spaceId ?? null, raw.trim(), limit, ...visible.params]
    )
  })

/**
 * Writes the document's text into its page's `content_text` when it is a wiki
 * page and the text changed — with the same statement as the page actor's
 * `documentChanged` (bumps `updated_at`, names the first editor), so whichever
 * of the two runs first, the row ends the same — and counts an edit for
 * whoever has the document open (else the page's last REST writer).
 */
export const indexDocument = (name: string, content: Pick<DocumentContent, "text">, editors: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const pages = yield* query<{ updated_by: string; changed: boolean }>(
      `WITH current AS (SELECT id, updated_by, content_text IS DISTINCT FROM $2 AS changed FROM wiki_pages WHERE id = $1),
            written AS (UPDATE wiki_pages p SET content_text = $2, updated_at = now(), updated_by = COALESCE($3, p.updated_by)
                          FROM current WHERE p.id = current.id AND current.changed RETURNING p.id)
       SELECT current.updated_by, current.changed FROM current`,
      [name, content.text, editors[0] ?? null]
    )
    const page = pages[0]
    if (page === undefined) return false
    yield* recordEdit(name, editors.length > 0 ? editors : [page.updated_by])
    return page.changed
  })

const indexed = new WeakSet<object>()

/**
 * Registers the search indexer with LiveDocuments (run once at startup: the
 * wiki extension's layer). A failure to index one change is logged; the next
 * change of that document writes the text again.
 */
export const searchIndexing: Layer.Layer<never, never, LiveDocuments | Sql> = Layer.effectDiscard(
  Effect.gen(function* () {
    const live = yield* LiveDocuments
    // Once per LiveDocuments, however often the layer is built.
    if (indexed.has(live)) return
    indexed.add(live)
    const context = yield* Effect.context<Sql>()
    yield* live.onChange((name, content) =>
      Effect.gen(function* () {
        const editors = yield* live.editors(name)
        yield* indexDocument(
          name,
          content,
          editors.map((editor) => editor.userId)
        )
      }).pipe(
        Effect.provideContext(context),
        Effect.catchCause((cause) => Effect.logWarning(`wiki search: could not index document ${name}`, cause))
      )
    )
  })
)

/**
 * Re-reads the live document of every page of the workspace (or one space)
 * and rewrites `content_text` where it drifted (pages written before the
 * indexer ran, or changes lost to a crash). Returns how many were checked and fixed.
 */
export const reindexPages = (workspaceId: string, spaceId: string | undefined) =>
  Effect.gen(function* () {
    const live = yield* LiveDocuments
    const pages = yield* query<{ id: string }>(
      "SELECT id FROM wiki_pages WHERE workspace_id = $1 AND ($2::text IS NULL OR space_id = $2) ORDER BY id",
      [workspaceId, spaceId ?? null]
    )
    let changed = 0
    yield* Effect.forEach(
      pages,
      (page) =>
        Effect.gen(function* () {
          const snapshot = yield* live.snapshot(page.id)
          const rows = yield* query(
            "UPDATE wiki_pages SET content_text = $2 WHERE id = $1 AND content_text IS DISTINCT FROM $2 RETURNING id",
            [page.id, snapshot.text]
          )
          changed += rows.length
        }),
      { concurrency: 4, discard: true }
    )
    return { checked: pages.length, updated: changed }
  })
