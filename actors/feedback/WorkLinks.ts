/**
 * Feature requests and bug reports linked to the pm tasks that deliver them,
 * and how that work moves a board's requests. Run by the Board actor (the
 * single writer of `feedback_work_links` and `feedback_work_progress`) inside
 * `commitBoardWrite`. Task statuses come from the caller (read from pm's task
 * actors): the board never reads pm's rows.
 *
 * Progress, as a board declares it: the first linked task started (pm status
 * type `active`, or already finished) → the `started` status; every linked
 * task finished (`done` or `closed`) → the `done` status. The automation only
 * moves a request forward along the roadmap (open → under review → planned →
 * in progress → shipped), never out of a declined status, and never after a
 * person set its status: a status change made by anyone but the automation
 * after the request's latest link holds until a task is linked again.
 */
import { Effect, Schema } from "effect"
import { query } from "../../persistence/Sql.ts"
import { lastSeqs } from "../pm/EventLog.ts"
import type { WriteBody } from "./BoardLog.ts"
import type { BoardState, StatusType } from "./FeedbackModel.ts"
import { shortIdOf } from "./FeedbackModel.ts"
import { StatusNotOnBoard, WorkItemNotFound } from "./FeedbackErrors.ts"
import { reread, statusChange, withRequests } from "./RequestWrites.ts"

/** Who moves requests when work moves them: a fixed id, shown as "Work automation" in histories. */
export const WORK_AUTOMATION = "00000000-0000-4000-8000-00000000a024"

export const WorkItemKind = Schema.Literals(["request", "bug"]).annotate({ description: "request: a feature request; bug: a bug report" })
export type WorkItemKind = typeof WorkItemKind.Type

/** A pm task's status type (pm's `open`, `active`, `done`, `closed`), as the caller read it from the task. */
export const TaskProgress = Schema.Struct({
  taskId: Schema.String,
  shortId: Schema.String,
  statusType: Schema.Literals(["open", "active", "done", "closed"])
})
export type TaskProgress = typeof TaskProgress.Type

export const WorkProgress = Schema.Struct({
  startedStatusId: Schema.NullOr(Schema.String),
  doneStatusId: Schema.NullOr(Schema.String)
})
export type WorkProgress = typeof WorkProgress.Type

export const Moved = Schema.Struct({ moved: Schema.Boolean, statusId: Schema.NullOr(Schema.String), reason: Schema.String })
export type Moved = typeof Moved.Type

/**
 * Links a task to a request (checked against the board's memory) or a bug
 * report (the caller checked it with the desk). Linking an existing pair
 * changes nothing. The workspace's progress cursor starts here, at the pm log's
 * current end: what happened to tasks before is read from the tasks themselves.
 */
export const linkWork = (
  state: BoardState,
  by: string,
  input: { readonly itemKind: WorkItemKind; readonly itemId: string; readonly taskId: string; readonly field: string }
): WriteBody<{ readonly linked: boolean }, WorkItemNotFound> =>
  Effect.gen(function* () {
    if (input.itemKind === "request") {
      const request = state.requests.find((r) => r.id === input.itemId)
      if (request === undefined || request.mergedInto !== null)
        return yield* new WorkItemNotFound({ what: "feature request", field: input.field })
    }
    const rows = yield* query<{ item_id: string }>(
      `INSERT INTO feedback_work_links (item_id, task_id, board_id, workspace_id, item_kind, linked_by)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING RETURNING item_id`,
      [input.itemId, input.taskId, state.board.id, state.board.workspaceId, input.itemKind, by]
    )
    const workspaceId = state.board.workspaceId
    const seq = (yield* lastSeqs([workspaceId])).get(workspaceId) ?? 0
    yield* query("INSERT INTO feedback_work_cursors (workspace_id, last_seq) VALUES ($1, $2) ON CONFLICT DO NOTHING", [workspaceId, seq])
    const linked = rows.length > 0
    return {
      result: { linked },
      events: linked ? [{ type: `${input.itemKind}.work_linked`, entityId: input.itemId, data: { taskId: input.taskId } }] : []
    }
  })

export const unlinkWork = (
  state: BoardState,
  input: { readonly itemKind: WorkItemKind; readonly itemId: string; readonly taskId: string }
): WriteBody<void, WorkItemNotFound> =>
  Effect.gen(function* () {
    const rows = yield* query<{ item_id: string }>(
      "DELETE FROM feedback_work_links WHERE item_id = $1 AND task_id = $2 AND board_id = $3 AND item_kind = $4 RETURNING item_id",
      [input.itemId, input.taskId, state.board.id, input.itemKind]
    )
    if (rows.length === 0) return yield* new WorkItemNotFound({ what: "link to that task", field: "path.taskId" })
    return {
      result: undefined,
      events: [{ type: `${input.itemKind}.work_unlinked`, entityId: input.itemId, data: { taskId: input.taskId } }]
    }
  })

/** Declares the statuses work moves the board's requests to (null: that step moves nothing). */
export const setWorkProgress = (state: BoardState, by: string, progress: WorkProgress): WriteBody<WorkProgress, StatusNotOnBoard> =>
  Effect.gen(function* () {
    const isStatus = (id: string | null) => id === null || state.options.some((o) => o.id === id && o.kind === "status")
    if (!isStatus(progress.startedStatusId)) return yield* new StatusNotOnBoard({ field: "body.startedStatusId" })
    if (!isStatus(progress.doneStatusId)) return yield* new StatusNotOnBoard({ field: "body.doneStatusId" })
    yield* query(
      `INSERT INTO feedback_work_progress (board_id, started_status_id, done_status_id, updated_by) VALUES ($1, $2, $3, $4)
       ON CONFLICT (board_id) DO UPDATE SET started_status_id = $2, done_status_id = $3, updated_by = $4, updated_at = now()`,
      [state.board.id, progress.startedStatusId, progress.doneStatusId, by]
    )
    return {
      result: progress,
      events: [{ type: "board.work_progress_updated", entityId: state.board.id, data: { ...progress }, teamOnly: true }]
    }
  })

/** The roadmap's order: the automation moves a request only to a later step. */
const rank: Record<StatusType, number> = { open: 0, under_review: 1, planned: 2, in_progress: 3, shipped: 4, declined: 5 }

const finished = (task: TaskProgress) => task.statusType === "done" || task.statusType === "closed"

/**
 * Moves the request as its linked work says (see the module's comment), with
 * the automation as the author of the change; `tasks` are the statuses the
 * caller read, `gone` the linked tasks it found deleted (they no longer
 * count). A request already where its work puts it, held by a person, or with
 * a linked task the caller did not report, is left alone — so applying the
 * same progress again (a replayed event) changes nothing.
 */
export const applyWork = (
  state: BoardState,
  requestId: string,
  tasks: ReadonlyArray<TaskProgress>,
  gone: ReadonlyArray<string>
): WriteBody<Moved, WorkItemNotFound> =>
  Effect.gen(function* () {
    const stay = (reason: string) => ({ result: { moved: false, statusId: null, reason }, events: [] })
    const request = state.requests.find((r) => r.id === requestId)
    if (request === undefined) return yield* new WorkItemNotFound({ what: "feature request", field: "featureRequestId" })
    if (request.mergedInto !== null) return stay("merged")
    const config = (yield* query<{ started_status_id: string | null; done_status_id: string | null }>(
      "SELECT started_status_id, done_status_id FROM feedback_work_progress WHERE board_id = $1",
      [state.board.id]
    ))[0]
    if (config === undefined) return stay("the board moves nothing with work")
    const links = yield* query<{ task_id: string }>("SELECT task_id FROM feedback_work_links WHERE item_id = $1", [requestId])
    const linked = links.filter((l) => !gone.includes(l.task_id))
    if (linked.length === 0) return stay("no linked work")
    const reported = new Map(tasks.map((t) => [t.taskId, t]))
    const work = linked.map((l) => reported.get(l.task_id))
    if (work.some((t) => t === undefined)) return stay("a linked task's status is unknown")
    const known = work as ReadonlyArray<TaskProgress>
    const allDone = known.every(finished)
    const started = known.filter((t) => t.statusType === "active" || finished(t))
    const targetId = allDone ? config.done_status_id : started.length > 0 ? config.started_status_id : null
    const target = state.options.find((o) => o.id === targetId && o.kind === "status")
    if (target === undefined) return stay("no step applies")
    const current = state.options.find((o) => o.id === request.statusId)
    const currentType = current?.type ?? "open"
    if (currentType === "declined" || rank[target.type ?? "open"] <= rank[currentType]) return stay("already there or further")
    const held = yield* query<{ held: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM feedback_status_history h WHERE h.request_id = $1 AND h.changed_by <> $2
          AND h.changed_at > (SELECT max(linked_at) FROM feedback_work_links WHERE item_id = $1)) AS held`,
      [requestId, WORK_AUTOMATION]
    )
    if (held[0]?.held === true) return stay("a person set the status after the latest link")
    const note = allDone
      ? `All linked tasks done (${known.map((t) => t.shortId).join(", ")})`
      : `Work started (${started.map((t) => t.shortId).join(", ")})`
    const change = yield* statusChange(state, WORK_AUTOMATION, request, target.id, note)
    const record = yield* reread(requestId)
    return {
      result: { moved: true, statusId: target.id, reason: note },
      events: [{ ...change.event, data: { ...change.event.data, automated: true, shortId: shortIdOf(record.number) } }],
      notices: [change.notice],
      next: withRequests(state, [record])
    }
  })
