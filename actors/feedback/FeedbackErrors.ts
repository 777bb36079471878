/**
 * The feedback actors' domain errors, declared by their messages (the facade
 * answers each with its status, `facade/HttpError.ts`). Messages and details
 * are the replies' exact wording, so the HTTP answers stay as they were.
 */
import { Schema } from "effect"
import { ReferenceGone } from "../pm/PmErrors.ts"

const detail = (path: string, message: string) => [{ path, message }] as const
const words = (kind: string) => kind.replace("_", " ")

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

/** A board with this id was created already. */
export class BoardExists extends Schema.TaggedError<BoardExists>()("BoardExists", {}) {
  override get message() {
    return "That board already exists"
  }
}

/** A unique violation of a board write: the name (or item) is already there. */
export class BoardNameTaken extends Schema.TaggedError<BoardNameTaken>()("BoardNameTaken", {}) {
  override get message() {
    return "That name already exists on this board"
  }
}

/** A unique violation of a desk command. */
export class DeskItemExists extends Schema.TaggedError<DeskItemExists>()("DeskItemExists", {}) {
  override get message() {
    return "That item already exists here"
  }
}

export class BoardSlugTaken extends Schema.TaggedError<BoardSlugTaken>()("BoardSlugTaken", {}) {
  override get message() {
    return "Another board of this workspace has that slug"
  }
  get details() {
    return detail("body.slug", "already taken")
  }
}

export class BoardKeyTaken extends Schema.TaggedError<BoardKeyTaken>()("BoardKeyTaken", {}) {
  override get message() {
    return "Another board of this workspace has that key"
  }
  get details() {
    return detail("body.key", "already taken")
  }
}

/** Archiving an archived board, or restoring one that is not (`archived`: it is). */
export class ArchiveUnchanged extends Schema.TaggedError<ArchiveUnchanged>()("ArchiveUnchanged", { archived: Schema.Boolean }) {
  override get message() {
    return this.archived ? "The board is already archived" : "The board is not archived"
  }
}

export class BoardMemberNotFound extends Schema.TaggedError<BoardMemberNotFound>()("BoardMemberNotFound", {}) {
  override get message() {
    return "That user is not a member of this board"
  }
}

/** No status, category or product area (`kind`) of the board has this id. */
export class BoardOptionNotFound extends Schema.TaggedError<BoardOptionNotFound>()("BoardOptionNotFound", { kind: Schema.String }) {
  override get message() {
    return `No such ${words(this.kind)} on this board`
  }
}

export class BoardOptionNameTaken extends Schema.TaggedError<BoardOptionNameTaken>()("BoardOptionNameTaken", {
  kind: Schema.String,
  name: Schema.String
}) {
  override get message() {
    return `This board already has a ${words(this.kind)} named "${this.name}"`
  }
  get details() {
    return detail("body.name", "already taken")
  }
}

export class DefaultStatusKept extends Schema.TaggedError<DefaultStatusKept>()("DefaultStatusKept", {}) {
  override get message() {
    return "Make another status the default instead"
  }
  get details() {
    return detail("body.isDefault", "one status must be the default")
  }
}

export class ReplacementIsDeleted extends Schema.TaggedError<ReplacementIsDeleted>()("ReplacementIsDeleted", {}) {
  override get message() {
    return "The replacement is the one being deleted"
  }
  get details() {
    return detail("query.replacementId", "same option")
  }
}

export class ReplacementNotFound extends Schema.TaggedError<ReplacementNotFound>()("ReplacementNotFound", {}) {
  override get message() {
    return "No such replacement on this board"
  }
  get details() {
    return detail("query.replacementId", "not found")
  }
}

export class LastStatus extends Schema.TaggedError<LastStatus>()("LastStatus", {}) {
  override get message() {
    return "A board keeps at least one status"
  }
}

/** A reorder that does not name each option of the kind exactly once. */
export class NotAnOrdering extends Schema.TaggedError<NotAnOrdering>()("NotAnOrdering", { kind: Schema.String, count: Schema.Number }) {
  override get message() {
    return `Give every ${words(this.kind)} of the board once`
  }
  get details() {
    return detail("body.ids", `expected the ${this.count} ids of this board`)
  }
}

export class RequestNotFound extends Schema.TaggedError<RequestNotFound>()("RequestNotFound", {}) {
  override get message() {
    return "No such feature request"
  }
}

export class RequestMerged extends Schema.TaggedError<RequestMerged>()("RequestMerged", { into: Schema.String }) {
  override get message() {
    return `This request was merged into ${this.into}; act on that one`
  }
}

export class RequestLocked extends Schema.TaggedError<RequestLocked>()("RequestLocked", {}) {
  override get message() {
    return "This request is locked"
  }
}

/** A request names a status, category or product area (at `field`) the board does not have. */
export class OptionNotOnBoard extends Schema.TaggedError<OptionNotOnBoard>()("OptionNotOnBoard", {
  kind: Schema.String,
  field: Schema.String
}) {
  override get message() {
    return `No such ${words(this.kind)} on this board`
  }
  get details() {
    return detail(this.field, "not on this board")
  }
}

export class RequestHasDuplicates extends Schema.TaggedError<RequestHasDuplicates>()("RequestHasDuplicates", {
  shortIds: Schema.Array(Schema.String)
}) {
  override get message() {
    return `Requests are merged into this one (${this.shortIds.join(", ")}); unmerge them first`
  }
}

export class StatusUnchanged extends Schema.TaggedError<StatusUnchanged>()("StatusUnchanged", {}) {
  override get message() {
    return "The request already has that status"
  }
  get details() {
    return detail("body.statusId", "unchanged")
  }
}

/** A bulk update's request (at `index`) is not there; `reason` is the refusal's message. */
export class BulkRequestNotFound extends Schema.TaggedError<BulkRequestNotFound>()("BulkRequestNotFound", {
  index: Schema.Number,
  reason: Schema.String
}) {
  override get message() {
    return this.reason
  }
  get details() {
    return detail(`body.ids.${this.index}`, this.reason)
  }
}

/** A bulk update's request (at `index`) is merged or locked; `reason` is the refusal's message. */
export class BulkRequestClosed extends Schema.TaggedError<BulkRequestClosed>()("BulkRequestClosed", {
  index: Schema.Number,
  reason: Schema.String
}) {
  override get message() {
    return this.reason
  }
  get details() {
    return detail(`body.ids.${this.index}`, this.reason)
  }
}

export class AlreadyVoted extends Schema.TaggedError<AlreadyVoted>()("AlreadyVoted", {}) {
  override get message() {
    return "This voter has already voted for this request"
  }
}

export class NotVoted extends Schema.TaggedError<NotVoted>()("NotVoted", {}) {
  override get message() {
    return "This voter has not voted for this request"
  }
}

export class AnonymousVotesOff extends Schema.TaggedError<AnonymousVotesOff>()("AnonymousVotesOff", {}) {
  override get message() {
    return "This board does not accept anonymous votes"
  }
}

export class AnonymousVoteLimit extends Schema.TaggedError<AnonymousVoteLimit>()("AnonymousVoteLimit", {}) {
  override get message() {
    return "Too many anonymous votes from this address on this board; try again later"
  }
}

export class RequestMergeIntoItself extends Schema.TaggedError<RequestMergeIntoItself>()("RequestMergeIntoItself", {}) {
  override get message() {
    return "A request cannot be merged into itself"
  }
  get details() {
    return detail("body.intoId", "same request")
  }
}

export class RequestAlreadyMerged extends Schema.TaggedError<RequestAlreadyMerged>()("RequestAlreadyMerged", {}) {
  override get message() {
    return "This request is already merged"
  }
}

export class MergeTargetNotFound extends Schema.TaggedError<MergeTargetNotFound>()("MergeTargetNotFound", {}) {
  override get message() {
    return "No such request to merge into"
  }
  get details() {
    return detail("body.intoId", "not found")
  }
}

export class MergeTargetMerged extends Schema.TaggedError<MergeTargetMerged>()("MergeTargetMerged", {}) {
  override get message() {
    return "The request to merge into is itself merged (that would chain or cycle); merge into its original"
  }
  get details() {
    return detail("body.intoId", "merged into another request")
  }
}

export class RequestNotMerged extends Schema.TaggedError<RequestNotMerged>()("RequestNotMerged", {}) {
  override get message() {
    return "This request is not merged"
  }
}

export class NoMergeToUndo extends Schema.TaggedError<NoMergeToUndo>()("NoMergeToUndo", {}) {
  override get message() {
    return "No merge of this request can be undone"
  }
}

export class CommentsOff extends Schema.TaggedError<CommentsOff>()("CommentsOff", {}) {
  override get message() {
    return "Comments are turned off on this board"
  }
}

export class ReplyParentNotFound extends Schema.TaggedError<ReplyParentNotFound>()("ReplyParentNotFound", {}) {
  override get message() {
    return "No such comment to reply to on this request"
  }
  get details() {
    return detail("body.parentId", "not found")
  }
}

export class ReplyMustBeInternal extends Schema.TaggedError<ReplyMustBeInternal>()("ReplyMustBeInternal", {}) {
  override get message() {
    return "A reply to an internal note is internal too"
  }
  get details() {
    return detail("body.internal", "must be true")
  }
}

export class VisitorCommentLimit extends Schema.TaggedError<VisitorCommentLimit>()("VisitorCommentLimit", { perHour: Schema.Number }) {
  override get message() {
    return `At most ${this.perHour} comments per hour from one address on this board; try again later`
  }
}

export class FeedbackCommentNotFound extends Schema.TaggedError<FeedbackCommentNotFound>()("FeedbackCommentNotFound", {}) {
  override get message() {
    return "No such comment"
  }
}

export class CommentNotOnBoard extends Schema.TaggedError<CommentNotOnBoard>()("CommentNotOnBoard", {}) {
  override get message() {
    return "No such comment on this board"
  }
}

export class FeedbackAttachmentNotFound extends Schema.TaggedError<FeedbackAttachmentNotFound>()("FeedbackAttachmentNotFound", {}) {
  override get message() {
    return "No such attachment"
  }
}

export class NotAwaitingModeration extends Schema.TaggedError<NotAwaitingModeration>()("NotAwaitingModeration", { kind: Schema.String }) {
  override get message() {
    return `No ${this.kind} waiting for moderation with that id on this board`
  }
}

export class NotUndoable extends Schema.TaggedError<NotUndoable>()("NotUndoable", {}) {
  override get message() {
    return "That action was already undone or cannot be undone"
  }
}

export class SubmissionLimit extends Schema.TaggedError<SubmissionLimit>()("SubmissionLimit", { perHour: Schema.Number }) {
  override get message() {
    return `At most ${this.perHour} submissions per hour from one address; try again later`
  }
}

/** What the Board actor's writes may refuse with (its messages' declared errors). */
export const BoardRefusal = Schema.Union([
  BoardNotFound,
  BoardArchived,
  BoardExists,
  BoardNameTaken,
  BoardSlugTaken,
  BoardKeyTaken,
  ArchiveUnchanged,
  BoardMemberNotFound,
  BoardOptionNotFound,
  BoardOptionNameTaken,
  DefaultStatusKept,
  ReplacementIsDeleted,
  ReplacementNotFound,
  LastStatus,
  NotAnOrdering,
  RequestNotFound,
  RequestMerged,
  RequestLocked,
  OptionNotOnBoard,
  RequestHasDuplicates,
  StatusUnchanged,
  BulkRequestNotFound,
  BulkRequestClosed,
  AlreadyVoted,
  NotVoted,
  AnonymousVotesOff,
  AnonymousVoteLimit,
  RequestMergeIntoItself,
  RequestAlreadyMerged,
  MergeTargetNotFound,
  MergeTargetMerged,
  RequestNotMerged,
  NoMergeToUndo,
  CommentsOff,
  ReplyParentNotFound,
  ReplyMustBeInternal,
  VisitorCommentLimit,
  FeedbackCommentNotFound,
  CommentNotOnBoard,
  FeedbackAttachmentNotFound,
  ReferenceGone
])
export type BoardRefusal = typeof BoardRefusal.Type

export type FeedbackError =
  | BoardNotFound
  | BoardArchived
  | DeskItemNotFound
  | WorkItemNotFound
  | StatusNotOnBoard
  | BoardExists
  | BoardNameTaken
  | DeskItemExists
  | BoardSlugTaken
  | BoardKeyTaken
  | ArchiveUnchanged
  | BoardMemberNotFound
  | BoardOptionNotFound
  | BoardOptionNameTaken
  | DefaultStatusKept
  | ReplacementIsDeleted
  | ReplacementNotFound
  | LastStatus
  | NotAnOrdering
  | RequestNotFound
  | RequestMerged
  | RequestLocked
  | OptionNotOnBoard
  | RequestHasDuplicates
  | StatusUnchanged
  | BulkRequestNotFound
  | BulkRequestClosed
  | AlreadyVoted
  | NotVoted
  | AnonymousVotesOff
  | AnonymousVoteLimit
  | RequestMergeIntoItself
  | RequestAlreadyMerged
  | MergeTargetNotFound
  | MergeTargetMerged
  | RequestNotMerged
  | NoMergeToUndo
  | CommentsOff
  | ReplyParentNotFound
  | ReplyMustBeInternal
  | VisitorCommentLimit
  | FeedbackCommentNotFound
  | CommentNotOnBoard
  | FeedbackAttachmentNotFound
  | NotAwaitingModeration
  | NotUndoable
  | SubmissionLimit
