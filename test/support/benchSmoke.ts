/**
 * The bench never rots: `npm run bench -- --smoke` runs every scenario for a
 * couple of seconds and each must produce its figures or say "not built".
 * Only that is asserted: never a timing. The scenarios are split over a few
 * test files (test/bench/smoke.*.test.ts) so the suite's workers share them.
 */
import { spawn } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, describe, expect, it } from "vitest"
import type { RunResults } from "../../bench/report/Results.ts"
import { scenarios } from "../../bench/scenarios/index.ts"
import { adminUrl, postgresAvailable, servicesRequired } from "./database.ts"
import { natsAvailable, natsUrl } from "./nats.ts"

const ROOT = fileURLToPath(new URL("../..", import.meta.url))

/**
 * Which scenarios each smoke file runs: a scenario taking a minute or more gets a file (or shares one), so the
 * suite's workers run them side by side; the last file runs every scenario no other file claims, a new one included.
 */
const FILES: ReadonlyArray<(name: string) => boolean> = [
  (name) => name === "rest",
  (name) => name.startsWith("collab-"),
  (name) => name.startsWith("cluster"),
  (name) => ["stream-fanout", "hub-processing", "lens-eval"].includes(name)
]

/** How many smoke files there are (test/bench/smoke.*.test.ts). */
export const SMOKE_FILES = FILES.length + 1

/** The scenarios of smoke file `index` (0 … SMOKE_FILES − 1), in the bench's order. */
export const smokeScenarios = (index: number): ReadonlyArray<string> =>
  scenarios.map((s) => s.name).filter((name) => (index < FILES.length ? FILES[index](name) : !FILES.some((claims) => claims(name))))

const run = (args: ReadonlyArray<string>, env: Record<string, string>) =>
  new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "bench/run.ts", ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let output = ""
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()))
    child.on("exit", (code) => resolve({ code, output }))
  })

export const describeSmoke = (index: number) => {
  const SCENARIOS = smokeScenarios(index)
  describe(`bench --smoke ${SCENARIOS.join(" ")}`, () => {
    const out = mkdtempSync(join(tmpdir(), "atrium-bench-smoke-"))
    afterAll(() => rmSync(out, { recursive: true, force: true }))

    // Every scenario at its smallest level, one after another (with servers to start): minutes, not seconds.
    it("runs each scenario: each produces its figures or says not built", { timeout: 900_000 }, async () => {
      const nats = await natsAvailable()
      if (!nats && servicesRequired()) throw new Error(`NATS is unreachable at ${natsUrl()} and ATRIUM_REQUIRE_SERVICES=1`)
      const pg = await postgresAvailable()
      if (!pg && servicesRequired()) throw new Error(`PostgreSQL is unreachable at ${adminUrl()} and ATRIUM_REQUIRE_SERVICES=1`)

      const { code, output } = await run([...SCENARIOS, "--smoke", "--out", out], {
        BENCH_NATS_URL: natsUrl(),
        BENCH_DATABASE_URL: adminUrl()
      })
      expect(existsSync(join(out, "results.json")), `the runner wrote no results:\n${output.slice(-3000)}`).toBe(true)
      const results = JSON.parse(readFileSync(join(out, "results.json"), "utf8")) as RunResults

      expect(results.mode).toBe("smoke")
      expect(results.scenarios.map((s) => s.name)).toEqual(SCENARIOS)
      for (const scenario of results.scenarios) {
        if (scenario.status === "not built") {
          expect(scenario.reason, scenario.name).toMatch(/not built/)
          continue
        }
        expect(scenario.status, `${scenario.name}: ${scenario.reason ?? ""}`).toBe("ok")
        expect(scenario.groups.length, scenario.name).toBeGreaterThan(0)
        for (const group of scenario.groups) {
          for (const series of group.series) {
            const where = `${scenario.name} / ${group.name} / ${series.label}: ${series.note ?? ""}`
            // Without NATS (and without ATRIUM_REQUIRE_SERVICES) the NATS series may say so; nothing else may fail.
            if (!nats && series.status === "failed" && /NATS unreachable/.test(series.note ?? "")) continue
            // Likewise the rest scenario's PostgreSQL series without PostgreSQL.
            if (!pg && series.status === "failed" && /PostgreSQL unreachable/.test(series.note ?? "")) continue
            expect(["ok", "not built"], where).toContain(series.status)
            if (series.status === "not built") continue
            expect(series.points.length, where).toBeGreaterThan(0)
            for (const point of series.points) {
              expect(point.throughput, where).toBeGreaterThan(0)
              expect(point.latency.p50, where).toBeGreaterThan(0)
              expect(point.ops, where).toBeGreaterThan(0)
            }
          }
        }
      }
      // The report renders: Markdown, and a chart per measured group.
      const report = readFileSync(join(out, "report.md"), "utf8")
      for (const name of SCENARIOS) expect(report).toContain(`## ${name}`)
      const measured = results.scenarios.flatMap((s) => s.groups).filter((g) => g.series.some((s) => s.status === "ok"))
      if (measured.length > 0) expect(readdirSync(join(out, "charts")).filter((f) => f.endsWith(".svg")).length).toBeGreaterThan(0)
      // Exit code last: the assertions above say what went wrong, this says the runner agreed.
      if (nats && pg) expect(code, output.slice(-3000)).toBe(0)
    })
  })
}
