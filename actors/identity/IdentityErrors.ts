/**
 * The identity actors' domain errors (accounts, sessions, API keys,
 * workspaces), declared by their messages; the facade answers each with its
 * status in one table (`facade/HttpError.ts`). Messages and details are the
 * replies' exact wording, so the HTTP answers stay as they were.
 */
import { Schema } from "effect"

const detail = (path: string, message: string) => [{ path, message }] as const

/** No account has this e-mail (none registered with it). */
export class UserNotFound extends Schema.TaggedError<UserNotFound>()("UserNotFound", {}) {
  override get message() {
    return "No such user"
  }
}

/** Login with an unknown e-mail or a wrong password: one answer for both, so addresses cannot be probed. */
export class InvalidCredentials extends Schema.TaggedError<InvalidCredentials>()("InvalidCredentials", {}) {
  override get message() {
    return "Invalid e-mail or password"
  }
}

export class EmailTaken extends Schema.TaggedError<EmailTaken>()("EmailTaken", {}) {
  override get message() {
    return "A user with this e-mail already exists"
  }
  get details() {
    return detail("email", "already registered")
  }
}

export class AccountDeactivated extends Schema.TaggedError<AccountDeactivated>()("AccountDeactivated", {}) {
  override get message() {
    return "This account is deactivated; contact the platform operator"
  }
}

/** Too many failed logins in a row: locked for a while. */
export class LoginLocked extends Schema.TaggedError<LoginLocked>()("LoginLocked", {}) {
  override get message() {
    return "Too many failed logins; try again later"
  }
}

/** Changing the password: the current one given does not match. */
export class WrongPassword extends Schema.TaggedError<WrongPassword>()("WrongPassword", {}) {
  override get message() {
    return "Current password is wrong"
  }
  get details() {
    return detail("currentPassword", "does not match")
  }
}

export class SessionExists extends Schema.TaggedError<SessionExists>()("SessionExists", {}) {
  override get message() {
    return "Session already exists"
  }
}

/** No session of this user has this id. */
export class SessionNotFound extends Schema.TaggedError<SessionNotFound>()("SessionNotFound", {}) {
  override get message() {
    return "No such session"
  }
}

export class ApiKeyExists extends Schema.TaggedError<ApiKeyExists>()("ApiKeyExists", {}) {
  override get message() {
    return "API key already exists"
  }
}

/** No live key has this id (never created, or revoked). */
export class ApiKeyNotFound extends Schema.TaggedError<ApiKeyNotFound>()("ApiKeyNotFound", {}) {
  override get message() {
    return "No such API key"
  }
}

/** The presented key's hash is not the key's (a rotated-away or forged key). */
export class InvalidApiKey extends Schema.TaggedError<InvalidApiKey>()("InvalidApiKey", {}) {
  override get message() {
    return "Invalid API key"
  }
}

/** No workspace has this id, or the caller is not a member (they learn no more than that). */
export class WorkspaceNotFound extends Schema.TaggedError<WorkspaceNotFound>()("WorkspaceNotFound", {}) {
  override get message() {
    return "No such workspace"
  }
}

export class WorkspaceExists extends Schema.TaggedError<WorkspaceExists>()("WorkspaceExists", {}) {
  override get message() {
    return "Workspace already exists"
  }
}

/** A platform operator suspended the workspace; members are refused with the reason. */
export class WorkspaceSuspended extends Schema.TaggedError<WorkspaceSuspended>()("WorkspaceSuspended", { reason: Schema.String }) {
  override get message() {
    return `This workspace is suspended (${this.reason}); contact the platform operator`
  }
}

/** The caller is a member, but below the role the action takes. */
export class RoleRequired extends Schema.TaggedError<RoleRequired>()("RoleRequired", { minimum: Schema.String }) {
  override get message() {
    return `Requires the ${this.minimum} role in this workspace`
  }
}

/** One more member would exceed the seats paid for or the operator's quota. */
export class MemberLimitReached extends Schema.TaggedError<MemberLimitReached>()("MemberLimitReached", { limit: Schema.Number }) {
  override get message() {
    return `The workspace has reached its limit of ${this.limit} members; add seats or raise the quota first`
  }
  get details() {
    return detail("seats", `limit of ${this.limit} members reached`)
  }
}

/** An admin adds someone who is already a member. */
export class AlreadyMember extends Schema.TaggedError<AlreadyMember>()("AlreadyMember", {}) {
  override get message() {
    return "Already a member"
  }
  get details() {
    return detail("email", "already a member")
  }
}

/** Someone is admitted (invitation, link, domain…) who is already a member. */
export class AlreadyAdmitted extends Schema.TaggedError<AlreadyAdmitted>()("AlreadyAdmitted", {}) {
  override get message() {
    return "Already a member of this workspace"
  }
}

export class MemberNotFound extends Schema.TaggedError<MemberNotFound>()("MemberNotFound", {}) {
  override get message() {
    return "No such member"
  }
}

export class OwnerRoleFixed extends Schema.TaggedError<OwnerRoleFixed>()("OwnerRoleFixed", {}) {
  override get message() {
    return "The owner's role changes only by transferring ownership"
  }
}

export class OwnerCannotLeave extends Schema.TaggedError<OwnerCannotLeave>()("OwnerCannotLeave", {}) {
  override get message() {
    return "The owner cannot leave; transfer ownership first"
  }
}

/** Making a guest an admin (a conflict with their guest access). */
export class GuestNotAdmin extends Schema.TaggedError<GuestNotAdmin>()("GuestNotAdmin", {}) {
  override get message() {
    return "A guest cannot be an admin; make them a full member first"
  }
}

/** Admitting a guest with the admin role (an invalid request). */
export class GuestRoleInvalid extends Schema.TaggedError<GuestRoleInvalid>()("GuestRoleInvalid", {}) {
  override get message() {
    return "A guest cannot be an admin"
  }
  get details() {
    return detail("role", "guests are members or viewers")
  }
}

/** Owners and admins stay full members. */
export class CannotBeGuest extends Schema.TaggedError<CannotBeGuest>()("CannotBeGuest", {}) {
  override get message() {
    return "Owners and admins cannot be guests; change the role first"
  }
}

/** The new owner named is no member, or only a guest. */
export class InvalidNewOwner extends Schema.TaggedError<InvalidNewOwner>()("InvalidNewOwner", { guest: Schema.Boolean }) {
  override get message() {
    return this.guest ? "A guest cannot own the workspace" : "The new owner must be a member"
  }
  get details() {
    return detail("userId", this.guest ? "is a guest" : "not a member")
  }
}

/** Restoring: no deleted workspace of the caller's has this id, or it was deleted longer ago than `days`. */
export class NotRestorable extends Schema.TaggedError<NotRestorable>()("NotRestorable", {
  expiredAfterDays: Schema.optionalKey(Schema.Number)
}) {
  override get message() {
    return this.expiredAfterDays === undefined
      ? "No deleted workspace with this id"
      : `Deleted more than ${this.expiredAfterDays} days ago; it can no longer be restored`
  }
}

export type AccountError = UserNotFound | InvalidCredentials | EmailTaken | AccountDeactivated | LoginLocked | WrongPassword
export type WorkspaceError =
  | WorkspaceNotFound
  | WorkspaceExists
  | WorkspaceSuspended
  | RoleRequired
  | MemberLimitReached
  | AlreadyMember
  | AlreadyAdmitted
  | MemberNotFound
  | OwnerRoleFixed
  | OwnerCannotLeave
  | GuestNotAdmin
  | GuestRoleInvalid
  | CannotBeGuest
  | InvalidNewOwner
  | NotRestorable
export type IdentityError = AccountError | SessionExists | SessionNotFound | ApiKeyExists | ApiKeyNotFound | InvalidApiKey | WorkspaceError
