/**
 * `npm start` as a user runs it: the entry prints its base URLs, seeds demo
 * data on request, drains on SIGTERM (exit 0) with every acknowledged change
 * kept, and refuses to run on uWebSockets.js's JavaScript fallback.
 */
import { spawn, spawnSync } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { nodeCommand } from "../tools/NodeBundle.ts"

const root = path.resolve(import.meta.dirname, "..")
const dataDir = mkdtempSync(path.join(tmpdir(), "atrium-main-"))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

/** `npm start`'s command (through tsx), or the run's prebuilt bundle of the same entry (a start without tsx's compiling). */
const startServer = (args: Array<string> = [], via: "tsx" | "bundle" = "tsx") => {
  const [node, argv] =
    via === "tsx" ? [process.execPath, ["--import", "tsx", "server/main.ts", ...args]] : nodeCommand("server/main.ts", args)
  const child = spawn(node, argv, {
    cwd: root,
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir, DATABASE_URL: "", NATS_URL: "" },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  child.stdout.on("data", (chunk) => (output += chunk))
  child.stderr.on("data", (chunk) => (output += chunk))
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)))
  const listening = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner:\n${output}`)), 150_000)
    const poll = setInterval(() => {
      const match = /listening on 127\.0\.0\.1:(\d+)/.exec(output)
      if (match && (!args.includes("--demo") || /API key|not empty/.test(output))) {
        clearInterval(poll)
        clearTimeout(timer)
        resolve(`http://127.0.0.1:${match[1]}`)
      }
    }, 50)
    child.on("exit", () => {
      clearInterval(poll)
      clearTimeout(timer)
      reject(new Error(`exited early:\n${output}`))
    })
  })
  return { child, listening, exited, output: () => output }
}

describe("npm start", () => {
  it("prints the four base URLs, seeds demo data, drains on SIGTERM and keeps what it acknowledged", async () => {
    const first = startServer(["--demo"])
    const origin = await first.listening
    for (const base of ["/hub", "/pm", "/wiki", "/feedback"]) expect(first.output()).toContain(`${base}/v1/openapi.json`)
    const key = /(atr_live_[\w-]+)/.exec(first.output())?.[1]
    expect(key).toBeDefined()
    expect((await fetch(`${origin}/healthz`)).status).toBe(200)
    const workspaces = (await (await fetch(`${origin}/hub/v1/workspaces`, { headers: { "x-api-key": key! } })).json()) as {
      items: Array<{ id: string }>
    }
    const workspaceId = workspaces.items[0].id
    const patched = await fetch(`${origin}/hub/v1/workspaces/${workspaceId}/settings`, {
      method: "PATCH",
      headers: { "x-api-key": key!, "content-type": "application/json" },
      body: JSON.stringify({ customPrompt: "kept across restarts" })
    })
    expect(patched.status).toBe(200)
    first.child.kill("SIGTERM")
    expect(await first.exited).toBe(0)
    expect(first.output()).toContain("draining")

    // The restart only reads back what the first run kept: started from the bundle, the first start covers tsx.
    const second = startServer(["--demo"], "bundle")
    const again = await second.listening
    expect(second.output()).toContain("not empty")
    const settings = (await (
      await fetch(`${again}/hub/v1/workspaces/${workspaceId}/settings`, { headers: { "x-api-key": key! } })
    ).json()) as { customPrompt: string }
    expect(settings.customPrompt).toBe("kept across restarts")
    second.child.kill("SIGTERM")
    expect(await second.exited).toBe(0)
  }, 300_000) // two starts with the demo seeded: a minute on a loaded 2-core machine, minutes on an overloaded one

  // Where the btc-vision build loads (glibc >= 2.38) the truffle fallback is never reached.
  const btcLoads = spawnSync(process.execPath, ["-e", "require('@btc-vision/uwebsockets.js')"], { cwd: root }).status === 0
  it.skipIf(btcLoads)("refuses to start on the uWebSockets.js JavaScript fallback, saying why", () => {
    const result = spawnSync(process.execPath, ["--import", "tsx", "-e", "await import('./facade/uws.ts')"], {
      cwd: root,
      env: { ...process.env, UWS_USE_FALLBACK: "1" },
      encoding: "utf8"
    })
    expect(result.status).not.toBe(0)
    expect(result.stderr).toMatch(/refuses to run on the JS fallback/)
  })
})
