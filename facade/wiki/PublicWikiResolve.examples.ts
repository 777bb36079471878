/** Request and response examples of the operations in PublicWikiResolve.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { ex } from "../../actors/wiki/DiscoveryViews.ts"

export const publicWikiResolveExamples = examplesById({
  resolvePublicWikiPath: [
    {
      name: "site-page",
      request: { query: { path: "/acme-docs/getting-started" } },
      response: {
        status: 200,
        body: {
          workspaceId: ex.workspaceId,
          spaceId: ex.spaceId,
          spaceKey: "DOCS",
          siteSlug: "acme-docs",
          page: { id: ex.pageId, slug: "getting-started", title: "Getting started" },
          canonicalPath: "/acme-docs/getting-started"
        }
      }
    }
  ]
})
