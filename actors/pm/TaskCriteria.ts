/**
 * Task criteria: the filter a view, a saved filter or a dashboard keeps as
 * JSON (the same conditions the task listings take in their query string),
 * checked when saved and turned into a `TaskFilter` when applied.
 */
import { Effect, Schema } from "effect"
import { Id, Name } from "../Fields.ts"
import { InvalidFieldValue } from "./PlanningErrors.ts"
import { requireMembers } from "./Members.ts"
import type { Viewer } from "./StructureReads.ts"
import type { TaskFilter } from "./TaskReads.ts"
import { DateTime, isoDate, Priority } from "./WorkRecords.ts"

export const TaskCriteria = Schema.Struct({
  statuses: Schema.optionalKey(
    Schema.Array(Name(64)).check(Schema.isMaxLength(50)).annotate({ description: "Status names (any of them)" })
  ),
  priorities: Schema.optionalKey(Schema.Array(Priority).check(Schema.isMaxLength(4))),
  assigneeIds: Schema.optionalKey(
    Schema.Array(Id).check(Schema.isMaxLength(50)).annotate({ description: "Assigned to any of these members" })
  ),
  tags: Schema.optionalKey(Schema.Array(Name(64)).check(Schema.isMaxLength(50)).annotate({ description: "Tag names (any of them)" })),
  q: Schema.optionalKey(
    Schema.String.check(Schema.isMaxLength(200)).annotate({ description: "Text in the name or description, or a short id" })
  ),
  dueAfter: Schema.optionalKey(DateTime),
  dueBefore: Schema.optionalKey(DateTime),
  createdAfter: Schema.optionalKey(DateTime),
  createdBefore: Schema.optionalKey(DateTime),
  includeClosed: Schema.optionalKey(Schema.Boolean.annotate({ description: "Include done and closed tasks (default true)" })),
  overdue: Schema.optionalKey(Schema.Boolean.annotate({ description: "Only unfinished tasks past their due date" })),
  subtasks: Schema.optionalKey(
    Schema.Literals(["include", "exclude"]).annotate({ description: "Include subtasks (default) or top-level tasks only" })
  )
}).annotate({
  identifier: "TaskCriteria",
  description: "Conditions a task must meet (all of them); within one list of values, any matches"
})
export type TaskCriteria = typeof TaskCriteria.Type

const dateKeys = ["dueAfter", "dueBefore", "createdAfter", "createdBefore"] as const

/**
 * Criteria as stored: real dates (normalized to ISO), assignees who are
 * members of the workspace, names trimmed. Fails 400 naming the field.
 */
export const checkCriteria = (workspaceId: string, criteria: TaskCriteria, prefix: string) =>
  Effect.gen(function* () {
    const out: Record<string, unknown> = { ...criteria }
    for (const key of dateKeys) {
      const value = criteria[key]
      if (value === undefined) continue
      const iso = isoDate(value)
      if (iso === undefined) return yield* new InvalidFieldValue({ field: `${prefix}.${key}`, problem: "not a real date" })
      out[key] = iso
    }
    if (criteria.assigneeIds) {
      yield* requireMembers(workspaceId, criteria.assigneeIds, `${prefix}.assigneeIds`)
      out.assigneeIds = [...new Set(criteria.assigneeIds)]
    }
    if (criteria.statuses) out.statuses = [...new Set(criteria.statuses.map((s) => s.trim()))]
    if (criteria.tags) out.tags = [...new Set(criteria.tags.map((s) => s.trim()))]
    if (criteria.priorities) out.priorities = [...new Set(criteria.priorities)]
    return out as TaskCriteria
  })

/** Where criteria apply: a workspace, or one space, folder or list of it. */
export interface CriteriaScope {
  readonly workspaceId: string
  readonly viewer: Viewer
  readonly scopeType: "workspace" | "space" | "folder" | "list"
  readonly scopeId: string
}

/** The task filter of `criteria` within `scope` (archived tasks left out). */
export const filterOfCriteria = (criteria: TaskCriteria, scope: CriteriaScope): TaskFilter => ({
  workspaceId: scope.workspaceId,
  viewer: scope.viewer,
  ...(scope.scopeType === "space" ? { spaceIds: [scope.scopeId] } : {}),
  ...(scope.scopeType === "folder" ? { folderIds: [scope.scopeId] } : {}),
  ...(scope.scopeType === "list" ? { listIds: [scope.scopeId] } : {}),
  statuses: criteria.statuses,
  priorities: criteria.priorities,
  assigneeIds: criteria.assigneeIds,
  tagNames: criteria.tags,
  q: criteria.q,
  dueAfter: criteria.dueAfter,
  dueBefore: criteria.dueBefore,
  createdAfter: criteria.createdAfter,
  createdBefore: criteria.createdBefore,
  includeClosed: criteria.includeClosed,
  overdue: criteria.overdue === true,
  topLevelOnly: criteria.subtasks === "exclude",
  archived: "exclude"
})

/** The query string of the task listings (`GET /v1/lists/{listId}/tasks?…`) that applies the same criteria. */
export const criteriaQueryString = (criteria: TaskCriteria): string => {
  const params = new URLSearchParams()
  if (criteria.statuses?.length) params.set("statuses", criteria.statuses.join(","))
  if (criteria.priorities?.length) params.set("priorities", criteria.priorities.join(","))
  if (criteria.assigneeIds?.length) params.set("assigneeIds", criteria.assigneeIds.join(","))
  if (criteria.tags?.length) params.set("tags", criteria.tags.join(","))
  if (criteria.q) params.set("q", criteria.q)
  for (const key of dateKeys) if (criteria[key]) params.set(key, criteria[key]!)
  if (criteria.includeClosed !== undefined) params.set("includeClosed", String(criteria.includeClosed))
  if (criteria.overdue) params.set("overdue", "true")
  if (criteria.subtasks) params.set("subtasks", criteria.subtasks)
  return params.toString()
}
