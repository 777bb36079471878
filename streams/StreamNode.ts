/** What the socket endpoints (raw uWS and Socket.IO) need from this node's live-update machinery (`PmStreams.ts`). */
import type { Viewer } from "../actors/pm/Visibility.ts"
import type { StreamSession, StreamTransport } from "./StreamSession.ts"

export type Authorization =
  | { readonly _tag: "Authorized"; readonly viewer: Viewer }
  | { readonly _tag: "Refused"; readonly code: number; readonly reason: string }

export interface StreamNode {
  /** Consumes the ticket and checks the holder still belongs to its workspace. Never rejects. */
  readonly authorize: (ticket: string) => Promise<Authorization>
  /** A connection of `viewer` opened: its session. */
  readonly open: (viewer: Viewer, transport: StreamTransport) => StreamSession
  /** The connection ended. */
  readonly closed: (session: StreamSession) => void
}
