/** Request and response examples of the operations in PublicWikiSitemap.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { ex } from "../../actors/wiki/DiscoveryViews.ts"

export const publicWikiSitemapExamples = examplesById({
  getPublicWikiSitemap: [
    {
      name: "sitemap",
      request: { params: { workspaceId: ex.workspaceId } },
      response: {
        status: 200,
        body: {
          workspaceId: ex.workspaceId,
          sites: [{ spaceKey: "DOCS", path: "/acme-docs", lastModified: ex.at }],
          entries: [
            {
              path: "/acme-docs/getting-started",
              pageId: ex.pageId,
              title: "Getting started",
              spaceKey: "DOCS",
              lastModified: ex.at,
              home: true
            }
          ]
        }
      }
    }
  ]
})
