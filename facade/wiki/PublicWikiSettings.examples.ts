/** Request and response examples of the operations in PublicWikiSettings.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { ex } from "../../actors/wiki/DiscoveryViews.ts"

const params = { spaceId: ex.spaceId }

const exampleSettings = {
  spaceId: ex.spaceId,
  workspaceId: ex.workspaceId,
  enabled: true,
  slug: "acme-docs",
  path: "/acme-docs",
  title: "Acme Docs",
  description: "Everything about Acme",
  logoUrl: "https://acme.example/logo.png",
  accentColor: "#3355ff",
  footerText: "© Acme",
  allowSearch: true,
  allowIndexing: true,
  showAuthors: false,
  showLastUpdated: true,
  enabledAt: ex.at,
  updatedBy: ex.userId,
  updatedAt: ex.at
}

export const publicWikiSettingsExamples = examplesById({
  getPublicWikiSettings: [{ name: "settings", request: { params }, response: { status: 200, body: exampleSettings } }],
  updatePublicWikiSettings: [
    {
      name: "brand-it",
      request: { params, body: { slug: "acme-docs", title: "Acme Docs", accentColor: "#3355ff", allowIndexing: true } },
      response: { status: 200, body: exampleSettings }
    }
  ],
  publishPublicWiki: [{ name: "publish", request: { params }, response: { status: 200, body: exampleSettings } }],
  unpublishPublicWiki: [
    { name: "unpublish", request: { params }, response: { status: 200, body: { ...exampleSettings, enabled: false, enabledAt: null } } }
  ],
  listPublicWikiSharedPages: [
    {
      name: "shares",
      request: { params },
      response: {
        status: 200,
        body: {
          items: [
            {
              pageId: ex.pageId,
              title: "Pricing",
              includeSubpages: false,
              sharedBy: ex.userId,
              sharedAt: ex.at,
              path: `/share/${ex.pageId}`
            }
          ]
        }
      }
    }
  ],
  setPublicWikiPageShare: [
    {
      name: "share",
      request: { params: { spaceId: ex.spaceId, pageId: ex.pageId }, body: { shared: true, includeSubpages: true } },
      response: {
        status: 200,
        body: {
          pageId: ex.pageId,
          title: "Pricing",
          includeSubpages: true,
          sharedBy: ex.userId,
          sharedAt: ex.at,
          path: `/share/${ex.pageId}`
        }
      }
    },
    {
      name: "unshare",
      request: { params: { spaceId: ex.spaceId, pageId: ex.pageId }, body: { shared: false } },
      response: { status: 204 }
    }
  ],
  getPublicWikiAnalytics: [
    {
      name: "last-30-days",
      request: { params, query: { interval: "week" } },
      response: {
        status: 200,
        body: {
          range: { from: "2026-10-22T12:00:00.000Z", to: ex.at, interval: "week" },
          views: 120,
          visitors: 45,
          anonymousViews: 10,
          series: [{ date: "2026-11-16", views: 30, visitors: 12 }],
          topPages: [{ pageId: ex.pageId, title: "Getting started", slug: "getting-started", views: 80, visitors: 40 }]
        }
      }
    }
  ],
  listPublicWikiSearchTerms: [
    {
      name: "terms",
      request: { params },
      response: {
        status: 200,
        body: {
          range: { from: "2026-10-22T12:00:00.000Z", to: ex.at, interval: "day" },
          items: [{ query: "pricing", searches: 14, averageResults: 0, zeroResultSearches: 14, lastSearchedAt: ex.at }]
        }
      }
    }
  ]
})
