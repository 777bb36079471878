/**
 * A TCP proxy the tests control, put between a node and a service (NATS,
 * PostgreSQL) to cut, stall or delay the node's traffic on demand:
 *
 * - `pass`: bytes flow both ways.
 * - `reset`: every open connection is destroyed now, and new ones are
 *   accepted and destroyed at once, until the mode changes.
 * - `blackhole`: connections stay open but nothing is forwarded either way
 *   (a hung peer or a dead link that does not close sockets). Bytes sent
 *   meanwhile are dropped, so a connection that saw them is destroyed when
 *   the mode leaves `blackhole` (its stream lost data; the client reconnects).
 * - `hold`: bytes are kept, both ways, in arrival order; `release()` delivers
 *   them and goes back to `pass` (a network that stalls, then catches up).
 *   `holdWhen(match)` passes until a chunk the client sends matches, then
 *   holds from that chunk on: the stall hits one chosen request in flight
 *   (e.g. a PostgreSQL statement whose parameters name one row).
 *   `resetWhen(match)` passes until a chunk the server sends matches, drops
 *   it and resets: a reply lost on its way, after the server acted on it.
 *
 * Loopback only, no dependency (node:net).
 */
import net from "node:net"

export type FaultMode = "pass" | "reset" | "blackhole" | "hold"

export interface FaultProxy {
  /** The port the proxy listens on (127.0.0.1). */
  readonly port: number
  readonly mode: () => FaultMode
  /** Switches mode; leaving `hold` this way delivers what was held (same as `release`). */
  readonly set: (mode: FaultMode) => void
  /**
   * Passes until a chunk from the client satisfies `match`, then holds (that
   * chunk included); resolves true then, or false after `timeoutMs` (and
   * disarms).
   */
  readonly holdWhen: (match: (chunk: Buffer) => boolean, timeoutMs: number) => Promise<boolean>
  /**
   * Passes until a chunk from the server satisfies `match`, then drops that
   * chunk and switches to `reset`; resolves true then, or false after
   * `timeoutMs` (and disarms).
   */
  readonly resetWhen: (match: (chunk: Buffer) => boolean, timeoutMs: number) => Promise<boolean>
  /** Delivers every held byte, then passes. */
  readonly release: () => void
  /** Connections accepted so far (also those reset at once). */
  readonly accepted: () => number
  /** Connections open now. */
  readonly open: () => number
  readonly close: () => Promise<void>
}

interface Direction {
  readonly from: net.Socket
  readonly to: net.Socket
  readonly held: Array<Buffer>
}

interface Pair {
  readonly client: net.Socket
  readonly upstream: net.Socket
  readonly directions: ReadonlyArray<Direction>
  /** Bytes were dropped on it (blackhole): its stream is broken. */
  lost: boolean
}

export const startFaultProxy = async (target: { readonly host: string; readonly port: number }): Promise<FaultProxy> => {
  let mode: FaultMode = "pass"
  let accepted = 0
  let trigger: ((chunk: Buffer) => boolean) | undefined
  let replyTrigger: ((chunk: Buffer) => boolean) | undefined
  const pairs = new Set<Pair>()

  const destroy = (pair: Pair) => {
    pairs.delete(pair)
    pair.client.destroy()
    pair.upstream.destroy()
  }

  const forward = (direction: Direction, chunk: Buffer) => {
    if (!direction.to.destroyed) direction.to.write(chunk)
  }

  const flush = (pair: Pair) => {
    for (const direction of pair.directions) {
      for (const chunk of direction.held.splice(0)) forward(direction, chunk)
    }
  }

  const server = net.createServer((client) => {
    accepted++
    if (mode === "reset") {
      client.destroy()
      return
    }
    client.setNoDelay(true)
    const upstream = net.connect({ host: target.host, port: target.port })
    upstream.setNoDelay(true)
    const toUpstream: Direction = { from: client, to: upstream, held: [] }
    const toClient: Direction = { from: upstream, to: client, held: [] }
    const pair: Pair = { client, upstream, directions: [toUpstream, toClient], lost: false }
    pairs.add(pair)
    for (const direction of pair.directions) {
      direction.from.on("data", (chunk: Buffer) => {
        if (mode === "pass" && direction === toUpstream && trigger?.(chunk) === true) {
          trigger = undefined
          mode = "hold"
        }
        if (mode === "pass" && direction === toClient && replyTrigger?.(chunk) === true) {
          set("reset")
          return
        }
        if (mode === "pass") forward(direction, chunk)
        else if (mode === "hold") direction.held.push(chunk)
        else if (mode === "blackhole") pair.lost = true
      })
    }
    // Either side closing or failing ends both (as a real connection would, seen from the other end).
    for (const socket of [client, upstream]) {
      socket.on("error", () => destroy(pair))
      socket.on("close", () => {
        // Held bytes of a side that closed are still delivered on release, like data in flight.
        if (mode === "hold") return
        destroy(pair)
      })
    }
  })

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => resolve())
  })
  const address = server.address()
  if (address === null || typeof address === "string") throw new Error("FaultProxy: no port")

  const set = (next: FaultMode) => {
    trigger = undefined
    replyTrigger = undefined
    const previous = mode
    mode = next
    if (next === "reset") {
      for (const pair of [...pairs]) destroy(pair)
      return
    }
    if (previous === "hold" && next !== "hold") {
      for (const pair of [...pairs]) {
        flush(pair)
        if (pair.client.destroyed || pair.upstream.destroyed) destroy(pair)
      }
    }
    if (previous === "blackhole" && next !== "blackhole") {
      for (const pair of [...pairs]) if (pair.lost) destroy(pair)
    }
  }

  return {
    port: address.port,
    mode: () => mode,
    set,
    release: () => set("pass"),
    holdWhen: (match, timeoutMs) =>
      new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => {
          trigger = undefined
          resolve(false)
        }, timeoutMs)
        trigger = (chunk) => {
          if (!match(chunk)) return false
          clearTimeout(timer)
          resolve(true)
          return true
        }
      }),
    resetWhen: (match, timeoutMs) =>
      new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => {
          replyTrigger = undefined
          resolve(false)
        }, timeoutMs)
        replyTrigger = (chunk) => {
          if (!match(chunk)) return false
          clearTimeout(timer)
          resolve(true)
          return true
        }
      }),
    accepted: () => accepted,
    open: () => pairs.size,
    close: async () => {
      for (const pair of [...pairs]) destroy(pair)
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  }
}
