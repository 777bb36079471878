/**
 * HTTP load: one closed-loop run at a fixed number of keep-alive connections,
 * driven by wrk when it is installed (a C load generator: on 2 cores it drives
 * a bare uWS hello to ~160k req/s, where one Node process tops out near 90k),
 * else by the worker-thread loader in `http-loader.ts`.
 */
import { spawnSync } from "node:child_process"
import type { HttpLoad, HttpResult } from "./HttpLoad.ts"

export type { GeneratedRequest, HttpLoad, HttpResult, RequestGenerator } from "./HttpLoad.ts"

export type Loader = "wrk" | "node"

let wrk: boolean | undefined
export const wrkInstalled = (): boolean => (wrk ??= spawnSync("wrk", ["--version"]).error === undefined)

/**
 * Runs one load; `onStart` is called when requests start flowing (after the
 * generator's own startup), so the server's CPU is read over the load alone.
 */
export const runHttpLoad = async (load: HttpLoad, loader: Loader, root: string, onStart?: () => void): Promise<HttpResult> => {
  if (loader === "wrk" && load.generate === undefined) {
    onStart?.() // wrk starts in a millisecond
    return (await import("./wrk.ts")).runWrk(load, root)
  }
  return (await import("./http-loader.ts")).runNodeLoader(load, root, onStart)
}

export const describeLoader = (loader: Loader): string =>
  loader === "wrk"
    ? "wrk, 1 thread (the server gets the other core), Lua script for headers, bodies and the JSON summary"
    : "bench/load/http-loader.ts: Node, worker threads (one per core), keep-alive sockets"
