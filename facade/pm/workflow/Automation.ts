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
import { type RequestContext, tagGroup } from "../../Operation.ts"
import { inWorkspace, Limit, Offset, onList, onScope, onTask, orDieSql, pageOf } from "../WorkAccess.ts"
import { automationExamples } from "./Automation.examples.ts"
const WorkspaceParams = Schema.Struct({ workspaceId: Id })
const RuleParams = Schema.Struct({ workspaceId: Id, automationId: Id })

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

const { operation } = tagGroup("pm", "Automation", automationExamples)

export const automationOperations = [
  operation({
    operationId: "listAutomations",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/automations",
    summary: "The workspace's automation rules",
    auth: "both",
    scopes: ["automations:read"],
    params: WorkspaceParams,
    responses: { 200: { description: "Rules", schema: Schema.Struct({ items: Schema.Array(Rule) }) } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* inWorkspace(context, params.workspaceId)
        const rules = yield* read(PmAutomations, params.workspaceId, "rules", {})
        return { items: rules.map(({ sinceSeq: _, ...rule }) => rule) }
      })
  }),
  operation({
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
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId, "member")
        yield* checkReferences(context, params.workspaceId, body)
        return yield* send(PmAutomations, params.workspaceId, "create", caller.userId, body)
      })
  }),
  operation({
    operationId: "getAutomation",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/automations/{automationId}",
    summary: "One automation rule with its run counters",
    auth: "both",
    scopes: ["automations:read"],
    params: RuleParams,
    responses: { 200: { description: "Rule", schema: Rule }, 404: { description: "No such rule" } },
    handler: ({ params }, context) =>
      Effect.map(ruleInWorkspace(context, params.workspaceId, params.automationId, "viewer"), ({ rule }) => rule)
  }),
  operation({
    operationId: "updateAutomation",
    method: "PATCH",
    path: "/v1/workspaces/{workspaceId}/automations/{automationId}",
    summary: "Change or enable/disable a rule (member); a re-enabled rule reacts only to later changes",
    auth: "both",
    scopes: ["automations:write"],
    params: RuleParams,
    body: RulePatch,
    responses: { 200: { description: "Updated", schema: Rule }, 404: { description: "No such rule" } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { caller } = yield* ruleInWorkspace(context, params.workspaceId, params.automationId, "member")
        yield* checkReferences(context, params.workspaceId, body as RuleParts)
        return yield* send(PmAutomations, params.workspaceId, "update", caller.userId, { ruleId: params.automationId, patch: body })
      })
  }),
  operation({
    operationId: "deleteAutomation",
    method: "DELETE",
    path: "/v1/workspaces/{workspaceId}/automations/{automationId}",
    summary: "Delete a rule and its run history (member)",
    auth: "both",
    scopes: ["automations:write"],
    params: RuleParams,
    responses: { 204: { description: "Deleted" }, 404: { description: "No such rule" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const { caller } = yield* ruleInWorkspace(context, params.workspaceId, params.automationId, "member")
        yield* send(PmAutomations, params.workspaceId, "delete", caller.userId, { ruleId: params.automationId })
      })
  }),
  operation({
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
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        yield* ruleInWorkspace(context, params.workspaceId, params.automationId, "viewer")
        return { items: yield* orDieSql(runsOf(params.automationId, pageOf(query), query.status)) }
      })
  }),
  operation({
    operationId: "runAutomation",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/automations/{automationId}/run",
    summary: "Run a rule's actions on a task now, whatever its trigger and conditions (member)",
    auth: "both",
    scopes: ["automations:write"],
    params: RuleParams,
    body: TaskBody,
    responses: { 200: { description: "The run", schema: RuleRun }, 404: { description: "No such rule or task" } },
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
