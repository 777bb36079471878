/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`,
 * server mode) against a running Atrium's `/mcp`. The suite's CLI needs
 * Node >= 22, so it runs on the Node 22 binary installed in
 * tools/mcp-conformance (`npm ci --prefix tools/mcp-conformance`, done by
 * .ci/run); without it this file is skipped with a loud warning.
 *
 * The suite sends no credentials, so a local proxy adds an API key to every
 * request. Each check's outcome is compared with test/mcp/conformance-baseline.json,
 * which lists the checks not passed yet with the reason: the test fails when
 * an unlisted check fails, and when a listed one starts passing (so the list
 * only shrinks).
 */
import { spawn } from "node:child_process"
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import http from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { signUp, startAtrium, type TestServer } from "../support/atrium.ts"

const root = path.resolve(import.meta.dirname, "../..")
const toolDir = path.join(root, "tools/mcp-conformance")
const node22 = path.join(toolDir, "node_modules/node/bin/node")
const cli = path.join(toolDir, "node_modules/@modelcontextprotocol/conformance/dist/index.js")
const installed = existsSync(node22) && existsSync(cli)
const baseline: Record<string, string> = JSON.parse(readFileSync(path.join(import.meta.dirname, "conformance-baseline.json"), "utf8"))

if (!installed) {
  console.warn(
    "\n!!! SKIPPED: the MCP conformance suite is not installed. Run `npm ci --prefix tools/mcp-conformance` (.ci/run does) to test /mcp against it.\n"
  )
}

/** Statuses that count as passed; anything else (FAILURE, WARNING) must be in the baseline. */
const PASSED = new Set(["SUCCESS", "INFO"])

interface Check {
  readonly id: string
  readonly status: string
  readonly errorMessage?: string
  readonly details?: { readonly message?: string }
}

let atrium: TestServer
let proxy: http.Server
let outDir: string

/** Forwards to Atrium with the API key added (the suite cannot send one); Host and Origin pass through unchanged. */
const credentialProxy = (target: string, apiKey: string) =>
  http.createServer((request, response) => {
    const upstream = http.request(
      `${target}${request.url}`,
      { method: request.method, headers: { ...request.headers, "x-api-key": apiKey } },
      (reply) => {
        response.writeHead(reply.statusCode ?? 502, reply.headers)
        reply.pipe(response)
      }
    )
    upstream.on("error", (error) => {
      response.writeHead(502)
      response.end(String(error))
    })
    request.pipe(upstream)
  })

/** Runs the CLI without blocking this process (Atrium answers it from here). */
const runSuite = (url: string) =>
  new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const child = spawn(node22, [cli, "server", "--url", url, "-o", outDir], { cwd: toolDir, env: { ...process.env, NO_COLOR: "1" } })
    let output = ""
    child.stdout.on("data", (chunk) => {
      output += chunk
    })
    child.stderr.on("data", (chunk) => {
      output += chunk
    })
    child.on("error", reject)
    child.on("close", (code) => resolve({ code, output }))
  })

/** `scenario/checkId` → the check, from every scenario's checks.json. */
const outcomes = () => {
  const checks = new Map<string, Check>()
  for (const folder of readdirSync(outDir)) {
    const scenario = /^server-(.+)-\d{4}-\d{2}-\d{2}T/.exec(folder)?.[1]
    const file = path.join(outDir, folder, "checks.json")
    if (scenario === undefined || !existsSync(file)) continue
    for (const check of JSON.parse(readFileSync(file, "utf8")) as Array<Check>) checks.set(`${scenario}/${check.id}`, check)
  }
  return checks
}

describe.skipIf(!installed)("MCP conformance suite", () => {
  beforeAll(async () => {
    process.env.MCP_ALLOWED_HOSTS = "localhost,127.0.0.1"
    atrium = await startAtrium()
    delete process.env.MCP_ALLOWED_HOSTS
    const owner = await signUp(atrium, "Conformance")
    const workspace = await atrium.request("POST", "/pm/v1/workspaces", { token: owner.token, body: { name: "Conformance" } })
    const key = await atrium.request("POST", "/pm/v1/api-keys", {
      token: owner.token,
      body: { workspaceId: workspace.body.id, name: "conformance", scopes: ["tasks:read", "tasks:write", "wiki:read", "wiki:write"] }
    })
    proxy = credentialProxy(atrium.origin, key.body.key)
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve))
    outDir = mkdtempSync(path.join(tmpdir(), "atrium-mcp-conformance-"))
  })

  afterAll(async () => {
    await new Promise((resolve) => proxy?.close(resolve))
    await atrium?.close()
    if (outDir) rmSync(outDir, { recursive: true, force: true })
  })

  it("passes every check not listed in the baseline, and none that is listed", async () => {
    const { port } = proxy.address() as AddressInfo
    const run = await runSuite(`http://127.0.0.1:${port}/mcp`)
    const checks = outcomes()
    expect(checks.size, `the suite produced no results:\n${run.output}`).toBeGreaterThan(0)
    const unexpected: Array<string> = []
    const nowPassing: Array<string> = []
    for (const [name, check] of checks) {
      const passed = PASSED.has(check.status)
      if (!passed && baseline[name] === undefined) {
        unexpected.push(`${name}: ${check.status} ${check.errorMessage ?? check.details?.message ?? ""}`)
      }
      if (passed && baseline[name] !== undefined) nowPassing.push(name)
    }
    const vanished = Object.keys(baseline).filter((name) => !checks.has(name))
    expect(unexpected, "checks failing that the baseline does not list").toEqual([])
    expect(nowPassing, "checks passing now: remove them from test/mcp/conformance-baseline.json").toEqual([])
    expect(vanished, "baseline entries the suite no longer runs").toEqual([])
    // The checks Atrium is expected to pass, by name, so a renamed scenario cannot slip by.
    for (const name of ["server-initialize/server-initialize", "ping/ping", "tools-list/tools-list", "resources-list/resources-list"]) {
      expect(checks.get(name)?.status, name).toBe("SUCCESS")
    }
  })
})
