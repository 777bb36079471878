/**
 * Shared pieces of the workflow tests (webhooks, automations, forms, imports,
 * whiteboards): a workspace with a space and a list, a JSON caller, and a
 * local receiver that records what it was sent.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import type { TestAtrium } from "../../support/atrium.ts"
import { expectStatus, setupWorkspace } from "../work/support/pmAtrium.ts"

export const caller =
  (atrium: TestAtrium, token: string) =>
  async (method: string, path: string, body?: unknown, status = method === "POST" ? 201 : 200) =>
    expectStatus(await atrium.request(method as never, `/pm${path}`, { token, ...(body !== undefined ? { body } : {}) }), status)

/** A workspace (owner, member, viewer, outsider) with a space and a list. */
export const workspaceWithList = async (atrium: TestAtrium) => {
  const people = await setupWorkspace(atrium)
  const call = caller(atrium, people.owner.token)
  const space = await call("POST", `/v1/workspaces/${people.workspaceId}/spaces`, { name: "Engineering" })
  const list = await call("POST", `/v1/spaces/${space.id}/lists`, { name: "Backlog" })
  return { ...people, call, spaceId: space.id as string, listId: list.id as string }
}

export interface Received {
  readonly headers: IncomingHttpHeaders
  readonly body: string
  readonly path: string
}

/** A local HTTP receiver; `answer` decides each reply's status (default 200). */
export const receiver = async (answer: (request: Received, index: number) => number = () => 200) => {
  const received: Array<Received & { status: number }> = []
  const server: Server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c) => chunks.push(c))
    req.on("end", () => {
      const request = { headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), path: req.url ?? "" }
      const status = answer(request, received.length)
      received.push({ ...request, status })
      res.writeHead(status).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { url, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

/** Polls `check` until it returns a value (not undefined), or fails after `timeoutMs`. */
export const eventually = async <A>(check: () => Promise<A | undefined> | A | undefined, timeoutMs = 15_000): Promise<A> => {
  const until = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value !== undefined) return value
    if (Date.now() > until) throw new Error("condition not met in time")
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}
