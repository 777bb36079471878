/**
 * The one error envelope of every service:
 * `{"error": {"code", "message", "details"?: [{"path", "message"}]}, "requestId"}`.
 * Domain rejections and runtime failures map onto it here, nowhere else.
 */
import type { BillingError } from "../actors/billing/BillingErrors.ts"
import type { FeedbackError } from "../actors/feedback/FeedbackErrors.ts"
import type { IdentityError } from "../actors/identity/IdentityErrors.ts"
import type { HubError } from "../actors/hub/HubErrors.ts"
import type { CallShareError } from "../actors/hub/people/CallShares.ts"
import type { UserViewError } from "../actors/hub/people/UserViews.ts"
import type { LensError } from "../actors/lens/LensErrors.ts"
import type { AlertRuleError } from "../actors/platform/AlertRules.ts"
import type { QuotaError } from "../actors/platform/QuotaChecks.ts"
import type { OrganizationError } from "../actors/pm/OrganizationErrors.ts"
import type { PlanningError } from "../actors/pm/PlanningErrors.ts"
import type { PmError } from "../actors/pm/PmErrors.ts"
import type { OpsError } from "../actors/pmops/OpsErrors.ts"
import type { WorkError } from "../actors/pm/WorkErrors.ts"
import type { PushError } from "../actors/push/PushSubscriptions.ts"
import type { SsoError } from "../actors/sso/SsoErrors.ts"
import type { WikiError } from "../actors/wiki/WikiErrors.ts"
import {
  type ActorError,
  ActorDefect,
  ActorOverloaded,
  ActorTimeout,
  ActorUnavailable,
  type UnavailableReason
} from "../runtime/ActorError.ts"
import { isTransient } from "../runtime/ActorStore.ts"
import { Rejection, type RejectionCode, type RejectionDetail, reject } from "../runtime/Rejection.ts"

export interface HttpError {
  readonly status: number
  readonly code: string
  readonly message: string
  readonly details?: ReadonlyArray<RejectionDetail>
  readonly headers?: Readonly<Record<string, string>>
}

export const httpError = (
  status: number,
  code: string,
  message: string,
  details?: ReadonlyArray<RejectionDetail>,
  headers?: Readonly<Record<string, string>>
): HttpError => ({ status, code, message, ...(details && details.length > 0 ? { details } : {}), ...(headers ? { headers } : {}) })

const statusOf: Record<RejectionCode, number> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  /** Credits or a plan are needed first (e.g. Lens credits used up). */
  payment_required: 402,
  /** A vendor system the request had to reach failed or refused (named in the message). */
  bad_gateway: 502,
  /** A vendor system the request had to reach did not answer in time (named in the message). */
  gateway_timeout: 504
}

const unavailableMessage: Record<UnavailableReason | "unknown", string> = {
  handover: "No node owns this resource right now (it is moving between nodes); retry shortly",
  draining: "The server is shutting down; retry shortly",
  interrupted:
    "The request was interrupted while its resource moved between nodes or the server shut down; its outcome is unknown, check before retrying",
  storage: "The database did not answer in time; retry shortly",
  disconnected: "This server is cut off from the cluster and serves nothing until it is back; retry shortly (another server may answer)",
  unknown: "The resource is temporarily unavailable; retry shortly"
}

/**
 * The domain errors actor messages declare (tagged classes: the tag names the
 * case, the error's `message` and `details` are the reply's).
 */
export type DomainError =
  | FeedbackError
  | IdentityError
  | LensError
  | PushError
  | AlertRuleError
  | QuotaError
  | UserViewError
  | CallShareError
  | WikiError
  | HubError
  | BillingError
  | SsoError
  | PmError
  | WorkError
  | OpsError
  | PlanningError
  | OrganizationError

/**
 * How each domain error is answered: the one table from domain errors to the
 * envelope's code (and so its status). A kind that declares a new error fails
 * `tsc` here until it has its row.
 */
export const refusals: { readonly [Tag in DomainError["_tag"]]: RejectionCode } = {
  BoardNotFound: "not_found",
  BoardArchived: "conflict",
  DeskItemNotFound: "not_found",
  WorkItemNotFound: "not_found",
  StatusNotOnBoard: "invalid",
  BoardExists: "conflict",
  BoardNameTaken: "conflict",
  DeskItemExists: "conflict",
  BoardSlugTaken: "conflict",
  BoardKeyTaken: "conflict",
  ArchiveUnchanged: "conflict",
  BoardMemberNotFound: "not_found",
  BoardOptionNotFound: "not_found",
  BoardOptionNameTaken: "conflict",
  DefaultStatusKept: "invalid",
  ReplacementIsDeleted: "invalid",
  ReplacementNotFound: "not_found",
  LastStatus: "conflict",
  NotAnOrdering: "invalid",
  RequestNotFound: "not_found",
  RequestMerged: "conflict",
  RequestLocked: "conflict",
  OptionNotOnBoard: "invalid",
  RequestHasDuplicates: "conflict",
  StatusUnchanged: "conflict",
  BulkRequestNotFound: "not_found",
  BulkRequestClosed: "conflict",
  AlreadyVoted: "conflict",
  NotVoted: "not_found",
  AnonymousVotesOff: "forbidden",
  AnonymousVoteLimit: "rate_limited",
  RequestMergeIntoItself: "invalid",
  RequestAlreadyMerged: "conflict",
  MergeTargetNotFound: "not_found",
  MergeTargetMerged: "conflict",
  RequestNotMerged: "conflict",
  NoMergeToUndo: "conflict",
  CommentsOff: "forbidden",
  ReplyParentNotFound: "invalid",
  ReplyMustBeInternal: "invalid",
  VisitorCommentLimit: "rate_limited",
  FeedbackCommentNotFound: "not_found",
  CommentNotOnBoard: "not_found",
  FeedbackAttachmentNotFound: "not_found",
  NotAwaitingModeration: "not_found",
  NotUndoable: "conflict",
  SubmissionLimit: "rate_limited",
  UserNotFound: "not_found",
  InvalidCredentials: "unauthorized",
  EmailTaken: "conflict",
  AccountDeactivated: "forbidden",
  LoginLocked: "rate_limited",
  WrongPassword: "invalid",
  SessionExists: "conflict",
  SessionNotFound: "not_found",
  ApiKeyExists: "conflict",
  ApiKeyNotFound: "not_found",
  InvalidApiKey: "unauthorized",
  WorkspaceNotFound: "not_found",
  WorkspaceExists: "conflict",
  WorkspaceSuspended: "forbidden",
  RoleRequired: "forbidden",
  MemberLimitReached: "conflict",
  AlreadyMember: "conflict",
  AlreadyAdmitted: "conflict",
  MemberNotFound: "not_found",
  OwnerRoleFixed: "conflict",
  OwnerCannotLeave: "conflict",
  GuestNotAdmin: "conflict",
  GuestRoleInvalid: "invalid",
  CannotBeGuest: "conflict",
  InvalidNewOwner: "invalid",
  NotRestorable: "not_found",
  ThreadNotFound: "not_found",
  ThreadOfAnotherUser: "forbidden",
  ThreadOfAnotherWorkspace: "invalid",
  LensAnswerNotFound: "not_found",
  LensProposalNotFound: "not_found",
  ProposalDecided: "conflict",
  LensBotNotFound: "not_found",
  LensExperimentNotFound: "not_found",
  ExperimentRunning: "conflict",
  DuplicateVariants: "invalid",
  OutOfCredits: "payment_required",
  TooManyPushSubscriptions: "conflict",
  PushSubscriptionNotFound: "not_found",
  TooManyAlertRules: "conflict",
  AlertRuleNotFound: "not_found",
  TaskQuotaReached: "conflict",
  StorageQuotaReached: "conflict",
  UserViewNotFound: "not_found",
  TooManyUserViews: "conflict",
  TooManyShares: "conflict",
  CallShareNotFound: "not_found",
  // pm
  ItemExists: "conflict",
  ReferenceGone: "conflict",
  TaskNotFound: "not_found",
  SpaceNotFound: "not_found",
  ListNotFound: "not_found",
  TeamNotFound: "not_found",
  TeamMemberOutsideWorkspace: "invalid",
  UserListedTwice: "invalid",
  AddedAndRemoved: "invalid",
  TooManyTeamMembers: "invalid",
  PlaceNotFound: "not_found",
  PlaceOutsideWorkspace: "not_found",
  FavoritesPersonal: "forbidden",
  TooManyFavorites: "conflict",
  AlreadyFavorite: "conflict",
  FavoriteNotFound: "not_found",
  WhiteboardNotFound: "not_found",
  WhiteboardTemplateNotFound: "not_found",
  CommentNotFound: "not_found",
  ParentCommentNotFound: "not_found",
  ReplyToReply: "invalid",
  CommentAuthorOnly: "forbidden",
  NotWorkspaceMembers: "invalid",
  // pm work hierarchy
  TaskRefNotFound: "not_found",
  ShortIdNotFound: "not_found",
  MergeSourceNotFound: "not_found",
  CustomFieldNotFound: "not_found",
  CustomFieldNotHere: "not_found",
  OptionNotFound: "not_found",
  StatusNotFound: "not_found",
  ChecklistNotFound: "not_found",
  ChecklistItemNotFound: "not_found",
  TimeEntryNotFound: "not_found",
  AttachmentNotFound: "not_found",
  RelationshipNotFound: "not_found",
  TagNotFound: "not_found",
  TaskTemplateNotFound: "not_found",
  NoMemberWithEmail: "not_found",
  CustomFieldNameTaken: "conflict",
  OptionNameTaken: "conflict",
  StatusNameTaken: "conflict",
  TagNameTaken: "conflict",
  DuplicateStatusName: "invalid",
  WorkflowIncomplete: "conflict",
  NoStatusToMoveTo: "invalid",
  UnknownMappingTarget: "invalid",
  AlreadyInheritsStatuses: "conflict",
  SpaceOwnsStatuses: "conflict",
  UnknownStatus: "invalid",
  FieldHasNoOptions: "conflict",
  UnknownCustomField: "invalid",
  CustomFieldRequired: "invalid",
  RequiredFieldsMissing: "invalid",
  FeatureTurnedOff: "invalid",
  ChecklistsTurnedOff: "invalid",
  TimeTrackingTurnedOff: "invalid",
  OneAssigneePerTask: "invalid",
  StartAfterDue: "invalid",
  NotAPermutation: "invalid",
  FolderInOtherSpace: "invalid",
  EndBeforeStart: "invalid",
  TimeEntryEndMissing: "invalid",
  ArchivedAlready: "conflict",
  SpaceNotPrivate: "conflict",
  AlreadySpaceMember: "conflict",
  NotSpaceMember: "not_found",
  AlreadyWatching: "conflict",
  NotWatching: "not_found",
  TaskHasTag: "conflict",
  TaskLacksTag: "not_found",
  HomeListLink: "conflict",
  AlreadyInList: "conflict",
  NotLinkedToList: "not_found",
  TaskNotRecurring: "not_found",
  RecurrenceNeedsDate: "conflict",
  TaskFollowsItself: "invalid",
  AfterTaskElsewhere: "invalid",
  ParentCycle: "conflict",
  ParentInOtherList: "invalid",
  MergeIntoItself: "invalid",
  MergeIntoSubtask: "conflict",
  RelatesToItself: "invalid",
  RelationshipExists: "conflict",
  BlockingCycle: "conflict",
  ResolvedAlready: "conflict",
  AlreadyReacted: "conflict",
  NotReacted: "not_found",
  UploaderOnly: "forbidden",
  TimeEntryOwnerOnly: "forbidden",
  NoTimerRunning: "conflict",
  // pm operations
  AutomationRuleNotFound: "not_found",
  BulkJobNotFound: "not_found",
  JobStillRunning: "conflict",
  FormNotFound: "not_found",
  WebhookNotFound: "not_found",
  DeliveryNotFound: "not_found",
  DeadLetterNotFound: "not_found",
  WebhookNotActive: "conflict",
  DeliveryPending: "conflict",
  // pm planning
  InvalidFieldValue: "invalid",
  NameTaken: "conflict",
  PrivacyByCreatorOnly: "forbidden",
  DeleteByCreatorOrAdmin: "forbidden",
  SprintNotFound: "not_found",
  SprintGroupNotFound: "not_found",
  SprintTeamNotFound: "not_found",
  SprintGroupBusy: "conflict",
  CompletedSprintFixed: "conflict",
  SprintStartFixed: "conflict",
  SeriesHasActiveSprint: "conflict",
  SeriesBusy: "conflict",
  ActiveSprintUndeletable: "conflict",
  PlanIntoCompletedSprint: "conflict",
  CompletedSprintTasksFixed: "conflict",
  TasksOutsideSprintSpace: "not_found",
  TaskNotInSprint: "not_found",
  SprintNotPlanned: "conflict",
  SprintNotActive: "conflict",
  SprintEnded: "conflict",
  NextSprintIsItself: "invalid",
  NextSprintCompleted: "conflict",
  ViewNotFound: "not_found",
  SavedFilterNotFound: "not_found",
  DashboardNotFound: "not_found",
  WidgetNotFound: "not_found",
  TooManyWidgets: "conflict",
  // pm organization
  NotASetting: "invalid",
  NoWorkspaceLogo: "not_found",
  NoFreeSeat: "conflict",
  InvitationNotFound: "not_found",
  InvitationTokenUnknown: "not_found",
  InviteDomainRefused: "invalid",
  GuestsTurnedOff: "forbidden",
  GuestCannotBeAdmin: "invalid",
  GuestAccessEndsInPast: "invalid",
  ExpiryInPast: "invalid",
  InviteeAlreadyMember: "conflict",
  InvitationPending: "conflict",
  TooManyInvitations: "conflict",
  InvitationClosed: "conflict",
  InvitationExpired: "conflict",
  InviteLinksTurnedOff: "forbidden",
  NoInviteLink: "not_found",
  InviteLinkInvalid: "not_found",
  DeactivatedMemberNotFound: "not_found",
  ShareLinkNotFound: "not_found",
  ShareLinkRevoked: "conflict",
  ShareLinkAlreadyRevoked: "conflict",
  PublicSharingTurnedOff: "forbidden",
  ShareLinkTooLong: "invalid",
  ShareLinkGone: "not_found",
  // wiki
  WikiSpaceNotFound: "not_found",
  WikiSpaceExists: "conflict",
  WikiSpaceArchived: "conflict",
  WikiSpaceAlreadyArchived: "conflict",
  WikiSpaceNotArchived: "conflict",
  WikiTargetSpaceNotFound: "not_found",
  WikiTargetSpaceArchived: "conflict",
  WikiSpaceKeyTaken: "conflict",
  WikiPageNotFound: "not_found",
  WikiPageExists: "conflict",
  WikiPageNotInSpace: "not_found",
  WikiParentPageNotFound: "not_found",
  WikiParentPageArchived: "conflict",
  WikiMoveIntoSubtree: "invalid",
  WikiPageArchived: "conflict",
  WikiPageAlreadyArchived: "conflict",
  WikiPageNotArchived: "conflict",
  WikiArchivedHomePage: "conflict",
  WikiSlugClash: "conflict",
  WikiSubjectNotMember: "invalid",
  WikiPermissionEntryNotFound: "not_found",
  WikiPageNotRestricted: "conflict",
  WikiVersionNotFound: "not_found",
  WikiCommentNotFound: "not_found",
  WikiReplyToReply: "invalid",
  WikiThreadDeleted: "conflict",
  WikiReplyAnchored: "invalid",
  WikiCommentNotYours: "forbidden",
  WikiResolveReply: "conflict",
  WikiAttachmentNotFound: "not_found",
  WikiFavoriteExists: "conflict",
  WikiTooManyFavorites: "conflict",
  WikiFavoriteNotFound: "not_found",
  WikiRecentSearchNotFound: "not_found",
  WikiHomeSpaceNotFound: "invalid",
  PublicWikiSlugTaken: "conflict",
  PublicWikiNoFreeSlug: "conflict",
  PublicShareNotFound: "not_found",
  // end wiki
  // hub
  HubRecordingNotFound: "not_found",
  HubRecordingBusy: "conflict",
  HubNothingToSummarize: "conflict",
  HubVersionNotGenerated: "conflict",
  HubActionItemNotFound: "not_found",
  HubTranscriptRefused: "invalid",
  CalendarEventNotFound: "not_found",
  CalendarOccurrenceNotFound: "not_found",
  CalendarEventExists: "conflict",
  CalendarEventSynced: "conflict",
  CalendarFull: "conflict",
  SyncedCalendarFull: "conflict",
  HubWebhookNotFound: "not_found",
  TooManyHubWebhooks: "conflict",
  HubTagNotFound: "not_found",
  HubTagNameTaken: "conflict",
  TooManyHubTags: "conflict",
  HubUnknownCallTag: "invalid",
  TooManyCallTags: "invalid",
  HubCallTagNotFound: "not_found",
  ChatDocumentNotFound: "not_found",
  ChatDuplicateMessage: "invalid",
  ChatDocumentFull: "too_large",
  HubWorkflowNotFound: "not_found",
  HubWorkflowNameTaken: "conflict",
  MeetingBotNotFound: "not_found",
  MeetingBotFinished: "conflict",
  MeetingBusy: "conflict",
  MeetingNotLinked: "not_found",
  MeetingAlreadyImported: "conflict",
  // end hub
  // billing
  SeatsOutOfPlanRange: "invalid",
  FewerSeatsThanMembers: "conflict",
  NoPlanChosen: "conflict",
  SubscriptionCanceled: "conflict",
  NoPaidSubscription: "conflict",
  AlreadyCanceling: "conflict",
  NotCanceling: "conflict",
  PaymentEventStatusMissing: "invalid",
  // end billing
  // sso
  SsoNotConfigured: "not_found",
  SsoDomainListed: "conflict",
  SsoDomainNotFound: "not_found",
  SsoCannotEnforce: "conflict"
  // end sso
}

const isDomainError = (failure: unknown): failure is DomainError =>
  typeof failure === "object" &&
  failure !== null &&
  "_tag" in failure &&
  typeof failure._tag === "string" &&
  Object.hasOwn(refusals, failure._tag)

/** A refusal or a runtime failure, as their classes (decoded to them when they crossed NATS). */
const isKnown = (failure: unknown): failure is Rejection | ActorError =>
  failure instanceof Rejection ||
  failure instanceof ActorOverloaded ||
  failure instanceof ActorTimeout ||
  failure instanceof ActorUnavailable ||
  failure instanceof ActorDefect

/**
 * A domain error as the `Rejection` it is answered with, for facade helpers
 * whose callers still refine refusals by code (e.g. `workspaceRole`, whose
 * 404 many operations rename after their own resource).
 */
export const asRejection = (error: DomainError): Rejection =>
  reject(refusals[error._tag], error.message, "details" in error ? error.details : undefined)

/** A refusal (a `Rejection` or a declared domain error) as its `Rejection`; runtime failures are none. */
export const refusalOf = (failure: Rejection | ActorError | DomainError): Rejection | undefined =>
  failure._tag === "Rejection" ? failure : isDomainError(failure) ? asRejection(failure) : undefined

/** The envelope code a refusal (a `Rejection` or a declared domain error) is answered with; none for anything else. */
export const refusalCode = (failure: unknown): RejectionCode | undefined =>
  failure instanceof Rejection ? failure.code : isDomainError(failure) ? refusals[failure._tag] : undefined

/** A bug (a defect, or an error type a handler failed to map), never worth a retry. */
const internal = httpError(500, "internal", "Internal error; quote the request id when reporting it")

/** Any failure as its answer: what no case names (a handler's unmapped error, a defect) is a 500. */
export const fromFailure = (failure: unknown): HttpError => {
  // A database error that reached the facade unmapped: transient ones are a named 503, not a bug.
  if (isTransient(failure)) return httpError(503, "unavailable", unavailableMessage.storage, undefined, { "retry-after": "1" })
  if (isDomainError(failure)) return fromFailure(asRejection(failure))
  if (!isKnown(failure)) return internal
  switch (failure._tag) {
    case "Rejection":
      return httpError(
        statusOf[failure.code],
        failure.code,
        failure.message,
        failure.details,
        failure.code === "unauthorized" ? { "www-authenticate": 'Bearer realm="atrium"' } : undefined
      )
    case "ActorOverloaded":
      return httpError(429, "overloaded", `Too many requests queued for ${failure.address.kind}; retry shortly`, undefined, {
        "retry-after": "1"
      })
    case "ActorTimeout":
      return httpError(503, "timeout", `No reply from ${failure.address.kind} within ${failure.millis} ms; retry shortly`, undefined, {
        "retry-after": "1"
      })
    case "ActorUnavailable":
      return httpError(503, "unavailable", unavailableMessage[failure.reason ?? "unknown"], undefined, { "retry-after": "1" })
    case "ActorDefect":
      // A handler died, or its state could not be persisted: a bug, never worth a retry.
      return internal
  }
}

export const envelope = (error: HttpError, requestId: string): string =>
  JSON.stringify({
    error: { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) },
    requestId
  })
