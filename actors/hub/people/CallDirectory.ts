/**
 * The port through which tags, shares, views and reports learn about calls,
 * which belong to the hub's calls service: whether a call exists (and in
 * which workspace), and the facts of a workspace's calls in a period. The
 * calls service installs its implementation at startup with
 * `installCallDirectory`; until one is installed no call is known (every
 * call id answers 404, reports count nothing).
 */
import { Effect } from "effect"

export interface Speaker {
  readonly name: string
  /** The workspace user behind the speaker label, when known. */
  readonly userId: string | null
  readonly talkMs: number
}

export interface CallFacts {
  readonly callId: number
  readonly callUuid: string
  readonly workspaceId: string
  readonly name: string
  readonly createdAt: string
  /** Media/transcript length. */
  readonly durationMs: number
  readonly status: "queued" | "processing" | "ready" | "failed"
  readonly participantUserIds: ReadonlyArray<string>
  readonly attendeeEmails: ReadonlyArray<string>
  readonly speakers: ReadonlyArray<Speaker>
}

export interface CallDirectoryShape {
  readonly call: (callId: number) => Effect.Effect<CallFacts | undefined>
  /** Calls of the workspace created in [from, to) (epoch ms), oldest first. */
  readonly callsIn: (workspaceId: string, from: number, to: number) => Effect.Effect<ReadonlyArray<CallFacts>>
}

const noCalls: CallDirectoryShape = {
  call: () => Effect.succeed(undefined),
  callsIn: () => Effect.succeed([])
}

let installed: CallDirectoryShape = noCalls

/** Installs the calls service's directory (at startup; tests install a fake one). Returns the previous one. */
export const installCallDirectory = (directory: CallDirectoryShape): CallDirectoryShape => {
  const previous = installed
  installed = directory
  return previous
}

export const callDirectory = (): CallDirectoryShape => installed
