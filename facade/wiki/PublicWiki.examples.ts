/** Request and response examples of the operations in PublicWiki.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { ex } from "../../actors/wiki/DiscoveryViews.ts"

export const examplePublicPage = {
  id: ex.pageId,
  title: "Getting started",
  slug: "getting-started",
  icon: "👋",
  coverImage: null,
  spaceKey: "DOCS",
  path: "/acme-docs/getting-started",
  html: "<p>Install the CLI, then run <code>acme init</code>.</p>",
  author: null,
  updatedAt: ex.at,
  breadcrumbs: [],
  children: [{ id: ex.childPageId, title: "Configuration", slug: "configuration", icon: null }]
}

const params = { pageId: ex.pageId }

export const publicWikiExamples = examplesById({
  getSharedWikiPage: [{ name: "shared-page", request: { params }, response: { status: 200, body: examplePublicPage } }],
  getSharedWikiPageTree: [
    {
      name: "shared-subtree",
      request: { params },
      response: {
        status: 200,
        body: {
          page: { id: ex.pageId, title: "Getting started", slug: "getting-started", icon: "👋" },
          children: [{ id: ex.childPageId, title: "Configuration", slug: "configuration", icon: null, children: [] }]
        }
      }
    }
  ]
})
