/**
 * Automation rules: a trigger (task created, status changed, assignee
 * changed, due date passed, comment added, custom field changed), optionally
 * scoped to a space, folder or list, then conditions on the task, then
 * actions. The `PmAutomations` actor (one per workspace) is the single writer
 * of its rules; the engine (AutomationEngine.ts) runs them from the change log.
 */
import { Effect, Schema } from "effect"
import { Id, Name, Timestamp } from "../Fields.ts"
import { isoTimestampSql, query } from "../../persistence/Sql.ts"
import { change, notifyUsers } from "../pm/Changes.ts"
import { lastSeqs } from "../pm/EventLog.ts"
import { command, workActor } from "../pm/WorkActor.ts"
import { Priority } from "../pm/WorkRecords.ts"
import { AutomationRuleNotFound } from "./OpsErrors.ts"

const StatusName = Name(64)

export const TriggerType = Schema.Literals([
  "task_created",
  "status_changed",
  "assignee_changed",
  "due_date_passed",
  "comment_added",
  "custom_field_changed"
])
export type TriggerType = typeof TriggerType.Type

export const Trigger = Schema.Struct({
  type: TriggerType,
  fromStatus: Schema.optionalKey(StatusName.annotate({ description: "status_changed: only from this status" })),
  toStatus: Schema.optionalKey(StatusName.annotate({ description: "status_changed: only to this status" })),
  fieldId: Schema.optionalKey(Id.annotate({ description: "custom_field_changed: only this field" }))
}).annotate({ identifier: "AutomationTrigger" })
export type Trigger = typeof Trigger.Type

export const RuleScope = Schema.Struct({ type: Schema.Literals(["space", "folder", "list"]), id: Id }).annotate({
  identifier: "AutomationScope",
  description: "Only tasks under this space, folder or list"
})

export const Condition = Schema.Struct({
  field: Schema.Literals(["status", "priority", "assignee", "tag", "name", "custom_field"]),
  operator: Schema.Literals(["is", "is_not", "contains", "is_set", "is_not_set"]),
  value: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(500))),
  fieldId: Schema.optionalKey(Id)
}).annotate({ identifier: "AutomationCondition", description: "assignee compares user ids; tag and name compare case-insensitively" })
export type Condition = typeof Condition.Type

const action = <T extends string, F extends Schema.Struct.Fields>(type: T, fields: F) =>
  Schema.Struct({ type: Schema.Literal(type), ...fields })

export const Action = Schema.Union([
  action("set_status", { status: StatusName }),
  action("set_priority", { priority: Schema.NullOr(Priority) }),
  action("set_assignees", { userIds: Schema.Array(Id).check(Schema.isMaxLength(20)) }),
  action("set_field", { fieldId: Id, value: Schema.Unknown }),
  action("add_tag", { name: Name(64) }),
  action("move", { listId: Id }),
  action("create_subtask", { name: Name(500) }),
  action("comment", { text: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(10_000)) }),
  action("send_webhook", {
    url: Schema.String.check(Schema.isMaxLength(2000), Schema.isPattern(/^https?:\/\//i, { expected: "an http(s) URL" }))
  }),
  action("notify", {
    userIds: Schema.Array(Id).check(Schema.isMaxLength(50)),
    message: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(300)))
  })
]).annotate({ identifier: "AutomationAction" })
export type Action = typeof Action.Type

export const Rule = Schema.Struct({
  id: Id,
  workspaceId: Id,
  name: Schema.String,
  description: Schema.String,
  enabled: Schema.Boolean,
  scope: Schema.NullOr(RuleScope),
  trigger: Trigger,
  conditions: Schema.Array(Condition),
  actions: Schema.Array(Action),
  runCount: Schema.Number,
  failureCount: Schema.Number,
  lastRunAt: Schema.NullOr(Timestamp),
  lastStatus: Schema.NullOr(Schema.String),
  createdBy: Id,
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotate({ identifier: "AutomationRule" })
export type Rule = typeof Rule.Type

export const RuleFields = {
  name: Name(200),
  description: Schema.String.check(Schema.isMaxLength(2000)),
  enabled: Schema.Boolean,
  scope: Schema.NullOr(RuleScope),
  trigger: Trigger,
  conditions: Schema.Array(Condition).check(Schema.isMaxLength(20)),
  actions: Schema.Array(Action).check(Schema.isMinLength(1), Schema.isMaxLength(20))
}

export const NewRule = Schema.Struct({
  name: RuleFields.name,
  description: Schema.optionalKey(RuleFields.description),
  enabled: Schema.optionalKey(RuleFields.enabled),
  scope: Schema.optionalKey(RuleFields.scope),
  trigger: RuleFields.trigger,
  conditions: Schema.optionalKey(RuleFields.conditions),
  actions: RuleFields.actions
})
export type NewRule = typeof NewRule.Type

export const RulePatch = Schema.Struct({
  name: Schema.optionalKey(RuleFields.name),
  description: Schema.optionalKey(RuleFields.description),
  enabled: Schema.optionalKey(RuleFields.enabled),
  scope: Schema.optionalKey(RuleFields.scope),
  trigger: Schema.optionalKey(RuleFields.trigger),
  conditions: Schema.optionalKey(RuleFields.conditions),
  actions: Schema.optionalKey(RuleFields.actions)
})

export const RuleRun = Schema.Struct({
  id: Id,
  ruleId: Id,
  triggerKey: Schema.String.annotate({ description: "seq:<change seq>, due:<task>:<due date> or manual:<id>: a rule runs once per key" }),
  triggerType: Schema.String,
  taskId: Schema.NullOr(Schema.String),
  depth: Schema.Number.annotate({ description: "How many rule changes led to this one (0: a person's change)" }),
  status: Schema.Literals(["running", "succeeded", "failed", "skipped", "loop_cut", "interrupted"]),
  results: Schema.Array(Schema.Struct({ action: Schema.String, ok: Schema.Boolean, detail: Schema.String })),
  error: Schema.NullOr(Schema.String),
  startedAt: Timestamp,
  finishedAt: Schema.NullOr(Timestamp)
}).annotate({ identifier: "AutomationRun" })
export type RuleRun = typeof RuleRun.Type

const ruleColumns = `id, workspace_id AS "workspaceId", name, description, enabled,
  CASE WHEN scope_type IS NULL THEN NULL ELSE jsonb_build_object('type', scope_type, 'id', scope_id) END AS scope,
  trigger, conditions, actions, run_count AS "runCount", failure_count AS "failureCount", ${isoTimestampSql("last_run_at")} AS "lastRunAt",
  last_status AS "lastStatus", created_by AS "createdBy", ${isoTimestampSql("created_at")} AS "createdAt", ${isoTimestampSql("updated_at")} AS "updatedAt"`

export const runColumns = `id, rule_id AS "ruleId", trigger_key AS "triggerKey", trigger_type AS "triggerType", task_id AS "taskId", depth, status,
  results, error, ${isoTimestampSql("started_at")} AS "startedAt", ${isoTimestampSql("finished_at")} AS "finishedAt"`

export const rulesOf = (workspaceId: string, options: { enabledOnly?: boolean } = {}) =>
  query<Rule & { sinceSeq: number }>(
    `SELECT ${ruleColumns}, since_seq::float8 AS "sinceSeq" FROM pm_automation_rules WHERE workspace_id = $1 ${options.enabledOnly ? "AND enabled" : ""} ORDER BY created_at, id`,
    [workspaceId]
  )

export const ruleOf = (workspaceId: string, ruleId: string) =>
  Effect.flatMap(
    query<Rule>(`SELECT ${ruleColumns} FROM pm_automation_rules WHERE workspace_id = $1 AND id = $2`, [workspaceId, ruleId]),
    (rows) => (rows[0] ? Effect.succeed(rows[0]) : Effect.fail(new AutomationRuleNotFound()))
  )

export const runsOf = (ruleId: string, page: { offset: number; limit: number }, status?: string) =>
  query<RuleRun>(
    `SELECT ${runColumns} FROM pm_automation_runs WHERE rule_id = $1 AND ($4::text IS NULL OR status = $4) ORDER BY started_at DESC, id LIMIT $2 OFFSET $3`,
    [ruleId, page.limit, page.offset, status ?? null]
  )

/** Where the rules of a workspace start reading the change log: now. */
const currentSeq = (workspaceId: string) => Effect.map(lastSeqs([workspaceId]), (seqs) => seqs.get(workspaceId) ?? 0)

const startCursor = (workspaceId: string, seq: number) =>
  query(`INSERT INTO pm_automation_cursors (workspace_id, last_seq) VALUES ($1, $2) ON CONFLICT (workspace_id) DO NOTHING`, [
    workspaceId,
    seq
  ])

const RuleRef = Schema.Struct({ ruleId: Id })
const where = (workspaceId: string) => ({ workspaceId })

export const automationCommands = {
  create: command(NewRule, Rule, AutomationRuleNotFound, (input, by, workspaceId) =>
    Effect.gen(function* () {
      const id = crypto.randomUUID()
      const seq = yield* currentSeq(workspaceId)
      yield* query(
        `INSERT INTO pm_automation_rules (id, workspace_id, name, description, enabled, scope_type, scope_id, trigger, conditions, actions, since_seq, created_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
        [
          id,
          workspaceId,
          input.name,
          input.description ?? "",
          input.enabled ?? true,
          input.scope?.type ?? null,
          input.scope?.id ?? null,
          input.trigger,
          input.conditions ?? [],
          input.actions,
          seq,
          by
        ]
      )
      yield* startCursor(workspaceId, seq)
      return {
        result: yield* ruleOf(workspaceId, id),
        changes: [change(where(workspaceId), "automation.created", id, { name: input.name }, by)]
      }
    })
  ),

  update: command(Schema.Struct({ ...RuleRef.fields, patch: RulePatch }), Rule, AutomationRuleNotFound, (input, by, workspaceId) =>
    Effect.gen(function* () {
      const before = yield* ruleOf(workspaceId, input.ruleId)
      const { patch } = input
      const sets: Array<string> = []
      const params: Array<unknown> = [workspaceId, input.ruleId]
      if (patch.name !== undefined) sets.push(`name = $${params.push(patch.name)}`)
      if (patch.description !== undefined) sets.push(`description = $${params.push(patch.description)}`)
      if (patch.enabled !== undefined) {
        sets.push(`enabled = $${params.push(patch.enabled)}`)
        // Re-enabled: it reacts to what happens from now on, not to what happened while it was off.
        if (patch.enabled && !before.enabled) {
          const seq = yield* currentSeq(workspaceId)
          sets.push(`since_seq = $${params.push(seq)}`)
          yield* startCursor(workspaceId, seq)
        }
      }
      if (patch.scope !== undefined)
        sets.push(`scope_type = $${params.push(patch.scope?.type ?? null)}`, `scope_id = $${params.push(patch.scope?.id ?? null)}`)
      if (patch.trigger !== undefined) sets.push(`trigger = $${params.push(patch.trigger)}`)
      if (patch.conditions !== undefined) sets.push(`conditions = $${params.push(patch.conditions)}`)
      if (patch.actions !== undefined) sets.push(`actions = $${params.push(patch.actions)}`)
      if (sets.length > 0) {
        yield* query(`UPDATE pm_automation_rules SET ${sets.join(", ")}, updated_at = now() WHERE workspace_id = $1 AND id = $2`, params)
      }
      const fields = Object.keys(patch)
      return {
        result: yield* ruleOf(workspaceId, input.ruleId),
        changes: fields.length > 0 ? [change(where(workspaceId), "automation.updated", input.ruleId, { fields }, by)] : []
      }
    })
  ),

  delete: command(RuleRef, Schema.Void, AutomationRuleNotFound, (input, by, workspaceId) =>
    Effect.gen(function* () {
      yield* ruleOf(workspaceId, input.ruleId)
      yield* query(`DELETE FROM pm_automation_rules WHERE workspace_id = $1 AND id = $2`, [workspaceId, input.ruleId])
      return { result: undefined, changes: [change(where(workspaceId), "automation.deleted", input.ruleId, {}, by)] }
    })
  ),

  /** A rule's "notify" action: notifications to the chosen members about a task, through the change log. */
  notify: command(
    Schema.Struct({
      ...RuleRef.fields,
      task: Schema.Struct({ id: Id, spaceId: Id, listId: Id, label: Schema.String }),
      userIds: Schema.Array(Id),
      message: Schema.String
    }),
    Schema.Struct({ notified: Schema.Number }),
    AutomationRuleNotFound,
    (input, by, workspaceId) =>
      Effect.sync(() => {
        const title = `${input.task.label}: ${input.message}`.slice(0, 500)
        const notify = notifyUsers(input.userIds, "watching", title, by)
        return {
          result: { notified: notify.length },
          changes: [
            change(
              { workspaceId, spaceId: input.task.spaceId, listId: input.task.listId, taskId: input.task.id },
              "automation.notified",
              input.task.id,
              { ruleId: input.ruleId, userIds: input.userIds, message: input.message },
              by,
              notify
            )
          ]
        }
      })
  )
}

export const StoredRule = Schema.Struct({ ...Rule.fields, sinceSeq: Schema.Number }).annotate({ identifier: "StoredAutomationRule" })
export type StoredRule = typeof StoredRule.Type

const RunResult = RuleRun.fields.results

/** The run rows of a rule's runs: written by the workspace's actor too, so rules, counters and runs have one writer. */
export const runCommands = {
  /** Claims (rule, trigger key): false when that trigger already ran the rule. `skipped` records a look that did nothing. */
  startRun: command(
    Schema.Struct({
      ruleId: Id,
      triggerKey: Schema.String,
      triggerType: Schema.String,
      taskId: Id,
      depth: Schema.Number,
      status: Schema.Literals(["running", "skipped"])
    }),
    Schema.Struct({ started: Schema.Boolean, runId: Id }),
    AutomationRuleNotFound,
    (input, _by, workspaceId) =>
      Effect.gen(function* () {
        const runId = crypto.randomUUID()
        const inserted = yield* query<{ id: string }>(
          `INSERT INTO pm_automation_runs (id, rule_id, workspace_id, trigger_key, trigger_type, task_id, depth, status, finished_at)
           SELECT $1, id, workspace_id, $3, $4, $5, $6, $7, CASE WHEN $7 = 'running' THEN NULL ELSE now() END
             FROM pm_automation_rules WHERE id = $2 AND workspace_id = $8
           ON CONFLICT (rule_id, trigger_key) DO NOTHING RETURNING id`,
          [runId, input.ruleId, input.triggerKey, input.triggerType, input.taskId, input.depth, input.status, workspaceId]
        )
        return { result: { started: inserted.length > 0 && input.status === "running", runId }, changes: [] }
      })
  ),

  /** Ends a run: its status and results, the rule's counters, and the origin of the changes its actions made. */
  finishRun: command(
    Schema.Struct({
      runId: Id,
      ruleId: Id,
      status: Schema.Literals(["succeeded", "failed", "loop_cut"]),
      results: RunResult,
      error: Schema.NullOr(Schema.String),
      origin: Schema.NullOr(Schema.Struct({ afterSeq: Schema.Number, upToSeq: Schema.Number, chain: Schema.Array(Id), actorId: Id }))
    }),
    RuleRun,
    AutomationRuleNotFound,
    (input, _by, workspaceId) =>
      Effect.gen(function* () {
        yield* query(`UPDATE pm_automation_runs SET status = $2, results = $3, error = $4, finished_at = now() WHERE id = $1`, [
          input.runId,
          input.status,
          input.results,
          input.error
        ])
        yield* query(
          `UPDATE pm_automation_rules SET run_count = run_count + 1, failure_count = failure_count + $2, last_run_at = now(), last_status = $3 WHERE id = $1`,
          [input.ruleId, input.status === "succeeded" ? 0 : 1, input.status]
        )
        if (input.origin !== null) {
          // The changes the actions made (the author's, in the seqs they spanned) carry the chain that led to them.
          yield* query(
            `INSERT INTO pm_automation_origins (workspace_id, seq, rule_chain)
             SELECT workspace_id, seq, $4::text[] FROM pm_events WHERE workspace_id = $1 AND seq > $2 AND seq <= $3 AND actor_id = $5
             ON CONFLICT DO NOTHING`,
            [workspaceId, input.origin.afterSeq, input.origin.upToSeq, input.origin.chain, input.origin.actorId]
          )
        }
        const [run] = yield* query<RuleRun>(`SELECT ${runColumns} FROM pm_automation_runs WHERE id = $1`, [input.runId])
        return { result: run!, changes: [] }
      })
  )
}

// A run claimed changes no rule: the rules in memory stay as they are.
const keepsRules = new Set(["startRun", "notify"])

/** One per workspace: the single writer of its rules and runs, holding the rules in memory (the engine reads them from here). */
export const PmAutomations = workActor(
  "pmAutomations",
  { ...automationCommands, ...runCommands },
  {
    state: Schema.Array(StoredRule),
    rebuild: (workspaceId) => rulesOf(workspaceId),
    reads: {
      rules: {
        payload: Schema.Struct({}),
        success: Schema.Array(StoredRule),
        error: Schema.Never,
        handle: (_, state) => Effect.succeed(state)
      }
    },
    afterCommand: (name, _result, state) => (keepsRules.has(name) ? state : undefined)
  }
)

export const FailingRule = Schema.Struct({
  ruleId: Id,
  workspaceId: Id,
  name: Schema.String,
  enabled: Schema.Boolean,
  failures: Schema.Number.annotate({ description: "Failed, loop-cut or interrupted runs in the window" }),
  runs: Schema.Number.annotate({ description: "All runs in the window" }),
  lastFailureAt: Timestamp,
  lastError: Schema.NullOr(Schema.String)
}).annotate({ identifier: "FailingAutomationRule" })

/** Rules of every workspace with failing runs since `since`, most failures first. */
export const failingRules = (since: string, limit: number) =>
  query<typeof FailingRule.Type>(
    `WITH window_runs AS (SELECT * FROM pm_automation_runs WHERE started_at >= $1::timestamptz AND status <> 'skipped'),
          failing AS (SELECT rule_id, count(*)::int AS failures, max(started_at) AS last_failure FROM window_runs
                       WHERE status IN ('failed', 'loop_cut', 'interrupted') GROUP BY rule_id)
     SELECT r.id AS "ruleId", r.workspace_id AS "workspaceId", r.name, r.enabled, f.failures,
            (SELECT count(*)::int FROM window_runs w WHERE w.rule_id = r.id) AS runs,
            ${isoTimestampSql("f.last_failure")} AS "lastFailureAt",
            (SELECT error FROM window_runs w WHERE w.rule_id = r.id AND w.status IN ('failed', 'loop_cut', 'interrupted') ORDER BY started_at DESC LIMIT 1) AS "lastError"
       FROM failing f JOIN pm_automation_rules r ON r.id = f.rule_id
      ORDER BY f.failures DESC, f.last_failure DESC LIMIT $2`,
    [since, limit]
  )
