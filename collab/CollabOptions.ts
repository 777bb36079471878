/**
 * Limits and cadences of the collab server, read from the environment when
 * its layer is built (all optional):
 *
 * | Variable | Default | Meaning |
 * |---|---|---|
 * | `COLLAB_MAX_MESSAGE_BYTES` | 16 MiB | largest WebSocket message accepted (a 1 MB paste is one message) |
 * | `COLLAB_MAX_BACKPRESSURE_BYTES` | 32 MiB | bytes queued for a slow reader before its socket is closed (it reconnects and resyncs); keep it above the largest document, whose full sync is one frame |
 * | `COLLAB_IDLE_SECONDS` | 120 | a socket silent this long is closed (pings are sent automatically) |
 * | `COLLAB_COMPACT_ROWS` | 500 | log rows of one document that trigger its compaction |
 * | `COLLAB_COMPACT_QUIET_MS` | 1000 | a due compaction waits until its document has had no update for this long (up to 20 × `COLLAB_COMPACT_ROWS` rows): it holds up the event loop for a while, which people typing would feel |
 * | `COLLAB_SWEEP_SECONDS` | 300 | how often crowded logs (e.g. left by a dead node) are compacted |
 * | `COLLAB_CHANGE_DEBOUNCE_MS` | 1000 | `LiveDocuments.onChange` listeners run at most this often per document |
 * | `COLLAB_COALESCE_MS` | 50 | a busy document's updates (and awareness) within this window reach readers as one merged frame; otherwise each goes at once (DocumentFanOut) |
 * | `COLLAB_SEND_BUDGET` | 100000 | socket writes per second (frames × connections) a document spends on frames sent at once; past it, or with a reader's socket backed up, the document is busy |
 */
export interface CollabOptions {
  readonly maxMessageBytes: number
  readonly maxBackpressureBytes: number
  readonly idleSeconds: number
  readonly compactRows: number
  readonly compactBytes: number
  readonly compactQuietMs: number
  readonly sweepSeconds: number
  readonly changeDebounceMs: number
  /** How often a node re-announces presence and checks convergence with peers (cluster only). */
  readonly heartbeatSeconds: number
  /** Fan-out window of a busy document (see DocumentFanOut); 0: one event-loop turn. */
  readonly coalesceMs: number
  /** Socket writes per second a document spends on frames sent at once before it counts as busy (see DocumentFanOut). */
  readonly sendBudget: number
}

export const defaultCollabOptions: CollabOptions = {
  maxMessageBytes: 16 * 1024 * 1024,
  maxBackpressureBytes: 32 * 1024 * 1024,
  idleSeconds: 120,
  compactRows: 500,
  compactBytes: 8 * 1024 * 1024,
  compactQuietMs: 1000,
  sweepSeconds: 300,
  changeDebounceMs: 1000,
  heartbeatSeconds: 10,
  coalesceMs: 50,
  sendBudget: 100_000
}

const read = (env: NodeJS.ProcessEnv, name: string, fallback: number, minimum: number): number => {
  const raw = env[name]
  if (raw === undefined || raw === "") return fallback
  const value = Number(raw)
  if (!Number.isFinite(value) || value < minimum) throw new Error(`${name} must be a number ≥ ${minimum}, got "${raw}"`)
  return value
}

export const collabOptionsFromEnv = (env: NodeJS.ProcessEnv = process.env): CollabOptions => ({
  maxMessageBytes: read(env, "COLLAB_MAX_MESSAGE_BYTES", defaultCollabOptions.maxMessageBytes, 64 * 1024),
  maxBackpressureBytes: read(env, "COLLAB_MAX_BACKPRESSURE_BYTES", defaultCollabOptions.maxBackpressureBytes, 16 * 1024),
  idleSeconds: read(env, "COLLAB_IDLE_SECONDS", defaultCollabOptions.idleSeconds, 8),
  compactRows: read(env, "COLLAB_COMPACT_ROWS", defaultCollabOptions.compactRows, 1),
  compactBytes: defaultCollabOptions.compactBytes,
  compactQuietMs: read(env, "COLLAB_COMPACT_QUIET_MS", defaultCollabOptions.compactQuietMs, 0),
  sweepSeconds: read(env, "COLLAB_SWEEP_SECONDS", defaultCollabOptions.sweepSeconds, 1),
  changeDebounceMs: read(env, "COLLAB_CHANGE_DEBOUNCE_MS", defaultCollabOptions.changeDebounceMs, 0),
  heartbeatSeconds: read(env, "COLLAB_HEARTBEAT_SECONDS", defaultCollabOptions.heartbeatSeconds, 1),
  coalesceMs: read(env, "COLLAB_COALESCE_MS", defaultCollabOptions.coalesceMs, 0),
  sendBudget: read(env, "COLLAB_SEND_BUDGET", defaultCollabOptions.sendBudget, 1)
})
