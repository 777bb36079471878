/** Request and response examples of the operations in WikiSearch.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { ex, examplePageRef } from "../../actors/wiki/DiscoveryViews.ts"

const exampleResult = {
  pageId: ex.pageId,
  title: "Deployment runbook",
  snippet: "Every Tuesday we <mark>deploy</mark> the web app: tag the release, run the migrations, then …",
  titleHighlight: "<mark>Deployment</mark> runbook",
  slug: "deployment-runbook",
  icon: "🚀",
  spaceId: ex.spaceId,
  spaceKey: "ENG",
  spaceName: "Engineering",
  authorId: ex.userId,
  updatedAt: ex.at,
  rank: 0.6079
}

export const wikiSearchExamples = examplesById({
  searchWiki: [
    {
      name: "search",
      request: { query: { workspaceId: ex.workspaceId, q: "deploy" } },
      response: { status: 200, body: { query: "deploy", total: 1, results: [exampleResult] } }
    },
    {
      name: "filtered",
      summary: "A phrase in one space, updated since November",
      request: { query: { workspaceId: ex.workspaceId, q: '"release train" -draft', spaceId: ex.spaceId, updatedAfter: "2026-11-01" } },
      response: { status: 200, body: { query: '"release train" -draft', total: 0, results: [] } }
    }
  ],
  searchWikiTitles: [
    {
      name: "as-you-type",
      request: { query: { workspaceId: ex.workspaceId, q: "depl" } },
      response: { status: 200, body: { items: [{ ...examplePageRef, parentTitle: "Operations" }] } }
    }
  ],
  getWikiSearchFacets: [
    {
      name: "facets",
      request: { query: { workspaceId: ex.workspaceId, q: "deploy" } },
      response: {
        status: 200,
        body: {
          total: 3,
          spaces: [{ spaceId: ex.spaceId, key: "ENG", name: "Engineering", count: 3 }],
          authors: [
            { userId: ex.userId, name: "Alice", count: 2 },
            { userId: ex.otherUserId, name: "Bob", count: 1 }
          ],
          updated: { lastDay: 1, lastWeek: 2, lastMonth: 3, lastYear: 3 }
        }
      }
    }
  ],
  listRecentWikiSearches: [
    {
      name: "recent",
      request: { query: { workspaceId: ex.workspaceId } },
      response: {
        status: 200,
        body: { items: [{ id: ex.searchId, query: "deploy", filters: { spaceId: ex.spaceId }, resultCount: 3, searchedAt: ex.at }] }
      }
    }
  ],
  deleteRecentWikiSearch: [{ name: "forget", request: { params: { searchId: ex.searchId } }, response: { status: 204 } }],
  clearRecentWikiSearches: [
    { name: "clear", request: { query: { workspaceId: ex.workspaceId } }, response: { status: 200, body: { deleted: 4 } } }
  ],
  reindexWikiSearch: [
    { name: "reindex", request: { body: { workspaceId: ex.workspaceId } }, response: { status: 200, body: { checked: 42, updated: 1 } } }
  ]
})
