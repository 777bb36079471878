/** One HTTP load and its result: what http.ts runs and its two drivers (wrk.ts, http-loader.ts) share. */
import type { Latency, ProcessFigures } from "../Scenario.ts"

export interface HttpLoad {
  /** Absolute URL on loopback. */
  readonly url: string
  /** Paths (with queries) on `url`'s host taken in turn, one per request, instead of `url`'s own (e.g. 8 tasks to update). */
  readonly paths?: ReadonlyArray<string>
  readonly method: "GET" | "POST" | "PATCH"
  readonly headers?: Readonly<Record<string, string>>
  /** Request body; each `{n}` becomes a per-request counter (so created names are unique). */
  readonly body?: string
  readonly connections: number
  readonly durationSec: number
  /**
   * Requests made by each loader worker instead of `paths`/`body` (the Node loader only): a module whose
   * default export `(args, worker, workers) => (n) => GeneratedRequest` is imported by every worker thread,
   * so no list of paths crosses the process boundary and each worker takes its own part of the work.
   */
  readonly generate?: { readonly module: string; readonly args: unknown }
  /** wrk counts a response slower than this as a timeout (default 5 s; the Node loader waits for every response). */
  readonly timeoutSec?: number
}

export interface HttpResult {
  /** Responses with a 2xx/3xx status. */
  readonly ok: number
  /** Non-2xx/3xx responses plus connect, read, write errors and timeouts. */
  readonly errors: number
  readonly durationSec: number
  readonly latency: Latency
  /** Per worker (Node loader): requests it completed, in order `n = 1…ok+errors`. */
  readonly perWorker?: ReadonlyArray<{ readonly ok: number; readonly errors: number }>
  /** The load generator's own CPU. */
  readonly loadgen: ProcessFigures | undefined
}

/** One request a generator made (see `HttpLoad.generate`). */
export interface GeneratedRequest {
  readonly method: string
  readonly path: string
  readonly body?: string
}

export type RequestGenerator = (args: any, worker: number, workers: number) => (n: number) => GeneratedRequest
