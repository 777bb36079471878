/**
 * Writes of feature requests on a board: create (numbered FR-n per board),
 * edit, delete, status changes (with history, notifying subscribers), pin,
 * lock, owner, bulk triage. Run by the Board actor inside `commitBoardWrite`;
 * each returns the board state with the changed requests re-read.
 */
import { randomUUID } from "node:crypto"
import { Effect } from "effect"
import { query } from "../../persistence/Sql.ts"
import type { ProseMirrorJson } from "../wiki/WikiViews.ts"
import { REQUEST_COLUMNS, type RequestRow, requestRow, toRequest } from "./BoardRows.ts"
import type { Notice, WriteBody } from "./BoardLog.ts"
import { type BoardState, type RequestRecord, shortIdOf } from "./FeedbackModel.ts"
import {
  BulkRequestClosed,
  BulkRequestNotFound,
  OptionNotOnBoard,
  RequestHasDuplicates,
  RequestLocked,
  RequestMerged,
  RequestNotFound,
  StatusUnchanged
} from "./FeedbackErrors.ts"

export interface RequestFields {
  readonly title?: string
  readonly content?: ProseMirrorJson
  readonly markdown?: string
  readonly text?: string
  readonly categoryId?: string | null
  readonly productAreaId?: string | null
}

/** The state with `records` replacing (or added to) its requests. */
export const withRequests = (state: BoardState, records: ReadonlyArray<RequestRecord>): BoardState => {
  const byId = new Map(records.map((r) => [r.id, r]))
  const kept = state.requests.map((r) => byId.get(r.id) ?? r)
  const added = records.filter((r) => !state.requests.some((s) => s.id === r.id))
  return { ...state, requests: [...kept, ...added] }
}

export const requestOf = (state: BoardState, requestId: string): Effect.Effect<RequestRecord, RequestNotFound> => {
  const request = state.requests.find((r) => r.id === requestId)
  return request === undefined ? Effect.fail(new RequestNotFound()) : Effect.succeed(request)
}

/** A request that may still change: not merged away, not locked (unless `evenLocked`). */
export const openRequest = (
  state: BoardState,
  requestId: string,
  evenLocked = false
): Effect.Effect<RequestRecord, RequestNotFound | RequestMerged | RequestLocked> =>
  Effect.flatMap(
    requestOf(state, requestId),
    (request): Effect.Effect<RequestRecord, RequestMerged | RequestLocked> =>
      request.mergedInto !== null
        ? Effect.fail(new RequestMerged({ into: request.mergedInto }))
        : request.locked && !evenLocked
          ? Effect.fail(new RequestLocked())
          : Effect.succeed(request)
  )

const optionRef = (state: BoardState, kind: "category" | "product_area" | "status", id: string | null | undefined, field: string) => {
  if (id === undefined || id === null) return Effect.succeed(id)
  return state.options.some((o) => o.id === id && o.kind === kind) ? Effect.succeed(id) : Effect.fail(new OptionNotOnBoard({ kind, field }))
}

export const reread = (requestId: string) =>
  Effect.flatMap(requestRow(requestId), (record) =>
    record === undefined ? Effect.die(new Error(`request ${requestId} vanished`)) : Effect.succeed(record)
  )

const statusName = (state: BoardState, id: string | null) => state.options.find((o) => o.id === id)?.name ?? null

export const createRequest = (
  state: BoardState,
  by: string,
  input: RequestFields & {
    readonly requestId: string
    readonly title: string
    readonly content: ProseMirrorJson
    readonly markdown: string
    readonly text: string
    readonly authorId: string | null
    readonly authorName: string | null
    readonly statusId?: string
    readonly moderationState: RequestRecord["moderationState"]
  }
): WriteBody<RequestRecord> =>
  Effect.gen(function* () {
    const categoryId = yield* optionRef(state, "category", input.categoryId, "body.categoryId")
    const productAreaId = yield* optionRef(state, "product_area", input.productAreaId, "body.productAreaId")
    const statuses = state.options.filter((o) => o.kind === "status")
    const statusId = input.statusId ?? (statuses.find((o) => o.isDefault) ?? statuses[0])?.id ?? null
    const numbered = yield* query<{ next_request_number: number }>(
      "UPDATE feedback_boards SET next_request_number = next_request_number + 1 WHERE id = $1 RETURNING next_request_number",
      [state.board.id]
    )
    const rows = yield* query<RequestRow>(
      `INSERT INTO feedback_requests (id, board_id, workspace_id, number, title, description, description_text, category_id,
         product_area_id, status_id, author_id, author_name, moderation_state, description_markdown)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING ${REQUEST_COLUMNS}`,
      [
        input.requestId,
        state.board.id,
        state.board.workspaceId,
        Number(numbered[0]!.next_request_number),
        input.title,
        input.content,
        input.text,
        categoryId ?? null,
        productAreaId ?? null,
        statusId,
        input.authorId,
        input.authorName,
        input.moderationState,
        input.markdown
      ]
    )
    if (input.authorId !== null) {
      yield* query("INSERT INTO feedback_subscribers (request_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING", [
        input.requestId,
        input.authorId
      ])
    }
    yield* query(
      "INSERT INTO feedback_status_history (id, request_id, from_status_id, to_status_id, to_name, note, changed_by) VALUES ($1, $2, NULL, $3, $4, 'created', $5)",
      [randomUUID(), input.requestId, statusId, statusName(state, statusId), by]
    )
    const record = toRequest(rows[0]!)
    // Followers of the whole board hear of each new (approved) request.
    const followers =
      record.moderationState === "approved"
        ? yield* query<{ user_id: string }>("SELECT user_id FROM feedback_board_subscribers WHERE board_id = $1", [state.board.id])
        : []
    const notices: Array<Notice> =
      followers.length === 0
        ? []
        : [
            {
              requestId: record.id,
              reason: "new_request",
              title: `New on ${state.board.name}: ${shortIdOf(record.number)} ${record.title}`,
              userIds: followers.map((f) => f.user_id)
            }
          ]
    return {
      result: record,
      notices,
      events: [
        {
          type: "request.created",
          entityId: record.id,
          data: { shortId: shortIdOf(record.number), title: record.title },
          teamOnly: record.moderationState !== "approved"
        }
      ],
      next: withRequests(state, [record])
    }
  })

export const updateRequest = (state: BoardState, requestId: string, fields: RequestFields): WriteBody<RequestRecord> =>
  Effect.gen(function* () {
    const current = yield* openRequest(state, requestId, true)
    const categoryId = yield* optionRef(state, "category", fields.categoryId, "body.categoryId")
    const productAreaId = yield* optionRef(state, "product_area", fields.productAreaId, "body.productAreaId")
    yield* query(
      `UPDATE feedback_requests SET title = $2, description = $3, description_text = $4, category_id = $5, product_area_id = $6,
         description_markdown = $7, updated_at = now()
       WHERE id = $1`,
      [
        requestId,
        fields.title ?? current.title,
        fields.content ?? current.content,
        fields.text ?? current.text,
        categoryId === undefined ? current.categoryId : categoryId,
        productAreaId === undefined ? current.productAreaId : productAreaId,
        fields.markdown ?? current.markdown
      ]
    )
    const record = yield* reread(requestId)
    const changed = Object.keys(fields).filter((k) => k !== "content" && k !== "text" && k !== "markdown")
    return {
      result: record,
      events: [{ type: "request.updated", entityId: requestId, data: { fields: fields.content ? [...changed, "description"] : changed } }],
      next: withRequests(state, [record])
    }
  })

export const deleteRequest = (state: BoardState, requestId: string): WriteBody<{ readonly blobKeys: ReadonlyArray<string> }> =>
  Effect.gen(function* () {
    const current = yield* requestOf(state, requestId)
    const duplicates = state.requests.filter((r) => r.mergedInto === requestId)
    if (duplicates.length > 0) {
      return yield* new RequestHasDuplicates({ shortIds: duplicates.map((d) => shortIdOf(d.number)) })
    }
    const blobs = yield* query<{ blob_key: string }>("DELETE FROM feedback_attachments WHERE request_id = $1 RETURNING blob_key", [
      requestId
    ])
    yield* query("DELETE FROM feedback_merges WHERE source_id = $1 OR target_id = $1", [requestId])
    yield* query("DELETE FROM feedback_work_links WHERE item_id = $1", [requestId])
    yield* query("DELETE FROM feedback_requests WHERE id = $1", [requestId])
    return {
      result: { blobKeys: blobs.map((b) => b.blob_key) },
      events: [{ type: "request.deleted", entityId: requestId, data: { shortId: shortIdOf(current.number) } }],
      next: { ...state, requests: state.requests.filter((r) => r.id !== requestId) }
    }
  })

export const statusChange = (state: BoardState, by: string, request: RequestRecord, statusId: string, note: string) =>
  Effect.gen(function* () {
    const status = state.options.find((o) => o.id === statusId && o.kind === "status")!
    yield* query("UPDATE feedback_requests SET status_id = $2, updated_at = now() WHERE id = $1", [request.id, statusId])
    yield* query(
      `INSERT INTO feedback_status_history (id, request_id, from_status_id, to_status_id, from_name, to_name, note, changed_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [randomUUID(), request.id, request.statusId, statusId, statusName(state, request.statusId), status.name, note, by]
    )
    const notice: Notice = {
      requestId: request.id,
      reason: status.type === "shipped" ? "shipped" : "status_changed",
      title: `${shortIdOf(request.number)} ${request.title}: ${status.name}`
    }
    return {
      event: {
        type: "request.status_changed",
        entityId: request.id,
        data: { statusId, status: status.name, type: status.type, from: request.statusId }
      },
      notice
    }
  })

export const changeStatus = (state: BoardState, by: string, requestId: string, statusId: string, note: string): WriteBody<RequestRecord> =>
  Effect.gen(function* () {
    const request = yield* openRequest(state, requestId, true)
    yield* optionRef(state, "status", statusId, "body.statusId")
    if (request.statusId === statusId) return yield* new StatusUnchanged()
    const change = yield* statusChange(state, by, request, statusId, note)
    const record = yield* reread(requestId)
    return { result: record, events: [change.event], notices: [change.notice], next: withRequests(state, [record]) }
  })

export interface RequestFlags {
  readonly pinned?: boolean
  readonly locked?: boolean
  readonly ownerId?: string | null
}

export const setFlags = (state: BoardState, requestId: string, flags: RequestFlags): WriteBody<RequestRecord> =>
  Effect.gen(function* () {
    const request = yield* requestOf(state, requestId)
    yield* query("UPDATE feedback_requests SET pinned = $2, locked = $3, owner_id = $4, updated_at = now() WHERE id = $1", [
      requestId,
      flags.pinned ?? request.pinned,
      flags.locked ?? request.locked,
      flags.ownerId === undefined ? request.ownerId : flags.ownerId
    ])
    const record = yield* reread(requestId)
    return {
      result: record,
      events: [{ type: "request.updated", entityId: requestId, data: { ...flags } }],
      next: withRequests(state, [record])
    }
  })

/** Sets status, category and/or product area of several requests at once (all or none). */
export const bulkUpdate = (
  state: BoardState,
  by: string,
  ids: ReadonlyArray<string>,
  change: { readonly statusId?: string; readonly categoryId?: string | null; readonly productAreaId?: string | null }
): WriteBody<ReadonlyArray<RequestRecord>> =>
  Effect.gen(function* () {
    if (change.statusId !== undefined) yield* optionRef(state, "status", change.statusId, "body.statusId")
    yield* optionRef(state, "category", change.categoryId, "body.categoryId")
    yield* optionRef(state, "product_area", change.productAreaId, "body.productAreaId")
    const events = []
    const notices = []
    for (const [index, id] of [...new Set(ids)].entries()) {
      const request = yield* openRequest(state, id, true).pipe(
        Effect.mapError((e) =>
          e._tag === "RequestNotFound"
            ? new BulkRequestNotFound({ index, reason: e.message })
            : new BulkRequestClosed({ index, reason: e.message })
        )
      )
      if (change.statusId !== undefined && change.statusId !== request.statusId) {
        const made = yield* statusChange(state, by, request, change.statusId, "bulk update")
        events.push(made.event)
        notices.push(made.notice)
      }
      if (change.categoryId !== undefined || change.productAreaId !== undefined) {
        yield* query("UPDATE feedback_requests SET category_id = $2, product_area_id = $3, updated_at = now() WHERE id = $1", [
          id,
          change.categoryId === undefined ? request.categoryId : change.categoryId,
          change.productAreaId === undefined ? request.productAreaId : change.productAreaId
        ])
        events.push({ type: "request.updated", entityId: id, data: { categoryId: change.categoryId, productAreaId: change.productAreaId } })
      }
    }
    const records = yield* Effect.forEach([...new Set(ids)], reread)
    return { result: records, events, notices, next: withRequests(state, records) }
  })
