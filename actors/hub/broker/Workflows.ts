/**
 * Named workflows (held by the workspace's `hubWorkflows` actor, WorkflowActor.ts): a trigger (run by hand, or on a broker event type) and
 * steps, each pushing one item through a vendor adapter with text filled
 * from the event (`{{event.type}}`, `{{data.issue.title}}`). Runs are kept
 * as history with each step's outcome; a step's push is keyed by the run's
 * event (or the run itself), so running an event again never creates a
 * second item at the vendor. A run stops at the first failed step.
 */
import { randomUUID } from "node:crypto"
import { Effect, Schema } from "effect"
import { query } from "../../../persistence/Sql.ts"
import type { Rejection } from "../../../runtime/Rejection.ts"
import { Id, Timestamp } from "../../Fields.ts"
import { get as getConnection } from "../connections/Connections.ts"
import { connectionFor, pushItems } from "../connections/VendorItems.ts"
import { vendorShapes } from "../connections/VendorShapes.ts"

const Template = (max: number) =>
  Schema.String.check(Schema.isMaxLength(max)).annotate({
    description: "Text; `{{event.type}}`, `{{event.id}}` and `{{data.<path>}}` are filled from the event"
  })

export const WorkflowTrigger = Schema.Union([
  Schema.Struct({ type: Schema.Literal("manual") }),
  Schema.Struct({
    type: Schema.Literal("event"),
    eventType: Schema.String.check(
      Schema.isMaxLength(200),
      Schema.isPattern(/^(\*|[\w.:-]+)$/, { expected: "a broker event type (letters, digits, . : _ -) or *" })
    )
  })
]).annotate({ identifier: "WorkflowTrigger" })

export const StepVendor = Schema.Literals(Object.keys(vendorShapes) as Array<keyof typeof vendorShapes>)

export const WorkflowStep = Schema.Struct({
  vendor: StepVendor,
  connectionId: Schema.optionalKey(
    Id.annotate({ description: "Default: the event's integration's connection, else the workspace's newest of the kind" })
  ),
  destination: Schema.optionalKey(Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200))),
  title: Template(500).check(Schema.isMinLength(1)),
  description: Schema.optionalKey(Template(20_000)),
  owner: Schema.optionalKey(Template(320))
}).annotate({ identifier: "WorkflowStep" })
export type WorkflowStep = typeof WorkflowStep.Type

export const Workflow = Schema.Struct({
  id: Id,
  workspaceId: Id,
  name: Schema.String,
  trigger: WorkflowTrigger,
  steps: Schema.Array(WorkflowStep),
  enabled: Schema.Boolean,
  createdBy: Id,
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotate({ identifier: "Workflow" })
export type Workflow = typeof Workflow.Type

export const StepOutcome = Schema.Struct({
  index: Schema.Number,
  vendor: StepVendor,
  status: Schema.Literals(["succeeded", "failed", "skipped"]),
  externalId: Schema.NullOr(Schema.String),
  url: Schema.NullOr(Schema.String),
  message: Schema.NullOr(Schema.String)
}).annotate({ identifier: "WorkflowStepOutcome" })
type StepOutcome = typeof StepOutcome.Type

export const WorkflowRun = Schema.Struct({
  id: Id,
  workflowId: Id,
  triggerEvent: Schema.NullOr(Schema.String).annotate({ description: "The broker event id that started it; null when run by hand" }),
  status: Schema.Literals(["running", "succeeded", "failed"]),
  steps: Schema.Array(StepOutcome),
  startedBy: Schema.String.annotate({ description: "The user who ran it, or `event`" }),
  startedAt: Timestamp,
  finishedAt: Schema.NullOr(Timestamp)
}).annotate({ identifier: "WorkflowRun" })
export type WorkflowRun = typeof WorkflowRun.Type

export const workflowColumns = `id, workspace_id AS "workspaceId", name, trigger, steps, enabled, created_by AS "createdBy", created_at AS "createdAt", updated_at AS "updatedAt"`
const runColumns = `id, workflow_id AS "workflowId", trigger_event AS "triggerEvent", status, steps, started_by AS "startedBy",
  started_at AS "startedAt", finished_at AS "finishedAt"`

export const listRuns = (workflowId: string, limit: number) =>
  Effect.orDie(
    query<WorkflowRun>(`SELECT ${runColumns} FROM hub_workflow_runs WHERE workflow_id = $1 ORDER BY started_at DESC, id LIMIT $2`, [
      workflowId,
      limit
    ])
  )

export interface RunEvent {
  readonly id: string
  readonly type: string
  readonly data: unknown
  /** The event's integration's connection, used by steps of its vendor kind that name none. */
  readonly connectionId: string | null
}

const lookup = (root: unknown, path: ReadonlyArray<string>): unknown =>
  path.reduce<unknown>(
    (value, key) => (typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined),
    root
  )

/** `{{event.type}}`, `{{event.id}}`, `{{data.a.b}}` filled in; what is missing becomes empty. */
export const fill = (template: string, event: RunEvent | null) =>
  template.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (_, path: string) => {
    const [head, ...rest] = path.split(".")
    const value =
      head === "event" ? lookup({ id: event?.id, type: event?.type }, rest) : head === "data" ? lookup(event?.data, rest) : undefined
    return value === undefined || value === null ? "" : typeof value === "object" ? JSON.stringify(value) : String(value)
  })

const connectionForStep = (workflow: Workflow, step: WorkflowStep, event: RunEvent | null) =>
  Effect.gen(function* () {
    if (step.connectionId === undefined && event?.connectionId) {
      const bound = yield* Effect.option(getConnection(workflow.workspaceId, event.connectionId))
      if (bound._tag === "Some" && bound.value.vendor === step.vendor) return bound.value
    }
    return yield* connectionFor(workflow.workspaceId, step.vendor, step.connectionId)
  })

/** Runs the workflow's steps in order and records the run; a vendor failure fails the run, never the caller. */
export const runWorkflow = (workflow: Workflow, event: RunEvent | null, startedBy: string) =>
  Effect.gen(function* () {
    const runId = randomUUID()
    // A manual run carries data but no event id: its pushes are its own.
    const eventId = event?.id ? event.id : null
    yield* Effect.orDie(
      query(
        `INSERT INTO hub_workflow_runs (id, workflow_id, workspace_id, trigger_event, status, started_by) VALUES ($1, $2, $3, $4, 'running', $5)`,
        [runId, workflow.id, workflow.workspaceId, eventId, startedBy]
      )
    )
    const outcomes: Array<StepOutcome> = []
    let failed = false
    for (const [index, step] of workflow.steps.entries()) {
      if (failed) {
        outcomes.push({ index, vendor: step.vendor, status: "skipped", externalId: null, url: null, message: null })
        continue
      }
      const pushed = yield* Effect.result(
        Effect.gen(function* () {
          const connection = yield* connectionForStep(workflow, step, event)
          const [result] = yield* pushItems(
            connection,
            [
              {
                key: `workflow:${workflow.id}:${eventId ?? runId}:${index}`,
                title: fill(step.title, event).slice(0, 500) || workflow.name,
                description: step.description ? fill(step.description, event) : "",
                owner: step.owner ? fill(step.owner, event) || null : null,
                dueDate: null
              }
            ],
            step.destination,
            workflow.createdBy
          )
          return result!.item
        })
      )
      if (pushed._tag === "Success") {
        outcomes.push({
          index,
          vendor: step.vendor,
          status: "succeeded",
          externalId: pushed.success.externalId,
          url: pushed.success.url,
          message: null
        })
      } else {
        failed = true
        const error = pushed.failure as Rejection
        outcomes.push({ index, vendor: step.vendor, status: "failed", externalId: null, url: null, message: error.message ?? "failed" })
      }
    }
    const [run] = yield* Effect.orDie(
      query<WorkflowRun>(
        `UPDATE hub_workflow_runs SET status = $2, steps = $3::text::jsonb, finished_at = now() WHERE id = $1 RETURNING ${runColumns}`,
        [runId, failed ? "failed" : "succeeded", JSON.stringify(outcomes)]
      )
    )
    return run!
  })
