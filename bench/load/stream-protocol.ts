/** What the stream-fanout scenario and its subscriber processes (stream-clients.ts) share. */

export interface ClientsConfig {
  readonly protocol: "atrium" | "uws" | "socketio"
  /** The socket URL (baselines). */
  readonly url?: string
  readonly count: number
  /** Atrium: each socket first gets its own ticket (valid 30 s), as a browser would. */
  readonly atrium?: { readonly origin: string; readonly token: string; readonly workspaceId: string }
}

/** The writer's marker inside an event: `"description":"<phase>|<n>|<sentAtMs>"` (phase w, m or e). */
export const MARKER = /"description":"([wme])\|(\d+)\|([0-9.]+)"/
