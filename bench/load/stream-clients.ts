/**
 * Subscribers of the stream-fanout scenario, in a child process: opens
 * `count` WebSockets of one protocol, subscribes each, prints `SC {"event":
 * "ready"}`, then records every event it receives. Events carry the writer's
 * marker in `description`: `<phase>|<n>|<sentAtMs>` (phase w = warm-up, m =
 * measured, e = end). For measured events it counts deliveries and records
 * the change→client latency (receive time − sentAtMs, one machine's clock).
 * After the first end marker (or SIGTERM) it prints `SC {"event":"result",…}`
 * and exits.
 *
 * Protocols: `atrium` (a ticket per socket from POST /pm/v1/ws/ticket, then
 * the raw socket and a subscribe frame to the workspace), `uws`
 * (the bare publish baseline: subscribed on open), `socketio` (the Engine.IO
 * v4 / Socket.IO v5 wire protocol spoken directly over `ws`, so every system
 * is read by the same lean client).
 *
 * Usage: node --import tsx stream-clients.ts <config.json path>
 */
import { readFileSync } from "node:fs"
import WebSocket from "ws"
import { Histogram } from "./Histogram.ts"
import { type ClientsConfig, markersIn } from "./stream-protocol.ts"

const now = () => performance.timeOrigin + performance.now()
const emit = (event: Record<string, unknown>) => process.stdout.write(`SC ${JSON.stringify(event)}\n`)

const config = JSON.parse(readFileSync(process.argv[2]!, "utf8")) as ClientsConfig
const histogram = new Histogram()
let delivered = 0
let firstAt = Number.POSITIVE_INFINITY
let lastAt = 0
let dropped = 0
let ended = false
const sockets: Array<WebSocket> = []

const onText = (text: string) => {
  const at = now()
  for (const match of markersIn(text)) {
    if (match[1] === "m") {
      delivered++
      if (at < firstAt) firstAt = at
      lastAt = at
      histogram.record(Math.max(0, (at - Number(match[3])) * 1e6))
    } else if (match[1] === "e" && !ended) {
      ended = true
      setTimeout(finish, 1000)
    }
  }
}

let finished = false
function finish() {
  if (finished) return
  finished = true
  emit({ event: "result", delivered, firstAt, lastAt, dropped, histogram: histogram.toData() })
  for (const socket of sockets) socket.terminate()
  process.exit(0)
}
process.on("SIGTERM", finish)

const open = (url: string) =>
  new Promise<void>((resolve, reject) => {
    const socket = new WebSocket(url, { perMessageDeflate: false })
    sockets.push(socket)
    let ready = false
    const done = () => {
      if (ready) return
      ready = true
      resolve()
    }
    const fail = (error: Error) => {
      // A socket that never subscribed is not one of the subscribers.
      sockets.splice(sockets.indexOf(socket) >>> 0, 1)
      socket.terminate()
      reject(error)
    }
    socket.on("error", (error) => (ready ? undefined : fail(error)))
    socket.on("close", (code: number, reason: Buffer) => {
      if (ready && !finished) dropped++
      if (!ready) fail(new Error(`closed before subscribing (${code} ${reason.toString()}): ${url}`))
    })
    socket.on("open", () => {
      if (config.protocol === "atrium")
        socket.send(JSON.stringify({ type: "subscribe", scope: "workspace", id: config.atrium!.workspaceId }))
      if (config.protocol === "uws") done()
    })
    socket.on("message", (data: Buffer) => {
      const text = data.toString("utf8")
      if (ready) return onText(text)
      if (config.protocol === "atrium") {
        if (text.includes('"type":"subscribed"')) done()
        else if (text.includes('"type":"error"')) fail(new Error(text))
      } else if (config.protocol === "socketio") {
        if (text.startsWith("0")) socket.send("40")
        else if (text.startsWith("40")) done()
        else if (text.startsWith("44")) fail(new Error(text))
      }
    })
    if (config.protocol === "socketio") {
      // Engine.IO heartbeat: answer the server's pings ("2") with pongs ("3").
      socket.on("message", (data: Buffer) => {
        if (data.length === 1 && data[0] === 0x32) socket.send("3")
      })
    }
  })

const ticketUrl = async () => {
  const { origin, token, workspaceId } = config.atrium!
  const response = await fetch(`${origin}/pm/v1/ws/ticket`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ workspaceId })
  })
  const body = (await response.json()) as { url?: string }
  if (response.status !== 201 || body.url === undefined) throw new Error(`ticket: ${response.status} ${JSON.stringify(body)}`)
  return body.url
}

/** A socket closed before it subscribed (e.g. 4503 "retry" from a busy server) is opened again, as a client would. */
const openRetrying = async (attempt = 1): Promise<void> => {
  try {
    await open(config.protocol === "atrium" ? `${await ticketUrl()}${config.batch ? "&batch=1" : ""}` : config.url!)
  } catch (error) {
    if (attempt >= 3) throw error
    await new Promise((resolve) => setTimeout(resolve, 200 * attempt))
    await openRetrying(attempt + 1)
  }
}

const CONCURRENCY = 32
let next = 0
try {
  await Promise.all(
    Array.from({ length: Math.min(CONCURRENCY, config.count) }, async () => {
      while (next < config.count) {
        next++
        await openRetrying()
      }
    })
  )
} catch (error) {
  emit({ event: "error", message: error instanceof Error ? error.message : String(error) })
  process.exit(1)
}
emit({ event: "ready", connected: sockets.length })
