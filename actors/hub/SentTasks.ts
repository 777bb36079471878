/**
 * Action items sent as tasks: to a vendor (through the workspace's
 * connection and its adapter) or to Atrium's own pm service (through the pm
 * list actor's normal `createTask`). Idempotent per (call, action item,
 * target): a resend answers the task already created. `sync` reads each sent
 * task back and records what changed there (status, assignee) as task changes.
 */
import { randomUUID } from "node:crypto"
import { Effect, Schema } from "effect"
import { PmList, PmTask } from "../pm/WorkActors.ts"
import { read, send } from "../pm/WorkActor.ts"
import { query } from "../../persistence/Sql.ts"
import { Id, Timestamp } from "../Fields.ts"
import { IntegrationTarget } from "../identity/Workspace.ts"
import { activeOf, get as getConnection } from "./connections/Connections.ts"
import { createRemoteTask, fetchRemoteState, type TaskVendor } from "./connections/VendorClient.ts"
import type { CallActionItem } from "./CallView.ts"

export const SentTask = Schema.Struct({
  id: Id,
  recordingId: Schema.Number,
  actionItemId: Schema.String,
  target: IntegrationTarget,
  destination: Schema.NullOr(Schema.String),
  text: Schema.String,
  externalId: Schema.String,
  url: Schema.String,
  remoteStatus: Schema.NullOr(Schema.String),
  remoteAssignee: Schema.NullOr(Schema.String),
  sentAt: Timestamp,
  syncedAt: Schema.NullOr(Timestamp)
}).annotate({ identifier: "SentTask" })
export type SentTask = typeof SentTask.Type

const columns = `id, recording_id AS "recordingId", action_item_id AS "actionItemId", target, destination, text, external_id AS "externalId", url,
  remote_status AS "remoteStatus", remote_assignee AS "remoteAssignee", sent_at AS "sentAt", synced_at AS "syncedAt"`

export const sentTasks = (where: string, params: ReadonlyArray<unknown>) =>
  Effect.map(Effect.orDie(query<SentTask>(`SELECT ${columns} FROM hub_sent_action_items WHERE ${where}`, params)), (rows) =>
    rows.map((row) => ({ ...row, recordingId: Number(row.recordingId) }))
  )

export interface SendRequest {
  readonly workspaceId: string
  readonly recordingId: number
  readonly callName: string
  readonly userId: string
  readonly origin: string
  /** The call's page in the web app: pm tasks link back to it. */
  readonly callUrl: string
  readonly target: typeof IntegrationTarget.Type
  /** pm: the list id the tasks go to. */
  readonly destination: string | null
  readonly items: ReadonlyArray<CallActionItem>
}

const draftOf = (request: SendRequest, item: CallActionItem) => ({
  title: item.text.length > 250 ? `${item.text.slice(0, 247)}…` : item.text,
  description: `Action item from the call "${request.callName}".`,
  owner: item.assigneeEmail ?? item.owner ?? null,
  dueDate: item.dueDate ?? null
})

/** Creates the task in the target; nothing is recorded when it fails. */
const createTask = (request: SendRequest, item: CallActionItem) =>
  Effect.gen(function* () {
    const draft = draftOf(request, item)
    if (request.target === "pm") {
      const task = yield* send(PmList, request.destination!, "createTask", request.userId, {
        name: draft.title,
        description: `${draft.description}${draft.owner ? ` Owner: ${draft.owner}.` : ""} From the call: ${request.callUrl}`,
        ...(draft.dueDate ? { dueDate: `${draft.dueDate}T17:00:00.000Z` } : {})
      })
      return { externalId: task.id, url: `${request.origin}/pm/v1/tasks/${task.id}`, status: task.status.name }
    }
    const connection = yield* activeOf(request.workspaceId, request.target)
    const remote = yield* createRemoteTask(connection, draft)
    // What a new task is in each vendor kind's shape (the adapters read it back the same way).
    return { ...remote, connectionId: connection.id, status: request.target === "tablebase" ? "Open" : "open" }
  })

/** Sends each item once per target; items sent before are answered from the record. */
export const sendActionItems = (request: SendRequest) =>
  Effect.forEach(request.items, (item) =>
    Effect.gen(function* () {
      const [existing] = yield* sentTasks("recording_id = $1 AND action_item_id = $2 AND target = $3", [
        request.recordingId,
        item.id,
        request.target
      ])
      if (existing) return { task: existing, alreadySent: true }
      const created = yield* createTask(request, item)
      const destination = "connectionId" in created ? created.connectionId : request.destination
      yield* Effect.orDie(
        query(
          `INSERT INTO hub_sent_action_items (id, workspace_id, recording_id, action_item_id, target, destination, text, external_id, url, sent_by, remote_status)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (recording_id, action_item_id, target) DO NOTHING`,
          [
            randomUUID(),
            request.workspaceId,
            request.recordingId,
            item.id,
            request.target,
            destination,
            item.text,
            created.externalId,
            created.url,
            request.userId,
            created.status
          ]
        )
      )
      const [row] = yield* sentTasks("recording_id = $1 AND action_item_id = $2 AND target = $3", [
        request.recordingId,
        item.id,
        request.target
      ])
      return { task: row!, alreadySent: row!.externalId !== created.externalId }
    })
  )

/** The state of a sent task in its target now. */
const remoteStateOf = (workspaceId: string, sent: SentTask) =>
  Effect.gen(function* () {
    if (sent.target === "pm") {
      const task = yield* read(PmTask, sent.externalId, "get", {})
      return { status: task.status.name, assignee: task.assignees.map((a) => a.email).join(", ") || null }
    }
    const connection = yield* getConnection(workspaceId, sent.destination ?? "")
    return yield* fetchRemoteState(connection, sent.externalId)
  })

/**
 * Reads every sent task of the workspace (optionally of one call) back from its
 * target and records each change of status or assignee; answers the count of
 * tasks checked and of changes found. A target that fails is skipped (its
 * tasks are checked next time) unless it is the only one asked about.
 */
export const syncSentTasks = (workspaceId: string, recordingId: number | null) =>
  Effect.gen(function* () {
    const sent = yield* sentTasks(
      recordingId === null ? "workspace_id = $1 ORDER BY sent_at" : "workspace_id = $1 AND recording_id = $2 ORDER BY sent_at",
      recordingId === null ? [workspaceId] : [workspaceId, recordingId]
    )
    let changes = 0
    let checked = 0
    for (const task of sent) {
      const state = yield* remoteStateOf(workspaceId, task).pipe(Effect.option)
      if (state._tag === "None") continue
      checked++
      const found: Array<[string, string | null, string | null]> = []
      if (state.value.status !== task.remoteStatus) found.push(["status", task.remoteStatus, state.value.status])
      // The assignee a vendor shows is only known from the first sync on: that one sets the baseline.
      if (task.syncedAt !== null && state.value.assignee !== task.remoteAssignee)
        found.push(["assignee", task.remoteAssignee, state.value.assignee])
      for (const [field, oldValue, newValue] of found) {
        yield* Effect.orDie(
          query(`INSERT INTO hub_task_changes (id, workspace_id, sent_id, field, old_value, new_value) VALUES ($1, $2, $3, $4, $5, $6)`, [
            randomUUID(),
            workspaceId,
            task.id,
            field,
            oldValue,
            newValue
          ])
        )
      }
      changes += found.length
      yield* Effect.orDie(
        query(`UPDATE hub_sent_action_items SET remote_status = $2, remote_assignee = $3, synced_at = now() WHERE id = $1`, [
          task.id,
          state.value.status,
          state.value.assignee
        ])
      )
    }
    return { checked, changes }
  })

export type { TaskVendor }
