/**
 * The domain errors of pm's organization actor (workspace settings and logo,
 * invitations and the invite link, deactivations, public share links) and of
 * the seat check it shares with the facade; answered from one table
 * (`facade/HttpError.ts`) with the replies' exact wording.
 */
import { Schema } from "effect"
import { TaskNotFound } from "./PmErrors.ts"

const detail = (path: string, message: string) => [{ path, message }] as const

/** Keys of a settings patch that are not settings of its section. */
export class NotASetting extends Schema.TaggedError<NotASetting>()("NotASetting", {
  section: Schema.String,
  keys: Schema.Array(Schema.String)
}) {
  override get message() {
    return `Not a ${this.section} setting: ${this.keys.join(", ")}`
  }
  get details() {
    return this.keys.map((key) => ({ path: `body.${key}`, message: `not a ${this.section} setting` }))
  }
}

export class NoWorkspaceLogo extends Schema.TaggedError<NoWorkspaceLogo>()("NoWorkspaceLogo", {}) {
  override get message() {
    return "The workspace has no logo"
  }
}

/** Every seat of the workspace's plan is taken (by members and pending invitations). */
export class NoFreeSeat extends Schema.TaggedError<NoFreeSeat>()("NoFreeSeat", {
  limit: Schema.Number,
  members: Schema.Number,
  pendingInvitations: Schema.Number
}) {
  override get message() {
    return `The workspace has no free seat (limit ${this.limit}, ${this.members} members, ${this.pendingInvitations} pending invitations)`
  }
}

/** No invitation of this workspace has this id (or it was sent to someone else). */
export class InvitationNotFound extends Schema.TaggedError<InvitationNotFound>()("InvitationNotFound", {}) {
  override get message() {
    return "No such invitation"
  }
}

/** An invitation token that opens nothing. */
export class InvitationTokenUnknown extends Schema.TaggedError<InvitationTokenUnknown>()("InvitationTokenUnknown", {}) {
  override get message() {
    return "This invitation does not exist"
  }
}

/** The workspace invites only addresses of `domains`. */
export class InviteDomainRefused extends Schema.TaggedError<InviteDomainRefused>()("InviteDomainRefused", {
  domains: Schema.Array(Schema.String),
  field: Schema.String
}) {
  override get message() {
    return `Invitations go only to ${this.domains.join(", ")}`
  }
  get details() {
    return detail(this.field, "domain not allowed by the workspace policy")
  }
}

export class GuestsTurnedOff extends Schema.TaggedError<GuestsTurnedOff>()("GuestsTurnedOff", {}) {
  override get message() {
    return "Guests are turned off in this workspace"
  }
}

/** A guest invited (or changed, at `field`) as an admin. */
export class GuestCannotBeAdmin extends Schema.TaggedError<GuestCannotBeAdmin>()("GuestCannotBeAdmin", { field: Schema.String }) {
  override get message() {
    return "A guest cannot be an admin"
  }
  get details() {
    return detail(this.field, "guests are members or viewers")
  }
}

export class GuestAccessEndsInPast extends Schema.TaggedError<GuestAccessEndsInPast>()("GuestAccessEndsInPast", { field: Schema.String }) {
  override get message() {
    return "The guest's access must end in the future"
  }
  get details() {
    return detail(this.field, "in the past")
  }
}

/** An invitation or share link whose expiry (at `field`) has passed already. */
export class ExpiryInPast extends Schema.TaggedError<ExpiryInPast>()("ExpiryInPast", { field: Schema.String }) {
  override get message() {
    return "The expiry must be in the future"
  }
  get details() {
    return detail(this.field, "in the past")
  }
}

export class InviteeAlreadyMember extends Schema.TaggedError<InviteeAlreadyMember>()("InviteeAlreadyMember", {
  email: Schema.String,
  field: Schema.String
}) {
  override get message() {
    return `${this.email} is already a member`
  }
  get details() {
    return detail(this.field, "already a member")
  }
}

export class InvitationPending extends Schema.TaggedError<InvitationPending>()("InvitationPending", {
  email: Schema.String,
  field: Schema.String
}) {
  override get message() {
    return `${this.email} already has a pending invitation; resend it instead`
  }
  get details() {
    return detail(this.field, "already invited")
  }
}

export class TooManyInvitations extends Schema.TaggedError<TooManyInvitations>()("TooManyInvitations", {}) {
  override get message() {
    return "Too many pending invitations; revoke some first"
  }
}

/** An invitation already answered (`status`: accepted, declined, revoked…). */
export class InvitationClosed extends Schema.TaggedError<InvitationClosed>()("InvitationClosed", { status: Schema.String }) {
  override get message() {
    return `This invitation is ${this.status}`
  }
}

export class InvitationExpired extends Schema.TaggedError<InvitationExpired>()("InvitationExpired", {}) {
  override get message() {
    return "This invitation has expired; ask for a new one"
  }
}

export class InviteLinksTurnedOff extends Schema.TaggedError<InviteLinksTurnedOff>()("InviteLinksTurnedOff", {}) {
  override get message() {
    return "Invite links are turned off in this workspace"
  }
}

export class NoInviteLink extends Schema.TaggedError<NoInviteLink>()("NoInviteLink", {}) {
  override get message() {
    return "The workspace has no invite link"
  }
}

/** An invite link code that opens nothing (whatever the reason). */
export class InviteLinkInvalid extends Schema.TaggedError<InviteLinkInvalid>()("InviteLinkInvalid", {}) {
  override get message() {
    return "This invite link does not exist, has expired or is used up"
  }
}

export class DeactivatedMemberNotFound extends Schema.TaggedError<DeactivatedMemberNotFound>()("DeactivatedMemberNotFound", {}) {
  override get message() {
    return "No deactivated member with this id"
  }
}

export class ShareLinkNotFound extends Schema.TaggedError<ShareLinkNotFound>()("ShareLinkNotFound", {}) {
  override get message() {
    return "No such share link"
  }
}

/** A revoked share link is not changed; a new one is made instead. */
export class ShareLinkRevoked extends Schema.TaggedError<ShareLinkRevoked>()("ShareLinkRevoked", {}) {
  override get message() {
    return "This link is revoked; make a new one"
  }
}

export class ShareLinkAlreadyRevoked extends Schema.TaggedError<ShareLinkAlreadyRevoked>()("ShareLinkAlreadyRevoked", {}) {
  override get message() {
    return "Already revoked"
  }
}

export class PublicSharingTurnedOff extends Schema.TaggedError<PublicSharingTurnedOff>()("PublicSharingTurnedOff", {}) {
  override get message() {
    return "Public sharing is turned off in this workspace"
  }
}

/** The workspace's policy: share links expire within `maxDays` (`problem`: how the one at `field` does not). */
export class ShareLinkTooLong extends Schema.TaggedError<ShareLinkTooLong>()("ShareLinkTooLong", {
  maxDays: Schema.Number,
  field: Schema.String,
  problem: Schema.String
}) {
  override get message() {
    return `Links in this workspace must expire within ${this.maxDays} days`
  }
  get details() {
    return detail(this.field, this.problem)
  }
}

/** A share token that opens nothing (whatever the reason). */
export class ShareLinkGone extends Schema.TaggedError<ShareLinkGone>()("ShareLinkGone", {}) {
  override get message() {
    return "This link does not exist, has expired or was revoked"
  }
}

export type OrganizationError =
  | NotASetting
  | NoWorkspaceLogo
  | NoFreeSeat
  | InvitationNotFound
  | InvitationTokenUnknown
  | InviteDomainRefused
  | GuestsTurnedOff
  | GuestCannotBeAdmin
  | GuestAccessEndsInPast
  | ExpiryInPast
  | InviteeAlreadyMember
  | InvitationPending
  | TooManyInvitations
  | InvitationClosed
  | InvitationExpired
  | InviteLinksTurnedOff
  | NoInviteLink
  | InviteLinkInvalid
  | DeactivatedMemberNotFound
  | ShareLinkNotFound
  | ShareLinkRevoked
  | ShareLinkAlreadyRevoked
  | PublicSharingTurnedOff
  | ShareLinkTooLong
  | ShareLinkGone

/** What an invitation to one address may be refused for (a bulk invitation answers each address with its own). */
export const InvitationRefused = Schema.Union([
  NoFreeSeat,
  InvitationNotFound,
  InviteDomainRefused,
  GuestsTurnedOff,
  GuestCannotBeAdmin,
  GuestAccessEndsInPast,
  InviteeAlreadyMember,
  InvitationPending,
  TooManyInvitations
])

/** What the organization actor's commands may refuse with. */
export const OrganizationRefused = Schema.Union([
  NotASetting,
  NoWorkspaceLogo,
  NoFreeSeat,
  InvitationNotFound,
  InvitationTokenUnknown,
  InviteDomainRefused,
  GuestsTurnedOff,
  GuestCannotBeAdmin,
  GuestAccessEndsInPast,
  ExpiryInPast,
  InviteeAlreadyMember,
  InvitationPending,
  TooManyInvitations,
  InvitationClosed,
  InvitationExpired,
  InviteLinksTurnedOff,
  NoInviteLink,
  InviteLinkInvalid,
  DeactivatedMemberNotFound,
  ShareLinkNotFound,
  ShareLinkRevoked,
  ShareLinkAlreadyRevoked,
  PublicSharingTurnedOff,
  ShareLinkTooLong,
  TaskNotFound
])
