/**
 * The wiki actors' domain errors (spaces, pages, comments, favorites,
 * settings, public sites), declared by their messages; the facade answers
 * each with its status in one table (`facade/HttpError.ts`). Messages and
 * details are the replies' exact wording.
 */
import { Schema } from "effect"

const archivedSpace = "The space is archived; restore it first"

export class WikiSpaceNotFound extends Schema.TaggedError<WikiSpaceNotFound>()("WikiSpaceNotFound", {}) {
  override get message() {
    return "No such space"
  }
}

export class WikiSpaceExists extends Schema.TaggedError<WikiSpaceExists>()("WikiSpaceExists", {}) {
  override get message() {
    return "The space already exists"
  }
}

/** Nothing but restoring changes an archived space. */
export class WikiSpaceArchived extends Schema.TaggedError<WikiSpaceArchived>()("WikiSpaceArchived", {}) {
  override get message() {
    return archivedSpace
  }
}

export class WikiSpaceAlreadyArchived extends Schema.TaggedError<WikiSpaceAlreadyArchived>()("WikiSpaceAlreadyArchived", {}) {
  override get message() {
    return "The space is already archived"
  }
}

export class WikiSpaceNotArchived extends Schema.TaggedError<WikiSpaceNotArchived>()("WikiSpaceNotArchived", {}) {
  override get message() {
    return "The space is not archived"
  }
}

/** A move or copy names a target space that is gone or in another workspace (`named`: the caller's id is unknown here). */
export class WikiTargetSpaceNotFound extends Schema.TaggedError<WikiTargetSpaceNotFound>()("WikiTargetSpaceNotFound", {
  named: Schema.Boolean
}) {
  override get message() {
    return this.named ? "Target space: No such space" : "No such space"
  }
  get details() {
    return [{ path: "body.spaceId", message: this.named ? "No such space" : "no such space" }] as const
  }
}

export class WikiTargetSpaceArchived extends Schema.TaggedError<WikiTargetSpaceArchived>()("WikiTargetSpaceArchived", {}) {
  override get message() {
    return `Target space: ${archivedSpace}`
  }
  get details() {
    return [{ path: "body.spaceId", message: archivedSpace }] as const
  }
}

/** Space keys are unique within a workspace. */
export class WikiSpaceKeyTaken extends Schema.TaggedError<WikiSpaceKeyTaken>()("WikiSpaceKeyTaken", {}) {
  override get message() {
    return "Another space of this workspace has that key"
  }
  get details() {
    return [{ path: "body.key", message: "already taken" }] as const
  }
}

export class WikiPageNotFound extends Schema.TaggedError<WikiPageNotFound>()("WikiPageNotFound", {}) {
  override get message() {
    return "No such page"
  }
}

export class WikiPageExists extends Schema.TaggedError<WikiPageExists>()("WikiPageExists", {}) {
  override get message() {
    return "The page already exists"
  }
}

/** A page id that is not one of this space's pages. */
export class WikiPageNotInSpace extends Schema.TaggedError<WikiPageNotInSpace>()("WikiPageNotInSpace", {}) {
  override get message() {
    return "No such page in this space"
  }
}

/** The parent a page should hang under is not in the (target) space. */
export class WikiParentPageNotFound extends Schema.TaggedError<WikiParentPageNotFound>()("WikiParentPageNotFound", {
  target: Schema.Boolean
}) {
  override get message() {
    return "No such parent page in this space"
  }
  get details() {
    return [
      { path: "body.parentPageId", message: this.target ? "no such page in the target space" : "no such page in this space" }
    ] as const
  }
}

export class WikiParentPageArchived extends Schema.TaggedError<WikiParentPageArchived>()("WikiParentPageArchived", {}) {
  override get message() {
    return "The parent page is archived"
  }
  get details() {
    return [{ path: "body.parentPageId", message: "archived" }] as const
  }
}

/** A tree stays a tree. */
export class WikiMoveIntoSubtree extends Schema.TaggedError<WikiMoveIntoSubtree>()("WikiMoveIntoSubtree", {}) {
  override get message() {
    return "A page cannot move under itself or one of its descendants"
  }
  get details() {
    return [{ path: "body.parentPageId", message: "inside the moved subtree" }] as const
  }
}

/** Nothing but restoring changes an archived page. */
export class WikiPageArchived extends Schema.TaggedError<WikiPageArchived>()("WikiPageArchived", {}) {
  override get message() {
    return "The page is archived; restore it first"
  }
}

export class WikiPageAlreadyArchived extends Schema.TaggedError<WikiPageAlreadyArchived>()("WikiPageAlreadyArchived", {}) {
  override get message() {
    return "The page is already archived"
  }
}

export class WikiPageNotArchived extends Schema.TaggedError<WikiPageNotArchived>()("WikiPageNotArchived", {}) {
  override get message() {
    return "The page is not archived"
  }
}

export class WikiArchivedHomePage extends Schema.TaggedError<WikiArchivedHomePage>()("WikiArchivedHomePage", {}) {
  override get message() {
    return "An archived page cannot be the home page"
  }
}

/** Two writers picked the same slug, five times over. */
export class WikiSlugClash extends Schema.TaggedError<WikiSlugClash>()("WikiSlugClash", {}) {
  override get message() {
    return "Another page took this slug at the same moment; retry"
  }
}

/** Permissions name members of the workspace; `field` is the one the caller gave (`body.userId` or `body.email`). */
export class WikiSubjectNotMember extends Schema.TaggedError<WikiSubjectNotMember>()("WikiSubjectNotMember", { field: Schema.String }) {
  override get message() {
    return "That user is not a member of the workspace"
  }
  get details() {
    return [{ path: this.field, message: "not a workspace member" }] as const
  }
}

export class WikiPermissionEntryNotFound extends Schema.TaggedError<WikiPermissionEntryNotFound>()("WikiPermissionEntryNotFound", {
  on: Schema.Literals(["page", "space"])
}) {
  override get message() {
    return this.on === "page" ? "No such permission entry on this page" : "No such permission entry in this space"
  }
}

/** Entries grant access to restricted pages only. */
export class WikiPageNotRestricted extends Schema.TaggedError<WikiPageNotRestricted>()("WikiPageNotRestricted", {}) {
  override get message() {
    return "The page is open to everyone in the space; restrict it first (PUT /v1/pages/{pageId}/permissions)"
  }
}

export class WikiVersionNotFound extends Schema.TaggedError<WikiVersionNotFound>()("WikiVersionNotFound", {}) {
  override get message() {
    return "No such version of this page"
  }
}

export class WikiCommentNotFound extends Schema.TaggedError<WikiCommentNotFound>()("WikiCommentNotFound", {}) {
  override get message() {
    return "No such comment"
  }
}

/** Threads are one level deep. */
export class WikiReplyToReply extends Schema.TaggedError<WikiReplyToReply>()("WikiReplyToReply", {}) {
  override get message() {
    return "Reply to the thread's first comment"
  }
  get details() {
    return [{ path: "path.commentId", message: "a reply" }] as const
  }
}

export class WikiThreadDeleted extends Schema.TaggedError<WikiThreadDeleted>()("WikiThreadDeleted", {}) {
  override get message() {
    return "The thread's first comment was deleted"
  }
}

export class WikiReplyAnchored extends Schema.TaggedError<WikiReplyAnchored>()("WikiReplyAnchored", {}) {
  override get message() {
    return "Replies cannot be anchored"
  }
  get details() {
    return [{ path: "body.anchor", message: "not on replies" }] as const
  }
}

/** Only its author edits a comment; only its author or a moderator deletes one. */
export class WikiCommentNotYours extends Schema.TaggedError<WikiCommentNotYours>()("WikiCommentNotYours", {
  action: Schema.Literals(["edit", "delete"])
}) {
  override get message() {
    return this.action === "edit" ? "Only its author edits a comment" : "Only its author or a space admin deletes a comment"
  }
}

export class WikiResolveReply extends Schema.TaggedError<WikiResolveReply>()("WikiResolveReply", {}) {
  override get message() {
    return "Replies are resolved with their thread: use its first comment"
  }
}

export class WikiAttachmentNotFound extends Schema.TaggedError<WikiAttachmentNotFound>()("WikiAttachmentNotFound", {}) {
  override get message() {
    return "No such attachment"
  }
}

export class WikiFavoriteExists extends Schema.TaggedError<WikiFavoriteExists>()("WikiFavoriteExists", {}) {
  override get message() {
    return "The page is already a favorite"
  }
  get details() {
    return [{ path: "body.pageId", message: "already a favorite" }] as const
  }
}

export class WikiTooManyFavorites extends Schema.TaggedError<WikiTooManyFavorites>()("WikiTooManyFavorites", { max: Schema.Number }) {
  override get message() {
    return `At most ${this.max} favorites per workspace; remove one first`
  }
}

export class WikiFavoriteNotFound extends Schema.TaggedError<WikiFavoriteNotFound>()("WikiFavoriteNotFound", {}) {
  override get message() {
    return "The page is not a favorite"
  }
}

export class WikiRecentSearchNotFound extends Schema.TaggedError<WikiRecentSearchNotFound>()("WikiRecentSearchNotFound", {}) {
  override get message() {
    return "No such recent search"
  }
}

/** The default home space must be a live space of the workspace. */
export class WikiHomeSpaceNotFound extends Schema.TaggedError<WikiHomeSpaceNotFound>()("WikiHomeSpaceNotFound", {}) {
  override get message() {
    return "No such space in this workspace"
  }
  get details() {
    return [{ path: "body.defaultHomeSpaceId", message: "no such space" }] as const
  }
}

export class PublicWikiSlugTaken extends Schema.TaggedError<PublicWikiSlugTaken>()("PublicWikiSlugTaken", {}) {
  override get message() {
    return "Another public wiki uses that slug"
  }
  get details() {
    return [{ path: "body.slug", message: "already taken" }] as const
  }
}

/** Five free slugs were taken by other spaces in between. */
export class PublicWikiNoFreeSlug extends Schema.TaggedError<PublicWikiNoFreeSlug>()("PublicWikiNoFreeSlug", {}) {
  override get message() {
    return "Could not pick a free public wiki slug; retry"
  }
}

export class PublicShareNotFound extends Schema.TaggedError<PublicShareNotFound>()("PublicShareNotFound", {}) {
  override get message() {
    return "The page is not shared publicly"
  }
}

export type WikiError =
  | WikiSpaceNotFound
  | WikiSpaceExists
  | WikiSpaceArchived
  | WikiSpaceAlreadyArchived
  | WikiSpaceNotArchived
  | WikiTargetSpaceNotFound
  | WikiTargetSpaceArchived
  | WikiSpaceKeyTaken
  | WikiPageNotFound
  | WikiPageExists
  | WikiPageNotInSpace
  | WikiParentPageNotFound
  | WikiParentPageArchived
  | WikiMoveIntoSubtree
  | WikiPageArchived
  | WikiPageAlreadyArchived
  | WikiPageNotArchived
  | WikiArchivedHomePage
  | WikiSlugClash
  | WikiSubjectNotMember
  | WikiPermissionEntryNotFound
  | WikiPageNotRestricted
  | WikiVersionNotFound
  | WikiCommentNotFound
  | WikiReplyToReply
  | WikiThreadDeleted
  | WikiReplyAnchored
  | WikiCommentNotYours
  | WikiResolveReply
  | WikiAttachmentNotFound
  | WikiFavoriteExists
  | WikiTooManyFavorites
  | WikiFavoriteNotFound
  | WikiRecentSearchNotFound
  | WikiHomeSpaceNotFound
  | PublicWikiSlugTaken
  | PublicWikiNoFreeSlug
  | PublicShareNotFound
