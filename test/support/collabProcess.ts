/** Starting and killing `collabNode.ts` children for the collab durability and cluster tests. */
import { type ChildProcess, spawn } from "node:child_process"
import { createServer } from "node:net"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { nodeCommand } from "../../tools/NodeBundle.ts"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..")

export interface CollabProcess {
  readonly port: number
  readonly origin: string
  readonly collabUrl: string
  readonly child: ChildProcess
  /** SIGKILL, and wait for the exit. */
  readonly kill: () => Promise<void>
  /** SIGTERM, and wait for the exit. */
  readonly stop: () => Promise<void>
}

/** A port free right now (the child binds it a moment later). */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      server.close(() => resolve(port))
    })
  })

export const startCollabProcess = (
  env: Record<string, string>,
  timeoutMs = 120_000,
  nodeArgs: ReadonlyArray<string> = []
): Promise<CollabProcess> =>
  new Promise((resolve, reject) => {
    const child = spawn(...nodeCommand("test/support/collabNode.ts", [], nodeArgs), {
      cwd: root,
      env: { ...process.env, HOST: "127.0.0.1", ...env },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let output = ""
    const exited = new Promise<void>((done) => child.once("exit", () => done()))
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      reject(new Error(`collab node did not start in time:\n${output.slice(-4000)}`))
    }, timeoutMs)
    child.stderr!.on("data", (chunk: Buffer) => {
      output += chunk.toString()
    })
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString()
      const match = /listening (\d+)/.exec(output)
      if (match === null) return
      clearTimeout(timer)
      const port = Number(match[1])
      resolve({
        port,
        origin: `http://127.0.0.1:${port}`,
        collabUrl: `ws://127.0.0.1:${port}/wiki/v1/collab`,
        child,
        kill: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL")
          await exited
        },
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM")
          await exited
        }
      })
    })
    child.once("exit", (code, signal) => {
      clearTimeout(timer)
      reject(new Error(`collab node exited early (${code ?? signal}):\n${output.slice(-4000)}`))
    })
  })

/** Registers and logs in a user against a running node (its own HTTP API). */
export const signUpAt = async (origin: string, name: string) => {
  const email = `${name.toLowerCase()}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.com`
  const password = "correct horse battery"
  const post = (urlPath: string, body: unknown) =>
    fetch(origin + urlPath, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
  const registered = await post("/pm/v1/auth/register", { email, password, name })
  if (registered.status !== 201) throw new Error(`register failed: ${await registered.text()}`)
  const user = (await registered.json()) as { user: { id: string } }
  const login = await post("/pm/v1/auth/login", { email, password })
  if (login.status !== 200) throw new Error(`login failed: ${await login.text()}`)
  const tokens = (await login.json()) as { accessToken: string }
  return { userId: user.user.id, token: tokens.accessToken }
}
