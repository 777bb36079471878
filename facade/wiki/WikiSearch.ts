/**
 * wiki tag "Wiki Search" (7): full-text search over page titles and content
 * (ranked, highlighted snippets, filters by space, author and update date,
 * only pages the caller may read), the title quick-find, result facets, the
 * caller's recent searches, and rebuilding the index from the live documents.
 */
import { Effect, Schema } from "effect"
import { Id } from "../../actors/Fields.ts"
import { DateParam, Limit, Offset } from "../../actors/wiki/DiscoveryViews.ts"
import { type SearchFilters, reindexPages, searchFacets, searchPages, searchTitles } from "../../actors/wiki/SearchIndex.ts"
import { parseSearchQuery } from "../../actors/wiki/SearchQuery.ts"
import { readerOf } from "../../actors/wiki/VisiblePages.ts"
import { callerOf, spaceAccess } from "../../actors/wiki/WikiAccess.ts"
import { recentSearchesOf, recentSearchWorkspace, WikiMember } from "../../actors/wiki/WikiMember.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { reject } from "../../runtime/Rejection.ts"
import { principalOf } from "../Access.ts"
import { type RequestContext, tagGroup } from "../Operation.ts"
import { wikiSearchExamples } from "./WikiSearch.examples.ts"

const callerFrom = (context: RequestContext) => Effect.map(principalOf(context), callerOf)

const QueryText = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200)).annotate({
  description: 'What to search for: words (matched as prefixes), "exact phrases", -excluded words, OR between alternatives'
})

const Filters = {
  spaceId: Schema.optionalKey(Id.annotate({ description: "Only pages of this space" })),
  authorId: Schema.optionalKey(Id.annotate({ description: "Only pages created by this user" })),
  updatedAfter: Schema.optionalKey(DateParam.annotate({ description: "Only pages updated at or after this time" })),
  updatedBefore: Schema.optionalKey(DateParam.annotate({ description: "Only pages updated before this time" }))
}

const SearchResult = Schema.Struct({
  pageId: Schema.String,
  title: Schema.String,
  snippet: Schema.String.annotate({ description: "Text around the best matches, HTML-escaped, matches wrapped in <mark>" }),
  titleHighlight: Schema.String.annotate({ description: "The title, HTML-escaped, matches wrapped in <mark>" }),
  slug: Schema.String,
  icon: Schema.NullOr(Schema.String),
  spaceId: Schema.String,
  spaceKey: Schema.String,
  spaceName: Schema.String,
  authorId: Schema.String,
  updatedAt: Schema.String,
  rank: Schema.Number.annotate({ description: "Relevance (higher is better); title matches weigh more than body matches" })
}).annotate({ identifier: "WikiSearchResult" })

const SearchResults = Schema.Struct({
  query: Schema.String,
  total: Schema.Number,
  results: Schema.Array(SearchResult)
}).annotate({ identifier: "WikiSearchResults" })

const RecentSearch = Schema.Struct({
  id: Schema.String,
  query: Schema.String,
  filters: Schema.Record(Schema.String, Schema.String),
  resultCount: Schema.Number,
  searchedAt: Schema.String
}).annotate({ identifier: "WikiRecentSearch" })

const parsedOrReject = (text: string, weight: "" | "A" = "") => {
  const parsed = parseSearchQuery(text, weight)
  return parsed === undefined
    ? Effect.fail(
        reject("invalid", "The query has no word to search for", [
          { path: "query.q", message: "needs at least one word (letters or digits) that is not excluded" }
        ])
      )
    : Effect.succeed(parsed)
}

/** The space filter must name a space the caller can see (404 otherwise, like any hidden id). */
const checkSpaceFilter = (caller: ReturnType<typeof callerOf>, workspaceId: string, spaceId: string | undefined) =>
  spaceId === undefined
    ? Effect.void
    : Effect.flatMap(spaceAccess(caller, spaceId), (access) =>
        access.space.workspaceId === workspaceId ? Effect.void : Effect.fail(reject("not_found", "No such space"))
      )

/** The filters a search used, as remembered with it. */
const filtersOf = (query: SearchFilters): Record<string, string> => {
  const filters: Record<string, string> = {}
  for (const key of ["spaceId", "authorId", "updatedAfter", "updatedBefore"] as const) {
    const value = query[key]
    if (value !== undefined) filters[key] = value
  }
  return filters
}

const { operation } = tagGroup("wiki", "Wiki Search", wikiSearchExamples)

export const wikiSearchOperations = [
  operation({
    operationId: "searchWiki",
    mcp: { tool: "searchWiki" },
    method: "GET",
    path: "/v1/search",
    summary: "Search pages by title and content",
    description:
      "Full-text search over the titles and text of the pages the caller may read (archived pages, restricted pages and spaces the caller cannot see never appear). " +
      'Words match as prefixes (deploy finds deployment), "quoted phrases" match in order, -word excludes, OR offers alternatives. ' +
      "Results are ranked (title matches first) with highlighted snippets. Text typed in the live editor is searchable within seconds. " +
      "A signed-in user's searches are remembered as recent searches unless their settings say otherwise.",
    auth: "both",
    scopes: ["wiki:read"],
    query: Schema.Struct({
      workspaceId: Id,
      q: QueryText,
      ...Filters,
      limit: Schema.optionalKey(Limit(50)),
      offset: Schema.optionalKey(Offset)
    }),
    responses: { 200: { description: "Ranked results", schema: SearchResults } },
    handler: ({ query: q }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        const reader = yield* readerOf(caller, q.workspaceId)
        const parsed = yield* parsedOrReject(q.q)
        yield* checkSpaceFilter(caller, q.workspaceId, q.spaceId)
        const found = yield* searchPages({ _tag: "reader", reader }, parsed, q, { limit: q.limit ?? 20, offset: q.offset ?? 0 }).pipe(
          Effect.orDie
        )
        if (context.principal?.kind === "user" && (q.offset ?? 0) === 0) {
          // Remembering the search is a convenience: a failure must not fail the search.
          yield* (yield* ActorSystem)
            .ask(WikiMember, caller.userId, "recordSearch", {
              workspaceId: q.workspaceId,
              query: q.q.trim(),
              filters: filtersOf(q),
              resultCount: found.total
            })
            .pipe(Effect.catchCause((cause) => Effect.logWarning("wiki search: could not remember the search", cause)))
        }
        return { query: q.q, total: found.total, results: found.results }
      })
  }),
  operation({
    operationId: "searchWikiTitles",
    method: "GET",
    path: "/v1/search/titles",
    summary: "Find pages by title as you type (quick switcher, link picker)",
    description: "Matches title words by prefix; exact and leading matches first, then shorter titles. Only pages the caller may read.",
    auth: "both",
    scopes: ["wiki:read"],
    query: Schema.Struct({ workspaceId: Id, q: QueryText, spaceId: Filters.spaceId, limit: Schema.optionalKey(Limit(50)) }),
    responses: {
      200: {
        description: "Matching pages",
        schema: Schema.Struct({
          items: Schema.Array(
            Schema.Struct({
              pageId: Schema.String,
              title: Schema.String,
              slug: Schema.String,
              icon: Schema.NullOr(Schema.String),
              spaceId: Schema.String,
              spaceKey: Schema.String,
              spaceName: Schema.String,
              parentTitle: Schema.NullOr(Schema.String)
            })
          )
        }).annotate({ identifier: "WikiTitleMatches" })
      }
    },
    handler: ({ query: q }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        const reader = yield* readerOf(caller, q.workspaceId)
        const parsed = yield* parsedOrReject(q.q, "A")
        yield* checkSpaceFilter(caller, q.workspaceId, q.spaceId)
        const rows = yield* searchTitles(reader, parsed, q.q, q.spaceId, q.limit ?? 10).pipe(Effect.orDie)
        return {
          items: rows.map((row) => ({
            pageId: row.id,
            title: row.title,
            slug: row.slug,
            icon: row.icon ?? null,
            spaceId: row.space_id,
            spaceKey: row.space_key,
            spaceName: row.space_name,
            parentTitle: row.parent_title ?? null
          }))
        }
      })
  }),
  operation({
    operationId: "getWikiSearchFacets",
    method: "GET",
    path: "/v1/search/facets",
    summary: "How a search's results spread over spaces, authors and update age",
    description:
      "For filter menus beside the results: counts per space, per author, and by how recently pages were updated, for the same query and filters as searchWiki.",
    auth: "both",
    scopes: ["wiki:read"],
    query: Schema.Struct({ workspaceId: Id, q: QueryText, ...Filters }),
    responses: {
      200: {
        description: "Facet counts",
        schema: Schema.Struct({
          total: Schema.Number,
          spaces: Schema.Array(Schema.Struct({ spaceId: Schema.String, key: Schema.String, name: Schema.String, count: Schema.Number })),
          authors: Schema.Array(Schema.Struct({ userId: Schema.String, name: Schema.String, count: Schema.Number })),
          updated: Schema.Struct({ lastDay: Schema.Number, lastWeek: Schema.Number, lastMonth: Schema.Number, lastYear: Schema.Number })
        }).annotate({ identifier: "WikiSearchFacets" })
      }
    },
    handler: ({ query: q }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        const reader = yield* readerOf(caller, q.workspaceId)
        const parsed = yield* parsedOrReject(q.q)
        yield* checkSpaceFilter(caller, q.workspaceId, q.spaceId)
        const facets = yield* searchFacets(reader, parsed, q).pipe(Effect.orDie)
        return { ...facets, spaces: facets.spaces.map((s) => ({ spaceId: s.id, key: s.key, name: s.name, count: s.count })) }
      })
  }),
  operation({
    operationId: "listRecentWikiSearches",
    method: "GET",
    path: "/v1/search/recent",
    summary: "The caller's recent searches in a workspace",
    description: "Newest first, at most 20, each with the filters it used and how many results it had.",
    auth: "both",
    scopes: ["wiki:read"],
    query: Schema.Struct({ workspaceId: Id, limit: Schema.optionalKey(Limit(20)) }),
    responses: {
      200: {
        description: "Recent searches",
        schema: Schema.Struct({ items: Schema.Array(RecentSearch) }).annotate({ identifier: "WikiRecentSearches" })
      }
    },
    handler: ({ query: q }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        yield* readerOf(caller, q.workspaceId)
        return { items: yield* recentSearchesOf(caller.userId, q.workspaceId, q.limit ?? 20).pipe(Effect.orDie) }
      })
  }),
  operation({
    operationId: "deleteRecentWikiSearch",
    method: "DELETE",
    path: "/v1/search/recent/{searchId}",
    summary: "Forget one of the caller's recent searches",
    auth: "both",
    scopes: ["wiki:write"],
    params: Schema.Struct({ searchId: Id }),
    responses: { 204: { description: "Forgotten" }, 404: { description: "No such recent search of the caller" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        const workspaceId = yield* recentSearchWorkspace(caller.userId, params.searchId).pipe(Effect.orDie)
        if (workspaceId === undefined) return yield* reject("not_found", "No such recent search")
        yield* readerOf(caller, workspaceId)
        yield* (yield* ActorSystem).ask(WikiMember, caller.userId, "deleteSearch", { searchId: params.searchId })
      })
  }),
  operation({
    operationId: "clearRecentWikiSearches",
    method: "DELETE",
    path: "/v1/search/recent",
    summary: "Forget all of the caller's recent searches in a workspace",
    auth: "both",
    scopes: ["wiki:write"],
    query: Schema.Struct({ workspaceId: Id }),
    responses: { 200: { description: "How many were forgotten", schema: Schema.Struct({ deleted: Schema.Number }) } },
    handler: ({ query: q }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        yield* readerOf(caller, q.workspaceId)
        return yield* (yield* ActorSystem).ask(WikiMember, caller.userId, "clearSearches", { workspaceId: q.workspaceId })
      })
  }),
  operation({
    operationId: "reindexWikiSearch",
    method: "POST",
    path: "/v1/search/reindex",
    summary: "Rebuild the search text of a workspace's pages from their live documents (admin)",
    description:
      "Re-reads every page's document (of the workspace, or of one space) and rewrites the indexed text where it drifted. " +
      "Normally unnecessary: edits keep the index current. Workspace admins only.",
    auth: "both",
    scopes: ["wiki:admin"],
    body: Schema.Struct({ workspaceId: Id, spaceId: Schema.optionalKey(Id) }),
    responses: {
      200: {
        description: "Pages checked and pages whose text was rewritten",
        schema: Schema.Struct({ checked: Schema.Number, updated: Schema.Number }).annotate({ identifier: "WikiReindexResult" })
      }
    },
    handler: ({ body }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        yield* readerOf(caller, body.workspaceId, "admin")
        if (body.spaceId !== undefined) {
          const access = yield* spaceAccess(caller, body.spaceId)
          if (access.space.workspaceId !== body.workspaceId) return yield* reject("not_found", "No such space")
        }
        return yield* reindexPages(body.workspaceId, body.spaceId).pipe(Effect.orDie)
      })
  })
]
