/**
 * A body over the limit gets its 413 delivered: the client reads the answer
 * (no EPIPE / reset while it is still sending), with one `Connection`
 * header, and `Expect: 100-continue` is answered 413 without the body.
 */
import { connect } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { signUp, startAtrium, type TestServer } from "./support/atrium.ts"

const LIMIT = 64 * 1024
let atrium: TestServer
let token: string
beforeAll(async () => {
  atrium = await startAtrium({ bodyLimitBytes: LIMIT })
  token = (await signUp(atrium, "Sender")).token
})
afterAll(async () => {
  await atrium?.close()
})

/** Sends `head` (and optionally `body`) on a raw socket; resolves with everything the server wrote until it closed or went quiet. */
const raw = (head: string, body?: Buffer, quietMillis = 1500) =>
  new Promise<string>((resolve, reject) => {
    const socket = connect(atrium.port, "127.0.0.1")
    let received = ""
    let timer: NodeJS.Timeout | undefined
    const finish = () => {
      clearTimeout(timer)
      socket.destroy()
      resolve(received)
    }
    const quiet = () => {
      clearTimeout(timer)
      timer = setTimeout(finish, quietMillis)
    }
    socket.on("data", (chunk) => {
      received += chunk.toString("latin1")
      quiet()
    })
    socket.on("close", finish)
    socket.on("error", (error) => (received === "" ? reject(error) : finish()))
    socket.write(head)
    if (body) socket.write(body)
    quiet()
  })

describe("request bodies over the limit", () => {
  it("Node's fetch reads the 413 every time, bodies declared with Content-Length", async () => {
    const body = JSON.stringify({ name: "x".repeat(LIMIT * 32) })
    const statuses: Array<number | string> = []
    for (let attempt = 0; attempt < 30; attempt++) {
      try {
        const response = await fetch(`${atrium.origin}/pm/v1/workspaces`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
          body
        })
        const envelope = (await response.json()) as { error: { code: string } }
        statuses.push(`${response.status} ${envelope.error.code}`)
      } catch (error) {
        statuses.push(`${(error as Error).message}: ${String((error as { cause?: unknown }).cause)}`)
      }
    }
    expect(statuses).toEqual(Array.from({ length: 30 }, () => "413 too_large"))
  })

  it("Node's fetch reads the 413 every time, streamed (chunked) bodies", async () => {
    const statuses: Array<number | string> = []
    for (let attempt = 0; attempt < 10; attempt++) {
      const chunk = new TextEncoder().encode("x".repeat(16 * 1024))
      let sent = 0
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent++ < 16) controller.enqueue(chunk)
          else controller.close()
        }
      })
      try {
        const response = await fetch(`${atrium.origin}/pm/v1/workspaces`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
          body: stream,
          duplex: "half"
        } as RequestInit)
        statuses.push(response.status)
        await response.text()
      } catch (error) {
        statuses.push(`${(error as Error).message}: ${String((error as { cause?: unknown }).cause)}`)
      }
    }
    expect(statuses).toEqual(Array.from({ length: 10 }, () => 413))
  })

  it("answers with one Connection header and a complete envelope", async () => {
    const body = Buffer.alloc(LIMIT + 1, "x")
    const answer = await raw(
      `POST /pm/v1/workspaces HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
      body
    )
    expect(answer).toMatch(/^HTTP\/1\.1 413 /)
    expect(answer.match(/^connection:/gim)).toHaveLength(1)
    const envelope = JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4))
    expect(envelope.error.code).toBe("too_large")
  })

  it("answers Expect: 100-continue with 413 without reading the body", async () => {
    // No body is sent: the final answer must come anyway. (uWS itself writes an
    // interim "100 Continue" before any handler runs; the 413 follows it at once.)
    const answer = await raw(
      `POST /pm/v1/workspaces HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: ${LIMIT * 16}\r\n\r\n`
    )
    const final = answer.replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, "")
    expect(final).toMatch(/^HTTP\/1\.1 413 /)
    expect(JSON.parse(final.slice(final.indexOf("\r\n\r\n") + 4)).error.code).toBe("too_large")
    expect(final.match(/^connection:/gim)).toHaveLength(1)
  })

  it("still serves bodies within the limit on the same kind of connection", async () => {
    const response = await atrium.request("POST", "/pm/v1/workspaces", { token, body: { name: "Fits" } })
    expect(response.status).toBe(201)
  })
})
