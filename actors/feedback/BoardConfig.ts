/**
 * Writes of a board's own configuration: the board (with its default
 * workflow), its settings, archive state, members, and its options
 * (categories, product areas, statuses, bug status levels, severity levels).
 * Run by the Board actor inside `commitBoardWrite`.
 */
import { randomUUID } from "node:crypto"
import { Effect } from "effect"
import { query } from "../../persistence/Sql.ts"
import { now } from "../Fields.ts"
import { BOARD_COLUMNS, type BoardRow, OPTION_COLUMNS, type OptionRow, toBoard, toOption } from "./BoardRows.ts"
import { checkKeyFree, newBoardKey } from "./BoardKeys.ts"
import type { WriteBody } from "./BoardLog.ts"
import {
  type Board,
  type BoardOption,
  type BoardRole,
  type BoardSettings,
  type BoardState,
  defaultSettings,
  type OptionKind,
  type StatusType
} from "./FeedbackModel.ts"
import {
  ArchiveUnchanged,
  BoardMemberNotFound,
  BoardOptionNameTaken,
  BoardOptionNotFound,
  BoardSlugTaken,
  DefaultStatusKept,
  LastStatus,
  NotAnOrdering,
  ReplacementIsDeleted,
  ReplacementNotFound
} from "./FeedbackErrors.ts"

export interface BoardFields {
  readonly name?: string
  readonly slug?: string
  readonly key?: string
  readonly description?: string
  readonly visibility?: Board["visibility"]
}

export interface OptionFields {
  readonly name?: string
  readonly description?: string
  readonly color?: string
  readonly type?: StatusType
  readonly isDefault?: boolean
  readonly position?: number
}

type Seed = { readonly name: string; readonly color: string; readonly type?: StatusType }
const defaultOptions: ReadonlyArray<readonly [OptionKind, ReadonlyArray<Seed>]> = [
  [
    "status",
    [
      { name: "Open", color: "#6b7280", type: "open" },
      { name: "Under review", color: "#f59e0b", type: "under_review" },
      { name: "Planned", color: "#3b82f6", type: "planned" },
      { name: "In progress", color: "#8b5cf6", type: "in_progress" },
      { name: "Shipped", color: "#10b981", type: "shipped" },
      { name: "Declined", color: "#ef4444", type: "declined" }
    ]
  ],
  [
    "bug_status",
    [
      { name: "New", color: "#6b7280" },
      { name: "Confirmed", color: "#f59e0b" },
      { name: "Fixing", color: "#8b5cf6" },
      { name: "Fixed", color: "#10b981" },
      { name: "Won't fix", color: "#ef4444" }
    ]
  ],
  [
    "severity",
    [
      { name: "Low", color: "#6b7280" },
      { name: "Medium", color: "#f59e0b" },
      { name: "High", color: "#f97316" },
      { name: "Critical", color: "#ef4444" }
    ]
  ]
]

const slugTaken = new BoardSlugTaken()

const checkSlugFree = (workspaceId: string, slug: string, exceptBoardId: string) =>
  Effect.flatMap(
    query<{ id: string }>("SELECT id FROM feedback_boards WHERE workspace_id = $1 AND slug = $2 AND id <> $3", [
      workspaceId,
      slug,
      exceptBoardId
    ]),
    (rows) => (rows.length > 0 ? Effect.fail(slugTaken) : Effect.void)
  )

const insertOption = (boardId: string, kind: OptionKind, fields: OptionFields & { readonly name: string }, position: number) =>
  query<OptionRow>(
    `INSERT INTO feedback_options (id, board_id, kind, name, description, color, status_type, is_default, position)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${OPTION_COLUMNS}`,
    [
      randomUUID(),
      boardId,
      kind,
      fields.name,
      fields.description ?? "",
      fields.color ?? "#6b7280",
      kind === "status" ? (fields.type ?? "open") : null,
      kind === "status" && fields.isDefault === true,
      position
    ]
  ).pipe(Effect.map((rows) => toOption(rows[0]!)))

const boardEvent = (type: string, board: Board) => ({ type, entityId: board.id, data: { boardId: board.id, name: board.name } })

export const createBoard = (
  boardId: string,
  by: string,
  input: {
    readonly workspaceId: string
    readonly name: string
    readonly slug: string
    readonly key?: string
    readonly description: string
    readonly visibility: Board["visibility"]
    readonly settings?: BoardSettings
    readonly copyOptionsOf?: ReadonlyArray<BoardOption>
  }
): WriteBody<Board> =>
  Effect.gen(function* () {
    yield* checkSlugFree(input.workspaceId, input.slug, boardId)
    if (input.key !== undefined) yield* checkKeyFree(input.workspaceId, boardId, input.key)
    const key = input.key ?? (yield* newBoardKey(input.workspaceId, boardId, input.slug))
    const settings = input.settings ?? defaultSettings
    const rows = yield* query<BoardRow>(
      `INSERT INTO feedback_boards (id, workspace_id, name, slug, key, description, visibility, who_may_post, who_may_vote,
         anonymous_voting, anonymous_votes_per_hour, moderation, allow_comments, created_by)
       VALUES ($1, $2, $3, $4, $14, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING ${BOARD_COLUMNS}`,
      [
        boardId,
        input.workspaceId,
        input.name,
        input.slug,
        input.description,
        input.visibility,
        settings.whoMayPost,
        settings.whoMayVote,
        settings.anonymousVoting,
        settings.anonymousVotesPerHour,
        settings.moderation,
        settings.allowComments,
        by,
        key
      ]
    )
    const seeds: ReadonlyArray<readonly [OptionKind, ReadonlyArray<OptionFields & { name: string }>]> =
      input.copyOptionsOf === undefined
        ? defaultOptions.map(
            ([kind, list]) => [kind, list.map((seed, i) => ({ ...seed, isDefault: kind === "status" && i === 0 }))] as const
          )
        : (["category", "product_area", "status", "bug_status", "severity"] as const).map(
            (kind) =>
              [
                kind,
                input
                  .copyOptionsOf!.filter((o) => o.kind === kind)
                  .map((o) => ({
                    name: o.name,
                    description: o.description,
                    color: o.color,
                    isDefault: o.isDefault,
                    ...(o.type !== null ? { type: o.type } : {})
                  }))
              ] as const
          )
    for (const [kind, list] of seeds) {
      for (const [position, seed] of list.entries()) yield* insertOption(boardId, kind, seed, position)
    }
    const board = toBoard(rows[0]!)
    return { result: board, events: [boardEvent("board.created", board)] }
  })

export const updateBoard = (state: BoardState, fields: BoardFields, settings: Partial<BoardSettings>): WriteBody<Board> =>
  Effect.gen(function* () {
    const current = state.board
    if (fields.slug !== undefined) yield* checkSlugFree(current.workspaceId, fields.slug, current.id)
    if (fields.key !== undefined) yield* checkKeyFree(current.workspaceId, current.id, fields.key)
    const next = { ...current.settings, ...settings }
    const rows = yield* query<BoardRow>(
      `UPDATE feedback_boards SET name = $2, slug = $3, description = $4, visibility = $5, who_may_post = $6, who_may_vote = $7,
         anonymous_voting = $8, anonymous_votes_per_hour = $9, moderation = $10, allow_comments = $11, key = $12, updated_at = now()
       WHERE id = $1 RETURNING ${BOARD_COLUMNS}`,
      [
        current.id,
        fields.name ?? current.name,
        fields.slug ?? current.slug,
        fields.description ?? current.description,
        fields.visibility ?? current.visibility,
        next.whoMayPost,
        next.whoMayVote,
        next.anonymousVoting,
        next.anonymousVotesPerHour,
        next.moderation,
        next.allowComments,
        fields.key ?? current.key
      ]
    )
    const board = toBoard(rows[0]!)
    return {
      result: board,
      events: [
        { type: "board.updated", entityId: board.id, data: { ...fields, ...(Object.keys(settings).length > 0 ? { settings } : {}) } }
      ],
      next: { ...state, board }
    }
  })

export const setArchived = (state: BoardState, archived: boolean): WriteBody<Board> =>
  Effect.gen(function* () {
    if (state.board.archived === archived) {
      return yield* new ArchiveUnchanged({ archived })
    }
    const rows = yield* query<BoardRow>(
      `UPDATE feedback_boards SET archived_at = ${archived ? "now()" : "NULL"}, updated_at = now() WHERE id = $1 RETURNING ${BOARD_COLUMNS}`,
      [state.board.id]
    )
    const board = toBoard(rows[0]!)
    return { result: board, events: [boardEvent(archived ? "board.archived" : "board.restored", board)], next: { ...state, board } }
  })

export const removeBoard = (state: BoardState): WriteBody<{ readonly blobKeys: ReadonlyArray<string> }> =>
  Effect.gen(function* () {
    const blobs = yield* query<{ blob_key: string }>("SELECT blob_key FROM feedback_attachments WHERE board_id = $1", [state.board.id])
    yield* query("DELETE FROM feedback_attachments WHERE board_id = $1", [state.board.id])
    yield* query("DELETE FROM feedback_merges WHERE board_id = $1", [state.board.id])
    yield* query("UPDATE feedback_requests SET merged_into = NULL WHERE board_id = $1", [state.board.id])
    yield* query("DELETE FROM feedback_boards WHERE id = $1", [state.board.id])
    return { result: { blobKeys: blobs.map((b) => b.blob_key) }, events: [boardEvent("board.deleted", state.board)], next: null }
  })

export const setMember = (state: BoardState, by: string, userId: string, role: BoardRole) =>
  Effect.gen(function* () {
    const rows = yield* query<{ added_at: string }>(
      `INSERT INTO feedback_board_members (board_id, user_id, role, added_by) VALUES ($1, $2, $3, $4)
       ON CONFLICT (board_id, user_id) DO UPDATE SET role = excluded.role RETURNING added_at`,
      [state.board.id, userId, role, by]
    )
    const member = { userId, role, addedAt: rows[0]!.added_at }
    return {
      result: member,
      events: [{ type: "board.member_set", entityId: state.board.id, data: { userId, role } }],
      next: { ...state, members: [...state.members.filter((m) => m.userId !== userId), member] }
    }
  }) satisfies WriteBody<unknown>

export const removeMember = (state: BoardState, userId: string): WriteBody<void> =>
  Effect.gen(function* () {
    if (!state.members.some((m) => m.userId === userId)) return yield* new BoardMemberNotFound()
    yield* query("DELETE FROM feedback_board_members WHERE board_id = $1 AND user_id = $2", [state.board.id, userId])
    return {
      result: undefined,
      events: [{ type: "board.member_removed", entityId: state.board.id, data: { userId } }],
      next: { ...state, members: state.members.filter((m) => m.userId !== userId) }
    }
  })

const optionOf = (state: BoardState, kind: OptionKind, optionId: string): Effect.Effect<BoardOption, BoardOptionNotFound> => {
  const option = state.options.find((o) => o.id === optionId && o.kind === kind)
  return option === undefined ? Effect.fail(new BoardOptionNotFound({ kind })) : Effect.succeed(option)
}

const nameTaken = (state: BoardState, kind: OptionKind, name: string, exceptId: string) =>
  state.options.some((o) => o.kind === kind && o.id !== exceptId && o.name.toLowerCase() === name.toLowerCase())
    ? Effect.fail(new BoardOptionNameTaken({ kind, name }))
    : Effect.void

/** Positions of one kind, renumbered 0… with `moved` placed at `index` (clamped). */
const renumber = (state: BoardState, kind: OptionKind, moved: string, index: number) =>
  Effect.gen(function* () {
    const others = state.options.filter((o) => o.kind === kind && o.id !== moved).map((o) => o.id)
    others.splice(Math.max(0, Math.min(index, others.length)), 0, moved)
    for (const [position, id] of others.entries()) {
      yield* query("UPDATE feedback_options SET position = $2 WHERE id = $1 AND position <> $2", [id, position])
    }
  })

const clearOtherDefaults = (state: BoardState, keep: string) =>
  query("UPDATE feedback_options SET is_default = false WHERE board_id = $1 AND kind = 'status' AND id <> $2", [state.board.id, keep])

export const createOption = (
  state: BoardState,
  kind: OptionKind,
  fields: OptionFields & { readonly name: string }
): WriteBody<BoardOption> =>
  Effect.gen(function* () {
    yield* nameTaken(state, kind, fields.name, "")
    const count = state.options.filter((o) => o.kind === kind).length
    const option = yield* insertOption(state.board.id, kind, fields, count)
    if (fields.position !== undefined) yield* renumber(state, kind, option.id, fields.position)
    if (option.isDefault) yield* clearOtherDefaults(state, option.id)
    return {
      result: { ...option, position: Math.min(fields.position ?? count, count) },
      events: [{ type: `${kind}.created`, entityId: option.id, data: { name: option.name } }]
    }
  })

export const updateOption = (state: BoardState, kind: OptionKind, optionId: string, fields: OptionFields): WriteBody<BoardOption> =>
  Effect.gen(function* () {
    const current = yield* optionOf(state, kind, optionId)
    if (fields.name !== undefined) yield* nameTaken(state, kind, fields.name, optionId)
    if (kind === "status" && fields.isDefault === false && current.isDefault) {
      return yield* new DefaultStatusKept()
    }
    const rows = yield* query<OptionRow>(
      `UPDATE feedback_options SET name = $2, description = $3, color = $4, status_type = $5, is_default = $6, updated_at = now()
       WHERE id = $1 RETURNING ${OPTION_COLUMNS}`,
      [
        optionId,
        fields.name ?? current.name,
        fields.description ?? current.description,
        fields.color ?? current.color,
        kind === "status" ? (fields.type ?? current.type) : null,
        kind === "status" && (fields.isDefault ?? current.isDefault)
      ]
    )
    if (fields.position !== undefined) yield* renumber(state, kind, optionId, fields.position)
    if (kind === "status" && fields.isDefault === true) yield* clearOtherDefaults(state, optionId)
    const option = toOption(rows[0]!)
    const position =
      fields.position === undefined ? option.position : Math.min(fields.position, state.options.filter((o) => o.kind === kind).length - 1)
    return { result: { ...option, position }, events: [{ type: `${kind}.updated`, entityId: optionId, data: { ...fields } }] }
  })

/** Deletes an option; requests that used it move to `replacementId` (statuses: the default status when absent). */
export const deleteOption = (state: BoardState, kind: OptionKind, optionId: string, replacementId: string | undefined): WriteBody<void> =>
  Effect.gen(function* () {
    const current = yield* optionOf(state, kind, optionId)
    const column = { category: "category_id", product_area: "product_area_id", status: "status_id" }[kind as string]
    let replacement: string | null = null
    if (replacementId !== undefined) {
      if (replacementId === optionId) return yield* new ReplacementIsDeleted()
      replacement = (yield* optionOf(state, kind, replacementId).pipe(Effect.mapError(() => new ReplacementNotFound()))).id
    }
    if (kind === "status") {
      const others = state.options.filter((o) => o.kind === "status" && o.id !== optionId)
      if (others.length === 0) return yield* new LastStatus()
      replacement ??= (others.find((o) => o.isDefault) ?? others[0]!).id
      if (current.isDefault) yield* query("UPDATE feedback_options SET is_default = true WHERE id = $1", [replacement])
    }
    if (column !== undefined) {
      yield* query(`UPDATE feedback_requests SET ${column} = $3, updated_at = now() WHERE board_id = $1 AND ${column} = $2`, [
        state.board.id,
        optionId,
        replacement
      ])
    }
    yield* query("DELETE FROM feedback_options WHERE id = $1", [optionId])
    const rest = state.options.filter((o) => o.kind === kind && o.id !== optionId)
    for (const [position, option] of rest.entries()) {
      yield* query("UPDATE feedback_options SET position = $2 WHERE id = $1 AND position <> $2", [option.id, position])
    }
    return {
      result: undefined,
      events: [{ type: `${kind}.deleted`, entityId: optionId, data: { name: current.name, replacementId: replacement } }]
    }
  })

/** Puts the options of one kind in the given order (every one of them, once). */
export const reorderOptions = (state: BoardState, kind: OptionKind, ids: ReadonlyArray<string>): WriteBody<ReadonlyArray<BoardOption>> =>
  Effect.gen(function* () {
    const current = state.options.filter((o) => o.kind === kind)
    const known = new Set(current.map((o) => o.id))
    if (ids.length !== current.length || new Set(ids).size !== ids.length || ids.some((id) => !known.has(id))) {
      return yield* new NotAnOrdering({ kind, count: current.length })
    }
    for (const [position, id] of ids.entries())
      yield* query("UPDATE feedback_options SET position = $2, updated_at = now() WHERE id = $1", [id, position])
    const at = now()
    const result = ids.map((id, position) => ({ ...current.find((o) => o.id === id)!, position, updatedAt: at }))
    return { result, events: [{ type: `${kind}.reordered`, entityId: state.board.id, data: { ids: [...ids] } }] }
  })
