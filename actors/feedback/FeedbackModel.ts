/**
 * The feedback service's shared shapes: a board with its settings and
 * workflow options (categories, product areas, statuses, bug status levels,
 * severity levels), its members, and feature requests as the Board actor
 * holds them. Used by the actor's messages and the operations' replies.
 */
import { Schema } from "effect"
import { Id, Timestamp } from "../Fields.ts"
import { ProseMirrorNode } from "../wiki/WikiViews.ts"

export const BoardVisibility = Schema.Literals(["public", "members", "private"]).annotate({
  description: "public: anyone, signed in or not; members: the workspace's members; private: the board's members and workspace admins"
})
export type BoardVisibility = typeof BoardVisibility.Type

export const WhoMayPost = Schema.Literals(["anyone", "members", "admins"]).annotate({
  description: "anyone who can see the board, workspace members, or the board's admins"
})
export const WhoMayVote = Schema.Literals(["anyone", "members"]).annotate({
  description: "anyone who can see the board (anonymously too when anonymousVoting is on), or workspace members"
})

export const BoardSettings = Schema.Struct({
  whoMayPost: WhoMayPost,
  whoMayVote: WhoMayVote,
  anonymousVoting: Schema.Boolean.annotate({ description: "Visitors of a public board may vote without an account" }),
  anonymousVotesPerHour: Schema.Number.annotate({ description: "Anonymous votes accepted per IP address and board per hour" }),
  moderation: Schema.Boolean.annotate({ description: "Posts and comments of non-members wait for approval" }),
  allowComments: Schema.Boolean
}).annotate({ identifier: "FeedbackBoardSettings" })
export type BoardSettings = typeof BoardSettings.Type

export const defaultSettings: BoardSettings = {
  whoMayPost: "anyone",
  whoMayVote: "anyone",
  anonymousVoting: false,
  anonymousVotesPerHour: 20,
  moderation: false,
  allowComments: true
}

export const Board = Schema.Struct({
  id: Id,
  workspaceId: Id,
  name: Schema.String,
  slug: Schema.String,
  key: Schema.String.annotate({
    description: "Unique in the workspace (e.g. MOBILE); prefixes references that name one request (MOBILE-12) or bug report (MOBILE-B3)"
  }),
  description: Schema.String,
  visibility: BoardVisibility,
  settings: BoardSettings,
  archived: Schema.Boolean,
  archivedAt: Schema.NullOr(Timestamp),
  createdBy: Schema.String,
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotate({ identifier: "FeedbackBoard" })
export type Board = typeof Board.Type

export const OptionKind = Schema.Literals(["category", "product_area", "status", "bug_status", "severity"])
export type OptionKind = typeof OptionKind.Type

export const StatusType = Schema.Literals(["open", "under_review", "planned", "in_progress", "shipped", "declined"]).annotate({
  description: "What a status means for the workflow; the roadmap groups requests by it"
})
export type StatusType = typeof StatusType.Type
export const statusTypes: ReadonlyArray<StatusType> = ["open", "under_review", "planned", "in_progress", "shipped", "declined"]

/** A configurable value of a board: a category, product area, status, bug status level or severity level. */
export const BoardOption = Schema.Struct({
  id: Id,
  boardId: Id,
  kind: OptionKind,
  name: Schema.String,
  description: Schema.String,
  color: Schema.String,
  /** Statuses only. */
  type: Schema.NullOr(StatusType),
  /** Statuses only: new requests start here. */
  isDefault: Schema.Boolean,
  position: Schema.Number,
  createdAt: Timestamp,
  updatedAt: Timestamp
})
export type BoardOption = typeof BoardOption.Type

export const BoardRole = Schema.Literals(["admin", "member"]).annotate({
  description: "admin: configures the board and moderates it; member: part of the team of a private board"
})
export type BoardRole = typeof BoardRole.Type
export const BoardMember = Schema.Struct({ userId: Id, role: BoardRole, addedAt: Timestamp })
export type BoardMember = typeof BoardMember.Type

export const ModerationState = Schema.Literals(["approved", "pending", "declined"])

/** A feature request as the board actor holds it (description as ProseMirror JSON and its plain text). */
export const RequestRecord = Schema.Struct({
  id: Id,
  boardId: Id,
  number: Schema.Number,
  title: Schema.String,
  content: ProseMirrorNode,
  markdown: Schema.String,
  text: Schema.String,
  categoryId: Schema.NullOr(Id),
  productAreaId: Schema.NullOr(Id),
  statusId: Schema.NullOr(Id),
  ownerId: Schema.NullOr(Id),
  authorId: Schema.NullOr(Id),
  authorName: Schema.NullOr(Schema.String),
  voteCount: Schema.Number,
  commentCount: Schema.Number,
  mergedInto: Schema.NullOr(Id),
  mergedAt: Schema.NullOr(Timestamp),
  moderationState: ModerationState,
  pinned: Schema.Boolean,
  locked: Schema.Boolean,
  createdAt: Timestamp,
  updatedAt: Timestamp
})
export type RequestRecord = typeof RequestRecord.Type

export const BoardState = Schema.Struct({
  board: Board,
  members: Schema.Array(BoardMember),
  options: Schema.Array(BoardOption),
  requests: Schema.Array(RequestRecord)
})
export type BoardState = typeof BoardState.Type

export const shortIdOf = (number: number): string => `FR-${number}`

export const SortOrder = Schema.Literals(["trending", "top", "new", "old"]).annotate({
  description: "trending: votes weighted by age; top: most votes; new: newest first; old: oldest first"
})
export type SortOrder = typeof SortOrder.Type

/** Trending: votes decay with age (hours), Hacker-News style; pinned requests first in every order. */
const trendingScore = (request: RequestRecord, nowMillis: number) =>
  request.voteCount / ((nowMillis - Date.parse(request.createdAt)) / 3_600_000 + 2) ** 1.5

export const sortRequests = (requests: ReadonlyArray<RequestRecord>, order: SortOrder): Array<RequestRecord> => {
  const nowMillis = Date.now()
  const by: Record<SortOrder, (a: RequestRecord, b: RequestRecord) => number> = {
    trending: (a, b) => trendingScore(b, nowMillis) - trendingScore(a, nowMillis),
    top: (a, b) => b.voteCount - a.voteCount,
    new: (a, b) => b.number - a.number,
    old: (a, b) => a.number - b.number
  }
  return [...requests].sort((a, b) => Number(b.pinned) - Number(a.pinned) || by[order](a, b) || b.number - a.number)
}
