/**
 * Request and response examples of the "Public Board Resource" operations
 * (PublicBoard.ts, PublicRequests.ts, PublicReleases.ts, PublicBugReports.ts),
 * by operationId: the catalog and the OpenAPI documents show them.
 */
import { examplesById } from "../Operation.ts"
import { ex } from "./deskExamples.ts"
import { formSpec } from "./PublicForm.ts"

export const slugParams = { slug: ex.slug }
export const exampleStatus = { id: ex.bugStatusLevelId, name: "Planned", description: "", color: "#3b82f6", type: "planned" }
export const examplePublicRequest = {
  id: ex.featureRequestId,
  shortId: "FR-7",
  title: "Dark mode",
  description: "A dark theme for the whole app.",
  status: { name: "Planned", color: "#3b82f6", type: "planned" },
  category: null,
  productArea: null,
  authorName: "Alice",
  voteCount: 42,
  commentCount: 3,
  mergedInto: null,
  pinned: false,
  createdAt: ex.at
}
export const exampleBoard = {
  id: ex.boardId,
  slug: ex.slug,
  name: "Acme ideas",
  description: "Tell us what to build next",
  anonymousVoting: true,
  allowComments: true,
  visitorComments: true,
  statuses: [exampleStatus],
  categories: [],
  productAreas: []
}
export const requestParams = { slug: ex.slug, shortId: "FR-7" }
export const milestoneParams = { slug: ex.slug, milestoneId: ex.milestoneId }
export const examplePublicMilestone = {
  id: ex.milestoneId,
  name: "Q1 release",
  description: "",
  date: "2027-03-31",
  releasedAt: null,
  hasArticle: true,
  featureRequests: [{ shortId: "FR-7", title: "Dark mode", voteCount: 42 }]
}
export const examplePublicEntry = {
  id: ex.changelogEntryId,
  title: "Dark mode",
  kind: "new",
  markdown: "Dark mode is here.",
  html: "<p>Dark mode is here.</p>",
  publishedAt: ex.at,
  milestoneId: null,
  featureRequests: ["FR-7"]
}
export const bugParams = { slug: ex.slug, shortId: "B-12" }
export const examplePublicBug = {
  id: ex.bugReportId,
  shortId: "B-12",
  title: "Export button does nothing on Safari",
  stepsToReproduce: "1. Open a board\n2. Click Export",
  expected: "A CSV downloads",
  actual: "Nothing happens",
  bugStatusLevel: { name: "Confirmed", color: "#f59e0b" },
  severityLevel: null,
  category: null,
  commentCount: 1,
  createdAt: ex.at
}

export const publicBoardExamples = examplesById({
  getPublicBoard: [{ name: "board", request: { params: slugParams }, response: { status: 200, body: exampleBoard } }],
  listPublicBoards: [
    {
      name: "boards",
      request: { params: { workspaceId: ex.workspaceId } },
      response: {
        status: 200,
        body: { items: [{ id: ex.boardId, slug: ex.slug, name: "Acme ideas", description: "Tell us what to build next" }] }
      }
    }
  ],
  getPublicRoadmap: [
    {
      name: "roadmap",
      request: { params: slugParams },
      response: { status: 200, body: { columns: [{ type: "planned", statuses: [exampleStatus], requests: [examplePublicRequest] }] } }
    }
  ],
  getPublicBoardStats: [
    {
      name: "stats",
      request: { params: slugParams },
      response: { status: 200, body: { requests: 12, votes: 240, comments: 31, shipped: 4, byStatusType: [{ type: "open", count: 8 }] } }
    }
  ],
  listPublicBoardActivity: [
    {
      name: "activity",
      request: { params: slugParams },
      response: {
        status: 200,
        body: { items: [{ kind: "statusChanged", shortId: "FR-7", title: "Dark mode", detail: "Planned", at: ex.at }] }
      }
    }
  ],
  getPublicBoardSitemap: [
    {
      name: "sitemap",
      request: { params: slugParams },
      response: {
        status: 200,
        body: { items: [{ path: `/feedback/v1/public/boards/${ex.slug}/feature-requests/FR-7`, lastModified: ex.at }] }
      }
    }
  ],
  listPublicFeatureRequests: [
    {
      name: "trending",
      request: { params: slugParams },
      response: { status: 200, body: { items: [examplePublicRequest], total: 1, nextOffset: null } }
    }
  ],
  getPublicFeatureRequest: [{ name: "get", request: { params: requestParams }, response: { status: 200, body: examplePublicRequest } }],
  searchPublicFeatureRequests: [
    {
      name: "search",
      request: { params: slugParams, query: { q: "dark theme" } },
      response: { status: 200, body: { items: [examplePublicRequest], total: 1, nextOffset: null } }
    }
  ],
  findSimilarPublicFeatureRequests: [
    {
      name: "similar",
      request: { params: slugParams, query: { title: "dark theme please" } },
      response: { status: 200, body: { items: [examplePublicRequest] } }
    }
  ],
  listPublicFeatureRequestComments: [
    {
      name: "comments",
      request: { params: requestParams },
      response: {
        status: 200,
        body: {
          items: [{ id: ex.bugCommentId, parentId: null, authorName: "Bob", body: "Yes please!", edited: false, createdAt: ex.at }]
        }
      }
    }
  ],
  listPublicFeatureRequestHistory: [
    {
      name: "history",
      request: { params: requestParams },
      response: { status: 200, body: { items: [{ from: "Open", to: "Planned", at: ex.at }] } }
    }
  ],
  listPublicFeatureRequestChangelog: [
    { name: "shipped-in", request: { params: requestParams }, response: { status: 200, body: { items: [] } } }
  ],
  votePublicFeatureRequest: [
    {
      name: "vote",
      request: { params: requestParams, body: { visitorId: "v_8f3a9c2e41" } },
      response: { status: 200, body: { shortId: "FR-7", voteCount: 43, voted: true } }
    }
  ],
  unvotePublicFeatureRequest: [
    {
      name: "unvote",
      request: { params: requestParams, query: { visitorId: "v_8f3a9c2e41" } },
      response: { status: 200, body: { shortId: "FR-7", voteCount: 42, voted: false } }
    }
  ],
  getPublicVoteState: [
    {
      name: "state",
      request: { params: requestParams, query: { visitorId: "v_8f3a9c2e41" } },
      response: { status: 200, body: { shortId: "FR-7", voteCount: 42, voted: false } }
    }
  ],
  listPublicVisitorVotes: [
    {
      name: "mine",
      request: { params: slugParams, query: { visitorId: "v_8f3a9c2e41" } },
      response: { status: 200, body: { items: ["FR-7"] } }
    }
  ],
  listPublicMilestones: [
    { name: "milestones", request: { params: slugParams }, response: { status: 200, body: { items: [examplePublicMilestone] } } }
  ],
  getPublicMilestone: [
    { name: "milestone", request: { params: milestoneParams }, response: { status: 200, body: examplePublicMilestone } }
  ],
  getPublicMilestoneArticle: [
    {
      name: "article",
      request: { params: milestoneParams },
      response: {
        status: 200,
        body: { milestoneId: ex.milestoneId, markdown: "Dark mode is here.", html: "<p>Dark mode is here.</p>", updatedAt: ex.at }
      }
    }
  ],
  listPublicMilestoneFeatureRequests: [
    { name: "delivers", request: { params: milestoneParams }, response: { status: 200, body: { items: [examplePublicRequest] } } }
  ],
  listPublicChangelog: [
    { name: "changelog", request: { params: slugParams }, response: { status: 200, body: { items: [examplePublicEntry] } } }
  ],
  getPublicChangelogEntry: [
    {
      name: "entry",
      request: { params: { slug: ex.slug, changelogEntryId: ex.changelogEntryId } },
      response: { status: 200, body: examplePublicEntry }
    }
  ],
  getPublicChangelogFeed: [
    {
      name: "feed",
      request: { params: slugParams },
      response: { status: 200, body: '<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">…</feed>' }
    }
  ],
  getPublicFormSpec: [
    {
      name: "form",
      request: { params: slugParams },
      response: {
        status: 200,
        body: formSpec({ moderation: false })
      }
    }
  ],
  listPublicBugReports: [{ name: "bugs", request: { params: slugParams }, response: { status: 200, body: { items: [examplePublicBug] } } }],
  getPublicBugReport: [{ name: "bug", request: { params: bugParams }, response: { status: 200, body: examplePublicBug } }],
  listPublicBugReportComments: [
    {
      name: "comments",
      request: { params: bugParams },
      response: {
        status: 200,
        body: { items: [{ id: ex.bugCommentId, parentId: null, authorName: "Bob", body: "Same here", edited: false, createdAt: ex.at }] }
      }
    }
  ]
})
