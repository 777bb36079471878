/** Request and response examples of the operations in WikiSpaces.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { examplePageSummary, examples, exampleSpace } from "../../actors/wiki/WikiViews.ts"

const params = { spaceId: examples.spaceId }

export const wikiSpacesExamples = examplesById({
  createWikiSpace: [
    {
      name: "engineering",
      request: {
        body: { workspaceId: examples.workspaceId, name: "Engineering", key: "ENG", description: "How we build things", icon: "🛠️" }
      },
      response: { status: 201, body: { ...exampleSpace, homePageId: null, pageCount: 0 } }
    }
  ],
  listWikiSpaces: [
    {
      name: "list",
      request: { query: { workspaceId: examples.workspaceId } },
      response: { status: 200, body: { items: [exampleSpace] } }
    }
  ],
  checkWikiSpaceKey: [
    {
      name: "taken",
      request: { query: { workspaceId: examples.workspaceId, key: "ENG" } },
      response: { status: 200, body: { key: "ENG", available: false, suggestion: "ENG2" } }
    },
    {
      name: "from-name",
      request: { query: { workspaceId: examples.workspaceId, name: "Customer Success" } },
      response: { status: 200, body: { key: null, available: null, suggestion: "CS" } }
    }
  ],
  getWikiSpace: [{ name: "get", request: { params }, response: { status: 200, body: exampleSpace } }],
  updateWikiSpace: [
    {
      name: "restrict",
      request: { params, body: { visibility: "restricted", description: "Platform team only" } },
      response: { status: 200, body: { ...exampleSpace, visibility: "restricted", description: "Platform team only" } }
    }
  ],
  deleteWikiSpace: [{ name: "delete", request: { params }, response: { status: 204 } }],
  archiveWikiSpace: [
    { name: "archive", request: { params }, response: { status: 200, body: { ...exampleSpace, archivedAt: examples.at } } }
  ],
  restoreWikiSpace: [{ name: "restore", request: { params }, response: { status: 200, body: exampleSpace } }],
  setWikiSpaceHomePage: [
    { name: "set", request: { params, body: { pageId: examples.pageId } }, response: { status: 200, body: exampleSpace } }
  ],
  listWikiSpaceTrash: [
    {
      name: "trash",
      request: { params },
      response: { status: 200, body: { items: [{ ...examplePageSummary, archivedAt: examples.at }] } }
    }
  ],
  emptyWikiSpaceTrash: [
    { name: "empty", request: { params }, response: { status: 200, body: { deletedPageIds: [examples.pageId, examples.childPageId] } } }
  ],
  listRecentWikiPages: [
    { name: "recent", request: { params, query: { limit: "10" } }, response: { status: 200, body: { items: [examplePageSummary] } } }
  ]
})
