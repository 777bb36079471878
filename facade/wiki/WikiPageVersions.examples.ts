/** Request and response examples of the operations in WikiPageVersions.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { examplePage, examples, exampleDoc } from "../../actors/wiki/WikiViews.ts"

const versionId = "2f3e4d5c-6b7a-4890-a1b2-c3d4e5f6a7b8"

const params = { pageId: examples.pageId, versionId }

const exampleVersion = {
  id: versionId,
  pageId: examples.pageId,
  number: 3,
  title: "Onboarding",
  reason: "autosaved",
  label: null,
  restoredFrom: null,
  authorId: examples.userId,
  contributors: [examples.userId],
  characters: 27,
  createdAt: examples.at
}

export const wikiPageVersionsExamples = examplesById({
  listWikiPageVersions: [
    {
      name: "history",
      request: { params: { pageId: examples.pageId }, query: { limit: "20" } },
      response: { status: 200, body: { items: [exampleVersion] } }
    }
  ],
  getWikiPageVersion: [
    {
      name: "version",
      request: { params },
      response: { status: 200, body: { ...exampleVersion, content: exampleDoc, text: examplePage.text, markdown: examplePage.markdown } }
    }
  ],
  diffWikiPageVersion: [
    {
      name: "diff",
      request: { params },
      response: {
        status: 200,
        body: {
          pageId: examples.pageId,
          from: { versionId, number: 3, createdAt: examples.at },
          to: "current",
          title: null,
          added: 1,
          removed: 1,
          blocks: [
            { type: "equal", lines: ["# Welcome", ""], skipped: 0 },
            { type: "removed", lines: ["Read the guide."] },
            { type: "added", lines: ["Read the **setup guide** first."] }
          ]
        }
      }
    }
  ],
  restoreWikiPageVersion: [
    {
      name: "restore",
      request: { params },
      response: {
        status: 200,
        body: {
          version: {
            ...exampleVersion,
            id: "8e7d6c5b-4a3f-4e2d-9c1b-0a9f8e7d6c5b",
            number: 5,
            reason: "restored",
            restoredFrom: versionId
          },
          page: examplePage
        }
      }
    }
  ]
})
