/**
 * Clients of the collab scenarios, in a child process: `count` raw WebSockets
 * speaking Hocuspocus's protocol by hand (lean: no provider per socket), so
 * Atrium and stock Hocuspocus are driven by the same code.
 *
 * Every socket authenticates (token) and syncs (SyncStep1; it answers the
 * server's SyncStep1 with its own SyncStep2); ready = its SyncStep2 arrived.
 *
 * Modes (config.mode):
 * - `readers`: count the writer's markers `MK<phase>|<n>|<sentAtMs>|` (phase
 *   w warm-up, m measured, e end) in the document updates received (a merged
 *   update carries several) and record marker → receive latency; after the
 *   first end marker report.
 * - `writers`: each socket keeps a Y.Doc and, for warm-up then the measured
 *   window, types `window` updates in flight (a marker string each), one
 *   more on each acknowledgement (SyncStatus); records send → ack latency.
 *   `intervalMs` > 0 instead types one update per interval (idle editors).
 * - `opens`: one socket at a time opens `docs[0]`, times connect → SyncStep2
 *   received (not applied: the server's part only), closes; `count` times.
 * - `storm`: on SIGUSR2, opens all `count` sockets at once
 *   (no handshake limit), records each one's connect → SyncStep2 and the
 *   time until the last is synced, then closes them (`hold`: keeps them
 *   open, idle, until stopped).
 *
 * Prints `CC {"event":"ready"}` when every socket is synced, then
 * `CC {"event":"result",…}`.
 *
 * Usage: node --import tsx collab-clients.ts <config.json path>
 */
import { readFileSync } from "node:fs"
import * as decoding from "lib0/decoding"
import * as encoding from "lib0/encoding"
import WebSocket from "ws"
import * as Y from "yjs"
import { Histogram } from "./Histogram.ts"

export interface CollabClientsConfig {
  readonly mode: "readers" | "writers" | "opens" | "storm"
  readonly url: string
  readonly token: string
  readonly count: number
  /** Documents, assigned round robin. */
  readonly docs: ReadonlyArray<string>
  readonly warmupSec?: number
  readonly durationSec?: number
  /** writers: updates in flight per socket. */
  readonly window?: number
  /** writers: one update per interval instead of a closed loop. */
  readonly intervalMs?: number
  /** writers: characters per update. */
  readonly updateChars?: number
  /** storm: keep the sockets open once synced (until the process is stopped). */
  readonly hold?: boolean
  /** opens: opens made first and not counted (the server's code paths compiled, as every other point's warm-up does). */
  readonly warmupOpens?: number
}

const Sync = 0
const AwarenessType = 1
const Auth = 2
const SyncStatus = 8
const now = () => performance.timeOrigin + performance.now()
const emit = (event: Record<string, unknown>) => process.stdout.write(`CC ${JSON.stringify(event)}\n`)

const frame = (name: string, write: (encoder: encoding.Encoder) => void) => {
  const encoder = encoding.createEncoder()
  encoding.writeVarString(encoder, name)
  write(encoder)
  return encoding.toUint8Array(encoder)
}
export const authFrame = (name: string, token: string) =>
  frame(name, (e) => {
    encoding.writeVarUint(e, Auth)
    encoding.writeVarUint(e, 0)
    encoding.writeVarString(e, token)
  })
export const syncStep1Frame = (name: string, doc: Y.Doc) =>
  frame(name, (e) => {
    encoding.writeVarUint(e, Sync)
    encoding.writeVarUint(e, 0)
    encoding.writeVarUint8Array(e, Y.encodeStateVector(doc))
  })
const syncStep2Frame = (name: string, doc: Y.Doc, vector: Uint8Array) =>
  frame(name, (e) => {
    encoding.writeVarUint(e, Sync)
    encoding.writeVarUint(e, 1)
    encoding.writeVarUint8Array(e, Y.encodeStateAsUpdate(doc, vector))
  })
/** An awareness update (a cursor moved), as a provider sends it. */
export const awarenessFrame = (name: string, update: Uint8Array) =>
  frame(name, (e) => {
    encoding.writeVarUint(e, AwarenessType)
    encoding.writeVarUint8Array(e, update)
  })
export const updateFrame = (name: string, update: Uint8Array) =>
  frame(name, (e) => {
    encoding.writeVarUint(e, Sync)
    encoding.writeVarUint(e, 2)
    encoding.writeVarUint8Array(e, update)
  })

export type Incoming =
  | { readonly kind: "step1"; readonly vector: Uint8Array }
  | { readonly kind: "step2" | "update"; readonly update: Uint8Array }
  | { readonly kind: "ack"; readonly applied: boolean }
  | { readonly kind: "other" }

export const readFrame = (data: Uint8Array): Incoming => {
  const decoder = decoding.createDecoder(data)
  decoding.readVarString(decoder)
  const type = decoding.readVarUint(decoder)
  if (type === SyncStatus) return { kind: "ack", applied: decoding.readVarUint(decoder) === 1 }
  if (type !== Sync && type !== 4) return { kind: "other" }
  const step = decoding.readVarUint(decoder)
  const body = decoding.readVarUint8Array(decoder)
  return step === 0 ? { kind: "step1", vector: body } : { kind: step === 1 ? "step2" : "update", update: body }
}

/** The markers in a frame: an update carries each inserted string verbatim (a merged one, several). */
const MARK = Buffer.from("MK")
export const markersOf = (data: Buffer): Array<{ phase: string; n: number; sentAt: number }> => {
  const found: Array<{ phase: string; n: number; sentAt: number }> = []
  let at = data.indexOf(MARK)
  while (at !== -1) {
    const end = data.indexOf(0x7c, data.indexOf(0x7c, data.indexOf(0x7c, at) + 1) + 1) // the third "|"
    if (end === -1) break
    const [phase, n, sentAt] = data
      .subarray(at + 2, end)
      .toString("latin1")
      .split("|")
    found.push({ phase: phase!, n: Number(n), sentAt: Number(sentAt) })
    at = data.indexOf(MARK, end)
  }
  return found
}
export const marker = (phase: string, n: number) => `MK${phase}|${n}|${now().toFixed(3)}|`

interface Client {
  readonly socket: WebSocket
  readonly name: string
  readonly doc: Y.Doc
  readonly synced: Promise<void>
  onData: (data: Buffer, incoming: Incoming) => void
  /** Once synced, frames go here undecoded instead (readers only look for markers). */
  onRaw?: (data: Buffer) => void
}

/** Opens one socket on `name`, authenticates and syncs. */
export const connect = (url: string, token: string, name: string, onClose?: () => void, apply = true): Client => {
  const socket = new WebSocket(url, { perMessageDeflate: false })
  const doc = new Y.Doc()
  let resolveSynced!: () => void
  let rejectSynced!: (error: Error) => void
  const synced = new Promise<void>((resolve, reject) => {
    resolveSynced = resolve
    rejectSynced = reject
  })
  const client: Client = { socket, name, doc, synced, onData: () => {} }
  let ready = false
  // The first acknowledgement answers the socket's own SyncStep2 (sent while syncing): not the caller's.
  let syncAck = true
  socket.binaryType = "nodebuffer"
  socket.on("open", () => {
    socket.send(authFrame(name, token))
    socket.send(syncStep1Frame(name, doc))
  })
  socket.on("message", (data: Buffer) => {
    if (ready && client.onRaw !== undefined) return client.onRaw(data)
    const incoming = readFrame(data)
    if (incoming.kind === "step1") socket.send(syncStep2Frame(name, doc, incoming.vector))
    else if (incoming.kind === "step2") {
      if (apply) Y.applyUpdate(doc, incoming.update, "server")
      if (!ready) {
        ready = true
        resolveSynced()
      }
    } else if (incoming.kind === "ack" && syncAck) {
      syncAck = false
      return
    }
    client.onData(data, incoming)
  })
  socket.on("error", (error) => {
    if (!ready) rejectSynced(error)
  })
  socket.on("close", (code) => {
    if (!ready) rejectSynced(new Error(`closed (${code}) before syncing ${name}`))
    onClose?.()
  })
  return client
}

/** Opens `count` clients, `limit` handshakes at a time. */
const openAll = async (config: CollabClientsConfig, onClose: () => void): Promise<Array<Client>> => {
  const clients: Array<Client> = []
  let next = 0
  await Promise.all(
    Array.from({ length: Math.min(32, config.count) }, async () => {
      while (next < config.count) {
        const i = next++
        const client = connect(config.url, config.token, config.docs[i % config.docs.length]!, onClose)
        clients.push(client)
        await client.synced
      }
    })
  )
  return clients
}

const runReaders = async (config: CollabClientsConfig) => {
  const histogram = new Histogram()
  let delivered = 0
  let dropped = 0
  let firstAt = Number.POSITIVE_INFINITY
  let lastAt = 0
  let finished = false
  const finish = () => {
    if (finished) return
    finished = true
    emit({ event: "result", delivered, firstAt, lastAt, dropped, histogram: histogram.toData() })
    process.exit(0)
  }
  process.on("SIGTERM", finish)
  const clients = await openAll(config, () => {
    if (!finished) dropped++
  })
  // Done once every reader has seen an end marker (all it was sent before them came first); the runner stops
  // a process that waits too long. Finishing when the first reader saw one cut off readers running behind it.
  const ended = new Set<Client>()
  for (const client of clients) {
    client.onRaw = (data) => {
      const marks = markersOf(data)
      if (marks.length === 0) return
      const at = now()
      for (const mark of marks) {
        if (mark.phase === "m") {
          delivered++
          if (at < firstAt) firstAt = at
          lastAt = at
          histogram.record(Math.max(0, (at - mark.sentAt) * 1e6))
        } else if (mark.phase === "e" && !ended.has(client)) {
          ended.add(client)
          if (ended.size + dropped >= clients.length) finish()
        }
      }
    }
  }
  emit({ event: "ready", connected: clients.length })
}

const runWriters = async (config: CollabClientsConfig) => {
  const histogram = new Histogram()
  const window = config.window ?? 1
  const chars = Math.max(0, (config.updateChars ?? 32) - 24)
  const filler = "x".repeat(chars)
  let phase: "w" | "m" | "stop" = (config.warmupSec ?? 0) > 0 ? "w" : "m"
  let acked = 0
  let measuredStart = 0
  let measuredEnd = 0
  let dropped = 0
  let n = 0
  const clients = await openAll(config, () => {
    if (phase !== "stop") dropped++
  })
  emit({ event: "ready", connected: clients.length })
  const type = (client: Client, inFlight: Array<number>) => {
    const text = client.doc.getText("bench")
    const before: Array<Uint8Array> = []
    const listener = (update: Uint8Array) => before.push(update)
    client.doc.on("update", listener)
    text.insert(text.length, `${marker(phase === "m" ? "m" : "w", n++)}${filler}`)
    client.doc.off("update", listener)
    inFlight.push(now())
    client.socket.send(updateFrame(client.name, before[0]!))
  }
  const timers: Array<NodeJS.Timeout> = []
  for (const client of clients) {
    const inFlight: Array<number> = []
    client.onData = (_data, incoming) => {
      if (incoming.kind !== "ack" || inFlight.length === 0) return
      const sentAt = inFlight.shift()!
      if (phase === "m") {
        acked++
        histogram.record(Math.max(0, (now() - sentAt) * 1e6))
      }
      if (phase !== "stop" && !(config.intervalMs! > 0)) type(client, inFlight)
    }
    if (config.intervalMs! > 0) {
      // Editors spread over the interval (not all at once), the first within one interval.
      const interval = config.intervalMs!
      timers.push(
        setTimeout(() => {
          if (phase === "stop") return
          type(client, inFlight)
          timers.push(setInterval(() => phase !== "stop" && type(client, inFlight), interval))
        }, Math.random() * interval)
      )
    } else for (let i = 0; i < window; i++) type(client, inFlight)
  }
  await new Promise((resolve) => setTimeout(resolve, (config.warmupSec ?? 0) * 1000))
  phase = "m"
  measuredStart = now()
  await new Promise((resolve) => setTimeout(resolve, (config.durationSec ?? 1) * 1000))
  phase = "stop"
  measuredEnd = now()
  for (const timer of timers) clearTimeout(timer)
  emit({ event: "result", acked, durationSec: (measuredEnd - measuredStart) / 1000, dropped, histogram: histogram.toData() })
  process.exit(0)
}

const runOpens = async (config: CollabClientsConfig) => {
  const histogram = new Histogram()
  emit({ event: "ready", connected: 0 })
  const open = async () => {
    const at = now()
    // The server's part only: the full state arrived (applying it is the editor's business, not the server's).
    const client = connect(config.url, config.token, config.docs[0]!, undefined, false)
    await client.synced
    const took = now() - at
    const closed = new Promise((resolve) => client.socket.once("close", resolve))
    client.socket.close()
    await closed
    // Let the server unload the document (its last connection left), so the next open is cold.
    await new Promise((resolve) => setTimeout(resolve, 30))
    return took
  }
  for (let i = 0; i < (config.warmupOpens ?? 0); i++) await open()
  const started = now()
  for (let i = 0; i < config.count; i++) histogram.record((await open()) * 1e6)
  emit({ event: "result", opens: config.count, durationSec: (now() - started) / 1000, histogram: histogram.toData() })
  process.exit(0)
}

const runStorm = async (config: CollabClientsConfig) => {
  const histogram = new Histogram()
  // Start when told, so every client process of the storm starts together (listening before saying so).
  const waiting = setInterval(() => {}, 1000) // a signal handler alone keeps no process alive
  const go = new Promise<void>((resolve) => process.once("SIGUSR2", () => resolve()))
  emit({ event: "ready", connected: 0 })
  await go
  clearInterval(waiting)
  const started = now()
  let lastAt = started
  let dropped = 0
  const clients = Array.from({ length: config.count }, (_, i) => {
    const client = connect(config.url, config.token, config.docs[i % config.docs.length]!, undefined, false)
    return client.synced.then(
      () => {
        const at = now()
        histogram.record((at - started) * 1e6)
        if (at > lastAt) lastAt = at
        return client
      },
      () => {
        dropped++
        return client
      }
    )
  })
  const synced = await Promise.all(clients)
  emit({
    event: "result",
    opens: config.count - dropped,
    dropped,
    firstAt: started,
    lastAt,
    durationSec: (lastAt - started) / 1000,
    histogram: histogram.toData()
  })
  if (config.hold) return
  for (const client of synced) client.socket.terminate()
  process.exit(0)
}

if (process.argv[1]?.endsWith("collab-clients.ts")) {
  const config = JSON.parse(readFileSync(process.argv[2]!, "utf8")) as CollabClientsConfig
  const run =
    config.mode === "readers" ? runReaders : config.mode === "writers" ? runWriters : config.mode === "storm" ? runStorm : runOpens
  run(config).catch((error: unknown) => {
    emit({ event: "error", message: error instanceof Error ? error.message : String(error) })
    process.exit(1)
  })
}
