/**
 * The domain errors of pm's planning actors (sprints and sprint groups,
 * views and saved filters, dashboards), declared by their messages and
 * answered from one table (`facade/HttpError.ts`). Messages and details are
 * the replies' exact wording, so the HTTP answers stay as they were.
 */
import { Schema } from "effect"

const detail = (path: string, message: string) => [{ path, message }] as const
const notFoundAt = (field: string | undefined) => (field === undefined ? undefined : detail(field, "not found"))

/** A value at `field` that breaks a rule of its kind (`problem` says which). */
export class InvalidFieldValue extends Schema.TaggedError<InvalidFieldValue>()("InvalidFieldValue", {
  field: Schema.String,
  problem: Schema.String
}) {
  override get message() {
    return `Invalid ${this.field}: ${this.problem}`
  }
  get details() {
    return detail(this.field, this.problem)
  }
}

/** A name (of a `what`, unique `where` it is) that another one already has. */
export class NameTaken extends Schema.TaggedError<NameTaken>()("NameTaken", {
  what: Schema.String,
  name: Schema.String,
  where: Schema.String
}) {
  override get message() {
    return `A ${this.what} named "${this.name}" exists ${this.where}`
  }
  get details() {
    return detail("body.name", "already exists")
  }
}

/** Making a view or dashboard private or shared is its creator's choice alone. */
export class PrivacyByCreatorOnly extends Schema.TaggedError<PrivacyByCreatorOnly>()("PrivacyByCreatorOnly", { what: Schema.String }) {
  override get message() {
    return `Only the ${this.what}'s creator changes whether it is private`
  }
  get details() {
    return detail("body.isPrivate", "not the creator")
  }
}

/** A view, filter or dashboard is deleted by its creator or a workspace admin. */
export class DeleteByCreatorOrAdmin extends Schema.TaggedError<DeleteByCreatorOrAdmin>()("DeleteByCreatorOrAdmin", {
  what: Schema.String
}) {
  override get message() {
    return `Only the ${this.what}'s creator or a workspace admin deletes it`
  }
}

// Sprints

/** No sprint has this id (in this space); `field` names the input that gave it. */
export class SprintNotFound extends Schema.TaggedError<SprintNotFound>()("SprintNotFound", { field: Schema.optionalKey(Schema.String) }) {
  override get message() {
    return "No such sprint"
  }
  get details() {
    return notFoundAt(this.field)
  }
}

/** No sprint group (series) has this id (in this space); `field` names the input that gave it. */
export class SprintGroupNotFound extends Schema.TaggedError<SprintGroupNotFound>()("SprintGroupNotFound", {
  field: Schema.optionalKey(Schema.String)
}) {
  override get message() {
    return "No such sprint group"
  }
  get details() {
    return notFoundAt(this.field)
  }
}

/** The team a sprint group names belongs to another workspace, or is gone. */
export class SprintTeamNotFound extends Schema.TaggedError<SprintTeamNotFound>()("SprintTeamNotFound", {}) {
  override get message() {
    return "No such team in this workspace"
  }
  get details() {
    return detail("body.teamId", "not found")
  }
}

/** A sprint group whose sprint `sprint` is active cannot be deleted. */
export class SprintGroupBusy extends Schema.TaggedError<SprintGroupBusy>()("SprintGroupBusy", { sprint: Schema.String }) {
  override get message() {
    return `Sprint "${this.sprint}" of this group is active; complete it first`
  }
}

/** A completed sprint's dates and series (the input at `field`) are its record. */
export class CompletedSprintFixed extends Schema.TaggedError<CompletedSprintFixed>()("CompletedSprintFixed", { field: Schema.String }) {
  override get message() {
    return "A completed sprint keeps its dates and series; only its name and goal change"
  }
  get details() {
    return detail(this.field, "sprint is completed")
  }
}

/** An active sprint's start date is fixed. */
export class SprintStartFixed extends Schema.TaggedError<SprintStartFixed>()("SprintStartFixed", {}) {
  override get message() {
    return "The sprint has started; its start date is fixed"
  }
  get details() {
    return detail("body.startDate", "sprint is active")
  }
}

/** Moving an active sprint into a series where `sprint` is active already: a series has one active sprint. */
export class SeriesHasActiveSprint extends Schema.TaggedError<SeriesHasActiveSprint>()("SeriesHasActiveSprint", { sprint: Schema.String }) {
  override get message() {
    return `Sprint "${this.sprint}" is already active in that series`
  }
  get details() {
    return detail("body.sprintGroupId", "series has an active sprint")
  }
}

/** Starting a sprint while `sprint` is active in its series. */
export class SeriesBusy extends Schema.TaggedError<SeriesBusy>()("SeriesBusy", { sprint: Schema.String }) {
  override get message() {
    return `Sprint "${this.sprint}" is active in this series; complete it first`
  }
}

/** An active sprint is completed, not deleted. */
export class ActiveSprintUndeletable extends Schema.TaggedError<ActiveSprintUndeletable>()("ActiveSprintUndeletable", {}) {
  override get message() {
    return "The sprint is active; complete it instead of deleting it"
  }
}

/** Tasks are planned into open sprints only. */
export class PlanIntoCompletedSprint extends Schema.TaggedError<PlanIntoCompletedSprint>()("PlanIntoCompletedSprint", {}) {
  override get message() {
    return "The sprint is completed; plan the tasks into an open sprint"
  }
}

/** A completed sprint's tasks are its record: none leaves it. */
export class CompletedSprintTasksFixed extends Schema.TaggedError<CompletedSprintTasksFixed>()("CompletedSprintTasksFixed", {}) {
  override get message() {
    return "The sprint is completed; its tasks are its record"
  }
}

/** Tasks planned into a sprint that are not tasks of its space (`fields`: where each was given). */
export class TasksOutsideSprintSpace extends Schema.TaggedError<TasksOutsideSprintSpace>()("TasksOutsideSprintSpace", {
  taskIds: Schema.Array(Schema.String),
  fields: Schema.Array(Schema.String)
}) {
  override get message() {
    return `No such task in this sprint's space: ${this.taskIds.join(", ")}`
  }
  get details() {
    return this.fields.map((path) => ({ path, message: "not a task of this space" }))
  }
}

/** Removing a task that is not planned into the sprint. */
export class TaskNotInSprint extends Schema.TaggedError<TaskNotInSprint>()("TaskNotInSprint", {}) {
  override get message() {
    return "That task is not planned into this sprint"
  }
}

/** Only a planned sprint starts (this one is `status`). */
export class SprintNotPlanned extends Schema.TaggedError<SprintNotPlanned>()("SprintNotPlanned", { status: Schema.String }) {
  override get message() {
    return `The sprint is ${this.status}; only a planned sprint starts`
  }
}

/** Only an active sprint completes (this one is `status`). */
export class SprintNotActive extends Schema.TaggedError<SprintNotActive>()("SprintNotActive", { status: Schema.String }) {
  override get message() {
    return `The sprint is ${this.status}; only an active sprint completes`
  }
}

/** A sprint whose end date has passed does not start. */
export class SprintEnded extends Schema.TaggedError<SprintEnded>()("SprintEnded", {}) {
  override get message() {
    return "The sprint's end date has passed; move it before starting"
  }
}

/** Completing a sprint into itself. */
export class NextSprintIsItself extends Schema.TaggedError<NextSprintIsItself>()("NextSprintIsItself", {}) {
  override get message() {
    return "Invalid body.nextSprintId: the sprint being completed"
  }
  get details() {
    return detail("body.nextSprintId", "is this sprint")
  }
}

/** Rolling unfinished tasks into a completed sprint. */
export class NextSprintCompleted extends Schema.TaggedError<NextSprintCompleted>()("NextSprintCompleted", {}) {
  override get message() {
    return "The next sprint is completed"
  }
  get details() {
    return detail("body.nextSprintId", "completed")
  }
}

// Views, saved filters, dashboards

export class ViewNotFound extends Schema.TaggedError<ViewNotFound>()("ViewNotFound", {}) {
  override get message() {
    return "No such view"
  }
}

export class SavedFilterNotFound extends Schema.TaggedError<SavedFilterNotFound>()("SavedFilterNotFound", {}) {
  override get message() {
    return "No such saved filter"
  }
}

export class DashboardNotFound extends Schema.TaggedError<DashboardNotFound>()("DashboardNotFound", {}) {
  override get message() {
    return "No such dashboard"
  }
}

export class WidgetNotFound extends Schema.TaggedError<WidgetNotFound>()("WidgetNotFound", {}) {
  override get message() {
    return "No such widget on this dashboard"
  }
}

export class TooManyWidgets extends Schema.TaggedError<TooManyWidgets>()("TooManyWidgets", { max: Schema.Number }) {
  override get message() {
    return `A dashboard holds at most ${this.max} widgets`
  }
}

export type PlanningError =
  | InvalidFieldValue
  | NameTaken
  | PrivacyByCreatorOnly
  | DeleteByCreatorOrAdmin
  | SprintNotFound
  | SprintGroupNotFound
  | SprintTeamNotFound
  | SprintGroupBusy
  | CompletedSprintFixed
  | SprintStartFixed
  | SeriesHasActiveSprint
  | SeriesBusy
  | ActiveSprintUndeletable
  | PlanIntoCompletedSprint
  | CompletedSprintTasksFixed
  | TasksOutsideSprintSpace
  | TaskNotInSprint
  | SprintNotPlanned
  | SprintNotActive
  | SprintEnded
  | NextSprintIsItself
  | NextSprintCompleted
  | ViewNotFound
  | SavedFilterNotFound
  | DashboardNotFound
  | WidgetNotFound
  | TooManyWidgets
