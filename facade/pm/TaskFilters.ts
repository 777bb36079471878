/** The query string of task listings (lists, folders, spaces, the workspace), shared by the tags that list tasks. */
import { Schema } from "effect"
import type { Viewer } from "../../actors/pm/StructureReads.ts"
import type { TaskFilter, TaskOrder } from "../../actors/pm/TaskReads.ts"
import type { Priority } from "../../actors/pm/WorkRecords.ts"
import { DateTime, isoDate } from "../../actors/pm/WorkRecords.ts"
import { ArchivedQuery, BooleanString, csv, Limit, Offset } from "./WorkAccess.ts"

const uuid = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
const CsvIds = Schema.String.check(Schema.isPattern(new RegExp(`^${uuid}(,${uuid})*$`), { expected: "comma-separated UUIDs" }))
const CsvPriorities = Schema.String.check(
  Schema.isPattern(/^(urgent|high|normal|low)(,(urgent|high|normal|low))*$/, {
    expected: "comma-separated priorities (urgent, high, normal, low)"
  })
)
const CsvNames = Schema.String.check(Schema.isMaxLength(1000))

export const TaskQueryFields = {
  statuses: Schema.optionalKey(CsvNames.annotate({ description: "Status names, comma-separated" })),
  priorities: Schema.optionalKey(CsvPriorities),
  assigneeIds: Schema.optionalKey(CsvIds),
  tags: Schema.optionalKey(CsvNames.annotate({ description: "Tag names, comma-separated (any of them)" })),
  q: Schema.optionalKey(
    Schema.String.check(Schema.isMaxLength(200)).annotate({ description: "Text in the name or description, or a short id" })
  ),
  dueAfter: Schema.optionalKey(DateTime),
  dueBefore: Schema.optionalKey(DateTime),
  createdAfter: Schema.optionalKey(DateTime),
  createdBefore: Schema.optionalKey(DateTime),
  updatedAfter: Schema.optionalKey(DateTime),
  includeClosed: Schema.optionalKey(BooleanString.annotate({ description: "Include done and closed tasks (default true)" })),
  overdue: Schema.optionalKey(BooleanString),
  subtasks: Schema.optionalKey(
    Schema.Literals(["include", "exclude"]).annotate({ description: "Include subtasks (default) or list top-level tasks only" })
  ),
  archived: Schema.optionalKey(ArchivedQuery),
  order: Schema.optionalKey(Schema.Literals(["position", "created", "updated", "due", "priority", "name"])),
  direction: Schema.optionalKey(Schema.Literals(["asc", "desc"])),
  offset: Schema.optionalKey(Offset),
  limit: Schema.optionalKey(Limit)
}

export const TaskQuery = Schema.Struct(TaskQueryFields)
export type TaskQuery = typeof TaskQuery.Type

const date = (value: string | undefined) => (value === undefined ? undefined : isoDate(value))

/** The filter a listing's query asks for, within the given scope. */
export const filterOf = (query: TaskQuery, scope: Omit<TaskFilter, "viewer"> & { readonly viewer: Viewer }): TaskFilter => ({
  ...scope,
  statuses: csv(query.statuses),
  priorities: csv(query.priorities) as Array<Priority> | undefined,
  assigneeIds: csv(query.assigneeIds),
  tagNames: csv(query.tags),
  q: query.q,
  dueAfter: date(query.dueAfter),
  dueBefore: date(query.dueBefore),
  createdAfter: date(query.createdAfter),
  createdBefore: date(query.createdBefore),
  updatedAfter: date(query.updatedAfter),
  includeClosed: query.includeClosed === undefined ? undefined : query.includeClosed === "true",
  overdue: query.overdue === "true",
  topLevelOnly: query.subtasks === "exclude",
  archived: query.archived ?? "exclude"
})

export const pageFrom = (query: TaskQuery) => ({
  offset: query.offset ?? 0,
  limit: query.limit ?? 50,
  order: (query.order ?? "position") as TaskOrder,
  direction: query.direction ?? "asc"
})
