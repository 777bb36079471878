/**
 * The Lens actors' domain errors (threads, proposals, bots, experiments,
 * credits), declared by their messages; the facade answers each with its
 * status in one table (`facade/HttpError.ts`). Messages and details are the
 * replies' exact wording.
 */
import { Schema } from "effect"

const threadDetail = (message: string) => [{ path: "body.threadId", message }] as const

export class ThreadNotFound extends Schema.TaggedError<ThreadNotFound>()("ThreadNotFound", {}) {
  override get message() {
    return "No such Lens thread"
  }
  get details() {
    return threadDetail("unknown thread id")
  }
}

export class ThreadOfAnotherUser extends Schema.TaggedError<ThreadOfAnotherUser>()("ThreadOfAnotherUser", {}) {
  override get message() {
    return "This Lens thread belongs to another user"
  }
  get details() {
    return threadDetail("another user's thread")
  }
}

/** A follow-up names a thread of another workspace than the question's. */
export class ThreadOfAnotherWorkspace extends Schema.TaggedError<ThreadOfAnotherWorkspace>()("ThreadOfAnotherWorkspace", {}) {
  override get message() {
    return "The thread belongs to another workspace"
  }
  get details() {
    return threadDetail("thread of another workspace")
  }
}

/** No answer of the caller's has this id (another user's answers look the same). */
export class LensAnswerNotFound extends Schema.TaggedError<LensAnswerNotFound>()("LensAnswerNotFound", {}) {
  override get message() {
    return "No such Lens answer"
  }
}

export class LensProposalNotFound extends Schema.TaggedError<LensProposalNotFound>()("LensProposalNotFound", {}) {
  override get message() {
    return "No such Lens proposal"
  }
}

/** A proposal is decided once. */
export class ProposalDecided extends Schema.TaggedError<ProposalDecided>()("ProposalDecided", {}) {
  override get message() {
    return "This proposal was already decided"
  }
}

export class LensBotNotFound extends Schema.TaggedError<LensBotNotFound>()("LensBotNotFound", {}) {
  override get message() {
    return "No Lens bot on this connection"
  }
}

export class LensExperimentNotFound extends Schema.TaggedError<LensExperimentNotFound>()("LensExperimentNotFound", {}) {
  override get message() {
    return "No such Lens experiment"
  }
}

/** One experiment runs per workspace at a time. */
export class ExperimentRunning extends Schema.TaggedError<ExperimentRunning>()("ExperimentRunning", {}) {
  override get message() {
    return "Another Lens experiment is running in this workspace; stop it first"
  }
}

export class DuplicateVariants extends Schema.TaggedError<DuplicateVariants>()("DuplicateVariants", {}) {
  override get message() {
    return "Variant names must differ"
  }
  get details() {
    return [{ path: "body.variants", message: "duplicate variant name" }] as const
  }
}

/** The workspace used up its Lens credits. */
export class OutOfCredits extends Schema.TaggedError<OutOfCredits>()("OutOfCredits", {}) {
  override get message() {
    return "This workspace has no Lens credits left; an admin can add credits (POST /hub/v1/workspaces/{workspaceId}/lens/credits)"
  }
}

export type LensError =
  | ThreadNotFound
  | ThreadOfAnotherUser
  | ThreadOfAnotherWorkspace
  | LensAnswerNotFound
  | LensProposalNotFound
  | ProposalDecided
  | LensBotNotFound
  | LensExperimentNotFound
  | ExperimentRunning
  | DuplicateVariants
  | OutOfCredits
