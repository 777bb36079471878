/** Request and response examples of the operations in WikiImport.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { ex } from "../../actors/wiki/DiscoveryViews.ts"

export const wikiImportExamples = examplesById({
  importWikiPage: [
    {
      name: "markdown-file",
      request: {
        params: { spaceId: ex.spaceId },
        query: { filename: "runbook.md" },
        body: "# Deployment runbook\n\nTag the release, then run the **migrations**.\n"
      },
      response: { status: 201, body: { page: { id: ex.pageId, title: "Deployment runbook", parentId: null, source: "runbook.md" } } }
    }
  ],
  importWikiZip: [
    {
      name: "zip",
      request: { params: { spaceId: ex.spaceId } },
      response: {
        status: 201,
        body: {
          pages: [
            { id: ex.pageId, title: "Guide", parentId: null, source: "guide.md" },
            { id: ex.childPageId, title: "Install", parentId: ex.pageId, source: "guide/install.md" }
          ],
          skipped: [{ file: "guide/diagram.png", reason: "not a Markdown or HTML file" }]
        }
      }
    }
  ]
})
