/**
 * Made-up ids and replies the desk operations' examples share, so the
 * catalog tells one story and the fuzz seed (which replaces made-up ids
 * under keys ending in `Id` with real ones) can create each resource from
 * its first example.
 */
export const ex = {
  workspaceId: "0b9e4c1a-6f0e-4d5f-9a77-3f7c2f1e8a10",
  userId: "6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f",
  memberId: "7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d",
  boardId: "b0a1d2e3-f4a5-4b6c-8d7e-9f0a1b2c3d4e",
  featureRequestId: "f1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b",
  bugReportId: "b7c6d5e4-f3a2-4b1c-9d0e-1f2a3b4c5d6e",
  bugCommentId: "c8d7e6f5-a4b3-4c2d-8e1f-2a3b4c5d6e7f",
  severityLevelId: "5e4d3c2b-1a09-4f8e-9d7c-6b5a49382716",
  bugStatusLevelId: "6f5e4d3c-2b1a-4098-8e7d-6c5b4a392817",
  categoryId: "7a6f5e4d-3c2b-41a0-9f8e-7d6c5b4a3928",
  milestoneId: "d9e8f7a6-b5c4-4d3e-8f2a-1b0c9d8e7f6a",
  changelogEntryId: "e0f9a8b7-c6d5-4e4f-9a3b-2c1d0e9f8a7b",
  privateFeedbackId: "a1b0c9d8-e7f6-4a5b-8c4d-3e2f1a0b9c8d",
  logEntryId: "a2b1c0d9-e8f7-4a6b-9c5d-4e3f2a1b0c9d",
  submissionId: "a3b2c1d0-e9f8-4a7b-8c6d-5e4f3a2b1c0d",
  at: "2026-11-24T12:00:00.000Z",
  slug: "product-ideas"
} as const

export const exampleBugReport = {
  id: ex.bugReportId,
  shortId: "B-12",
  reference: "PRODUCTIDE-B12",
  boardId: ex.boardId,
  workspaceId: ex.workspaceId,
  title: "Export button does nothing on Safari",
  stepsToReproduce: "1. Open a board\n2. Click Export",
  expected: "A CSV downloads",
  actual: "Nothing happens",
  environment: { browser: "Safari 18", os: "macOS 15" },
  severityLevelId: null,
  bugStatusLevelId: null,
  categoryId: null,
  reporterId: ex.userId,
  reporterEmail: null,
  reporterName: null,
  assigneeId: null,
  attachmentIds: [],
  moderation: "approved",
  spam: false,
  commentCount: 0,
  createdAt: ex.at,
  updatedAt: ex.at
}

export const exampleMilestone = {
  id: ex.milestoneId,
  boardId: ex.boardId,
  name: "Q1 release",
  description: "",
  date: "2027-03-31",
  releasedAt: null,
  featureRequestIds: [],
  hasArticle: false,
  createdAt: ex.at,
  updatedAt: ex.at
}

export const exampleDoc = {
  type: "doc",
  content: [{ type: "paragraph", content: [{ type: "text", text: "Dark mode is here." }] }]
}

export const exampleArticle = {
  milestoneId: ex.milestoneId,
  content: exampleDoc,
  markdown: "Dark mode is here.",
  html: "<p>Dark mode is here.</p>",
  updatedAt: ex.at,
  updatedBy: ex.userId
}

export const exampleEntry = {
  id: ex.changelogEntryId,
  boardId: ex.boardId,
  title: "Dark mode",
  kind: "new",
  markdown: "Dark mode is here.",
  html: "<p>Dark mode is here.</p>",
  state: "draft",
  publishAt: null,
  publishedAt: null,
  milestoneId: null,
  featureRequestIds: [],
  notifiedCount: 0,
  createdBy: ex.userId,
  createdAt: ex.at,
  updatedAt: ex.at
}
