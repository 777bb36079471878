/** Tunables of the pm live streams, read from the environment beside AtriumConfig. */
import { DEFAULT_RETENTION } from "../actors/pm/ChangeLogLive.ts"

export interface StreamOptions {
  /** Events kept per workspace in the log; a client further behind gets a resync notice. */
  readonly retention: number
  /**
   * Bytes that may queue for one socket. Past it the socket is closed (never
   * silently skipped): a client that cannot keep up reconnects with its
   * `lastSeq` and catches up from the log.
   */
  readonly maxBackpressure: number
  /** At most this many missed events (and half of `maxBackpressure` in bytes) are replayed on (re)subscription; more means resync. */
  readonly maxReplay: number
  /** How often tracked workspaces are compared with the log, to catch batches lost between nodes. */
  readonly sweepMillis: number
  /** How often open connections' access (membership, role, private spaces) is re-checked. */
  readonly revalidateMillis: number
  /** Fan-out window of a busy workspace (see StreamBatcher): batch frames coalesce in it, plain frames leave together. */
  readonly coalesceMillis: number
}

const integer = (name: string, fallback: number, env: NodeJS.ProcessEnv, minimum = 1): number => {
  const raw = env[name]
  if (raw === undefined || raw === "") return fallback
  const value = Number(raw)
  if (!Number.isInteger(value) || value < minimum) throw new Error(`${name} must be an integer ≥ ${minimum}, got "${raw}"`)
  return value
}

export const streamOptionsFromEnv = (env: NodeJS.ProcessEnv = process.env): StreamOptions => ({
  retention: integer("PM_EVENT_RETENTION", DEFAULT_RETENTION, env),
  maxBackpressure: integer("PM_STREAM_MAX_BACKPRESSURE", 1024 * 1024, env),
  maxReplay: integer("PM_STREAM_MAX_REPLAY", 1000, env),
  sweepMillis: integer("PM_STREAM_SWEEP_MS", 2000, env),
  revalidateMillis: integer("PM_STREAM_REVALIDATE_MS", 10_000, env),
  coalesceMillis: integer("PM_STREAM_COALESCE_MS", 50, env, 0)
})
