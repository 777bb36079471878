/**
 * The feedback actors' domain errors, declared by their messages (the facade
 * answers each with its status, `facade/HttpError.ts`). Refusals not yet
 * named here are `Rejection`s, declared beside them.
 */
import { Schema } from "effect"

/** No board has this id (or it was deleted). */
export class BoardNotFound extends Schema.TaggedError<BoardNotFound>()("BoardNotFound", {}) {
  override get message() {
    return "No such board"
  }
}

/** The board is archived: it reads, but takes no writes until restored. */
export class BoardArchived extends Schema.TaggedError<BoardArchived>()("BoardArchived", {}) {
  override get message() {
    return "The board is archived; restore it first"
  }
}

/** A desk item (bug report, milestone, changelog entry, log entry, …) that is not on this board; `what` names it. */
export class DeskItemNotFound extends Schema.TaggedError<DeskItemNotFound>()("DeskItemNotFound", { what: Schema.String }) {
  override get message() {
    return `No such ${this.what} on this board`
  }
}

/** A feature request or bug report to link work to is not on this board (or was merged away); `field` names the input. */
export class WorkItemNotFound extends Schema.TaggedError<WorkItemNotFound>()("WorkItemNotFound", {
  what: Schema.String,
  field: Schema.String
}) {
  override get message() {
    return `No such ${this.what} on this board`
  }
  get details() {
    return [{ path: this.field, message: "not found" }]
  }
}

/** A status named for the board's work progress is not one of its statuses; `field` names the input. */
export class StatusNotOnBoard extends Schema.TaggedError<StatusNotOnBoard>()("StatusNotOnBoard", { field: Schema.String }) {
  override get message() {
    return "No such status on this board"
  }
  get details() {
    return [{ path: this.field, message: "not a status of this board" }]
  }
}

export type FeedbackError = BoardNotFound | BoardArchived | DeskItemNotFound | WorkItemNotFound | StatusNotOnBoard
