/** What the stream-fanout scenario and its subscriber processes (stream-clients.ts) share. */

export interface ClientsConfig {
  readonly protocol: "atrium" | "uws" | "socketio"
  /** The socket URL (baselines). */
  readonly url?: string
  readonly count: number
  /** Atrium: each socket first gets its own ticket (valid 30 s), as a browser would. */
  readonly atrium?: { readonly origin: string; readonly token: string; readonly workspaceId: string }
  /** Atrium: ask for batch frames (`&batch=1`): a busy workspace's events arrive several to a frame. */
  readonly batch?: boolean
}

/**
 * The writer's marker inside an event: `"description":"<phase>|<n>|<sentAtMs>"` (phase w, m or e).
 * Atrium's `task.updated` also carries the value it replaced (`"previous":{"description":…}`): that
 * one is an older event's marker (or the previous level's end marker) and must not count.
 */
export const MARKER = /(?<!"previous":\{)"description":"([wme])\|(\d+)\|([0-9.]+)"/

/** Every marker in a frame (a batch frame carries several events). */
export const markersIn = (text: string) => text.matchAll(new RegExp(MARKER.source, "g"))
