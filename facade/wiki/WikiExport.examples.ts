/** Request and response examples of the operations in WikiExport.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { ex } from "../../actors/wiki/DiscoveryViews.ts"

const params = { pageId: ex.pageId }

const exampleJob = {
  id: ex.jobId,
  workspaceId: ex.workspaceId,
  spaceId: ex.spaceId,
  format: "markdown",
  status: "succeeded",
  pageCount: 12,
  pagesDone: 12,
  sizeBytes: 48213,
  error: null,
  downloadUrl: `https://atrium.example/wiki/v1/exports/${ex.jobId}?download=true`,
  createdAt: ex.at,
  finishedAt: ex.at
}

export const wikiExportExamples = examplesById({
  exportWikiPageMarkdown: [
    {
      name: "markdown",
      request: { params },
      response: { status: 200, body: "# Deployment runbook\n\nTag the release, then run the **migrations**.\n" }
    }
  ],
  exportWikiPageHtml: [
    {
      name: "html",
      request: { params },
      response: {
        status: 200,
        body: "<!doctype html>\n<html>…<h1>Deployment runbook</h1>\n<p>Tag the release, then run the <strong>migrations</strong>.</p>…</html>"
      }
    }
  ],
  exportWikiPageJson: [
    {
      name: "json",
      request: { params },
      response: {
        status: 200,
        body: {
          format: "atrium.wiki.page",
          version: 1,
          exportedAt: ex.at,
          page: {
            id: ex.pageId,
            spaceId: ex.spaceId,
            spaceKey: "ENG",
            parentId: null,
            title: "Deployment runbook",
            slug: "deployment-runbook",
            icon: "🚀",
            coverImage: null,
            createdBy: ex.userId,
            createdAt: ex.at,
            updatedBy: ex.userId,
            updatedAt: ex.at
          },
          content: { type: "doc", content: [{ type: "paragraph", content: [{ type: "text", text: "Tag the release." }] }] },
          markdown: "Tag the release.\n",
          text: "Tag the release."
        }
      }
    }
  ],
  exportWikiSpace: [
    {
      name: "markdown-zip",
      request: { params: { spaceId: ex.spaceId }, body: { format: "markdown" } },
      response: {
        status: 202,
        body: { ...exampleJob, status: "queued", pageCount: 0, pagesDone: 0, sizeBytes: null, downloadUrl: null, finishedAt: null }
      }
    }
  ],
  getWikiExport: [{ name: "status", request: { params: { exportId: ex.jobId } }, response: { status: 200, body: exampleJob } }]
})
