/**
 * The vocabulary and public shapes of the work hierarchy (spaces → folders →
 * lists → tasks) and of what hangs off tasks. DTO schemas carry an
 * `identifier` so the catalog and OpenAPI list them once.
 */
import { Schema } from "effect"
import { Id, Timestamp } from "../Fields.ts"

export const Priority = Schema.Literals(["urgent", "high", "normal", "low"]).annotate({ description: "urgent > high > normal > low" })
export type Priority = typeof Priority.Type
export const priorityRank: Record<Priority, number> = { urgent: 1, high: 2, normal: 3, low: 4 }

export const StatusType = Schema.Literals(["open", "active", "done", "closed"]).annotate({
  description: "open: not started (new tasks get the first open status); active: in progress; done: finished; closed: finished and put away"
})
export type StatusType = typeof StatusType.Type
export const isFinished = (type: string) => type === "done" || type === "closed"

export const FieldType = Schema.Literals([
  "text",
  "number",
  "date",
  "dropdown",
  "labels",
  "checkbox",
  "email",
  "url",
  "currency",
  "phone",
  "rating",
  "users"
]).annotate({ description: "The kind of value a custom field holds" })
export type FieldType = typeof FieldType.Type

export const ScopeType = Schema.Literals(["space", "folder", "list"])
export type ScopeType = typeof ScopeType.Type

export const Color = Schema.String.check(Schema.isPattern(/^#[0-9a-fA-F]{6}$/, { expected: "a #rrggbb color" })).annotate({
  examples: ["#7b68ee"]
})

/** Short, per-workspace references ("S-1", "F-2", "L-3", "T-42"). */
export const ShortId = Schema.String.check(Schema.isPattern(/^[A-Za-z]{1,2}-\d{1,9}$/, { expected: "a short id such as T-42" })).annotate({
  examples: ["T-42"]
})

/** A task by UUID or short id. */
export const TaskRef = Schema.String.check(
  Schema.isPattern(/^(?:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|[A-Za-z]{1,2}-\d{1,9})$/, {
    expected: "a task id (UUID) or short id (T-42)"
  })
).annotate({ examples: ["T-42"] })

export const DateTime = Schema.String.check(
  Schema.isPattern(/^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/, {
    expected: "an ISO 8601 date or date-time"
  })
).annotate({ format: "date-time", examples: ["2026-12-01T17:00:00.000Z"] })

/** Normalizes an accepted date(-time) to ISO (a bare date is midnight UTC); `undefined` if not a real date. */
export const isoDate = (value: string): string | undefined => {
  // Date would roll 2026-02-31 over to March: check the calendar first.
  const parts = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?/.exec(value)
  if (parts === null) return undefined
  const [year, month, day, hour = 0, minute = 0, second = 0] = parts
    .slice(1)
    .map((p) => (p === undefined ? undefined : Number(p))) as Array<number>
  const daysInMonth = new Date(Date.UTC(year!, month!, 0)).getUTCDate()
  if (month! < 1 || month! > 12 || day! < 1 || day! > daysInMonth || hour > 23 || minute > 59 || second > 59) return undefined
  // Without a zone, a time is read as UTC (never the server's local time).
  const normalized = /^\d{4}-\d{2}-\d{2}$/.test(value)
    ? `${value}T00:00:00Z`
    : /(?:Z|[+-]\d{2}:?\d{2})$/.test(value)
      ? value.replace(" ", "T")
      : `${value.replace(" ", "T")}Z`
  const date = new Date(normalized)
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString()
}

export const Features = Schema.Struct({
  priorities: Schema.Boolean,
  dueDates: Schema.Boolean,
  startDates: Schema.Boolean,
  timeEstimates: Schema.Boolean,
  tags: Schema.Boolean,
  customFields: Schema.Boolean,
  checklists: Schema.Boolean,
  timeTracking: Schema.Boolean,
  multipleAssignees: Schema.Boolean
}).annotate({ identifier: "SpaceFeatures", description: "Which task features the space uses; a disabled feature is refused on its tasks." })
export type Features = typeof Features.Type
export const defaultFeatures: Features = {
  priorities: true,
  dueDates: true,
  startDates: true,
  timeEstimates: true,
  tags: true,
  customFields: true,
  checklists: true,
  timeTracking: true,
  multipleAssignees: true
}
/** Features to turn on or off; those left out are unchanged. */
export const FeaturesPatch = Schema.Struct(
  Object.fromEntries(Object.keys(Features.fields).map((key) => [key, Schema.optionalKey(Schema.Boolean)])) as {
    [K in keyof typeof Features.fields]: Schema.optionalKey<typeof Schema.Boolean>
  }
)
export type FeaturesPatch = typeof FeaturesPatch.Type
export const featuresOf = (stored: unknown): Features => ({ ...defaultFeatures, ...((stored as Partial<Features> | null) ?? {}) })

export const TaskDefaults = Schema.Struct({
  priority: Schema.optionalKey(Schema.NullOr(Priority)),
  assigneeIds: Schema.optionalKey(Schema.Array(Id).check(Schema.isMaxLength(20))),
  timeEstimateMinutes: Schema.optionalKey(Schema.NullOr(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 1_000_000 })))),
  dueInDays: Schema.optionalKey(Schema.NullOr(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 3650 }))))
}).annotate({
  identifier: "TaskDefaults",
  description: "Values a new task gets when created without them; a list's defaults override its space's, key by key."
})
export type TaskDefaults = typeof TaskDefaults.Type

export const Status = Schema.Struct({
  id: Id,
  name: Schema.String,
  type: StatusType,
  color: Schema.String,
  position: Schema.Number
}).annotate({ identifier: "Status" })
export type Status = typeof Status.Type

export const EffectiveStatuses = Schema.Struct({
  inheritedFrom: ScopeType.annotate({ description: "The level whose statuses apply here" }),
  sourceId: Id,
  own: Schema.Boolean.annotate({ description: "True when this level defines its own statuses" }),
  items: Schema.Array(Status)
}).annotate({ identifier: "EffectiveStatuses" })

export const FieldOption = Schema.Struct({ id: Id, name: Schema.String, color: Schema.NullOr(Schema.String) }).annotate({
  identifier: "CustomFieldOption"
})
export type FieldOption = typeof FieldOption.Type

export const FieldConfig = Schema.Struct({
  options: Schema.optionalKey(Schema.Array(FieldOption)),
  currency: Schema.optionalKey(Schema.String),
  precision: Schema.optionalKey(Schema.Number),
  min: Schema.optionalKey(Schema.Number),
  max: Schema.optionalKey(Schema.Number)
}).annotate({ identifier: "CustomFieldConfig" })
export type FieldConfig = typeof FieldConfig.Type

export const CustomField = Schema.Struct({
  id: Id,
  workspaceId: Id,
  scopeType: ScopeType,
  scopeId: Id,
  name: Schema.String,
  type: FieldType,
  description: Schema.String,
  required: Schema.Boolean,
  config: FieldConfig,
  position: Schema.Number,
  createdBy: Id,
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotate({ identifier: "CustomField" })
export type CustomField = typeof CustomField.Type

export const Space = Schema.Struct({
  id: Id,
  workspaceId: Id,
  shortId: Schema.String,
  name: Schema.String,
  description: Schema.String,
  color: Schema.NullOr(Schema.String),
  isPrivate: Schema.Boolean,
  position: Schema.Number,
  features: Features,
  taskDefaults: TaskDefaults,
  archived: Schema.Boolean,
  archivedAt: Schema.NullOr(Timestamp),
  createdBy: Id,
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotate({ identifier: "Space" })
export type Space = typeof Space.Type

export const Folder = Schema.Struct({
  id: Id,
  workspaceId: Id,
  spaceId: Id,
  shortId: Schema.String,
  name: Schema.String,
  description: Schema.String,
  color: Schema.NullOr(Schema.String),
  position: Schema.Number,
  ownStatuses: Schema.Boolean,
  archived: Schema.Boolean,
  archivedAt: Schema.NullOr(Timestamp),
  createdBy: Id,
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotate({ identifier: "Folder" })
export type Folder = typeof Folder.Type

export const List = Schema.Struct({
  id: Id,
  workspaceId: Id,
  spaceId: Id,
  folderId: Schema.NullOr(Id),
  shortId: Schema.String,
  name: Schema.String,
  description: Schema.String,
  color: Schema.NullOr(Schema.String),
  priority: Schema.NullOr(Priority),
  startDate: Schema.NullOr(Timestamp),
  dueDate: Schema.NullOr(Timestamp),
  ownerId: Schema.NullOr(Id),
  taskDefaults: TaskDefaults,
  position: Schema.Number,
  ownStatuses: Schema.Boolean,
  archived: Schema.Boolean,
  archivedAt: Schema.NullOr(Timestamp),
  createdBy: Id,
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotate({ identifier: "List" })
export type List = typeof List.Type

export const UserRef = Schema.Struct({ id: Id, email: Schema.String, name: Schema.String }).annotate({ identifier: "UserRef" })
export type UserRef = typeof UserRef.Type

export const Tag = Schema.Struct({ id: Id, spaceId: Id, name: Schema.String, color: Schema.String, createdAt: Timestamp }).annotate({
  identifier: "Tag"
})
export type Tag = typeof Tag.Type

export const CustomFieldValue = Schema.Struct({
  fieldId: Id,
  name: Schema.String,
  type: FieldType,
  value: Schema.Unknown
}).annotate({ identifier: "CustomFieldValue" })

export const Task = Schema.Struct({
  id: Id,
  workspaceId: Id,
  spaceId: Id,
  folderId: Schema.NullOr(Id),
  listId: Id,
  parentTaskId: Schema.NullOr(Id),
  shortId: Schema.String,
  name: Schema.String,
  description: Schema.String,
  status: Schema.Struct({ name: Schema.String, type: StatusType, color: Schema.String }),
  priority: Schema.NullOr(Priority),
  startDate: Schema.NullOr(Timestamp),
  dueDate: Schema.NullOr(Timestamp),
  timeEstimateMinutes: Schema.NullOr(Schema.Number),
  position: Schema.Number,
  assignees: Schema.Array(UserRef),
  watcherIds: Schema.Array(Id),
  tags: Schema.Array(Tag),
  customFields: Schema.Array(CustomFieldValue),
  subtaskCount: Schema.Number,
  recurrence: Schema.NullOr(Schema.Unknown),
  createdBy: Id,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  closedAt: Schema.NullOr(Timestamp),
  archived: Schema.Boolean,
  archivedAt: Schema.NullOr(Timestamp),
  deletedAt: Schema.NullOr(Timestamp),
  version: Schema.Number
}).annotate({ identifier: "Task" })
export type Task = typeof Task.Type

export const Page = <S extends Schema.Top>(item: S) =>
  Schema.Struct({ items: Schema.Array(item), total: Schema.Number, offset: Schema.Number, limit: Schema.Number })
export const Items = <S extends Schema.Top>(item: S) => Schema.Struct({ items: Schema.Array(item) })
