/**
 * A board's rows and how they become the Board actor's state: the board, its
 * members, its options and its feature requests. Read on activation and after
 * every write the actor makes (it reloads the rows it touched).
 */
import { Effect } from "effect"
import { query, type Sql, type SqlError } from "../../persistence/Sql.ts"
import type { ProseMirrorJson } from "../wiki/WikiViews.ts"
import type { Board, BoardMember, BoardOption, BoardState, RequestRecord } from "./FeedbackModel.ts"

export const BOARD_COLUMNS =
  "id, workspace_id, name, slug, key, description, visibility, who_may_post, who_may_vote, anonymous_voting, anonymous_votes_per_hour, moderation, allow_comments, archived_at, created_by, created_at, updated_at"

export interface BoardRow {
  id: string
  workspace_id: string
  name: string
  slug: string
  key: string
  description: string
  visibility: Board["visibility"]
  who_may_post: Board["settings"]["whoMayPost"]
  who_may_vote: Board["settings"]["whoMayVote"]
  anonymous_voting: boolean
  anonymous_votes_per_hour: number
  moderation: boolean
  allow_comments: boolean
  archived_at: string | null
  created_by: string
  created_at: string
  updated_at: string
}

export const toBoard = (row: BoardRow): Board => ({
  id: row.id,
  workspaceId: row.workspace_id,
  name: row.name,
  slug: row.slug,
  key: row.key,
  description: row.description,
  visibility: row.visibility,
  settings: {
    whoMayPost: row.who_may_post,
    whoMayVote: row.who_may_vote,
    anonymousVoting: row.anonymous_voting,
    anonymousVotesPerHour: Number(row.anonymous_votes_per_hour),
    moderation: row.moderation,
    allowComments: row.allow_comments
  },
  archived: row.archived_at !== null,
  archivedAt: row.archived_at,
  createdBy: row.created_by,
  createdAt: row.created_at,
  updatedAt: row.updated_at
})

export const OPTION_COLUMNS = "id, board_id, kind, name, description, color, status_type, is_default, position, created_at, updated_at"

export interface OptionRow {
  id: string
  board_id: string
  kind: BoardOption["kind"]
  name: string
  description: string
  color: string
  status_type: BoardOption["type"]
  is_default: boolean
  position: number
  created_at: string
  updated_at: string
}

export const toOption = (row: OptionRow): BoardOption => ({
  id: row.id,
  boardId: row.board_id,
  kind: row.kind,
  name: row.name,
  description: row.description,
  color: row.color,
  type: row.status_type,
  isDefault: row.is_default,
  position: Number(row.position),
  createdAt: row.created_at,
  updatedAt: row.updated_at
})

export const REQUEST_COLUMNS =
  "id, board_id, number, title, description, description_markdown, description_text, category_id, product_area_id, status_id, owner_id, author_id, author_name, vote_count, comment_count, merged_into, merged_at, moderation_state, pinned, locked, created_at, updated_at"

export interface RequestRow {
  id: string
  board_id: string
  number: number
  title: string
  description: ProseMirrorJson
  description_markdown: string
  description_text: string
  category_id: string | null
  product_area_id: string | null
  status_id: string | null
  owner_id: string | null
  author_id: string | null
  author_name: string | null
  vote_count: number
  comment_count: number
  merged_into: string | null
  merged_at: string | null
  moderation_state: RequestRecord["moderationState"]
  pinned: boolean
  locked: boolean
  created_at: string
  updated_at: string
}

export const toRequest = (row: RequestRow): RequestRecord => ({
  id: row.id,
  boardId: row.board_id,
  number: Number(row.number),
  title: row.title,
  content: row.description,
  markdown: row.description_markdown,
  text: row.description_text,
  categoryId: row.category_id,
  productAreaId: row.product_area_id,
  statusId: row.status_id,
  ownerId: row.owner_id,
  authorId: row.author_id,
  authorName: row.author_name,
  voteCount: Number(row.vote_count),
  commentCount: Number(row.comment_count),
  mergedInto: row.merged_into,
  mergedAt: row.merged_at,
  moderationState: row.moderation_state,
  pinned: row.pinned,
  locked: row.locked,
  createdAt: row.created_at,
  updatedAt: row.updated_at
})

export const boardRow = (boardId: string) =>
  Effect.map(query<BoardRow>(`SELECT ${BOARD_COLUMNS} FROM feedback_boards WHERE id = $1`, [boardId]), (rows) => rows[0])

export const requestRow = (requestId: string) =>
  Effect.map(query<RequestRow>(`SELECT ${REQUEST_COLUMNS} FROM feedback_requests WHERE id = $1`, [requestId]), (rows) =>
    rows[0] === undefined ? undefined : toRequest(rows[0])
  )

export const optionsOf = (boardId: string) =>
  Effect.map(
    query<OptionRow>(`SELECT ${OPTION_COLUMNS} FROM feedback_options WHERE board_id = $1 ORDER BY kind, position, created_at, id`, [
      boardId
    ]),
    (rows) => rows.map(toOption)
  )

/** The board's state as the actor holds it; `null` when there is no such board. */
export const loadBoard = (boardId: string): Effect.Effect<BoardState | null, SqlError, Sql> =>
  Effect.gen(function* () {
    const row = yield* boardRow(boardId)
    if (row === undefined) return null
    const members = yield* query<{ user_id: string; role: BoardMember["role"]; added_at: string }>(
      "SELECT user_id, role, added_at FROM feedback_board_members WHERE board_id = $1 ORDER BY added_at, user_id",
      [boardId]
    )
    const requests = yield* query<RequestRow>(`SELECT ${REQUEST_COLUMNS} FROM feedback_requests WHERE board_id = $1 ORDER BY number`, [
      boardId
    ])
    return {
      board: toBoard(row),
      members: members.map((m) => ({ userId: m.user_id, role: m.role, addedAt: m.added_at })),
      options: yield* optionsOf(boardId),
      requests: requests.map(toRequest)
    }
  })

/** Which board a request is on (requests never move between boards, so a found answer is kept). */
const boardOfRequest = new Map<string, string>()
export const boardIdOfRequest = (requestId: string) =>
  Effect.gen(function* () {
    const known = boardOfRequest.get(requestId)
    if (known !== undefined) return known
    const rows = yield* query<{ board_id: string }>("SELECT board_id FROM feedback_requests WHERE id = $1", [requestId])
    if (rows[0] === undefined) return undefined
    if (boardOfRequest.size > 100_000) boardOfRequest.clear()
    boardOfRequest.set(requestId, rows[0].board_id)
    return rows[0].board_id
  })

/** The ids of a workspace's boards, oldest first. */
export const boardIdsOfWorkspace = (workspaceId: string) =>
  Effect.map(
    query<{ id: string }>("SELECT id FROM feedback_boards WHERE workspace_id = $1 ORDER BY created_at, id", [workspaceId]),
    (rows) => rows.map((r) => r.id)
  )

/** Which board an option of `kind` belongs to (options never move between boards). */
export const boardIdOfOption = (optionId: string, kind: BoardOption["kind"]) =>
  Effect.map(
    query<{ board_id: string }>("SELECT board_id FROM feedback_options WHERE id = $1 AND kind = $2", [optionId, kind]),
    (rows) => rows[0]?.board_id
  )
