/**
 * pm tag "Automation" (8): rules of trigger → conditions → actions on a
 * workspace's tasks. Members manage them; they run asynchronously from the
 * change log as their author, once per triggering change, with a run history
 * per rule; a loop between rules is cut and reported.
 */
import { Effect, Schema } from "effect"
import { Id } from "../../../actors/Fields.ts"
import { membersOf } from "../../../actors/pm/Members.ts"
import { read, send } from "../../../actors/pm/WorkActor.ts"
import { PmTask } from "../../../actors/pm/WorkActors.ts"
import { conditionHolds, inScope, runRule } from "../../../actors/pmops/AutomationEngine.ts"
import { Condition, NewRule, PmAutomations, Rule, RulePatch, RuleRun, runsOf } from "../../../actors/pmops/AutomationRules.ts"
import { checkOutboundUrl } from "../../../actors/webhooks/OutboundAddress.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { operation, type RequestContext } from "../../Operation.ts"
import { at0, exampleIds as ids, inWorkspace, Limit, Offset, onList, onScope, onTask, orDieSql, pageOf } from "../WorkAccess.ts"

const tag = "Automation"
const service = "pm"
const ruleId = "b2c3d4e5-f6a7-4b8c-9d0e-1f2a3b4c5d6e"
const WorkspaceParams = Schema.Struct({ workspaceId: Id })
const RuleParams = Schema.Struct({ workspaceId: Id, automationId: Id })
const params = { workspaceId: ids.workspace, automationId: ruleId }

const exampleRule = {
  id: ruleId,
  workspaceId: ids.workspace,
  name: "Urgent bugs go to review",
  description: "When a task moves to review, make it urgent and tell the lead",
  enabled: true,
  scope: { type: "list", id: ids.list },
  trigger: { type: "status_changed", toStatus: "in review" },
  conditions: [{ field: "tag", operator: "is", value: "bug" }],
  actions: [
    { type: "set_priority", priority: "urgent" },
    { type: "comment", text: "Moved to review: priority raised automatically." }
  ],
  runCount: 0,
  failureCount: 0,
  lastRunAt: null,
  lastStatus: null,
  createdBy: ids.user,
  createdAt: at0,
  updatedAt: at0
}
const exampleRun = {
  id: "c3d4e5f6-a7b8-4c9d-8e0f-2a3b4c5d6e7f",
  ruleId,
  triggerKey: "seq:42",
  triggerType: "status_changed",
  taskId: ids.task,
  depth: 0,
  status: "succeeded",
  results: [
    { action: "set_priority", ok: true, detail: "priority → urgent" },
    { action: "comment", ok: true, detail: "commented" }
  ],
  error: null,
  startedAt: at0,
  finishedAt: at0
}

type RuleParts = Partial<Pick<typeof NewRule.Type, "scope" | "actions" | "conditions">>

/** What a rule refers to must be in the workspace and visible to its author: scope, lists, users, URLs. */
const checkReferences = (context: RequestContext, workspaceId: string, body: RuleParts) =>
  Effect.gen(function* () {
    const notFound = (path: string, what: string) =>
      reject("not_found", `No such ${what} in this workspace`, [{ path, message: `no such ${what}` }])
    if (body.scope) {
      const located = yield* onScope(context, body.scope.type, body.scope.id).pipe(
        Effect.mapError(() => notFound("body.scope.id", body.scope!.type))
      )
      if (located.at.workspaceId !== workspaceId) return yield* notFound("body.scope.id", body.scope.type)
    }
    const members = yield* orDieSql(membersOf(workspaceId))
    for (const [index, act] of (body.actions ?? []).entries()) {
      const path = `body.actions.${index}`
      if (act.type === "move") {
        const list = yield* onList(context, act.listId, "member").pipe(Effect.mapError(() => notFound(`${path}.listId`, "list")))
        if (list.at.workspaceId !== workspaceId) return yield* notFound(`${path}.listId`, "list")
      }
      if (act.type === "set_assignees" || act.type === "notify") {
        const stranger = act.userIds.findIndex((id) => !members.has(id))
        if (stranger >= 0) return yield* notFound(`${path}.userIds.${stranger}`, "member")
      }
      if (act.type === "send_webhook") {
        const refusal = yield* Effect.promise(() => checkOutboundUrl(act.url))
        if (refusal)
          return yield* reject("invalid", `Invalid ${path}.url: ${refusal.reason}`, [{ path: `${path}.url`, message: refusal.reason }])
      }
    }
    for (const [index, condition] of (body.conditions ?? []).entries()) {
      if (condition.field === "custom_field" && condition.fieldId === undefined)
        return yield* reject("invalid", "A custom_field condition names its fieldId", [
          { path: `body.conditions.${index}.fieldId`, message: "required for custom_field" }
        ])
      if (
        (condition.operator === "is" || condition.operator === "is_not" || condition.operator === "contains") &&
        condition.value === undefined
      )
        return yield* reject("invalid", `The ${condition.operator} operator compares with a value`, [
          { path: `body.conditions.${index}.value`, message: "required for this operator" }
        ])
    }
  })

const ruleInWorkspace = (context: RequestContext, workspaceId: string, automationId: string, minimum: "viewer" | "member") =>
  Effect.gen(function* () {
    const caller = yield* inWorkspace(context, workspaceId, minimum)
    const found = (yield* read(PmAutomations, workspaceId, "rules", {})).find((r) => r.id === automationId)
    if (found === undefined) return yield* reject("not_found", "No such automation rule")
    const { sinceSeq: _, ...rule } = found
    return { caller, rule }
  })

const TaskBody = Schema.Struct({ taskId: Id.annotate({ description: "The task to run the rule on" }) })

export const automationOperations = [
  operation({
    service,
    tag,
    operationId: "listAutomations",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/automations",
    summary: "The workspace's automation rules",
    auth: "both",
    scopes: ["automations:read"],
    params: WorkspaceParams,
    responses: { 200: { description: "Rules", schema: Schema.Struct({ items: Schema.Array(Rule) }) } },
    examples: [
      { name: "list", request: { params: { workspaceId: ids.workspace } }, response: { status: 200, body: { items: [exampleRule] } } }
    ],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* inWorkspace(context, params.workspaceId)
        const rules = yield* read(PmAutomations, params.workspaceId, "rules", {})
        return { items: rules.map(({ sinceSeq: _, ...rule }) => rule) }
      })
  }),
  operation({
    service,
    tag,
    operationId: "createAutomation",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/automations",
    summary: "Create a rule: trigger → conditions → actions (member)",
    description:
      "Triggers: task_created, status_changed (fromStatus/toStatus), assignee_changed, due_date_passed, comment_added, custom_field_changed (fieldId); optionally only under a space, folder or list. Conditions on the task must all hold. Actions: set_status, set_priority, set_assignees, set_field, add_tag, move, create_subtask, comment, send_webhook, notify. The rule reacts to changes made after it is created, asynchronously, as its author.",
    auth: "both",
    scopes: ["automations:write"],
    params: WorkspaceParams,
    body: NewRule,
    responses: {
      201: { description: "Created", schema: Rule },
      404: { description: "A referenced scope, list or user is not in the workspace" }
    },
    examples: [
      {
        name: "review-urgent",
        request: {
          params: { workspaceId: ids.workspace },
          body: {
            name: exampleRule.name,
            description: exampleRule.description,
            scope: exampleRule.scope,
            trigger: exampleRule.trigger,
            conditions: exampleRule.conditions,
            actions: exampleRule.actions
          }
        },
        response: { status: 201, body: exampleRule }
      }
    ],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId, "member")
        yield* checkReferences(context, params.workspaceId, body)
        return yield* send(PmAutomations, params.workspaceId, "create", caller.userId, body)
      })
  }),
  operation({
    service,
    tag,
    operationId: "getAutomation",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/automations/{automationId}",
    summary: "One automation rule with its run counters",
    auth: "both",
    scopes: ["automations:read"],
    params: RuleParams,
    responses: { 200: { description: "Rule", schema: Rule }, 404: { description: "No such rule" } },
    examples: [{ name: "get", request: { params }, response: { status: 200, body: exampleRule } }],
    handler: ({ params }, context) =>
      Effect.map(ruleInWorkspace(context, params.workspaceId, params.automationId, "viewer"), ({ rule }) => rule)
  }),
  operation({
    service,
    tag,
    operationId: "updateAutomation",
    method: "PATCH",
    path: "/v1/workspaces/{workspaceId}/automations/{automationId}",
    summary: "Change or enable/disable a rule (member); a re-enabled rule reacts only to later changes",
    auth: "both",
    scopes: ["automations:write"],
    params: RuleParams,
    body: RulePatch,
    responses: { 200: { description: "Updated", schema: Rule }, 404: { description: "No such rule" } },
    examples: [
      {
        name: "disable",
        request: { params, body: { enabled: false } },
        response: { status: 200, body: { ...exampleRule, enabled: false } }
      }
    ],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { caller } = yield* ruleInWorkspace(context, params.workspaceId, params.automationId, "member")
        yield* checkReferences(context, params.workspaceId, body as RuleParts)
        return yield* send(PmAutomations, params.workspaceId, "update", caller.userId, { ruleId: params.automationId, patch: body })
      })
  }),
  operation({
    service,
    tag,
    operationId: "deleteAutomation",
    method: "DELETE",
    path: "/v1/workspaces/{workspaceId}/automations/{automationId}",
    summary: "Delete a rule and its run history (member)",
    auth: "both",
    scopes: ["automations:write"],
    params: RuleParams,
    responses: { 204: { description: "Deleted" }, 404: { description: "No such rule" } },
    examples: [{ name: "delete", request: { params }, response: { status: 204 } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const { caller } = yield* ruleInWorkspace(context, params.workspaceId, params.automationId, "member")
        yield* send(PmAutomations, params.workspaceId, "delete", caller.userId, { ruleId: params.automationId })
      })
  }),
  operation({
    service,
    tag,
    operationId: "listAutomationRuns",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/automations/{automationId}/runs",
    summary: "A rule's run history, newest first: what triggered it, each action's result, loops cut",
    auth: "both",
    scopes: ["automations:read"],
    params: RuleParams,
    query: Schema.Struct({
      status: Schema.optionalKey(RuleRun.fields.status),
      offset: Schema.optionalKey(Offset),
      limit: Schema.optionalKey(Limit)
    }),
    responses: { 200: { description: "Runs", schema: Schema.Struct({ items: Schema.Array(RuleRun) }) } },
    examples: [{ name: "runs", request: { params }, response: { status: 200, body: { items: [exampleRun] } } }],
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        yield* ruleInWorkspace(context, params.workspaceId, params.automationId, "viewer")
        return { items: yield* orDieSql(runsOf(params.automationId, pageOf(query), query.status)) }
      })
  }),
  operation({
    service,
    tag,
    operationId: "runAutomation",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/automations/{automationId}/run",
    summary: "Run a rule's actions on a task now, whatever its trigger and conditions (member)",
    auth: "both",
    scopes: ["automations:write"],
    params: RuleParams,
    body: TaskBody,
    responses: { 200: { description: "The run", schema: RuleRun }, 404: { description: "No such rule or task" } },
    examples: [
      {
        name: "run",
        request: { params, body: { taskId: ids.task } },
        response: { status: 200, body: { ...exampleRun, triggerKey: "manual:d4e5f6a7-b8c9-4d0e-9f1a-3b4c5d6e7f8a", triggerType: "manual" } }
      }
    ],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { rule } = yield* ruleInWorkspace(context, params.workspaceId, params.automationId, "member")
        const { task } = yield* onTask(context, body.taskId, "member")
        if (task.workspaceId !== params.workspaceId) return yield* reject("not_found", "No such task")
        const run = yield* orDieSql(
          runRule(rule, { key: `manual:${crypto.randomUUID()}`, type: "manual", taskId: task.id, chain: [] }, { force: true })
        )
        if (run === undefined) return yield* reject("not_found", "No such task")
        return run
      })
  }),
  operation({
    service,
    tag,
    operationId: "testAutomation",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/automations/{automationId}/test",
    summary: "Dry run: would the rule act on this task now? Its scope and each condition, nothing changed",
    auth: "both",
    scopes: ["automations:read"],
    params: RuleParams,
    body: TaskBody,
    responses: {
      200: {
        description: "The evaluation",
        schema: Schema.Struct({
          matches: Schema.Boolean,
          inScope: Schema.Boolean,
          conditions: Schema.Array(Schema.Struct({ condition: Condition, holds: Schema.Boolean })),
          actions: Rule.fields.actions
        }).annotate({ identifier: "AutomationTest" })
      }
    },
    examples: [
      {
        name: "test",
        request: { params, body: { taskId: ids.task } },
        response: {
          status: 200,
          body: {
            matches: true,
            inScope: true,
            conditions: [{ condition: exampleRule.conditions[0], holds: true }],
            actions: exampleRule.actions
          }
        }
      }
    ],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { rule } = yield* ruleInWorkspace(context, params.workspaceId, params.automationId, "viewer")
        yield* onTask(context, body.taskId)
        const task = yield* read(PmTask, body.taskId, "get", {})
        if (task.workspaceId !== params.workspaceId) return yield* reject("not_found", "No such task")
        const scoped = inScope(rule, task)
        const conditions = rule.conditions.map((condition) => ({ condition, holds: conditionHolds(condition, task) }))
        return { matches: scoped && conditions.every((c) => c.holds), inScope: scoped, conditions, actions: rule.actions }
      })
  })
]
