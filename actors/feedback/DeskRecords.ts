/**
 * The feedback desk's DTOs (bug reports, their comments and history,
 * milestones, changelog entries, moderation items and log, private
 * feedback) as the operations answer them, and the mapping from rows.
 * Named (`identifier`) so the catalog and OpenAPI list them once.
 */
import { Schema } from "effect"
import { Id, Timestamp } from "../Fields.ts"
import { iso, isoOrNull } from "../wiki/WikiQueries.ts"

type RawRow = Record<string, any>

/** An ISO-8601 date-time with an offset, that is a real instant. */
export const IsoDateTime = Schema.String.check(
  Schema.makeFilter(
    (s: string) =>
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/.test(s) &&
      !s.startsWith("0000") &&
      !Number.isNaN(Date.parse(s)),
    {
      expected: "an ISO-8601 date-time with offset"
    }
  )
).annotate({ format: "date-time" })

const NullableId = Schema.NullOr(Id)
const Text = (max: number) => Schema.String.check(Schema.isMaxLength(max))

export const Moderation = Schema.Literals(["pending", "approved", "declined"]).annotate({
  description: "pending: waits in the moderation queue (only the team sees it); declined: hidden"
})
export type Moderation = typeof Moderation.Type

export const Environment = Schema.Struct({
  browser: Schema.optionalKey(Text(200)),
  os: Schema.optionalKey(Text(200)),
  device: Schema.optionalKey(Text(200)),
  appVersion: Schema.optionalKey(Text(100)),
  url: Schema.optionalKey(Text(2000))
}).annotate({ identifier: "BugEnvironment", description: "Where the bug happens" })
export type Environment = typeof Environment.Type

export const BugReport = Schema.Struct({
  id: Id,
  shortId: Schema.String.annotate({ description: "B-<number>, per board" }),
  boardId: Id,
  workspaceId: Id,
  title: Schema.String,
  stepsToReproduce: Schema.String,
  expected: Schema.String,
  actual: Schema.String,
  environment: Environment,
  severityLevelId: NullableId,
  bugStatusLevelId: NullableId,
  categoryId: NullableId,
  reporterId: NullableId,
  reporterEmail: Schema.NullOr(Schema.String).annotate({ description: "Of a public-form reporter; team only" }),
  reporterName: Schema.NullOr(Schema.String),
  assigneeId: NullableId,
  attachmentIds: Schema.Array(Id),
  moderation: Moderation,
  spam: Schema.Boolean,
  commentCount: Schema.Number,
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotate({ identifier: "BugReport" })
export type BugReport = typeof BugReport.Type

export const shortBugId = (number: number): string => `B-${number}`

export const toBugReport = (row: RawRow): BugReport => ({
  id: row.id,
  shortId: shortBugId(Number(row.number)),
  boardId: row.board_id,
  workspaceId: row.workspace_id,
  title: row.title,
  stepsToReproduce: row.steps,
  expected: row.expected,
  actual: row.actual,
  environment: row.environment ?? {},
  severityLevelId: row.severity_level_id ?? null,
  bugStatusLevelId: row.bug_status_level_id ?? null,
  categoryId: row.category_id ?? null,
  reporterId: row.reporter_id ?? null,
  reporterEmail: row.reporter_email ?? null,
  reporterName: row.reporter_name ?? null,
  assigneeId: row.assignee_id ?? null,
  attachmentIds: row.attachment_ids ?? [],
  moderation: row.moderation,
  spam: Boolean(row.spam),
  commentCount: Number(row.comment_count ?? 0),
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at)
})

export const BugComment = Schema.Struct({
  id: Id,
  bugReportId: Id,
  authorId: Id,
  body: Schema.String,
  internal: Schema.Boolean.annotate({ description: "A team-only note, never shown publicly" }),
  moderation: Moderation,
  createdAt: Timestamp
}).annotate({ identifier: "BugComment" })
export type BugComment = typeof BugComment.Type

export const toBugComment = (row: RawRow): BugComment => ({
  id: row.id,
  bugReportId: row.bug_report_id,
  authorId: row.author_id,
  body: row.body,
  internal: Boolean(row.internal),
  moderation: row.moderation,
  createdAt: iso(row.created_at)
})

export const BugHistoryEntry = Schema.Struct({
  id: Id,
  field: Schema.Literals(["bugStatusLevel", "severityLevel", "assignee"]),
  from: Schema.NullOr(Schema.String),
  to: Schema.NullOr(Schema.String),
  changedBy: Id,
  changedAt: Timestamp
}).annotate({ identifier: "BugHistoryEntry" })
export type BugHistoryEntry = typeof BugHistoryEntry.Type

export const toBugHistory = (row: RawRow): BugHistoryEntry => ({
  id: row.id,
  field: row.field,
  from: row.from_value ?? null,
  to: row.to_value ?? null,
  changedBy: row.changed_by,
  changedAt: iso(row.changed_at)
})

export const Milestone = Schema.Struct({
  id: Id,
  boardId: Id,
  name: Schema.String,
  description: Schema.String,
  date: Schema.NullOr(Schema.String).annotate({ description: "Target or release date, YYYY-MM-DD" }),
  releasedAt: Schema.NullOr(Timestamp),
  featureRequestIds: Schema.Array(Id).annotate({ description: "The requests this milestone delivers" }),
  hasArticle: Schema.Boolean,
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotate({ identifier: "Milestone" })
export type Milestone = typeof Milestone.Type

export const toMilestone = (row: RawRow, featureRequestIds: ReadonlyArray<string>): Milestone => ({
  id: row.id,
  boardId: row.board_id,
  name: row.name,
  description: row.description,
  date: row.date ?? null,
  releasedAt: isoOrNull(row.released_at),
  featureRequestIds,
  hasArticle: row.article !== null && row.article !== undefined,
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at)
})

export const ChangelogKind = Schema.Literals(["new", "improved", "fixed"])
export const ChangelogState = Schema.Literals(["draft", "scheduled", "published"]).annotate({
  description: "draft: team only; scheduled: published at publishAt; published: public, its requests shipped and their voters notified"
})

export const ChangelogEntry = Schema.Struct({
  id: Id,
  boardId: Id,
  title: Schema.String,
  kind: ChangelogKind,
  markdown: Schema.String,
  html: Schema.String,
  state: ChangelogState,
  publishAt: Schema.NullOr(Timestamp),
  publishedAt: Schema.NullOr(Timestamp),
  milestoneId: NullableId,
  featureRequestIds: Schema.Array(Id),
  notifiedCount: Schema.Number.annotate({ description: "Voters and subscribers notified when it was published" }),
  createdBy: Id,
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotate({ identifier: "ChangelogEntry" })
export type ChangelogEntry = typeof ChangelogEntry.Type

export const ModerationKind = Schema.Literals(["featureRequest", "comment", "bugReport", "bugComment"])
export type ModerationKind = typeof ModerationKind.Type

export const ModerationItem = Schema.Struct({
  id: Id.annotate({ description: "The waiting post's or comment's id" }),
  boardId: Id,
  kind: ModerationKind,
  shortId: Schema.NullOr(Schema.String).annotate({ description: "FR-n or B-n of the post (of the commented post for comments)" }),
  authorId: NullableId,
  authorName: Schema.NullOr(Schema.String),
  title: Schema.String,
  excerpt: Schema.String,
  spam: Schema.Boolean.annotate({ description: "Marked as spam by a moderator, or by the heuristics" }),
  spamReasons: Schema.Array(Schema.String),
  createdAt: Timestamp
}).annotate({ identifier: "ModerationItem" })
export type ModerationItem = typeof ModerationItem.Type

export const ModerationAction = Schema.Literals([
  "approve",
  "approveAndVerify",
  "decline",
  "declineAndBlock",
  "markSpam",
  "unmarkSpam",
  "merge",
  "unmerge",
  "undo"
])
export type ModerationAction = typeof ModerationAction.Type

export const ModerationLogEntry = Schema.Struct({
  id: Id,
  boardId: Id,
  action: ModerationAction,
  itemId: NullableId,
  targetKind: Schema.String,
  targetId: Id,
  detail: Schema.Record(Schema.String, Schema.Unknown),
  actedBy: Id,
  actedAt: Timestamp,
  undoable: Schema.Boolean,
  undoneAt: Schema.NullOr(Timestamp),
  undoneBy: NullableId
}).annotate({ identifier: "ModerationLogEntry" })
export type ModerationLogEntry = typeof ModerationLogEntry.Type

const undoableActions: ReadonlySet<string> = new Set(["approve", "approveAndVerify", "decline", "declineAndBlock", "markSpam", "merge"])

export const toModerationLogEntry = (row: RawRow): ModerationLogEntry => ({
  id: row.id,
  boardId: row.board_id,
  action: row.action,
  itemId: row.item_id ?? null,
  targetKind: row.target_kind,
  targetId: row.target_id,
  detail: row.detail ?? {},
  actedBy: row.acted_by,
  actedAt: iso(row.acted_at),
  undoable: undoableActions.has(row.action) && row.undone_at === null,
  undoneAt: isoOrNull(row.undone_at),
  undoneBy: row.undone_by ?? null
})

export const PrivateFeedback = Schema.Struct({
  id: Id,
  boardId: Id,
  authorId: NullableId,
  email: Schema.NullOr(Schema.String),
  name: Schema.NullOr(Schema.String),
  title: Schema.String,
  body: Schema.String,
  createdAt: Timestamp
}).annotate({ identifier: "PrivateFeedback" })
export type PrivateFeedback = typeof PrivateFeedback.Type

export const toPrivateFeedback = (row: RawRow): PrivateFeedback => ({
  id: row.id,
  boardId: row.board_id,
  authorId: row.author_id ?? null,
  email: row.email ?? null,
  name: row.name ?? null,
  title: row.title,
  body: row.body,
  createdAt: iso(row.created_at)
})
