/**
 * Links between feedback and pm work as the operations show them, from
 * either side: a request's (or bug report's) tasks with their status, a
 * task's requests and bug reports with their vote counts. Each side shows
 * only what the reader may see on the other (a task in a private space, a
 * private board), asking that side's access rules; nothing here reads the
 * other side's rows.
 */
import { Effect, Option, Schema } from "effect"
import { visibleTo } from "../../actors/feedback/BoardReads.ts"
import { type BugReport, shortBugId } from "../../actors/feedback/DeskRecords.ts"
import { bugReference, requestReference } from "../../actors/feedback/BoardKeys.ts"
import { shortIdOf } from "../../actors/feedback/FeedbackModel.ts"
import { itemsLinkedTo, tasksLinkedTo } from "../../actors/feedback/WorkLinkReads.ts"
import type { WorkItemKind } from "../../actors/feedback/WorkLinks.ts"
import { applyRequestProgress } from "../../actors/feedback/WorkProgress.ts"
import { Id, Timestamp } from "../../actors/Fields.ts"
import { StatusType as TaskStatusType, type Task } from "../../actors/pm/WorkRecords.ts"
import { reject } from "../../runtime/Rejection.ts"
import type { RequestContext } from "../Operation.ts"
import { onTask, orDieSql } from "../pm/WorkAccess.ts"
import { board, desk } from "./BoardAsk.ts"
import { visibleBug } from "./BugReports.ts"
import type { BoardCaller } from "./DeskAccess.ts"
import { boardAccess } from "./FeedbackAccess.ts"
import { ex } from "./deskExamples.ts"

export const LinkedTask = Schema.Struct({
  taskId: Id,
  shortId: Schema.String,
  name: Schema.String,
  status: Schema.Struct({ name: Schema.String, type: TaskStatusType, color: Schema.String }),
  listId: Id,
  linkedAt: Timestamp
}).annotate({ identifier: "FeedbackLinkedTask" })
export type LinkedTask = typeof LinkedTask.Type

export const LinkedTaskList = Schema.Struct({ items: Schema.Array(LinkedTask) }).annotate({ identifier: "FeedbackLinkedTaskList" })

export const LinkedFeedback = Schema.Struct({
  kind: Schema.Literals(["request", "bug"]).annotate({ description: "request: a feature request; bug: a bug report" }),
  id: Id,
  shortId: Schema.String.annotate({ description: "FR-12 or B-3, numbered per board" }),
  reference: Schema.String.annotate({ description: "MOBILE-12 or MOBILE-B3: names it in the whole workspace (board key first)" }),
  boardId: Id,
  boardName: Schema.String,
  boardSlug: Schema.String,
  title: Schema.String,
  voteCount: Schema.Number.annotate({ description: "Votes of a feature request (0 for a bug report)" }),
  status: Schema.NullOr(Schema.String).annotate({ description: "A request's status, or a bug report's status level" }),
  linkedAt: Timestamp
}).annotate({ identifier: "TaskLinkedFeedback" })
export type LinkedFeedback = typeof LinkedFeedback.Type

export const LinkedFeedbackList = Schema.Struct({ items: Schema.Array(LinkedFeedback) }).annotate({ identifier: "TaskLinkedFeedbackList" })

/** The task as the caller may see it in pm, or nothing (gone, deleted, in a space they do not see). */
const visibleTask = (context: RequestContext, taskId: string) =>
  onTask(context, taskId).pipe(
    Effect.map((caller) => (caller.task.deletedAt === null ? Option.some(caller.task) : Option.none<Task>())),
    Effect.catchTag("Rejection", () => Effect.succeed(Option.none<Task>()))
  )

/** The tasks linked to a request or bug report that the caller may see, oldest link first. */
export const linkedTasksOf = (context: RequestContext, itemId: string) =>
  Effect.gen(function* () {
    const links = yield* orDieSql(tasksLinkedTo(itemId))
    const tasks = yield* Effect.forEach(links, (link) => visibleTask(context, link.taskId), { concurrency: 8 })
    return {
      items: links.flatMap((link, i): Array<LinkedTask> => {
        const task = tasks[i]!
        if (Option.isNone(task)) return []
        const { id, shortId, name, status, listId } = task.value
        return [{ taskId: id, shortId, name, status, listId, linkedAt: link.linkedAt }]
      })
    }
  })

/**
 * Links a task the caller may see, of the board's workspace, to a request or
 * bug report of the board (the caller's standing on the board checked before);
 * a request then takes at once the progress its work already made.
 */
export const linkTask = (
  context: RequestContext,
  caller: BoardCaller,
  item: { readonly kind: WorkItemKind; readonly id: string; readonly field: string },
  taskId: string,
  taskField: string
) =>
  Effect.gen(function* () {
    const task = yield* visibleTask(context, taskId)
    if (Option.isNone(task) || task.value.workspaceId !== caller.view.board.workspaceId)
      return yield* reject("not_found", "No such task in this board's workspace", [{ path: taskField, message: "not found" }])
    const boardId = caller.view.board.id
    yield* board(boardId).linkWork({ by: caller.userId, itemKind: item.kind, itemId: item.id, taskId, field: item.field })
    if (item.kind === "request") yield* orDieSql(applyRequestProgress(boardId, item.id))
    return task.value
  })

/** Removes a link; a request keeps the status its work gave it. */
export const unlinkTask = (caller: BoardCaller, item: { readonly kind: WorkItemKind; readonly id: string }, taskId: string) =>
  board(caller.view.board.id).unlinkWork({ by: caller.userId, itemKind: item.kind, itemId: item.id, taskId })

/** The requests and bug reports linked to a task that the caller may see (their boards, and each post's own visibility). */
export const linkedFeedbackOf = (context: RequestContext, taskId: string) =>
  Effect.gen(function* () {
    const items = yield* orDieSql(itemsLinkedTo([taskId]))
    const shown: Array<LinkedFeedback> = []
    const callers = new Map<string, Option.Option<BoardCaller>>()
    const bugsOf = new Map<string, ReadonlyArray<BugReport>>()
    for (const item of items) {
      if (!callers.has(item.boardId)) callers.set(item.boardId, yield* Effect.option(boardAccess(context, item.boardId)))
      const caller = callers.get(item.boardId)!
      if (Option.isNone(caller)) continue
      const { view, userId, team } = caller.value
      if (item.kind === "request") {
        const request = yield* Effect.option(board(item.boardId).request({ requestId: item.id }))
        if (Option.isNone(request) || !visibleTo(request.value, userId, team)) continue
      } else {
        if (!bugsOf.has(item.boardId)) bugsOf.set(item.boardId, yield* desk(item.boardId).bugs({}))
        const bug = bugsOf.get(item.boardId)!.find((b) => b.id === item.id)
        if (bug === undefined || !visibleBug(caller.value, bug)) continue
      }
      shown.push({
        kind: item.kind,
        id: item.id,
        shortId: item.kind === "request" ? shortIdOf(item.number) : shortBugId(item.number),
        reference: item.kind === "request" ? requestReference(view.board.key, item.number) : bugReference(view.board.key, item.number),
        boardId: item.boardId,
        boardName: view.board.name,
        boardSlug: view.board.slug,
        title: item.title,
        voteCount: item.voteCount,
        status: view.options.find((o) => o.id === item.statusId)?.name ?? null,
        linkedAt: item.linkedAt
      })
    }
    return { items: shown }
  })

export const exampleLinkedTask: LinkedTask = {
  taskId: "3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f",
  shortId: "T-42",
  name: "Dark theme tokens",
  status: { name: "in progress", type: "active", color: "#3b82f6" },
  listId: "4d5e6f7a-8b9c-4d0e-9f1a-2b3c4d5e6f7a",
  linkedAt: ex.at
}

export const exampleLinkedFeedback: LinkedFeedback = {
  kind: "request",
  id: ex.featureRequestId,
  shortId: "FR-12",
  reference: "PRODUCTIDE-12",
  boardId: ex.boardId,
  boardName: "Product ideas",
  boardSlug: ex.slug,
  title: "Dark mode",
  voteCount: 3,
  status: "In progress",
  linkedAt: ex.at
}
