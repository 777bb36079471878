/** Request and response examples of the operations in PublicWikiSpace.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { ex } from "../../actors/wiki/DiscoveryViews.ts"
import { examplePublicPage } from "./PublicWiki.ts"

const params = { workspaceId: ex.workspaceId, spaceKey: "DOCS" }

const pageParams = { ...params, pageSlug: "getting-started" }

const exampleSite = {
  title: "Acme Docs",
  description: "Everything about Acme",
  logoUrl: "https://acme.example/logo.png",
  accentColor: "#3355ff",
  footerText: "© Acme",
  allowSearch: true,
  path: "/acme-docs"
}

const exampleLink = { id: ex.pageId, title: "Getting started", slug: "getting-started", icon: "👋" }

const exampleItem = { ...exampleLink, parentId: null, path: "/acme-docs/getting-started", updatedAt: ex.at }

export const publicWikiSpaceExamples = examplesById({
  getPublicWikiSpace: [
    {
      name: "site",
      request: { params },
      response: {
        status: 200,
        body: {
          workspaceId: ex.workspaceId,
          spaceKey: "DOCS",
          name: "Docs",
          icon: "📘",
          site: exampleSite,
          homePage: exampleLink,
          pageCount: 12
        }
      }
    }
  ],
  getPublicWikiSpaceTree: [
    {
      name: "tree",
      request: { params },
      response: {
        status: 200,
        body: {
          items: [
            {
              ...exampleLink,
              children: [{ id: ex.childPageId, title: "Configuration", slug: "configuration", icon: null, children: [] }]
            }
          ]
        }
      }
    }
  ],
  listPublicWikiSpacePages: [
    { name: "pages", request: { params, query: { limit: "50" } }, response: { status: 200, body: { total: 1, items: [exampleItem] } } }
  ],
  getPublicWikiSpacePage: [{ name: "page", request: { params: pageParams }, response: { status: 200, body: examplePublicPage } }],
  getPublicWikiSpaceHome: [{ name: "home", request: { params }, response: { status: 200, body: examplePublicPage } }],
  listPublicWikiSpacePageChildren: [
    {
      name: "children",
      request: { params: pageParams },
      response: {
        status: 200,
        body: {
          items: [
            {
              id: ex.childPageId,
              title: "Configuration",
              slug: "configuration",
              icon: null,
              parentId: ex.pageId,
              path: "/acme-docs/configuration",
              updatedAt: ex.at
            }
          ]
        }
      }
    }
  ],
  listRecentPublicWikiSpacePages: [
    { name: "recent", request: { params, query: { limit: "5" } }, response: { status: 200, body: { items: [exampleItem] } } }
  ],
  searchPublicWikiSpace: [
    {
      name: "search",
      request: { params, query: { q: "install" } },
      response: {
        status: 200,
        body: {
          query: "install",
          total: 1,
          results: [
            {
              pageId: ex.pageId,
              title: "Getting started",
              titleHighlight: "Getting started",
              snippet: "<mark>Install</mark> the CLI, then run acme init.",
              slug: "getting-started",
              path: "/acme-docs/getting-started"
            }
          ]
        }
      }
    }
  ]
})
