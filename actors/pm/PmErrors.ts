/**
 * Project management's domain errors, declared by its actors' messages; the
 * facade answers each with its status in one table (`facade/HttpError.ts`).
 * Messages and details are the replies' exact wording, so the HTTP answers
 * stay as they were. The work hierarchy's own refusals are in `WorkErrors.ts`.
 */
import { Schema } from "effect"

/** A unique violation: the name (or item) a write would add is already there. */
export class ItemExists extends Schema.TaggedError<ItemExists>()("ItemExists", {}) {
  override get message() {
    return "That name or item already exists here"
  }
}

/** A foreign-key violation: something the write refers to was deleted meanwhile. */
export class ReferenceGone extends Schema.TaggedError<ReferenceGone>()("ReferenceGone", {}) {
  override get message() {
    return "A referenced item no longer exists"
  }
}

/** No task has this id (or it is deleted, or under a deleted list or space). */
export class TaskNotFound extends Schema.TaggedError<TaskNotFound>()("TaskNotFound", {}) {
  override get message() {
    return "No such task"
  }
}

const detail = (path: string, message: string) => [{ path, message }] as const

/** No space has this id (or it is deleted): what the space actor's read answers while there is none. */
export class SpaceNotFound extends Schema.TaggedError<SpaceNotFound>()("SpaceNotFound", {}) {
  override get message() {
    return "No such space"
  }
}

/** No list has this id (or it is deleted, or in a deleted space): the list actor's read while there is none. */
export class ListNotFound extends Schema.TaggedError<ListNotFound>()("ListNotFound", {}) {
  override get message() {
    return "No such list"
  }
}

/** No team has this id (or it was deleted). */
export class TeamNotFound extends Schema.TaggedError<TeamNotFound>()("TeamNotFound", {}) {
  override get message() {
    return "No such team"
  }
}

/** A team member given (at `field`) is not a member of the team's workspace. */
export class TeamMemberOutsideWorkspace extends Schema.TaggedError<TeamMemberOutsideWorkspace>()("TeamMemberOutsideWorkspace", {
  field: Schema.String
}) {
  override get message() {
    return "Team members must be members of the workspace"
  }
  get details() {
    return detail(this.field, "not a workspace member")
  }
}

/** The same user is listed twice (the second at `field`). */
export class UserListedTwice extends Schema.TaggedError<UserListedTwice>()("UserListedTwice", { field: Schema.String }) {
  override get message() {
    return "A user is listed twice"
  }
  get details() {
    return detail(this.field, "duplicate")
  }
}

/** A user both added (at `field`) and removed in one change. */
export class AddedAndRemoved extends Schema.TaggedError<AddedAndRemoved>()("AddedAndRemoved", { field: Schema.String }) {
  override get message() {
    return "A user cannot be added and removed at once"
  }
  get details() {
    return detail(this.field, "also in remove")
  }
}

/** A change would give a team more than `max` members. */
export class TooManyTeamMembers extends Schema.TaggedError<TooManyTeamMembers>()("TooManyTeamMembers", { max: Schema.Number }) {
  override get message() {
    return `A team has at most ${this.max} members`
  }
  get details() {
    return detail("body.add", "too many members")
  }
}

export type TeamError = TeamNotFound | TeamMemberOutsideWorkspace | UserListedTwice | AddedAndRemoved | TooManyTeamMembers

/** A place of the work hierarchy (`what`: space, folder, list or task) that is not there, or deleted. */
export class PlaceNotFound extends Schema.TaggedError<PlaceNotFound>()("PlaceNotFound", {
  what: Schema.String,
  /** The input that named it, when the reply points at it. */
  field: Schema.optionalKey(Schema.String)
}) {
  override get message() {
    return `No such ${this.what}`
  }
  get details() {
    return this.field === undefined ? undefined : detail(this.field, "not found")
  }
}

/** A place (`what`) given at `field` that is in another workspace than the one asked about. */
export class PlaceOutsideWorkspace extends Schema.TaggedError<PlaceOutsideWorkspace>()("PlaceOutsideWorkspace", {
  what: Schema.String,
  field: Schema.String
}) {
  override get message() {
    return `No such ${this.what}`
  }
  get details() {
    return detail(this.field, "not in this workspace")
  }
}

/** A user's favorites are written by that user only. */
export class FavoritesPersonal extends Schema.TaggedError<FavoritesPersonal>()("FavoritesPersonal", {}) {
  override get message() {
    return "Favorites are personal"
  }
}

export class TooManyFavorites extends Schema.TaggedError<TooManyFavorites>()("TooManyFavorites", { max: Schema.Number }) {
  override get message() {
    return `At most ${this.max} favorites per workspace`
  }
}

/** The place (`what`) given at `body.id` is already one of the user's favorites. */
export class AlreadyFavorite extends Schema.TaggedError<AlreadyFavorite>()("AlreadyFavorite", { what: Schema.String }) {
  override get message() {
    return `This ${this.what} is already a favorite`
  }
  get details() {
    return detail("body.id", "already a favorite")
  }
}

/** No favorite of this user has this id. */
export class FavoriteNotFound extends Schema.TaggedError<FavoriteNotFound>()("FavoriteNotFound", {}) {
  override get message() {
    return "No such favorite"
  }
}

export type FavoriteError =
  | PlaceNotFound
  | PlaceOutsideWorkspace
  | FavoritesPersonal
  | TooManyFavorites
  | AlreadyFavorite
  | FavoriteNotFound

/** Users given (at `fields`) who are not members of the workspace. */
export class NotWorkspaceMembers extends Schema.TaggedError<NotWorkspaceMembers>()("NotWorkspaceMembers", {
  userIds: Schema.Array(Schema.String),
  fields: Schema.Array(Schema.String)
}) {
  override get message() {
    return `Not a member of this workspace: ${this.userIds.join(", ")}`
  }
  get details() {
    return this.fields.map((path) => ({ path, message: "not a member of this workspace" }))
  }
}

/** No whiteboard has this id (or it was deleted). */
export class WhiteboardNotFound extends Schema.TaggedError<WhiteboardNotFound>()("WhiteboardNotFound", {}) {
  override get message() {
    return "No such whiteboard"
  }
}

/** No saved whiteboard template of this workspace has this id. */
export class WhiteboardTemplateNotFound extends Schema.TaggedError<WhiteboardTemplateNotFound>()("WhiteboardTemplateNotFound", {}) {
  override get message() {
    return "No such template"
  }
}

/** No comment (of a task or board) has this id. */
export class CommentNotFound extends Schema.TaggedError<CommentNotFound>()("CommentNotFound", {}) {
  override get message() {
    return "No such comment"
  }
}

/** The comment a reply names (at `body.parentCommentId`) is not there. */
export class ParentCommentNotFound extends Schema.TaggedError<ParentCommentNotFound>()("ParentCommentNotFound", {}) {
  override get message() {
    return "No such comment to reply to"
  }
  get details() {
    return detail("body.parentCommentId", "no such comment")
  }
}

/** A reply to a reply (the reply named at `field`): threads are one level deep. */
export class ReplyToReply extends Schema.TaggedError<ReplyToReply>()("ReplyToReply", { field: Schema.String }) {
  override get message() {
    return "Replies go to top-level comments"
  }
  get details() {
    return detail(this.field, "is a reply")
  }
}

/**
 * A comment changed by someone else than its author: `changes` and `deletes`
 * are allowed to admins too, `edits` (a task comment's text) to the author only.
 */
export class CommentAuthorOnly extends Schema.TaggedError<CommentAuthorOnly>()("CommentAuthorOnly", {
  action: Schema.Literals(["changes", "deletes", "edits"])
}) {
  override get message() {
    return this.action === "edits" ? "Only the author edits a comment" : `Only the author or an admin ${this.action} a comment`
  }
}

export type CommentError = CommentNotFound | ParentCommentNotFound | ReplyToReply | CommentAuthorOnly

export type WhiteboardError = WhiteboardNotFound | WhiteboardTemplateNotFound | CommentError

export type PmError =
  | SpaceNotFound
  | ListNotFound
  | NotWorkspaceMembers
  | ItemExists
  | ReferenceGone
  | TaskNotFound
  | TeamError
  | FavoriteError
  | WhiteboardError
