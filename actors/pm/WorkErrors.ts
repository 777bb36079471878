/**
 * The domain errors of the work hierarchy's actors (workspace, space, list,
 * task) and the helpers they share with the facade, declared by their
 * messages and answered from one table (`facade/HttpError.ts`). Messages and
 * details are the replies' exact wording, so the HTTP answers stay as they were.
 */
import { Schema } from "effect"

const detail = (path: string, message: string) => [{ path, message }] as const
const lastSegment = (path: string) => path.split(".").pop() ?? path

// Things not there

/** No task matches a reference (UUID or short id) given in a workspace; `field` names the input. */
export class TaskRefNotFound extends Schema.TaggedError<TaskRefNotFound>()("TaskRefNotFound", {
  ref: Schema.String,
  field: Schema.optionalKey(Schema.String)
}) {
  override get message() {
    return `No such task: ${this.ref}`
  }
  get details() {
    return this.field === undefined ? undefined : detail(this.field, "not found")
  }
}

/** No space, folder or list (`what`) of the workspace has this short id. */
export class ShortIdNotFound extends Schema.TaggedError<ShortIdNotFound>()("ShortIdNotFound", {
  what: Schema.String,
  shortId: Schema.String
}) {
  override get message() {
    return `No ${this.what} with short id ${this.shortId}`
  }
}

/** The task a merge names (at `field`) is not there. */
export class MergeSourceNotFound extends Schema.TaggedError<MergeSourceNotFound>()("MergeSourceNotFound", {
  taskId: Schema.String,
  field: Schema.String
}) {
  override get message() {
    return `No such task ${this.taskId}`
  }
  get details() {
    return detail(this.field, "not found")
  }
}

export class CustomFieldNotFound extends Schema.TaggedError<CustomFieldNotFound>()("CustomFieldNotFound", {}) {
  override get message() {
    return "No such custom field"
  }
}

/** A custom field that exists but does not apply where it was asked for. */
export class CustomFieldNotHere extends Schema.TaggedError<CustomFieldNotHere>()("CustomFieldNotHere", {}) {
  override get message() {
    return "No such custom field here"
  }
}

export class OptionNotFound extends Schema.TaggedError<OptionNotFound>()("OptionNotFound", {}) {
  override get message() {
    return "No such option"
  }
}

/** No status of this scope's own workflow has this id. */
export class StatusNotFound extends Schema.TaggedError<StatusNotFound>()("StatusNotFound", {}) {
  override get message() {
    return "No such status here"
  }
}

export class ChecklistNotFound extends Schema.TaggedError<ChecklistNotFound>()("ChecklistNotFound", {}) {
  override get message() {
    return "No such checklist"
  }
}

export class ChecklistItemNotFound extends Schema.TaggedError<ChecklistItemNotFound>()("ChecklistItemNotFound", {}) {
  override get message() {
    return "No such checklist item"
  }
}

export class TimeEntryNotFound extends Schema.TaggedError<TimeEntryNotFound>()("TimeEntryNotFound", {}) {
  override get message() {
    return "No such time entry"
  }
}

export class AttachmentNotFound extends Schema.TaggedError<AttachmentNotFound>()("AttachmentNotFound", {}) {
  override get message() {
    return "No such attachment"
  }
}

/** No relationship of the workspace has this id; `field` names the input when one of several. */
export class RelationshipNotFound extends Schema.TaggedError<RelationshipNotFound>()("RelationshipNotFound", {
  field: Schema.optionalKey(Schema.String)
}) {
  override get message() {
    return "No such relationship"
  }
  get details() {
    return this.field === undefined ? undefined : detail(this.field, "not found")
  }
}

export class TagNotFound extends Schema.TaggedError<TagNotFound>()("TagNotFound", {}) {
  override get message() {
    return "No such tag"
  }
}

/** No task template of the workspace has this id; `field` names the input that gave it. */
export class TaskTemplateNotFound extends Schema.TaggedError<TaskTemplateNotFound>()("TaskTemplateNotFound", {
  field: Schema.optionalKey(Schema.String)
}) {
  override get message() {
    return "No such task template"
  }
  get details() {
    return this.field === undefined ? undefined : detail(this.field, "not found")
  }
}

/** E-mails (each given at its `path`) that no member of the workspace has. */
export class NoMemberWithEmail extends Schema.TaggedError<NoMemberWithEmail>()("NoMemberWithEmail", {
  entries: Schema.Array(Schema.Struct({ email: Schema.String, path: Schema.String }))
}) {
  override get message() {
    return `No member of this workspace has the e-mail ${this.entries.map((e) => e.email).join(", ")}`
  }
  get details() {
    return this.entries.map((e) => ({ path: e.path, message: `no member with e-mail ${e.email}` }))
  }
}

// Names that are taken

/** A custom field of this name already applies at the scope. */
export class CustomFieldNameTaken extends Schema.TaggedError<CustomFieldNameTaken>()("CustomFieldNameTaken", { name: Schema.String }) {
  override get message() {
    return `A custom field named "${this.name}" already applies here`
  }
  get details() {
    return detail("body.name", "already exists")
  }
}

export class OptionNameTaken extends Schema.TaggedError<OptionNameTaken>()("OptionNameTaken", { name: Schema.String }) {
  override get message() {
    return `An option named "${this.name}" already exists`
  }
  get details() {
    return detail("body.name", "already exists")
  }
}

export class StatusNameTaken extends Schema.TaggedError<StatusNameTaken>()("StatusNameTaken", { name: Schema.String }) {
  override get message() {
    return `A status named "${this.name}" already exists here`
  }
  get details() {
    return detail("body.name", "already exists")
  }
}

export class TagNameTaken extends Schema.TaggedError<TagNameTaken>()("TagNameTaken", { name: Schema.String }) {
  override get message() {
    return `A tag named "${this.name}" already exists in this space`
  }
  get details() {
    return detail("body.name", "already exists")
  }
}

/** Two statuses of one workflow share a name (the second at `field`). */
export class DuplicateStatusName extends Schema.TaggedError<DuplicateStatusName>()("DuplicateStatusName", {
  name: Schema.String,
  field: Schema.String
}) {
  override get message() {
    return `Duplicate status name "${this.name}"`
  }
  get details() {
    return detail(this.field, "duplicate")
  }
}

// Workflows and fields

/** A workflow (given at `field`) without a status of kind `needs` ("open", or "done or closed"). */
export class WorkflowIncomplete extends Schema.TaggedError<WorkflowIncomplete>()("WorkflowIncomplete", {
  needs: Schema.Literals(["open", "done or closed"]),
  field: Schema.String
}) {
  override get message() {
    return `A workflow needs at least one status of type ${this.needs}`
  }
  get details() {
    return detail(this.field, this.needs === "open" ? "no open status" : "no done or closed status")
  }
}

/** Deleting a status whose tasks would move to `name`, which the workflow no longer has. */
export class NoStatusToMoveTo extends Schema.TaggedError<NoStatusToMoveTo>()("NoStatusToMoveTo", { name: Schema.String }) {
  override get message() {
    return `No status "${this.name}" remains to move tasks to`
  }
  get details() {
    return detail("query.moveTo", "unknown status")
  }
}

/** A status mapping (from `from`) to `to`, which is not among the new statuses. */
export class UnknownMappingTarget extends Schema.TaggedError<UnknownMappingTarget>()("UnknownMappingTarget", {
  from: Schema.String,
  to: Schema.String
}) {
  override get message() {
    return `Mapping target "${this.to}" is not in the new statuses`
  }
  get details() {
    return detail(`body.mapping.${this.from}`, "unknown status")
  }
}

/** A folder or list (`what`) whose statuses are inherited already. */
export class AlreadyInheritsStatuses extends Schema.TaggedError<AlreadyInheritsStatuses>()("AlreadyInheritsStatuses", {
  what: Schema.String
}) {
  override get message() {
    return `This ${this.what} already inherits its statuses`
  }
}

/** A space's workflow is its own; only folders and lists inherit. */
export class SpaceOwnsStatuses extends Schema.TaggedError<SpaceOwnsStatuses>()("SpaceOwnsStatuses", {}) {
  override get message() {
    return "A space always has its own statuses"
  }
}

/** A status name (at `field`) not in the list's workflow, whose statuses are `statuses`. */
export class UnknownStatus extends Schema.TaggedError<UnknownStatus>()("UnknownStatus", {
  name: Schema.String,
  statuses: Schema.Array(Schema.String),
  field: Schema.String
}) {
  override get message() {
    return `Unknown status "${this.name}"; this list's statuses are: ${this.statuses.join(", ")}`
  }
  get details() {
    return detail(this.field, "unknown status")
  }
}

/** A field of type `type` (not a dropdown or label field) has no options to change. */
export class FieldHasNoOptions extends Schema.TaggedError<FieldHasNoOptions>()("FieldHasNoOptions", { type: Schema.String }) {
  override get message() {
    return `A ${this.type} field has no options`
  }
}

/** A custom field value (at `field`, the key `key`) for which no field applies to the list. */
export class UnknownCustomField extends Schema.TaggedError<UnknownCustomField>()("UnknownCustomField", {
  key: Schema.String,
  field: Schema.String
}) {
  override get message() {
    return `No custom field "${this.key}" applies to this list`
  }
  get details() {
    return detail(this.field, "unknown custom field")
  }
}

/** A required custom field (`name`, at `field`) cleared. */
export class CustomFieldRequired extends Schema.TaggedError<CustomFieldRequired>()("CustomFieldRequired", {
  name: Schema.String,
  field: Schema.String
}) {
  override get message() {
    return `The custom field "${this.name}" is required`
  }
  get details() {
    return detail(this.field, "required")
  }
}

/** A new task without values for the list's required custom fields (each at its `path`). */
export class RequiredFieldsMissing extends Schema.TaggedError<RequiredFieldsMissing>()("RequiredFieldsMissing", {
  fields: Schema.Array(Schema.Struct({ name: Schema.String, path: Schema.String }))
}) {
  override get message() {
    return `Required custom fields missing: ${this.fields.map((f) => f.name).join(", ")}`
  }
  get details() {
    return this.fields.map((f) => ({ path: f.path, message: `required (${f.name})` }))
  }
}

// Features a space turned off

/** A value (at `field`) of a feature (`feature`, plural: "Priorities") the space turned off. */
export class FeatureTurnedOff extends Schema.TaggedError<FeatureTurnedOff>()("FeatureTurnedOff", {
  feature: Schema.String,
  field: Schema.String
}) {
  override get message() {
    return `${this.feature} are turned off in this space`
  }
  get details() {
    return detail(this.field, `${this.feature} disabled in this space`)
  }
}

export class ChecklistsTurnedOff extends Schema.TaggedError<ChecklistsTurnedOff>()("ChecklistsTurnedOff", {}) {
  override get message() {
    return "Checklists are turned off in this space"
  }
  get details() {
    return detail("body.name", "checklists disabled in this space")
  }
}

export class TimeTrackingTurnedOff extends Schema.TaggedError<TimeTrackingTurnedOff>()("TimeTrackingTurnedOff", {}) {
  override get message() {
    return "Time tracking is turned off in this space"
  }
  get details() {
    return detail("body", "time tracking disabled")
  }
}

/** Several assignees (at `field`) where the space allows one. */
export class OneAssigneePerTask extends Schema.TaggedError<OneAssigneePerTask>()("OneAssigneePerTask", { field: Schema.String }) {
  override get message() {
    return "This space allows one assignee per task"
  }
  get details() {
    return detail(this.field, "at most one assignee")
  }
}

// Values that break a rule

/** A start date (at `field`) after the due date. */
export class StartAfterDue extends Schema.TaggedError<StartAfterDue>()("StartAfterDue", { field: Schema.String }) {
  override get message() {
    return "startDate must not be after dueDate"
  }
  get details() {
    return detail(this.field, "after dueDate")
  }
}

/** A new order (at `field`) that does not name every `every` exactly once (`of`: what it should permute). */
export class NotAPermutation extends Schema.TaggedError<NotAPermutation>()("NotAPermutation", {
  field: Schema.String,
  every: Schema.String,
  of: Schema.String
}) {
  override get message() {
    return `${lastSegment(this.field)} must list every ${this.every} exactly once`
  }
  get details() {
    return detail(this.field, `not a permutation of ${this.of}`)
  }
}

/** A folder (at `body.folderId`) in another space than `spaceId` says, or than the list's own. */
export class FolderInOtherSpace extends Schema.TaggedError<FolderInOtherSpace>()("FolderInOtherSpace", {
  of: Schema.Literals(["spaceId", "list"])
}) {
  override get message() {
    return this.of === "spaceId" ? "The folder is not in that space" : "The folder must be in the list's space"
  }
  get details() {
    return detail("body.folderId", this.of === "spaceId" ? "not in spaceId" : "another space")
  }
}

/** A time entry that ends before it starts. */
export class EndBeforeStart extends Schema.TaggedError<EndBeforeStart>()("EndBeforeStart", {}) {
  override get message() {
    return "endedAt must not be before startedAt"
  }
  get details() {
    return detail("body.endedAt", "before startedAt")
  }
}

export class TimeEntryEndMissing extends Schema.TaggedError<TimeEntryEndMissing>()("TimeEntryEndMissing", {}) {
  override get message() {
    return "Give endedAt or durationMinutes"
  }
  get details() {
    return detail("body.durationMinutes", "missing")
  }
}

// States a change does not apply to

/** Archiving what is archived, or restoring what is not (`what`: space, folder, list, task). */
export class ArchivedAlready extends Schema.TaggedError<ArchivedAlready>()("ArchivedAlready", {
  what: Schema.String,
  archived: Schema.Boolean
}) {
  override get message() {
    return this.archived ? `The ${this.what} is already archived` : `The ${this.what} is not archived`
  }
}

export class SpaceNotPrivate extends Schema.TaggedError<SpaceNotPrivate>()("SpaceNotPrivate", {}) {
  override get message() {
    return "Only private spaces have members; every workspace member sees this space"
  }
}

export class AlreadySpaceMember extends Schema.TaggedError<AlreadySpaceMember>()("AlreadySpaceMember", {}) {
  override get message() {
    return "Already a member of this space"
  }
}

export class NotSpaceMember extends Schema.TaggedError<NotSpaceMember>()("NotSpaceMember", {}) {
  override get message() {
    return "Not a member of this space"
  }
}

/** Watching what the user watches already (`what`: "task", or none for a space or list). */
export class AlreadyWatching extends Schema.TaggedError<AlreadyWatching>()("AlreadyWatching", { what: Schema.optionalKey(Schema.String) }) {
  override get message() {
    return this.what === undefined ? "Already watching" : `Already watching this ${this.what}`
  }
}

/** Unwatching what the user does not watch (`what` as for `AlreadyWatching`). */
export class NotWatching extends Schema.TaggedError<NotWatching>()("NotWatching", { what: Schema.optionalKey(Schema.String) }) {
  override get message() {
    return this.what === undefined ? "Not watching" : `Not watching this ${this.what}`
  }
}

export class TaskHasTag extends Schema.TaggedError<TaskHasTag>()("TaskHasTag", {}) {
  override get message() {
    return "The task already has this tag"
  }
}

export class TaskLacksTag extends Schema.TaggedError<TaskLacksTag>()("TaskLacksTag", {}) {
  override get message() {
    return "The task does not have this tag"
  }
}

/** Linking a task to its own home list. */
export class HomeListLink extends Schema.TaggedError<HomeListLink>()("HomeListLink", {}) {
  override get message() {
    return "This is the task's home list"
  }
}

export class AlreadyInList extends Schema.TaggedError<AlreadyInList>()("AlreadyInList", {}) {
  override get message() {
    return "The task is already in this list"
  }
}

export class NotLinkedToList extends Schema.TaggedError<NotLinkedToList>()("NotLinkedToList", {}) {
  override get message() {
    return "The task is not linked to this list"
  }
}

export class TaskNotRecurring extends Schema.TaggedError<TaskNotRecurring>()("TaskNotRecurring", {}) {
  override get message() {
    return "The task does not recur"
  }
}

export class RecurrenceNeedsDate extends Schema.TaggedError<RecurrenceNeedsDate>()("RecurrenceNeedsDate", {}) {
  override get message() {
    return "A recurring task needs a due date or a start date to repeat from"
  }
}

// The task tree, order and merges

/** Placing a task after itself. */
export class TaskFollowsItself extends Schema.TaggedError<TaskFollowsItself>()("TaskFollowsItself", {}) {
  override get message() {
    return "A task cannot follow itself"
  }
  get details() {
    return detail("body.afterTaskId", "same task")
  }
}

/** Placing a task after one of another list. */
export class AfterTaskElsewhere extends Schema.TaggedError<AfterTaskElsewhere>()("AfterTaskElsewhere", {}) {
  override get message() {
    return "afterTaskId must be a task of the same list"
  }
  get details() {
    return detail("body.afterTaskId", "not in this list")
  }
}

/** A parent that would make a loop: the task itself, or one of its subtasks. */
export class ParentCycle extends Schema.TaggedError<ParentCycle>()("ParentCycle", { self: Schema.Boolean }) {
  override get message() {
    return this.self ? "A task cannot be its own parent" : "A task cannot become a subtask of its own subtask"
  }
}

/** The parent of a new task (given at `field`) is not in the task's list. */
export class ParentInOtherList extends Schema.TaggedError<ParentInOtherList>()("ParentInOtherList", { field: Schema.String }) {
  override get message() {
    return "A subtask lives in its parent's list"
  }
  get details() {
    return detail(this.field, "parent not in this list")
  }
}

/** A merge of a task (given at `field`) into itself. */
export class MergeIntoItself extends Schema.TaggedError<MergeIntoItself>()("MergeIntoItself", { field: Schema.String }) {
  override get message() {
    return "A task cannot be merged into itself"
  }
  get details() {
    return detail(this.field, "the target itself")
  }
}

export class MergeIntoSubtask extends Schema.TaggedError<MergeIntoSubtask>()("MergeIntoSubtask", {}) {
  override get message() {
    return "A task cannot be merged into its own subtask"
  }
}

// Relationships

/** A relationship of a task to itself (the other task at `field`). */
export class RelatesToItself extends Schema.TaggedError<RelatesToItself>()("RelatesToItself", { field: Schema.String }) {
  override get message() {
    return "A task cannot relate to itself"
  }
  get details() {
    return detail(this.field, "same task")
  }
}

export class RelationshipExists extends Schema.TaggedError<RelationshipExists>()("RelationshipExists", {}) {
  override get message() {
    return "These tasks already have this relationship"
  }
}

/** A "blocks" relationship (the other task at `field`) that would close a loop. */
export class BlockingCycle extends Schema.TaggedError<BlockingCycle>()("BlockingCycle", { field: Schema.String }) {
  override get message() {
    return "That would make a cycle of blocking tasks"
  }
  get details() {
    return detail(this.field, "would create a blocking cycle")
  }
}

// Discussion and time

/** Resolving a resolved comment, or reopening an open one. */
export class ResolvedAlready extends Schema.TaggedError<ResolvedAlready>()("ResolvedAlready", { resolved: Schema.Boolean }) {
  override get message() {
    return this.resolved ? "The comment is already resolved" : "The comment is not resolved"
  }
}

export class AlreadyReacted extends Schema.TaggedError<AlreadyReacted>()("AlreadyReacted", {}) {
  override get message() {
    return "You already reacted with this emoji"
  }
}

export class NotReacted extends Schema.TaggedError<NotReacted>()("NotReacted", {}) {
  override get message() {
    return "You have not reacted with this emoji"
  }
}

export class UploaderOnly extends Schema.TaggedError<UploaderOnly>()("UploaderOnly", {}) {
  override get message() {
    return "Only the uploader or an admin deletes an attachment"
  }
}

/** A time entry changed or deleted (`action`) by someone else than its owner or an admin. */
export class TimeEntryOwnerOnly extends Schema.TaggedError<TimeEntryOwnerOnly>()("TimeEntryOwnerOnly", {
  action: Schema.Literals(["changes", "deletes"])
}) {
  override get message() {
    return `Only its owner or an admin ${this.action} a time entry`
  }
}

export class NoTimerRunning extends Schema.TaggedError<NoTimerRunning>()("NoTimerRunning", {}) {
  override get message() {
    return "You have no timer running on this task"
  }
}

export type WorkError =
  | TaskRefNotFound
  | ShortIdNotFound
  | MergeSourceNotFound
  | CustomFieldNotFound
  | CustomFieldNotHere
  | OptionNotFound
  | StatusNotFound
  | ChecklistNotFound
  | ChecklistItemNotFound
  | TimeEntryNotFound
  | AttachmentNotFound
  | RelationshipNotFound
  | TagNotFound
  | TaskTemplateNotFound
  | NoMemberWithEmail
  | CustomFieldNameTaken
  | OptionNameTaken
  | StatusNameTaken
  | TagNameTaken
  | DuplicateStatusName
  | WorkflowIncomplete
  | NoStatusToMoveTo
  | UnknownMappingTarget
  | AlreadyInheritsStatuses
  | SpaceOwnsStatuses
  | UnknownStatus
  | FieldHasNoOptions
  | UnknownCustomField
  | CustomFieldRequired
  | RequiredFieldsMissing
  | FeatureTurnedOff
  | ChecklistsTurnedOff
  | TimeTrackingTurnedOff
  | OneAssigneePerTask
  | StartAfterDue
  | NotAPermutation
  | FolderInOtherSpace
  | EndBeforeStart
  | TimeEntryEndMissing
  | ArchivedAlready
  | SpaceNotPrivate
  | AlreadySpaceMember
  | NotSpaceMember
  | AlreadyWatching
  | NotWatching
  | TaskHasTag
  | TaskLacksTag
  | HomeListLink
  | AlreadyInList
  | NotLinkedToList
  | TaskNotRecurring
  | RecurrenceNeedsDate
  | TaskFollowsItself
  | AfterTaskElsewhere
  | ParentCycle
  | ParentInOtherList
  | MergeIntoItself
  | MergeIntoSubtask
  | RelatesToItself
  | RelationshipExists
  | BlockingCycle
  | ResolvedAlready
  | AlreadyReacted
  | NotReacted
  | UploaderOnly
  | TimeEntryOwnerOnly
  | NoTimerRunning
