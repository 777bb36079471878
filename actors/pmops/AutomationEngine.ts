/**
 * Runs automation rules from the change log, asynchronously, once per
 * triggering change:
 *
 * - Each workspace with enabled rules has a cursor (`pm_automation_cursors`);
 *   one node at a time holds its lease and reads the log past it, in seq
 *   order, advancing it after each change.
 * - A run is keyed by (rule, trigger key): the run row is inserted before the
 *   actions, so a change replayed after a crash never runs a rule twice (a
 *   run cut short by a crash is reported `interrupted`, not repeated).
 * - Actions go through the pm actors' commands (the normal write path), as
 *   the rule's author. The changes they make are recorded with their origin
 *   (`pm_automation_origins`: the chain of rules that led to them); a rule
 *   reached again through its own chain, or a chain deeper than
 *   MAX_DEPTH, is cut and reported as `loop_cut`.
 * - "due date passed" has no change: open tasks whose due date passed after
 *   the rule was made are found by a scan, keyed by (task, due date).
 */
import { Effect } from "effect"
import { query } from "../../persistence/Sql.ts"
import type { ActorSystem } from "../../runtime/ActorSystem.ts"
import { moreLeft, type Pass, runWorker } from "../../runtime/Wakeup.ts"
import { changesAppended } from "../pm/ChangeLogLive.ts"
import { EVENT_COLUMNS, type EventRow, type LoggedEvent, lastSeqs, toEvent } from "../pm/EventLog.ts"
import { read, send } from "../pm/WorkActor.ts"
import { PmList, PmTask } from "../pm/WorkActors.ts"
import type { Task } from "../pm/WorkRecords.ts"
import { checkOutboundUrl } from "../webhooks/OutboundAddress.ts"
import {
  type Action,
  type Condition,
  PmAutomations,
  type Rule,
  type RuleRun,
  type StoredRule,
  type TriggerType
} from "./AutomationRules.ts"

export const MAX_DEPTH = 5
const NODE = crypto.randomUUID()
const BATCH = 200

type Trigger = { readonly key: string; readonly type: string; readonly taskId: string; readonly chain: ReadonlyArray<string> }
type Result = RuleRun["results"][number]

const envNumber = (name: string, fallback: number) => {
  const value = Number(process.env[name])
  return Number.isFinite(value) && value > 0 ? value : fallback
}

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase()

/** The change type each trigger listens to (a due date has none: it is found by a scan). */
const changeTypeOf: Record<TriggerType, string | undefined> = {
  task_created: "task.created",
  status_changed: "status.changed",
  assignee_changed: "task.updated",
  custom_field_changed: "task.updated",
  comment_added: "comment.created",
  due_date_passed: undefined
}

/** Rules by the change type they listen to: a change is matched only against the rules that can fire on it. */
export const rulesByChangeType = <R extends Rule>(rules: ReadonlyArray<R>): ReadonlyMap<string, ReadonlyArray<R>> => {
  const index = new Map<string, Array<R>>()
  for (const rule of rules) {
    const type = changeTypeOf[rule.trigger.type]
    if (type === undefined) continue
    const listening = index.get(type)
    if (listening) listening.push(rule)
    else index.set(type, [rule])
  }
  return index
}

/** The task a change triggers `rule` for, if it does. */
export const triggeredTask = (rule: Rule, event: LoggedEvent): string | undefined => {
  const taskId = event.path.taskId ?? (event.scope === "task" ? event.entityId : undefined)
  if (taskId === undefined) return undefined
  const data = event.data as Record<string, unknown>
  switch (rule.trigger.type) {
    case "task_created":
      return event.type === "task.created" ? taskId : undefined
    case "status_changed": {
      if (event.type !== "status.changed") return undefined
      const { fromStatus, toStatus } = rule.trigger
      if (fromStatus !== undefined && !same(String(data.from ?? ""), fromStatus)) return undefined
      if (toStatus !== undefined && !same(String(data.to ?? ""), toStatus)) return undefined
      return taskId
    }
    case "assignee_changed":
      return event.type === "task.updated" && data.assigneeIds !== undefined ? taskId : undefined
    case "comment_added":
      return event.type === "comment.created" ? taskId : undefined
    case "custom_field_changed": {
      if (event.type !== "task.updated" || typeof data.customFields !== "object" || data.customFields === null) return undefined
      const fieldId = rule.trigger.fieldId
      return fieldId === undefined || Object.hasOwn(data.customFields, fieldId) ? taskId : undefined
    }
    case "due_date_passed":
      return undefined
  }
}

export const inScope = (rule: Rule, task: Task) =>
  rule.scope === null ||
  (rule.scope.type === "space" && task.spaceId === rule.scope.id) ||
  (rule.scope.type === "folder" && task.folderId === rule.scope.id) ||
  (rule.scope.type === "list" && task.listId === rule.scope.id)

const valuesOf = (condition: Condition, task: Task): ReadonlyArray<string> => {
  switch (condition.field) {
    case "status":
      return [task.status.name]
    case "priority":
      return task.priority === null ? [] : [task.priority]
    case "assignee":
      return task.assignees.map((a) => a.id)
    case "tag":
      return task.tags.map((t) => t.name)
    case "name":
      return [task.name]
    case "custom_field": {
      const value = task.customFields.find((f) => f.fieldId === condition.fieldId)?.value
      return value === undefined || value === null ? [] : [typeof value === "string" ? value : JSON.stringify(value)]
    }
  }
}

export const conditionHolds = (condition: Condition, task: Task): boolean => {
  const values = valuesOf(condition, task)
  const wanted = condition.value ?? ""
  switch (condition.operator) {
    case "is":
      return values.some((v) => same(v, wanted))
    case "is_not":
      return !values.some((v) => same(v, wanted))
    case "contains":
      return values.some((v) => v.toLowerCase().includes(wanted.toLowerCase()))
    case "is_set":
      return values.length > 0
    case "is_not_set":
      return values.length === 0
  }
}

const describe = (error: unknown): string =>
  typeof error === "object" && error !== null && "message" in error ? String((error as { message: unknown }).message) : String(error)

/** One action through the normal write path; failures are results, not defects. */
const perform = (rule: Rule, task: Task, act: Action) => {
  const by = rule.createdBy
  const step: Effect.Effect<string, unknown, ActorSystem> = (() => {
    switch (act.type) {
      case "set_status":
        return Effect.as(send(PmTask, task.id, "update", by, { status: act.status }), `status → ${act.status}`)
      case "set_priority":
        return Effect.as(send(PmTask, task.id, "update", by, { priority: act.priority }), `priority → ${act.priority ?? "none"}`)
      case "set_assignees":
        return Effect.as(send(PmTask, task.id, "update", by, { assigneeIds: act.userIds }), `assignees → ${act.userIds.length}`)
      case "set_field":
        return Effect.as(send(PmTask, task.id, "update", by, { customFields: { [act.fieldId]: act.value } }), `field ${act.fieldId} set`)
      case "add_tag":
        return Effect.as(send(PmTask, task.id, "addTag", by, { name: act.name }), `tag ${act.name} added`)
      case "move":
        return Effect.as(send(PmTask, task.id, "move", by, { listId: act.listId }), `moved to list ${act.listId}`)
      case "create_subtask":
        return Effect.map(
          send(PmList, task.listId, "createTask", by, { name: act.name, parentTaskId: task.id }),
          (t) => `subtask ${t.shortId}`
        )
      case "comment":
        return Effect.as(send(PmTask, task.id, "createComment", by, { text: act.text }), "commented")
      case "notify":
        return Effect.map(
          send(PmAutomations, task.workspaceId, "notify", by, {
            ruleId: rule.id,
            task: { id: task.id, spaceId: task.spaceId, listId: task.listId, label: `${task.shortId}: ${task.name}` },
            userIds: act.userIds,
            message: act.message ?? `Automation "${rule.name}"`
          }),
          (r) => `${r.notified} notified`
        )
      case "send_webhook":
        return Effect.tryPromise(async () => {
          const refusal = await checkOutboundUrl(act.url)
          if (refusal) throw new Error(`url ${refusal.reason}`)
          const response = await fetch(act.url, {
            method: "POST",
            headers: { "content-type": "application/json", "user-agent": "Atrium-Automations/1.0" },
            body: JSON.stringify({ ruleId: rule.id, ruleName: rule.name, task }),
            redirect: "manual",
            signal: AbortSignal.timeout(10_000)
          })
          await response.body?.cancel().catch(() => undefined)
          if (!response.ok) throw new Error(`HTTP ${response.status}`)
          return `HTTP ${response.status}`
        })
    }
  })()
  return step.pipe(
    Effect.map((detail): Result => ({ action: act.type, ok: true, detail })),
    Effect.catch((error) => Effect.succeed<Result>({ action: act.type, ok: false, detail: describe(error).slice(0, 500) }))
  )
}

/**
 * Runs `rule` for `trigger` when its scope and conditions hold (`force`: a
 * manual run, on any task) and it has not run for this trigger yet; then its
 * actions in order (each independent: a failed one fails the run, the others
 * still happen). Returns the run, or undefined when nothing ran.
 */
export const runRule = (rule: Rule, trigger: Trigger, options: { readonly force?: boolean } = {}) =>
  Effect.gen(function* () {
    const found = yield* read(PmTask, trigger.taskId, "get", {}).pipe(Effect.option)
    if (found._tag === "None" || found.value.workspaceId !== rule.workspaceId) return undefined
    const task = found.value
    if (!options.force && (!inScope(rule, task) || !rule.conditions.every((c) => conditionHolds(c, task)))) {
      // A due date is found by a scan, not a change: remember it was looked at so the scan moves on.
      if (trigger.type === "due_date_passed") yield* start(rule, trigger, "skipped")
      return undefined
    }
    const { started, runId } = yield* start(rule, trigger, "running")
    if (!started) return undefined
    const finish = (
      status: "succeeded" | "failed" | "loop_cut",
      results: ReadonlyArray<Result>,
      error: string | null,
      origin: Origin | null = null
    ) => send(PmAutomations, rule.workspaceId, "finishRun", rule.createdBy, { runId, ruleId: rule.id, status, results, error, origin })
    const cycle = trigger.chain.includes(rule.id)
    if (cycle || trigger.chain.length >= MAX_DEPTH) {
      const why = cycle
        ? `Loop cut: this rule was reached again through its own changes (chain ${[...trigger.chain, rule.id].join(" → ")})`
        : `Loop cut: more than ${MAX_DEPTH} rules in a row (chain ${trigger.chain.join(" → ")})`
      yield* Effect.logWarning(`automation ${rule.id}: ${why}`)
      return yield* finish("loop_cut", [], why)
    }
    const before = (yield* lastSeqs([rule.workspaceId])).get(rule.workspaceId) ?? 0
    const results = yield* Effect.forEach(rule.actions, (act) => perform(rule, task, act))
    const after = (yield* lastSeqs([rule.workspaceId])).get(rule.workspaceId) ?? 0
    // The changes the actions made carry their origin: the chain that led to them, this rule last.
    const origin = after > before ? { afterSeq: before, upToSeq: after, chain: [...trigger.chain, rule.id], actorId: rule.createdBy } : null
    const failed = results.filter((r) => !r.ok)
    const error = failed.length ? failed.map((r) => `${r.action}: ${r.detail}`).join("; ") : null
    return yield* finish(failed.length === 0 ? "succeeded" : "failed", results, error, origin)
  })

type Origin = { readonly afterSeq: number; readonly upToSeq: number; readonly chain: ReadonlyArray<string>; readonly actorId: string }

/** Claims the rule's run for this trigger through the workspace's actor (the unique key makes it once). */
const start = (rule: Rule, trigger: Trigger, status: "running" | "skipped") =>
  send(PmAutomations, rule.workspaceId, "startRun", rule.createdBy, {
    ruleId: rule.id,
    triggerKey: trigger.key,
    triggerType: trigger.type,
    taskId: trigger.taskId,
    depth: trigger.chain.length,
    status
  })

/** The workspace's enabled rules, from its actor's memory. */
const enabledRules = (workspaceId: string) =>
  Effect.map(read(PmAutomations, workspaceId, "rules", {}), (rules) => rules.filter((rule) => rule.enabled))

const leaseCursor = (workspaceId: string, leaseSeconds: number) =>
  Effect.map(
    query<{ last_seq: number | string }>(
      `UPDATE pm_automation_cursors SET lease_owner = $2, lease_until = now() + make_interval(secs => $3)
        WHERE workspace_id = $1 AND (lease_until IS NULL OR lease_until < now() OR lease_owner = $2) RETURNING last_seq`,
      [workspaceId, NODE, leaseSeconds]
    ),
    (rows) => (rows[0] === undefined ? undefined : Number(rows[0].last_seq))
  )

const chainsOf = (workspaceId: string, events: ReadonlyArray<LoggedEvent>) =>
  Effect.map(
    query<{ seq: number | string; rule_chain: Array<string> }>(
      `SELECT seq, rule_chain FROM pm_automation_origins WHERE workspace_id = $1 AND seq >= $2 AND seq <= $3`,
      [workspaceId, events[0]!.seq, events[events.length - 1]!.seq]
    ),
    (rows) => new Map(rows.map((r) => [Number(r.seq), r.rule_chain]))
  )

const advanceCursor = (workspaceId: string, seq: number) =>
  query(`UPDATE pm_automation_cursors SET last_seq = $2 WHERE workspace_id = $1 AND last_seq < $2`, [workspaceId, seq])

/** The changes in (after, upTo] of the types some rule listens to, in seq order: the others cannot trigger anything. */
const changesOfTypes = (workspaceId: string, after: number, upTo: number, types: ReadonlyArray<string>) =>
  Effect.map(
    query<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM pm_events WHERE workspace_id = $1 AND type = ANY($2::text[]) AND seq > $3 AND seq <= $4 ORDER BY seq LIMIT $5`,
      [workspaceId, types, after, upTo, BATCH]
    ),
    (rows) => rows.map(toEvent)
  )

/**
 * Reads the workspace's log past its cursor, up to `lastSeq`, and runs its
 * rules; true when there is more to read. The cursor is written once per
 * batch, and before a change that triggers a rule (so a crash replays at most
 * that change, whose runs are claimed once anyway).
 */
const processWorkspace = (workspaceId: string, lastSeq: number, rules: ReadonlyArray<StoredRule>) =>
  Effect.gen(function* () {
    const cursor = yield* leaseCursor(workspaceId, 30)
    if (cursor === undefined || cursor >= lastSeq) return false
    const byType = rulesByChangeType(rules)
    const events = byType.size === 0 ? [] : yield* changesOfTypes(workspaceId, cursor, lastSeq, [...byType.keys()])
    let chains: Map<number, ReadonlyArray<string>> | undefined
    let written = cursor
    for (const event of events) {
      for (const rule of byType.get(event.type) ?? []) {
        if (event.seq <= rule.sinceSeq) continue
        const taskId = triggeredTask(rule, event)
        if (taskId === undefined) continue
        if (written < event.seq - 1) {
          written = event.seq - 1
          yield* advanceCursor(workspaceId, written)
        }
        chains ??= yield* chainsOf(workspaceId, events)
        yield* runRule(rule, { key: `seq:${event.seq}`, type: rule.trigger.type, taskId, chain: chains.get(event.seq) ?? [] })
      }
    }
    // A full batch may stop short of lastSeq; otherwise every change up to it was read.
    const full = events.length === BATCH
    yield* advanceCursor(workspaceId, full ? events[events.length - 1]!.seq : lastSeq)
    return full
  })

/** Open tasks whose due date passed since the rule was made (each (task, due date) once). */
const dueDateScan = (rule: Rule) =>
  Effect.gen(function* () {
    const due = yield* query<{ id: string; due: string }>(
      `SELECT id, due_date::text AS due FROM pm_tasks WHERE workspace_id = $1 AND due_date < now() AND due_date > $2::timestamptz
          AND closed_at IS NULL AND deleted_at IS NULL AND archived_at IS NULL
          AND NOT EXISTS (SELECT 1 FROM pm_automation_runs r WHERE r.rule_id = $3 AND r.trigger_key = 'due:' || pm_tasks.id || ':' || pm_tasks.due_date::text)
        ORDER BY due_date LIMIT 100`,
      [rule.workspaceId, rule.createdAt, rule.id]
    )
    for (const task of due) yield* runRule(rule, { key: `due:${task.id}:${task.due}`, type: "due_date_passed", taskId: task.id, chain: [] })
    return due.length
  })

/** Workspaces with enabled rules whose log has moved past their cursor (one indexed statement, not one per workspace). */
const behind = query<{ workspace_id: string; last_seq: number | string }>(
  `SELECT c.workspace_id, k.last_seq FROM pm_automation_cursors c JOIN pm_event_counters k ON k.workspace_id = c.workspace_id
    WHERE k.last_seq > c.last_seq AND EXISTS (SELECT 1 FROM pm_automation_rules r WHERE r.workspace_id = c.workspace_id AND r.enabled)`
)

const dueRules = query<{ workspace_id: string; id: string }>(
  `SELECT workspace_id, id FROM pm_automation_rules WHERE enabled AND trigger->>'type' = 'due_date_passed'`
)

/**
 * One pass: the workspaces whose log moved; with `withDueDates`, the due-date
 * rules too. True when a backlog is left (a full batch of changes): the next pass follows at once.
 */
export const automationPass = (withDueDates: boolean) =>
  Effect.gen(function* () {
    let more = false
    for (const { workspace_id: workspaceId, last_seq } of yield* behind) {
      if (yield* processWorkspace(workspaceId, Number(last_seq), yield* enabledRules(workspaceId))) more = true
    }
    if (withDueDates) {
      const byWorkspace = new Set((yield* dueRules).map((r) => r.workspace_id))
      for (const workspaceId of byWorkspace) {
        for (const rule of yield* enabledRules(workspaceId)) if (rule.trigger.type === "due_date_passed") yield* dueDateScan(rule)
      }
    }
    return more
  })

/** Runs left `running` by a node that died: reported, never repeated. */
const reportInterrupted = query(
  `UPDATE pm_automation_runs SET status = 'interrupted', error = 'The node running it stopped before it finished', finished_at = now()
    WHERE status = 'running' AND started_at < now() - interval '5 minutes'`
)

/**
 * Runs forever: passes back to back while a backlog is left, else sleeps
 * until a change is committed (the change log's wake-up), the next due-date
 * scan (PM_AUTOMATION_DUE_SCAN_MS) or the safety poll; passes start at least
 * PM_AUTOMATION_POLL_MS apart, so under a steady stream of writes a pass
 * reads the changes of a whole interval at once, not one or two.
 */
export const automationWorker = () => {
  const paceMillis = envNumber("PM_AUTOMATION_POLL_MS", 250)
  const dueEveryMs = envNumber("PM_AUTOMATION_DUE_SCAN_MS", 30_000)
  let lastDueScan = 0
  const pass = Effect.gen(function* () {
    const scanDue = Date.now() - lastDueScan >= dueEveryMs
    if (scanDue) {
      lastDueScan = Date.now()
      yield* reportInterrupted
    }
    return (yield* automationPass(scanDue)) ? moreLeft : { dueAt: lastDueScan + dueEveryMs }
  }).pipe(
    Effect.catchCause((cause) =>
      Effect.as(Effect.logWarning("automations: pass failed", cause), { dueAt: Date.now() + paceMillis } satisfies Pass)
    )
  )
  return runWorker(changesAppended, pass, { paceMillis })
}
