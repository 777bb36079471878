/**
 * The hub actors' domain errors (calls, calendars, invitations, workflows,
 * chat, meeting bots, tags, personal webhooks), declared by their messages;
 * the facade answers each with its status in one table
 * (`facade/HttpError.ts`). Messages and details are the replies' exact wording.
 */
import { Schema } from "effect"

export class HubRecordingNotFound extends Schema.TaggedError<HubRecordingNotFound>()("HubRecordingNotFound", {}) {
  override get message() {
    return "No such recording"
  }
}

/** A queued or running job owns the recording until it is ready or failed. */
export class HubRecordingBusy extends Schema.TaggedError<HubRecordingBusy>()("HubRecordingBusy", {}) {
  override get message() {
    return "The recording is being processed; try again when it is ready or failed"
  }
}

export class HubNothingToSummarize extends Schema.TaggedError<HubNothingToSummarize>()("HubNothingToSummarize", {}) {
  override get message() {
    return "The recording has no transcript to summarize"
  }
}

/** The summarizer could not produce a reader's version (`reason` is its own words). */
export class HubVersionNotGenerated extends Schema.TaggedError<HubVersionNotGenerated>()("HubVersionNotGenerated", {
  reason: Schema.String
}) {
  override get message() {
    return `The version could not be generated: ${this.reason}`
  }
}

export class HubActionItemNotFound extends Schema.TaggedError<HubActionItemNotFound>()("HubActionItemNotFound", {}) {
  override get message() {
    return "No such action item in this call"
  }
}

/** Segments with a negative or inverted timestamp, or overlapping the one before. */
export class HubTranscriptRefused extends Schema.TaggedError<HubTranscriptRefused>()("HubTranscriptRefused", {
  path: Schema.String,
  problem: Schema.String
}) {
  override get message() {
    return `Transcript refused: ${this.problem}`
  }
  get details() {
    return [{ path: this.path, message: this.problem }]
  }
}

export class CalendarEventNotFound extends Schema.TaggedError<CalendarEventNotFound>()("CalendarEventNotFound", {}) {
  override get message() {
    return "No such calendar event"
  }
}

export class CalendarOccurrenceNotFound extends Schema.TaggedError<CalendarOccurrenceNotFound>()("CalendarOccurrenceNotFound", {}) {
  override get message() {
    return "No such occurrence"
  }
}

export class CalendarEventExists extends Schema.TaggedError<CalendarEventExists>()("CalendarEventExists", {}) {
  override get message() {
    return "An event with this id exists"
  }
}

/** A synced event's truth is its suite: a change here would be undone by the next sync. */
export class CalendarEventSynced extends Schema.TaggedError<CalendarEventSynced>()("CalendarEventSynced", { provider: Schema.String }) {
  override get message() {
    return `This event is synced from ${this.provider}; change it there (or remove the calendar feed)`
  }
}

/** A calendar holds at most `max` events (`feedEvents`: a feed would bring this many). */
export class CalendarFull extends Schema.TaggedError<CalendarFull>()("CalendarFull", {
  max: Schema.Number,
  feedEvents: Schema.optionalKey(Schema.Number)
}) {
  override get message() {
    return this.feedEvents === undefined
      ? `A calendar holds at most ${this.max} events; delete some first`
      : `A calendar holds at most ${this.max} events; this feed has ${this.feedEvents}`
  }
}

/** A sync would bring more events from the user's synced calendars than a calendar holds for them. */
export class SyncedCalendarFull extends Schema.TaggedError<SyncedCalendarFull>()("SyncedCalendarFull", { max: Schema.Number }) {
  override get message() {
    return `Synced calendars bring at most ${this.max} events; this one has more`
  }
}

export class HubWebhookNotFound extends Schema.TaggedError<HubWebhookNotFound>()("HubWebhookNotFound", {}) {
  override get message() {
    return "No such webhook"
  }
}

export class TooManyHubWebhooks extends Schema.TaggedError<TooManyHubWebhooks>()("TooManyHubWebhooks", { max: Schema.Number }) {
  override get message() {
    return `At most ${this.max} personal webhooks; delete one first`
  }
}

export class HubTagNotFound extends Schema.TaggedError<HubTagNotFound>()("HubTagNotFound", {}) {
  override get message() {
    return "No such tag"
  }
}

/** Tag names are unique in a workspace, whatever their case. */
export class HubTagNameTaken extends Schema.TaggedError<HubTagNameTaken>()("HubTagNameTaken", { name: Schema.String }) {
  override get message() {
    return `A tag named "${this.name}" exists`
  }
  get details() {
    return [{ path: "body.name", message: "already used by another tag" }] as const
  }
}

export class TooManyHubTags extends Schema.TaggedError<TooManyHubTags>()("TooManyHubTags", { max: Schema.Number }) {
  override get message() {
    return `A workspace has at most ${this.max} tags`
  }
}

/** A call is tagged with this workspace's tags only (`index`: the first unknown one in the request). */
export class HubUnknownCallTag extends Schema.TaggedError<HubUnknownCallTag>()("HubUnknownCallTag", { index: Schema.Number }) {
  override get message() {
    return "Not a tag of this workspace"
  }
  get details() {
    return [{ path: `body.tagIds.${this.index}`, message: "no such tag" }]
  }
}

export class TooManyCallTags extends Schema.TaggedError<TooManyCallTags>()("TooManyCallTags", { max: Schema.Number }) {
  override get message() {
    return `A call carries at most ${this.max} tags`
  }
  get details() {
    return [{ path: "body.tagIds", message: "too many" }] as const
  }
}

export class HubCallTagNotFound extends Schema.TaggedError<HubCallTagNotFound>()("HubCallTagNotFound", {}) {
  override get message() {
    return "The call does not carry this tag"
  }
}

export class ChatDocumentNotFound extends Schema.TaggedError<ChatDocumentNotFound>()("ChatDocumentNotFound", {}) {
  override get message() {
    return "No such chat document"
  }
}

/** One request names the same message external id twice (`index`: the second). */
export class ChatDuplicateMessage extends Schema.TaggedError<ChatDuplicateMessage>()("ChatDuplicateMessage", { index: Schema.Number }) {
  override get message() {
    return "Two messages share an external id"
  }
  get details() {
    return [{ path: `body.messages.${this.index}.externalId`, message: "duplicate" }]
  }
}

export class ChatDocumentFull extends Schema.TaggedError<ChatDocumentFull>()("ChatDocumentFull", { max: Schema.Number }) {
  override get message() {
    return `A chat document holds at most ${this.max} messages`
  }
  get details() {
    return [{ path: "body.messages", message: "too many messages for this document" }] as const
  }
}

export class HubWorkflowNotFound extends Schema.TaggedError<HubWorkflowNotFound>()("HubWorkflowNotFound", {}) {
  override get message() {
    return "No such workflow"
  }
}

/** Workflow names are unique in a workspace. */
export class HubWorkflowNameTaken extends Schema.TaggedError<HubWorkflowNameTaken>()("HubWorkflowNameTaken", {}) {
  override get message() {
    return "A workflow of this name exists in the workspace"
  }
  get details() {
    return [{ path: "body.name", message: "taken" }] as const
  }
}

export class MeetingBotNotFound extends Schema.TaggedError<MeetingBotNotFound>()("MeetingBotNotFound", {}) {
  override get message() {
    return "No such bot"
  }
}

export class MeetingBotFinished extends Schema.TaggedError<MeetingBotFinished>()("MeetingBotFinished", { status: Schema.String }) {
  override get message() {
    return `The bot has already finished (${this.status})`
  }
}

/** One import or bot request per meeting at a time. */
export class MeetingBusy extends Schema.TaggedError<MeetingBusy>()("MeetingBusy", {}) {
  override get message() {
    return "This meeting is busy (an import or a bot request is under way); try again shortly"
  }
}

export class MeetingNotLinked extends Schema.TaggedError<MeetingNotLinked>()("MeetingNotLinked", {}) {
  override get message() {
    return "The meeting is not linked to a calendar occurrence"
  }
}

/** A vendor meeting is imported once. */
export class MeetingAlreadyImported extends Schema.TaggedError<MeetingAlreadyImported>()("MeetingAlreadyImported", {
  recordingId: Schema.Number
}) {
  override get message() {
    return `Already imported as recording ${this.recordingId}`
  }
}

export type HubError =
  | HubRecordingNotFound
  | HubRecordingBusy
  | HubNothingToSummarize
  | HubVersionNotGenerated
  | HubActionItemNotFound
  | HubTranscriptRefused
  | CalendarEventNotFound
  | CalendarOccurrenceNotFound
  | CalendarEventExists
  | CalendarEventSynced
  | CalendarFull
  | SyncedCalendarFull
  | HubWebhookNotFound
  | TooManyHubWebhooks
  | HubTagNotFound
  | HubTagNameTaken
  | TooManyHubTags
  | HubUnknownCallTag
  | TooManyCallTags
  | HubCallTagNotFound
  | ChatDocumentNotFound
  | ChatDuplicateMessage
  | ChatDocumentFull
  | HubWorkflowNotFound
  | HubWorkflowNameTaken
  | MeetingBotNotFound
  | MeetingBotFinished
  | MeetingBusy
  | MeetingNotLinked
  | MeetingAlreadyImported
