/**
 * Two Atrium servers on one NATS and one PostgreSQL form one cluster: a user
 * registered through one logs in through the other, a workspace created on
 * one is changed on the other, and when one node drains its actors move to
 * the survivor with their state.
 */
import { spawn } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { signUp, startAtrium, type TestAtrium } from "./support/atrium.ts"
import { checkPostgres, createTestDatabase, type TestDatabase } from "./support/database.ts"
import { checkNats, natsUrl, testPrefix } from "./support/nats.ts"
import { nodeCommand } from "../tools/NodeBundle.ts"

const ready = (await checkPostgres("cluster (two Atrium nodes)")) && (await checkNats("cluster (two Atrium nodes)"))

describe.skipIf(!ready)("a two-node cluster on NATS + PostgreSQL", () => {
  let database: TestDatabase
  let a: TestAtrium
  let b: TestAtrium
  beforeAll(async () => {
    database = await createTestDatabase()
    const shared = { databaseUrl: database.url, natsUrl: natsUrl(), natsPrefix: testPrefix() }
    a = await startAtrium(shared)
    b = await startAtrium(shared)
  })
  afterAll(async () => {
    await b?.close()
    await a?.close()
    await database?.drop()
  })

  it("serves one set of users, workspaces and keys from either node", async () => {
    const owner = await signUp(a, "Owner")
    const viaB = await b.request("POST", "/pm/v1/auth/login", { body: { email: owner.email, password: owner.password } })
    expect(viaB.status).toBe(200)
    const created = await b.request("POST", "/pm/v1/workspaces", { token: viaB.body.accessToken, body: { name: "Clustered" } })
    expect(created.status).toBe(201)
    const id = created.body.id
    // Tokens minted by one node are honoured by the other (one signing key per cluster).
    const updated = await a.request("PATCH", `/hub/v1/workspaces/${id}/settings`, {
      token: viaB.body.accessToken,
      body: { customPrompt: "From A" }
    })
    expect(updated.status).toBe(200)
    expect((await b.request("GET", `/hub/v1/workspaces/${id}/settings`, { token: owner.token })).body.customPrompt).toBe("From A")
    const key = await a.request("POST", "/hub/v1/api-keys", {
      token: owner.token,
      body: { workspaceId: id, name: "k", scopes: ["workspaces:read"] }
    })
    expect((await b.request("GET", "/hub/v1/workspaces", { apiKey: key.body.key })).body.items[0].id).toBe(id)
    // Revocation through B is seen by A at once (the key's actor has one activation in the cluster).
    await b.request("DELETE", `/hub/v1/api-keys/${key.body.id}`, { token: owner.token })
    expect((await a.request("GET", "/hub/v1/workspaces", { apiKey: key.body.key })).status).toBe(401)
  })

  it("keeps serving every workspace after the other node drains", async () => {
    const owner = await signUp(a, "Survivor")
    const ids: Array<string> = []
    for (let i = 0; i < 12; i++) {
      const created = await a.request("POST", "/pm/v1/workspaces", { token: owner.token, body: { name: `W${i}` } })
      ids.push(created.body.id)
      await b.request("PATCH", `/pm/v1/workspaces/${created.body.id}`, { token: owner.token, body: { name: `Renamed ${i}` } })
    }
    await a.close()
    for (const [i, id] of ids.entries()) {
      const read = await b.request("GET", `/pm/v1/workspaces/${id}`, { token: owner.token })
      expect(read.status).toBe(200)
      expect(read.body.name).toBe(`Renamed ${i}`)
    }
    // Tokens and sessions also survive: the session actors moved too.
    expect((await b.request("GET", "/pm/v1/auth/me", { token: owner.token })).status).toBe(200)
  })
})

/** A node in a process of its own, so it can be killed without a drain. */
const spawnNode = (env: Record<string, string>) => {
  const root = path.resolve(import.meta.dirname, "..")
  const child = spawn(...nodeCommand("server/main.ts"), {
    cwd: root,
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", DATA_DIR: mkdtempSync(path.join(tmpdir(), "atrium-node-")), ...env },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  child.stdout.on("data", (chunk) => (output += chunk))
  child.stderr.on("data", (chunk) => (output += chunk))
  const listening = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner:\n${output}`)), 60_000)
    const poll = setInterval(() => {
      if (/listening on 127\.0\.0\.1:\d+/.test(output)) {
        clearInterval(poll)
        clearTimeout(timer)
        resolve()
      }
    }, 50)
    child.on("exit", () => {
      clearInterval(poll)
      clearTimeout(timer)
      reject(new Error(`exited early:\n${output}`))
    })
  })
  return { child, listening }
}

describe.skipIf(!ready)("task read models when a node dies", () => {
  it("a task actor moved to another node after its node is killed serves its state rebuilt from SQL", async () => {
    const database = await createTestDatabase()
    const shared = { databaseUrl: database.url, natsUrl: natsUrl(), natsPrefix: testPrefix() }
    const doomed = spawnNode({ DATABASE_URL: database.url, NATS_URL: shared.natsUrl, NATS_PREFIX: shared.natsPrefix })
    let survivor: TestAtrium | undefined
    try {
      await doomed.listening
      survivor = await startAtrium(shared)
      const b = survivor
      const owner = await signUp(b, "Keeper")
      const call = async (method: string, url: string, body?: unknown) => {
        // Shards of the killed node answer 503 until their leases lapse and the survivor takes them.
        for (let attempt = 0; ; attempt++) {
          const response = await b.request(
            method,
            `/pm/v1${url}`,
            body === undefined ? { token: owner.token } : { token: owner.token, body }
          )
          if (response.status !== 503 || attempt > 120) {
            if (response.status >= 300) throw new Error(`${method} ${url}: ${response.status} ${response.text}`)
            return response.body
          }
          await new Promise((resolve) => setTimeout(resolve, 250))
        }
      }
      const workspace = await call("POST", "/workspaces", { name: "Killed" })
      const space = await call("POST", `/workspaces/${workspace.id}/spaces`, { name: "S" })
      const list = await call("POST", `/spaces/${space.id}/lists`, { name: "L" })
      const tasks: Array<{ id: string }> = []
      for (let i = 0; i < 24; i++) tasks.push(await call("POST", `/lists/${list.id}/tasks`, { name: `t${i}` }))
      // Warm every task actor (about half of them live on the doomed node), then change each.
      for (const task of tasks) await call("GET", `/tasks/${task.id}`)
      for (const [i, task] of tasks.entries()) await call("PATCH", `/tasks/${task.id}`, { name: `changed ${i}`, priority: "high" })
      doomed.child.kill("SIGKILL")
      for (const [i, task] of tasks.entries()) {
        expect(await call("GET", `/tasks/${task.id}`)).toMatchObject({ id: task.id, name: `changed ${i}`, priority: "high" })
      }
    } finally {
      doomed.child.kill("SIGKILL")
      await survivor?.close()
      await database.drop()
    }
  })
})
