/**
 * The workspace's workflows as an actor (kind `hubWorkflows`, one per
 * workspace): it holds them in memory, rebuilt from `hub_workflows`, serves
 * reads and the per-event trigger match from there, and is their single
 * writer (the row is committed before the new state is taken). Running a
 * workflow does vendor I/O, so it happens outside the mailbox
 * (Workflows.ts `runWorkflow`), from the value the actor answers.
 */
import { randomUUID } from "node:crypto"
import { Effect, Schema } from "effect"
import { query } from "../../../persistence/Sql.ts"
import { Actor } from "../../../runtime/Actor.ts"
import { ActorSystem } from "../../../runtime/ActorSystem.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { Id } from "../../Fields.ts"
import { connectionFor } from "../connections/VendorItems.ts"
import { HubWorkflowNameTaken, HubWorkflowNotFound } from "../HubErrors.ts"
import { Workflow, WorkflowStep, WorkflowTrigger, workflowColumns } from "./Workflows.ts"

const notFound = () => new HubWorkflowNotFound()
const nameTaken = () => new HubWorkflowNameTaken()

const WorkflowChange = {
  name: Schema.optionalKey(Schema.String),
  trigger: Schema.optionalKey(WorkflowTrigger),
  steps: Schema.optionalKey(Schema.Array(WorkflowStep)),
  enabled: Schema.optionalKey(Schema.Boolean)
}

const rows = (workspaceId: string) =>
  Effect.orDie(
    query<Workflow>(`SELECT ${workflowColumns} FROM hub_workflows WHERE workspace_id = $1 ORDER BY created_at, id`, [workspaceId])
  )

const find = (state: ReadonlyArray<Workflow>, workflowId: string) => {
  const workflow = state.find((candidate) => candidate.id === workflowId)
  return workflow ? Effect.succeed(workflow) : Effect.fail(notFound())
}

export const HubWorkflows = Actor<ReadonlyArray<Workflow>>()({
  kind: "hubWorkflows",
  state: Schema.Array(Workflow),
  initial: () => [],
  rebuild: (workspaceId) => rows(workspaceId),
  messages: {
    list: { payload: Schema.Struct({}), success: Schema.Array(Workflow), error: Schema.Never },
    get: { payload: Schema.Struct({ workflowId: Id }), success: Workflow, error: HubWorkflowNotFound },
    /** The enabled workflows an event of `type` triggers. */
    forEvent: { payload: Schema.Struct({ type: Schema.String }), success: Schema.Array(Workflow), error: Schema.Never },
    create: {
      payload: Schema.Struct({
        name: Schema.String,
        trigger: WorkflowTrigger,
        steps: Schema.Array(WorkflowStep),
        enabled: Schema.Boolean,
        createdBy: Id
      }),
      success: Workflow,
      error: HubWorkflowNameTaken
    },
    update: {
      payload: Schema.Struct({ workflowId: Id, ...WorkflowChange }),
      success: Workflow,
      error: Schema.Union([HubWorkflowNotFound, HubWorkflowNameTaken])
    }
  },
  handlers: {
    list: (_, ctx) => Effect.succeed(ctx.state),
    get: ({ workflowId }, ctx) => find(ctx.state, workflowId),
    forEvent: ({ type }, ctx) =>
      Effect.succeed(
        ctx.state.filter(
          (workflow) =>
            workflow.enabled &&
            workflow.trigger.type === "event" &&
            (workflow.trigger.eventType === "*" || workflow.trigger.eventType === type)
        )
      ),
    create: (input, ctx) =>
      Effect.gen(function* () {
        if (ctx.state.some((workflow) => workflow.name === input.name)) return yield* nameTaken()
        const [row] = yield* Effect.orDie(
          query<Workflow>(
            `INSERT INTO hub_workflows (id, workspace_id, name, trigger, steps, enabled, created_by) VALUES ($1, $2, $3, $4, $5::text::jsonb, $6, $7)
             ON CONFLICT (workspace_id, name) DO NOTHING RETURNING ${workflowColumns}`,
            [randomUUID(), ctx.address.id, input.name, input.trigger, JSON.stringify(input.steps), input.enabled, input.createdBy]
          )
        )
        if (!row) return yield* nameTaken()
        ctx.setState([...ctx.state, row])
        return row
      }),
    update: ({ workflowId, ...change }, ctx) =>
      Effect.gen(function* () {
        const current = yield* find(ctx.state, workflowId)
        if (change.name !== undefined && ctx.state.some((workflow) => workflow.id !== workflowId && workflow.name === change.name))
          return yield* nameTaken()
        const [row] = yield* Effect.orDie(
          query<Workflow>(
            `UPDATE hub_workflows SET name = $3, trigger = $4, steps = $5::text::jsonb, enabled = $6, updated_at = now()
             WHERE id = $1 AND workspace_id = $2 RETURNING ${workflowColumns}`,
            [
              workflowId,
              ctx.address.id,
              change.name ?? current.name,
              change.trigger ?? current.trigger,
              JSON.stringify(change.steps ?? current.steps),
              change.enabled ?? current.enabled
            ]
          )
        )
        if (!row) return yield* notFound()
        ctx.setState(ctx.state.map((workflow) => (workflow.id === workflowId ? row : workflow)))
        return row
      })
  }
})

/** Steps naming a connection must name one of this workspace, of the step's vendor kind. */
const checkSteps = (workspaceId: string, steps: ReadonlyArray<WorkflowStep>) =>
  Effect.forEach(steps, (step, index) =>
    step.connectionId === undefined
      ? Effect.void
      : Effect.mapError(connectionFor(workspaceId, step.vendor, step.connectionId), (error) =>
          reject(error.code === "not_found" ? "not_found" : "invalid", error.message, [
            { path: `body.steps[${index}].connectionId`, message: error.code === "not_found" ? "unknown connection" : error.message }
          ])
        )
  )

export interface NewWorkflow {
  readonly name: string
  readonly trigger: typeof WorkflowTrigger.Type
  readonly steps: ReadonlyArray<WorkflowStep>
  readonly enabled?: boolean | undefined
}

export const listWorkflows = (workspaceId: string) =>
  Effect.flatMap(ActorSystem, (system) => system.ask(HubWorkflows, workspaceId, "list", {}))

export const getWorkflow = (workspaceId: string, workflowId: string) =>
  Effect.flatMap(ActorSystem, (system) => system.ask(HubWorkflows, workspaceId, "get", { workflowId }))

export const workflowsForEvent = (workspaceId: string, type: string) =>
  Effect.flatMap(ActorSystem, (system) => system.ask(HubWorkflows, workspaceId, "forEvent", { type }))

export const createWorkflow = (workspaceId: string, input: NewWorkflow, userId: string) =>
  Effect.andThen(
    checkSteps(workspaceId, input.steps),
    Effect.flatMap(ActorSystem, (system) =>
      system.ask(HubWorkflows, workspaceId, "create", {
        name: input.name,
        trigger: input.trigger,
        steps: input.steps,
        enabled: input.enabled ?? true,
        createdBy: userId
      })
    )
  )

export const updateWorkflow = (workspaceId: string, workflowId: string, change: Partial<NewWorkflow>) =>
  Effect.andThen(
    change.steps ? checkSteps(workspaceId, change.steps) : Effect.void,
    Effect.flatMap(ActorSystem, (system) =>
      system.ask(HubWorkflows, workspaceId, "update", {
        workflowId,
        ...(change.name !== undefined ? { name: change.name } : {}),
        ...(change.trigger !== undefined ? { trigger: change.trigger } : {}),
        ...(change.steps !== undefined ? { steps: change.steps } : {}),
        ...(change.enabled !== undefined ? { enabled: change.enabled } : {})
      })
    )
  )
