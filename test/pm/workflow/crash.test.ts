/**
 * kill -9 during webhook delivery and during an import: after a restart on
 * the same data directory, every outbox entry reaches the receiver (accepted
 * once per webhook-id) and the import finishes with every row imported once.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:http"
import { tmpdir } from "node:os"
import path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { type CollabProcess, freePort, signUpAt, startCollabProcess } from "../../support/collabProcess.ts"
import { eventually } from "./support.ts"

const dataDir = mkdtempSync(path.join(tmpdir(), "atrium-pmops-crash-"))
let node: CollabProcess | undefined
afterAll(async () => {
  await node?.kill()
  rmSync(dataDir, { recursive: true, force: true })
})

const env = async () => ({
  PORT: String(await freePort()),
  DATA_DIR: dataDir,
  ATRIUM_ALLOW_PRIVATE_URLS: "1",
  PM_WEBHOOK_LEASE_SECONDS: "2",
  PM_WEBHOOK_POLL_MS: "20",
  PM_WEBHOOK_RETRY_BASE_MS: "20",
  PM_WEBHOOK_RETRY_CAP_MS: "200",
  PM_BULK_LEASE_SECONDS: "2",
  PM_BULK_POLL_MS: "20"
})

describe("kill -9", () => {
  it("loses no webhook delivery and imports no row twice", async () => {
    // The receiver holds its first answers back, so deliveries are in flight when the node dies.
    let holding = true
    const held: Array<() => void> = []
    const accepted = new Set<string>()
    const server = createServer((req, res) => {
      req.resume()
      req.on("end", () => {
        if (holding) {
          held.push(() => res.destroy())
          return
        }
        accepted.add(String(req.headers["webhook-id"]))
        res.writeHead(200).end()
      })
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`
    try {
      node = await startCollabProcess(await env())
      const user = await signUpAt(node.origin, "Crash")
      const call = async (method: string, urlPath: string, body?: unknown) => {
        const response = await fetch(`${node!.origin}/pm${urlPath}`, {
          method,
          headers: { authorization: `Bearer ${user.token}`, "content-type": "application/json" },
          ...(body === undefined ? {} : { body: JSON.stringify(body) })
        })
        const text = await response.text()
        if (response.status >= 300) throw new Error(`${method} ${urlPath}: ${response.status} ${text}`)
        return text ? JSON.parse(text) : undefined
      }
      const ws = await call("POST", "/v1/workspaces", { name: "Crashy" })
      const space = await call("POST", `/v1/workspaces/${ws.id}/spaces`, { name: "S" })
      const list = await call("POST", `/v1/spaces/${space.id}/lists`, { name: "L" })
      const hook = await call("POST", `/v1/workspaces/${ws.id}/webhooks`, { url, eventTypes: ["task.created"] })
      for (let i = 1; i <= 5; i++) await call("POST", `/v1/lists/${list.id}/tasks`, { name: `Hooked ${i}` })
      const rows = 150
      const csv = ["Name", ...Array.from({ length: rows }, (_, i) => `Imported ${i + 1}`)].join("\n")
      const job = await call("POST", `/v1/lists/${list.id}/imports/csv`, { csv })
      await eventually(() => (held.length > 0 ? true : undefined))
      await eventually(async () => ((await call("GET", `/v1/imports/${job.id}`)).processed > 0 ? true : undefined))
      await node.kill()
      for (const drop of held) drop()
      holding = false

      node = await startCollabProcess(await env())
      const done = await eventually(async () => {
        const got = await call("GET", `/v1/imports/${job.id}`)
        return got.status === "completed" ? got : undefined
      }, 60_000)
      expect(done).toMatchObject({ total: rows, succeeded: rows, failed: 0 })
      const tasks = (await call("GET", `/v1/lists/${list.id}/tasks?limit=200`)).items as Array<{ name: string }>
      const imported = tasks.filter((t) => t.name.startsWith("Imported ")).map((t) => t.name)
      expect(new Set(imported).size).toBe(rows)
      expect(imported).toHaveLength(rows)

      // Every task.created (5 made by hand, 150 imported) reached the receiver, accepted once per webhook-id.
      await eventually(() => (accepted.size >= 5 + rows ? true : undefined), 60_000)
      const deliveries = (await call("GET", `/v1/workspaces/${ws.id}/webhooks/${hook.id}/deliveries?limit=200`)).items as Array<{
        id: string
        status: string
      }>
      expect(deliveries).toHaveLength(5 + rows)
      await eventually(async () => {
        const now = (await call("GET", `/v1/workspaces/${ws.id}/webhooks/${hook.id}/deliveries?limit=200`)).items as Array<{
          status: string
        }>
        return now.every((d) => d.status === "delivered") ? true : undefined
      })
      expect(new Set(deliveries.map((d) => d.id))).toEqual(accepted)
    } finally {
      server.closeAllConnections()
      server.close()
    }
  })
})
