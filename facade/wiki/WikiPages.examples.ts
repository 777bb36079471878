/** Request and response examples of the operations in WikiPages.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { examples, examplePageSummary, examplePage, exampleDoc } from "../../actors/wiki/WikiViews.ts"

const pageParams = { pageId: examples.pageId }

const spaceParams = { spaceId: examples.spaceId }

const exampleVersion = {
  id: "2f3e4d5c-6b7a-4890-a1b2-c3d4e5f6a7b8",
  pageId: examples.pageId,
  number: 4,
  title: "Onboarding",
  reason: "saved",
  label: "Reviewed by HR",
  restoredFrom: null,
  authorId: examples.userId,
  contributors: [examples.userId],
  characters: 1834,
  createdAt: examples.at
}

export const wikiPagesExamples = examplesById({
  createWikiPage: [
    {
      name: "markdown",
      request: {
        params: spaceParams,
        body: { title: "Onboarding", markdown: "# Welcome\n\nRead the **setup guide** first.", icon: "👋" }
      },
      response: { status: 201, body: examplePage }
    },
    {
      name: "child-page",
      request: { params: spaceParams, body: { title: "Laptop setup", parentPageId: examples.pageId, content: exampleDoc } },
      response: {
        status: 201,
        body: { ...examplePage, id: examples.childPageId, parentPageId: examples.pageId, title: "Laptop setup", slug: "laptop-setup" }
      }
    }
  ],
  getWikiPage: [{ name: "get", request: { params: pageParams }, response: { status: 200, body: examplePage } }],
  updateWikiPage: [
    {
      name: "retitle-and-rewrite",
      request: { params: pageParams, body: { title: "Onboarding guide", markdown: "# Welcome\n\nStart with the setup guide." } },
      response: { status: 200, body: { ...examplePage, title: "Onboarding guide", slug: "onboarding-guide" } }
    }
  ],
  deleteWikiPage: [{ name: "delete", request: { params: pageParams }, response: { status: 204 } }],
  listWikiPages: [
    {
      name: "search-titles",
      request: { params: spaceParams, query: { q: "onboard", sort: "title" } },
      response: { status: 200, body: { items: [examplePageSummary], total: 1 } }
    }
  ],
  getWikiPageTree: [
    {
      name: "tree",
      request: { params: spaceParams },
      response: {
        status: 200,
        body: {
          items: [
            {
              id: examples.pageId,
              title: "Onboarding",
              slug: "onboarding",
              icon: "👋",
              parentPageId: null,
              position: 1,
              restriction: "open",
              updatedAt: examples.at,
              children: [
                {
                  id: examples.childPageId,
                  title: "Laptop setup",
                  slug: "laptop-setup",
                  icon: null,
                  parentPageId: examples.pageId,
                  position: 1,
                  restriction: "open",
                  updatedAt: examples.at,
                  children: []
                }
              ]
            }
          ]
        }
      }
    }
  ],
  listWikiPageChildren: [
    {
      name: "children",
      request: { params: pageParams },
      response: {
        status: 200,
        body: {
          items: [
            {
              ...examplePageSummary,
              id: examples.childPageId,
              parentPageId: examples.pageId,
              title: "Laptop setup",
              slug: "laptop-setup"
            }
          ]
        }
      }
    }
  ],
  getWikiPageBreadcrumbs: [
    {
      name: "crumbs",
      request: { params: { pageId: examples.childPageId } },
      response: {
        status: 200,
        body: {
          space: { id: examples.spaceId, key: "ENG", name: "Engineering" },
          items: [
            { id: examples.pageId, title: "Onboarding", slug: "onboarding", icon: "👋" },
            { id: examples.childPageId, title: "Laptop setup", slug: "laptop-setup", icon: null }
          ]
        }
      }
    }
  ],
  moveWikiPage: [
    {
      name: "to-top-first",
      request: { params: { pageId: examples.childPageId }, body: { parentPageId: null, index: 0 } },
      response: {
        status: 200,
        body: { ...examplePageSummary, id: examples.childPageId, title: "Laptop setup", slug: "laptop-setup", position: 0 }
      }
    }
  ],
  duplicateWikiPage: [
    {
      name: "with-children",
      request: { params: pageParams, body: { includeChildren: true } },
      response: {
        status: 201,
        body: {
          page: {
            ...examplePageSummary,
            id: "4a5b6c7d-8e9f-4a0b-9c1d-2e3f4a5b6c7d",
            title: "Copy of Onboarding",
            slug: "copy-of-onboarding",
            position: 1.5
          },
          copiedPageIds: ["4a5b6c7d-8e9f-4a0b-9c1d-2e3f4a5b6c7d", "7d6c5b4a-3f2e-4d1c-8b0a-9f8e7d6c5b4a"]
        }
      }
    }
  ],
  archiveWikiPage: [
    {
      name: "archive",
      request: { params: pageParams },
      response: { status: 200, body: { archivedPageIds: [examples.pageId, examples.childPageId] } }
    }
  ],
  restoreWikiPage: [{ name: "restore", request: { params: pageParams }, response: { status: 200, body: examplePageSummary } }],
  getWikiPageContent: [
    {
      name: "markdown",
      request: { params: pageParams, query: { format: "markdown" } },
      response: { status: 200, body: examplePage.markdown }
    }
  ],
  listWikiPageEditors: [
    {
      name: "editors",
      request: { params: pageParams },
      response: { status: 200, body: { items: [{ userId: examples.userId, name: "Alice", since: examples.at }] } }
    }
  ],
  getWikiPageInfo: [
    {
      name: "info",
      request: { params: pageParams },
      response: {
        status: 200,
        body: {
          pageId: examples.pageId,
          words: 320,
          characters: 1834,
          readingMinutes: 2,
          headings: [{ level: 1, text: "Welcome" }],
          childCount: 1,
          descendantCount: 1,
          versionCount: 4,
          commentCount: 3,
          openThreadCount: 1,
          attachmentCount: 2,
          backlinkCount: 1,
          contributors: [{ userId: examples.userId, name: "Alice" }],
          createdAt: examples.at,
          updatedAt: examples.at
        }
      }
    }
  ],
  saveWikiPage: [
    { name: "save", request: { params: pageParams, body: { label: "Reviewed by HR" } }, response: { status: 201, body: exampleVersion } }
  ],
  listWikiPageBacklinks: [
    {
      name: "backlinks",
      request: { params: { pageId: examples.childPageId } },
      response: { status: 200, body: { items: [examplePageSummary] } }
    }
  ]
})
