/**
 * Whiteboards: a board's content is a live Yjs document on the collab server
 * (document name `whiteboard:<id>`; elements in the Y.Map "elements", each a
 * map with at least x and y). These rows are its metadata, its comments and
 * the workspace's saved templates. Comments are pinned to an element id with
 * an offset from the element, so when someone moves the element (even while
 * another adds the comment) the pin follows it; the pin's position is read
 * from the live document. The `PmWhiteboard` actor (one per board) is the
 * single writer of the board's row and its comments and keeps them in memory
 * (rebuilt from the rows on activation; each command answers with what
 * changed, which becomes the new state), so reading a board or its comments
 * is one ask and no SQL. `PmWhiteboardTemplates` (one per workspace) writes
 * the workspace's templates.
 */
import { Effect, Schema } from "effect"
import * as Y from "yjs"
import { Id, Name, Timestamp } from "../Fields.ts"
import { isoTimestampSql, query } from "../../persistence/Sql.ts"
import {
  CommentAuthorOnly,
  CommentNotFound,
  ParentCommentNotFound,
  ReplyToReply,
  WhiteboardNotFound,
  WhiteboardTemplateNotFound
} from "../pm/PmErrors.ts"
import { change } from "../pm/Changes.ts"
import { command, workActor } from "../pm/WorkActor.ts"
import { orAbsent } from "../pm/WorkActors.ts"

export const documentNameOf = (whiteboardId: string) => `whiteboard:${whiteboardId}`
export const WHITEBOARD_DOCUMENT = /^whiteboard:([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i

export const Whiteboard = Schema.Struct({
  id: Id,
  workspaceId: Id,
  spaceId: Schema.NullOr(Id),
  name: Schema.String,
  templateId: Schema.NullOr(Id),
  documentName: Schema.String,
  createdBy: Id,
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotate({ identifier: "Whiteboard" })
export type Whiteboard = typeof Whiteboard.Type

export const ElementId = Schema.String.check(
  Schema.isMinLength(1),
  Schema.isMaxLength(128),
  Schema.isPattern(/^[\w:.-]+$/, { expected: "an element id (letters, digits, _ : . -)" })
)
const Offset = Schema.Finite.check(Schema.isBetween({ minimum: -100_000, maximum: 100_000 }))
export const CommentText = Schema.String.check(
  Schema.isMinLength(1),
  Schema.isMaxLength(10_000),
  Schema.isPattern(/\S/, { expected: "a non-blank text" })
)

export const Pin = Schema.Struct({
  elementId: Schema.String,
  offsetX: Schema.Number,
  offsetY: Schema.Number,
  present: Schema.Boolean.annotate({ description: "false when the element is no longer on the board" }),
  x: Schema.NullOr(Schema.Number).annotate({ description: "Where the pin is now: the element's position plus the offset" }),
  y: Schema.NullOr(Schema.Number)
}).annotate({ identifier: "WhiteboardPin" })

export const WhiteboardComment = Schema.Struct({
  id: Id,
  whiteboardId: Id,
  parentCommentId: Schema.NullOr(Id),
  text: Schema.String,
  resolved: Schema.Boolean,
  pin: Pin,
  authorId: Id,
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotate({ identifier: "WhiteboardComment" })
export type WhiteboardComment = typeof WhiteboardComment.Type

export const WhiteboardTemplate = Schema.Struct({
  id: Id,
  workspaceId: Id,
  name: Schema.String,
  description: Schema.String,
  elementCount: Schema.Number,
  createdBy: Id,
  createdAt: Timestamp
}).annotate({ identifier: "WhiteboardTemplate" })

const boardColumns = `id, workspace_id AS "workspaceId", space_id AS "spaceId", name, template_id AS "templateId", 'whiteboard:' || id AS "documentName",
  created_by AS "createdBy", ${isoTimestampSql("created_at")} AS "createdAt", ${isoTimestampSql("updated_at")} AS "updatedAt"`

export const whiteboardOf = (whiteboardId: string) =>
  Effect.flatMap(
    query<Whiteboard>(`SELECT ${boardColumns} FROM pm_whiteboards WHERE id = $1 AND deleted_at IS NULL`, [whiteboardId]),
    (rows) => (rows[0] ? Effect.succeed(rows[0]) : Effect.fail(new WhiteboardNotFound()))
  )

/** A comment as stored: its pin is an element id and an offset, placed on the live state when read. */
export const CommentRecord = Schema.Struct({
  id: Id,
  whiteboardId: Id,
  parentCommentId: Schema.NullOr(Id),
  text: Schema.String,
  resolved: Schema.Boolean,
  elementId: Schema.String,
  offsetX: Schema.Number,
  offsetY: Schema.Number,
  authorId: Id,
  createdAt: Timestamp,
  updatedAt: Timestamp
})
type CommentRow = typeof CommentRecord.Type

const commentColumns = `id, whiteboard_id AS "whiteboardId", parent_comment_id AS "parentCommentId", text, resolved, element_id AS "elementId",
  offset_x AS "offsetX", offset_y AS "offsetY", author_id AS "authorId", ${isoTimestampSql("created_at")} AS "createdAt", ${isoTimestampSql("updated_at")} AS "updatedAt"`

const commentRows = (whiteboardId: string) =>
  query<CommentRow>(`SELECT ${commentColumns} FROM pm_whiteboard_comments WHERE whiteboard_id = $1 ORDER BY created_at, id`, [whiteboardId])

const commentRow = (whiteboardId: string, commentId: string) =>
  Effect.flatMap(
    query<CommentRow>(`SELECT ${commentColumns} FROM pm_whiteboard_comments WHERE whiteboard_id = $1 AND id = $2`, [
      whiteboardId,
      commentId
    ]),
    (rows) => (rows[0] ? Effect.succeed(rows[0]) : Effect.fail(new CommentNotFound()))
  )

/** A board and its comments, oldest first: the `PmWhiteboard` actor's state. */
export const BoardState = Schema.Struct({ board: Whiteboard, comments: Schema.Array(CommentRecord) })
export type BoardState = typeof BoardState.Type

const boardStateOf = (whiteboardId: string) =>
  Effect.gen(function* () {
    const board = yield* whiteboardOf(whiteboardId)
    return { board, comments: yield* commentRows(whiteboardId) }
  })

/** A comment command's answer: the comment it was about and the board's comments after it. */
const CommentsAfter = Schema.Struct({ id: Id, comments: Schema.Array(CommentRecord) })

/** Elements' positions in a board's Yjs state (Y.Map "elements": id → map or object with x, y). */
export const positionsOf = (state: Uint8Array): ReadonlyMap<string, { x: number; y: number }> => {
  const doc = new Y.Doc()
  try {
    if (state.length > 0) Y.applyUpdate(doc, state)
    const positions = new Map<string, { x: number; y: number }>()
    doc.getMap("elements").forEach((value, id) => {
      const get = (key: string) => (value instanceof Y.Map ? value.get(key) : (value as Record<string, unknown> | null)?.[key])
      const x = Number(get("x") ?? 0)
      const y = Number(get("y") ?? 0)
      positions.set(id, { x: Number.isFinite(x) ? x : 0, y: Number.isFinite(y) ? y : 0 })
    })
    return positions
  } finally {
    doc.destroy()
  }
}

/** Comments with their pins placed where their elements are now. */
export const placed = (
  rows: ReadonlyArray<CommentRow>,
  positions: ReadonlyMap<string, { x: number; y: number }>
): Array<WhiteboardComment> =>
  rows.map(({ elementId, offsetX, offsetY, ...comment }) => {
    const at = positions.get(elementId)
    return {
      ...comment,
      pin: { elementId, offsetX, offsetY, present: at !== undefined, x: at ? at.x + offsetX : null, y: at ? at.y + offsetY : null }
    }
  })

export const templatesOf = (workspaceId: string) =>
  query<typeof WhiteboardTemplate.Type & { snapshot?: never }>(
    `SELECT id, workspace_id AS "workspaceId", name, description, element_count AS "elementCount", created_by AS "createdBy",
            ${isoTimestampSql("created_at")} AS "createdAt" FROM pm_whiteboard_templates WHERE workspace_id = $1 ORDER BY created_at DESC, id`,
    [workspaceId]
  )

export const templateState = (workspaceId: string, templateId: string) =>
  Effect.flatMap(
    query<{ snapshot: Uint8Array; name: string }>(
      `SELECT snapshot, name FROM pm_whiteboard_templates WHERE workspace_id = $1 AND id = $2`,
      [workspaceId, templateId]
    ),
    (rows) => (rows[0] ? Effect.succeed(rows[0]) : Effect.fail(new WhiteboardTemplateNotFound()))
  )

const where = (board: { workspaceId: string; spaceId: string | null }) => ({ workspaceId: board.workspaceId, spaceId: board.spaceId })

const NewBoard = Schema.Struct({ workspaceId: Id, name: Name(200), spaceId: Schema.NullOr(Id), templateId: Schema.NullOr(Id) })
const CommentRef = Schema.Struct({ commentId: Id })

/** What changing or deleting a comment may refuse with. */
const CommentChangeRefused = Schema.Union([WhiteboardNotFound, CommentNotFound, CommentAuthorOnly])

/** The board and one of its comments. */
const boardComment = (whiteboardId: string, commentId: string) =>
  Effect.all({ board: whiteboardOf(whiteboardId), comment: commentRow(whiteboardId, commentId) })

export const whiteboardCommands = {
  /** Creates the board whose id is the actor's. */
  createBoard: command(NewBoard, Whiteboard, WhiteboardNotFound, (input, by, id) =>
    Effect.gen(function* () {
      const { workspaceId } = input
      yield* query(
        `INSERT INTO pm_whiteboards (id, workspace_id, space_id, name, template_id, created_by) VALUES ($1, $2, $3, $4, $5, $6)`,
        [id, workspaceId, input.spaceId, input.name, input.templateId, by]
      )
      const board = yield* whiteboardOf(id)
      return {
        result: board,
        changes: [change(where(board), "whiteboard.created", id, { name: board.name, templateId: input.templateId }, by)]
      }
    })
  ),

  createComment: command(
    Schema.Struct({
      elementId: ElementId,
      offsetX: Offset,
      offsetY: Offset,
      text: CommentText,
      parentCommentId: Schema.NullOr(Id)
    }),
    CommentsAfter,
    Schema.Union([WhiteboardNotFound, ParentCommentNotFound, ReplyToReply]),
    (input, by, whiteboardId) =>
      Effect.gen(function* () {
        const board = yield* whiteboardOf(whiteboardId)
        let elementId = input.elementId
        if (input.parentCommentId !== null) {
          const parent = yield* commentRow(whiteboardId, input.parentCommentId).pipe(Effect.mapError(() => new ParentCommentNotFound()))
          if (parent.parentCommentId !== null) return yield* new ReplyToReply({ field: "body.parentCommentId" })
          // A reply sits on its thread's element.
          elementId = parent.elementId
        }
        const id = crypto.randomUUID()
        yield* query(
          `INSERT INTO pm_whiteboard_comments (id, whiteboard_id, workspace_id, element_id, offset_x, offset_y, parent_comment_id, text, author_id)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
          [id, board.id, board.workspaceId, elementId, input.offsetX, input.offsetY, input.parentCommentId, input.text, by]
        )
        return {
          result: { id, comments: yield* commentRows(whiteboardId) },
          changes: [change(where(board), "whiteboard.comment_created", id, { whiteboardId: board.id, elementId, text: input.text }, by)]
        }
      })
  ),

  updateComment: command(
    Schema.Struct({
      ...CommentRef.fields,
      admin: Schema.Boolean,
      text: Schema.optionalKey(CommentText),
      resolved: Schema.optionalKey(Schema.Boolean),
      elementId: Schema.optionalKey(ElementId),
      offsetX: Schema.optionalKey(Offset),
      offsetY: Schema.optionalKey(Offset)
    }),
    CommentsAfter,
    CommentChangeRefused,
    (input, by, whiteboardId) =>
      Effect.gen(function* () {
        const { board, comment } = yield* boardComment(whiteboardId, input.commentId)
        const edits =
          input.text !== undefined || input.elementId !== undefined || input.offsetX !== undefined || input.offsetY !== undefined
        // Anyone who may comment may resolve a thread; only its author (or an admin) rewrites or moves it.
        if (edits && comment.authorId !== by && !input.admin) return yield* new CommentAuthorOnly({ action: "changes" })
        const sets: Array<string> = []
        const params: Array<unknown> = [input.commentId]
        if (input.text !== undefined) sets.push(`text = $${params.push(input.text)}`)
        if (input.resolved !== undefined) sets.push(`resolved = $${params.push(input.resolved)}`)
        if (input.elementId !== undefined) sets.push(`element_id = $${params.push(input.elementId)}`)
        if (input.offsetX !== undefined) sets.push(`offset_x = $${params.push(input.offsetX)}`)
        if (input.offsetY !== undefined) sets.push(`offset_y = $${params.push(input.offsetY)}`)
        if (sets.length === 0) return { result: { id: comment.id, comments: yield* commentRows(whiteboardId) }, changes: [] }
        yield* query(`UPDATE pm_whiteboard_comments SET ${sets.join(", ")}, updated_at = now() WHERE id = $1`, params)
        // Resolving a thread resolves its replies too.
        if (input.resolved !== undefined && comment.parentCommentId === null)
          yield* query(`UPDATE pm_whiteboard_comments SET resolved = $2, updated_at = now() WHERE parent_comment_id = $1`, [
            comment.id,
            input.resolved
          ])
        const type =
          input.resolved !== undefined && !edits
            ? input.resolved
              ? "whiteboard.comment_resolved"
              : "whiteboard.comment_reopened"
            : "whiteboard.comment_updated"
        return {
          result: { id: comment.id, comments: yield* commentRows(whiteboardId) },
          changes: [change(where(board), type, comment.id, { whiteboardId: board.id }, by)]
        }
      })
  ),

  deleteComment: command(
    Schema.Struct({ ...CommentRef.fields, admin: Schema.Boolean }),
    CommentsAfter,
    CommentChangeRefused,
    (input, by, whiteboardId) =>
      Effect.gen(function* () {
        const { board, comment } = yield* boardComment(whiteboardId, input.commentId)
        if (comment.authorId !== by && !input.admin) return yield* new CommentAuthorOnly({ action: "deletes" })
        yield* query(`DELETE FROM pm_whiteboard_comments WHERE id = $1 OR parent_comment_id = $1`, [comment.id])
        return {
          result: { id: comment.id, comments: yield* commentRows(whiteboardId) },
          changes: [change(where(board), "whiteboard.comment_deleted", comment.id, { whiteboardId: board.id }, by)]
        }
      })
  )
}

const isBoard = (value: unknown): value is Whiteboard => typeof value === "object" && value !== null && "documentName" in value
const isCommentsAfter = (value: unknown): value is typeof CommentsAfter.Type =>
  typeof value === "object" && value !== null && "comments" in value

const CommentFilter = Schema.Struct({ elementId: Schema.optionalKey(Schema.String), resolved: Schema.optionalKey(Schema.Boolean) })

const present = (state: BoardState | null) => (state === null ? Effect.fail(new WhiteboardNotFound()) : Effect.succeed(state))

export const PmWhiteboard = workActor("pmWhiteboard", whiteboardCommands, {
  state: Schema.NullOr(BoardState),
  rebuild: (whiteboardId) => orAbsent(boardStateOf(whiteboardId)),
  reads: {
    get: {
      payload: Schema.Struct({}),
      success: Whiteboard,
      error: WhiteboardNotFound,
      handle: (_, state) => Effect.map(present(state), (s) => s.board)
    },
    /** The board's comments, oldest first, those on `elementId` and/or `resolved` as asked. */
    comments: {
      payload: CommentFilter,
      success: Schema.Array(CommentRecord),
      error: WhiteboardNotFound,
      handle: (filter, state) =>
        Effect.map(present(state), (s) =>
          s.comments.filter(
            (c) =>
              (filter.elementId === undefined || c.elementId === filter.elementId) &&
              (filter.resolved === undefined || c.resolved === filter.resolved)
          )
        )
    }
  },
  afterCommand: (_name, result, state) =>
    isBoard(result)
      ? { board: result, comments: state?.comments ?? [] }
      : isCommentsAfter(result) && state !== null
        ? { ...state, comments: result.comments }
        : undefined
})

export const whiteboardTemplateCommands = {
  /** Saves a board's current state (base64 Yjs update) as a workspace template. */
  createTemplate: command(
    Schema.Struct({
      name: Name(200),
      description: Schema.String.check(Schema.isMaxLength(2000)),
      state: Schema.String,
      elementCount: Schema.Number
    }),
    WhiteboardTemplate,
    Schema.Never,
    (input, by, workspaceId) =>
      Effect.gen(function* () {
        const id = crypto.randomUUID()
        yield* query(
          `INSERT INTO pm_whiteboard_templates (id, workspace_id, name, description, snapshot, element_count, created_by) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
          [id, workspaceId, input.name, input.description, Buffer.from(input.state, "base64"), input.elementCount, by]
        )
        const [template] = (yield* templatesOf(workspaceId)).filter((t) => t.id === id)
        return { result: template!, changes: [change({ workspaceId }, "whiteboard_template.created", id, { name: input.name }, by)] }
      })
  )
}

export const PmWhiteboardTemplates = workActor("pmWhiteboardTemplates", whiteboardTemplateCommands)
