/**
 * Progress flows back: pm task status changes move the feature requests
 * linked to them, as each board declared (`WorkLinks.ts`).
 *
 * Driven by the pm event log, the way automations are: each workspace with
 * linked work has a cursor (`feedback_work_cursors`) that one node at a time
 * holds a lease on; the worker reads the `status.changed` events past it, asks
 * the Board actor of every request linked to the changed task to apply its
 * work's progress, and advances the cursor after each event. A crash or a
 * failed ask leaves the cursor before the event, so the event is read again;
 * applying progress twice changes nothing (the Board decides from the tasks'
 * current statuses), so no event is lost and none acts twice. Events pruned
 * from the log before they were read (`PM_EVENT_RETENTION`) are made up for by
 * applying the progress of every linked request of the workspace.
 */
import { Effect } from "effect"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { moreLeft, nothingLeft, type Pass, runWorker } from "../../runtime/Wakeup.ts"
import { changesAppended } from "../pm/ChangeLogLive.ts"
import { lastSeqs, oldestSeq, taskStatusChanges } from "../pm/EventLog.ts"
import { read } from "../pm/WorkActor.ts"
import { PmTask } from "../pm/WorkActors.ts"
import { Board } from "./Board.ts"
import { advanceWorkCursor, itemsLinkedTo, leaseWorkCursor, requestsWithWork, tasksLinkedTo, workCursors } from "./WorkLinkReads.ts"
import type { TaskProgress } from "./WorkLinks.ts"

const NODE = crypto.randomUUID()
const BATCH = 200
const LEASE_SECONDS = 30

/**
 * The current status types of a request's linked tasks, from pm's task
 * actors, and the linked tasks that are gone (deleted, or no such task). A
 * task actor that does not answer fails the whole read, so the caller tries
 * again rather than decide without it.
 */
export const linkedTaskProgress = (requestId: string) =>
  Effect.gen(function* () {
    const links = yield* tasksLinkedTo(requestId)
    const found = yield* Effect.forEach(
      links,
      (link) =>
        read(PmTask, link.taskId, "get", {}).pipe(
          Effect.map((task) => (task.deletedAt === null ? task : undefined)),
          Effect.catchTag("TaskNotFound", () => Effect.succeed(undefined))
        ),
      { concurrency: 8 }
    )
    const tasks: Array<TaskProgress> = []
    const gone: Array<string> = []
    links.forEach((link, i) => {
      const task = found[i]
      if (task === undefined) gone.push(link.taskId)
      else tasks.push({ taskId: task.id, shortId: task.shortId, statusType: task.status.type })
    })
    return { tasks, gone }
  })

/** Applies a request's work progress on its board (a request or board gone, or an archived board, moves nothing). */
export const applyRequestProgress = (boardId: string, requestId: string) =>
  Effect.gen(function* () {
    const { tasks, gone } = yield* linkedTaskProgress(requestId)
    const board = Board.client(yield* ActorSystem)(boardId)
    return yield* board.applyWork({ requestId, tasks, gone }).pipe(
      Effect.catchTags({
        BoardNotFound: () => Effect.succeed(undefined),
        BoardArchived: () => Effect.succeed(undefined),
        WorkItemNotFound: () => Effect.succeed(undefined)
      })
    )
  })

/** Reads one workspace's log past its cursor up to `head`; true when a full batch leaves more to read. */
const followWorkspace = (workspaceId: string, head: number) =>
  Effect.gen(function* () {
    const cursor = yield* leaseWorkCursor(workspaceId, NODE, LEASE_SECONDS)
    if (cursor === undefined || cursor >= head) return false
    const oldest = yield* oldestSeq(workspaceId)
    if (oldest !== undefined && oldest > cursor + 1) {
      for (const { boardId, requestId } of yield* requestsWithWork(workspaceId)) yield* applyRequestProgress(boardId, requestId)
      yield* advanceWorkCursor(workspaceId, NODE, head)
      return false
    }
    const changes = yield* taskStatusChanges(workspaceId, cursor, head, BATCH)
    for (const change of changes) {
      for (const item of yield* itemsLinkedTo([change.taskId])) {
        if (item.kind === "request") yield* applyRequestProgress(item.boardId, item.id)
      }
      yield* advanceWorkCursor(workspaceId, NODE, change.seq)
    }
    const full = changes.length === BATCH
    yield* advanceWorkCursor(workspaceId, NODE, full ? changes[changes.length - 1]!.seq : head)
    return full
  })

/** One pass over the workspaces whose log moved past their cursor; true when a backlog is left. */
export const workProgressPass = Effect.gen(function* () {
  const cursors = yield* workCursors
  if (cursors.length === 0) return false
  const heads = yield* lastSeqs(cursors.map((c) => c.workspaceId))
  let more = false
  for (const { workspaceId, lastSeq } of cursors) {
    const head = heads.get(workspaceId) ?? 0
    if (head > lastSeq && (yield* followWorkspace(workspaceId, head))) more = true
  }
  return more
})

/**
 * Runs forever: passes back to back while a backlog is left, else sleeps
 * until a pm change is committed (the change log's wake-up) or the safety
 * poll; passes start at least `paceMillis` apart.
 */
export const workProgressWorker = (paceMillis: number) =>
  runWorker(
    changesAppended,
    workProgressPass.pipe(
      Effect.map((more) => (more ? moreLeft : nothingLeft)),
      Effect.catchCause((cause) =>
        Effect.as(Effect.logWarning("feedback: work progress pass failed", cause), { dueAt: Date.now() + paceMillis } satisfies Pass)
      )
    ),
    { paceMillis }
  )
