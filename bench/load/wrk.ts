/**
 * The wrk wrapper. A generated Lua script sets the method, headers and body
 * (a `request()` function only when bodies or paths vary) and prints wrk's summary
 * as one JSON line from `done()`, latencies in µs.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describeExit, runMeasured } from "../process.ts"
import { DISTRIBUTION } from "./Histogram.ts"
import type { HttpLoad, HttpResult } from "./HttpLoad.ts"

const THREADS = 1

/** A Lua long-bracket string literal: no escaping needed. */
const lua = (text: string) => `[==[${text}]==]`

const script = (load: HttpLoad): string => {
  const lines = [`wrk.method = ${lua(load.method)}`]
  for (const [name, value] of Object.entries(load.headers ?? {})) lines.push(`wrk.headers[ ${lua(name)} ] = ${lua(value)}`) // spaces: "[[" would open a string
  const body = load.body ?? ""
  const varies = body.includes("{n}")
  if (varies || load.paths?.length) {
    // A request per call: `{n}` in the body becomes "<thread>-<counter>", paths are taken in turn.
    lines.push(
      `local parts = { ${body.split("{n}").map(lua).join(", ")} }`,
      `local paths = { ${(load.paths ?? []).map(lua).join(", ")} }`,
      `local threads, n = 0, 0`,
      `function setup(thread) threads = threads + 1; thread:set("tid", threads) end`,
      `function request()`,
      `  n = n + 1`,
      `  local path = #paths > 0 and paths[(n % #paths) + 1] or nil`,
      `  local body = ${varies ? `table.concat(parts, (tid or 0) .. "-" .. n)` : body === "" ? "nil" : "parts[1]"}`,
      `  return wrk.format(nil, path, nil, body)`,
      `end`
    )
  } else if (body !== "") {
    lines.push(`wrk.body = ${lua(body)}`)
  }
  const percentiles = DISTRIBUTION.join(", ")
  lines.push(
    `function done(summary, latency, requests)`,
    `  local e = summary.errors`,
    `  io.write(string.format('WRK_JSON {"requests":%d,"durationUs":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d,"mean":%f,"max":%f,"p":[',`,
    `    summary.requests, summary.duration, e.connect, e.read, e.write, e.status, e.timeout, latency.mean, latency.max))`,
    `  for i, p in ipairs({ ${percentiles} }) do`,
    `    io.write(string.format('%s[%s,%.1f]', i > 1 and ',' or '', p, latency:percentile(p)))`,
    `  end`,
    `  io.write(']}\\n')`,
    `end`
  )
  return lines.join("\n") + "\n"
}

interface WrkSummary {
  readonly requests: number
  readonly durationUs: number
  readonly connect: number
  readonly read: number
  readonly write: number
  readonly status: number
  readonly timeout: number
  readonly mean: number
  readonly max: number
  readonly p: ReadonlyArray<readonly [number, number]>
}

export const runWrk = async (load: HttpLoad, root: string): Promise<HttpResult> => {
  const dir = mkdtempSync(join(tmpdir(), "atrium-wrk-"))
  try {
    const file = join(dir, "load.lua")
    writeFileSync(file, script(load))
    const threads = Math.min(THREADS, load.connections)
    const args = [
      `-t${threads}`,
      `-c${load.connections}`,
      `-d${Math.max(1, Math.round(load.durationSec))}s`,
      "--timeout",
      `${load.timeoutSec ?? 5}s`,
      "-s",
      file,
      load.url
    ]
    const completed = await runMeasured("wrk", args, { cwd: root }, `wrk ${threads} thread`)
    const line = completed.output.split("\n").find((l) => l.startsWith("WRK_JSON "))
    if (completed.code !== 0 || !line) throw describeExit(`wrk ${args.join(" ")}`, completed)
    const s = JSON.parse(line.slice("WRK_JSON ".length)) as WrkSummary
    const at = (p: number) => s.p.find(([q]) => q === p)?.[1] ?? 0
    const durationSec = s.durationUs / 1e6
    return {
      ok: s.requests - s.status,
      errors: s.status + s.connect + s.read + s.write + s.timeout,
      durationSec,
      latency: { p50: at(50), p90: at(90), p99: at(99), p999: at(99.9), max: s.max, mean: s.mean, distribution: s.p },
      loadgen: completed.usage
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
