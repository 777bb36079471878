/**
 * The engine matches a change only against the rules listening to its type:
 * the index by change type, and that it agrees with `triggeredTask`.
 */
import { describe, expect, it } from "vitest"
import type { LoggedEvent } from "../../../actors/pm/EventLog.ts"
import { rulesByChangeType, triggeredTask } from "../../../actors/pmops/AutomationEngine.ts"
import type { Rule, TriggerType } from "../../../actors/pmops/AutomationRules.ts"

const rule = (id: string, type: TriggerType): Rule => ({
  id,
  workspaceId: "w",
  name: id,
  description: "",
  enabled: true,
  scope: null,
  trigger: { type },
  conditions: [],
  actions: [{ type: "comment", text: "hi" }],
  runCount: 0,
  failureCount: 0,
  lastRunAt: null,
  lastStatus: null,
  createdBy: "u",
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z"
})

const change = (type: string, data: Record<string, unknown>): LoggedEvent => ({
  seq: 1,
  type,
  workspaceId: "w",
  scope: "task",
  entityId: "t",
  path: { taskId: "t" },
  data,
  actorId: "u",
  at: "2026-01-01T00:00:00.000Z",
  privateSpace: false
})

describe("rules by change type", () => {
  const rules = [
    rule("created", "task_created"),
    rule("status", "status_changed"),
    rule("assignee", "assignee_changed"),
    rule("field", "custom_field_changed"),
    rule("comment", "comment_added"),
    rule("due", "due_date_passed")
  ]
  const index = rulesByChangeType(rules)

  it("files each rule under the one change type that can trigger it; due dates under none", () => {
    const ids = (type: string) => (index.get(type) ?? []).map((r) => r.id)
    expect(ids("task.created")).toEqual(["created"])
    expect(ids("status.changed")).toEqual(["status"])
    expect(ids("task.updated")).toEqual(["assignee", "field"])
    expect(ids("comment.created")).toEqual(["comment"])
    expect([...index.keys()].sort()).toEqual(["comment.created", "status.changed", "task.created", "task.updated"])
  })

  it("never leaves out a rule a change triggers", () => {
    const changes = [
      change("task.created", {}),
      change("status.changed", { from: "to do", to: "done" }),
      change("task.updated", { assigneeIds: ["u"], customFields: { f: 1 } }),
      change("comment.created", {}),
      change("task.deleted", {})
    ]
    for (const event of changes) {
      const triggered = rules.filter((r) => triggeredTask(r, event) !== undefined).map((r) => r.id)
      const listening = (index.get(event.type) ?? []).filter((r) => triggeredTask(r, event) !== undefined).map((r) => r.id)
      expect(listening).toEqual(triggered)
    }
    expect(index.get("task.deleted")).toBeUndefined()
  })
})
