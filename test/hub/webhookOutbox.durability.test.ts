/**
 * The webhook outbox survives kill -9: a delivery acknowledged (202) while
 * the receiver is down is sent by the next server process on the same data,
 * signed with the secret shown at creation.
 */
import { spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import path from "node:path"
import { Effect, Exit, Layer, Scope } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { services, start } from "../../server/Atrium.ts"
import { fromEnv } from "../../facade/Config.ts"
import { verifyWebhook } from "../../actors/webhooks/StandardWebhooks.ts"
import { jsonClient, signUp } from "../support/atrium.ts"
import { eventually, startReceiver } from "./support/receiver.ts"
import { nodeCommand } from "../../tools/NodeBundle.ts"

const root = path.resolve(import.meta.dirname, "../..")
const dataDir = mkdtempSync(path.join(tmpdir(), "atrium-webhooks-"))
const cleanups: Array<() => unknown> = [() => rmSync(dataDir, { recursive: true, force: true })]
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

const startServer = async () => {
  const child = spawn(...nodeCommand("server/main.ts"), {
    cwd: root,
    env: {
      ...process.env,
      PORT: "0",
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      NATS_URL: "",
      ATRIUM_ALLOW_PRIVATE_URLS: "1",
      WEBHOOK_POLL_MS: "50"
    },
    stdio: ["ignore", "pipe", "pipe"]
  })
  cleanups.push(() => child.kill("SIGKILL"))
  let output = ""
  child.stdout.on("data", (chunk) => (output += chunk))
  child.stderr.on("data", (chunk) => (output += chunk))
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  const port = await eventually(() => /listening on 127\.0\.0\.1:(\d+)/.exec(output)?.[1], `the server to listen:\n${output}`, 90_000)
  return { origin: `http://127.0.0.1:${port}`, kill: () => (child.kill("SIGKILL"), exited) }
}

/** The restarted server runs in this process (quicker to start), on the killed one's data directory. */
const startInProcess = async () => {
  process.env.ATRIUM_ALLOW_PRIVATE_URLS = "1"
  process.env.WEBHOOK_POLL_MS = "50"
  const config = { ...fromEnv({}, []), host: "127.0.0.1", port: 0, dataDir }
  const scope = Effect.runSync(Scope.make())
  const server = await Effect.runPromise(
    Effect.flatMap(Layer.buildWithScope(services(config), scope), (built) =>
      start(config).pipe(Effect.provideContext(built), Scope.provide(scope))
    )
  )
  cleanups.push(async () => {
    await Effect.runPromise(server.close)
    await Effect.runPromise(Scope.close(scope, Exit.void))
  })
}

describe("webhook outbox durability", () => {
  it("a delivery acknowledged before kill -9 is sent after the restart", async () => {
    // A port nobody listens on yet: the first process's attempts are refused.
    const probe = await startReceiver()
    const port = probe.port
    await probe.close()

    const first = await startServer()
    const request = jsonClient(first.origin)
    const alice = await signUp({ request } as never, "Alice")
    const created = await request("POST", "/hub/v1/users/me/webhooks", {
      token: alice.token,
      body: { url: `http://127.0.0.1:${port}/hook` }
    })
    expect(created.status, created.text).toBe(201)
    const queued = await request("POST", `/hub/v1/users/me/webhooks/${created.body.id}/deliveries`, { token: alice.token, body: {} })
    expect(queued.status).toBe(202)
    // Killed once the first attempt has failed (a send cut short holds its lease for a while before it is due again).
    await eventually(async () => {
      const listed = await request("GET", "/hub/v1/users/me/webhooks", { token: alice.token })
      const entry = listed.body.items[0].recentDeliveries[0]
      return entry.attempts >= 1 && entry.status === "pending" ? entry : undefined
    }, "a failed first attempt")
    await first.kill()

    const receiver = await startReceiver(port)
    cleanups.push(() => receiver.close())
    await startInProcess()
    const [delivery] = await eventually(
      () => (receiver.received.length > 0 ? receiver.received : undefined),
      "the delivery after restart",
      30_000
    )
    const headers = {
      id: delivery!.headers["webhook-id"]!,
      timestamp: delivery!.headers["webhook-timestamp"]!,
      signature: delivery!.headers["webhook-signature"]!
    }
    expect(verifyWebhook(created.body.secret, headers, delivery!.body)).toBe(true)
    expect(headers.id).toBe(queued.body.messageId)
    expect(JSON.parse(delivery!.body)).toMatchObject({ type: "webhook.test", data: { webhookId: created.body.id } })
  }, 180_000)
})
