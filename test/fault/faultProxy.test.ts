/** The fault suite's TCP proxy against a local echo server: each mode does what the fault tests rely on. */
import net from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type FaultProxy, startFaultProxy } from "../support/FaultProxy.ts"

interface Client {
  readonly socket: net.Socket
  /** Everything received so far. */
  readonly received: () => string
  readonly closed: () => boolean
}

const connectClient = (port: number): Promise<Client> =>
  new Promise((resolve, reject) => {
    let received = ""
    let closed = false
    const socket = net.connect({ host: "127.0.0.1", port }, () => resolve({ socket, received: () => received, closed: () => closed }))
    socket.on("data", (chunk) => (received += chunk.toString()))
    socket.on("close", () => (closed = true))
    socket.on("error", (error) => (closed ? undefined : reject(error)))
  })

const until = async (what: string, condition: () => boolean) => {
  for (let i = 0; i < 200; i++) {
    if (condition()) return
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  throw new Error(`timed out waiting for ${what}`)
}

/** Gives the proxy and the echo server time to move bytes that should not move. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 150))

describe("FaultProxy", () => {
  let echo: net.Server
  let proxy: FaultProxy
  beforeAll(async () => {
    echo = net.createServer((socket) => socket.on("error", () => {}).pipe(socket))
    await new Promise<void>((resolve) => echo.listen(0, "127.0.0.1", resolve))
    proxy = await startFaultProxy({ host: "127.0.0.1", port: (echo.address() as net.AddressInfo).port })
  })
  afterAll(async () => {
    await proxy?.close()
    await new Promise((resolve) => echo?.close(resolve))
  })

  it("passes bytes both ways", async () => {
    const client = await connectClient(proxy.port)
    client.socket.write("hello")
    await until("the echo", () => client.received() === "hello")
    client.socket.destroy()
  })

  it("holds bytes both ways and delivers them in order on release", async () => {
    const client = await connectClient(proxy.port)
    client.socket.write("a")
    await until("the first echo", () => client.received() === "a")
    proxy.set("hold")
    client.socket.write("b")
    client.socket.write("c")
    await settle()
    expect(client.received()).toBe("a")
    proxy.release()
    await until("the held bytes", () => client.received() === "abc")
    expect(proxy.mode()).toBe("pass")
    client.socket.destroy()
  })

  it("holds from the first chunk that matches, both ways, until released", async () => {
    const client = await connectClient(proxy.port)
    const armed = proxy.holdWhen((chunk) => chunk.includes("stop"), 5000)
    client.socket.write("go")
    await until("the echo before the match", () => client.received() === "go")
    client.socket.write("stop")
    expect(await armed).toBe(true)
    client.socket.write("after")
    await settle()
    expect(client.received()).toBe("go")
    expect(proxy.mode()).toBe("hold")
    proxy.release()
    await until("the held bytes", () => client.received() === "gostopafter")
    client.socket.destroy()
  })

  it("resets when a chunk from the server matches, dropping that chunk", async () => {
    const client = await connectClient(proxy.port)
    const armed = proxy.resetWhen((chunk) => chunk.includes("reply"), 5000)
    client.socket.write("first")
    await until("the echo before the match", () => client.received() === "first")
    client.socket.write("reply")
    expect(await armed).toBe(true)
    await until("the connection reset", () => client.closed())
    expect(client.received()).toBe("first")
    expect(proxy.mode()).toBe("reset")
    proxy.set("pass")
  })

  it("blackholes: keeps the connection, forwards nothing, then drops the connection that lost bytes", async () => {
    const client = await connectClient(proxy.port)
    proxy.set("blackhole")
    client.socket.write("lost")
    await settle()
    expect(client.received()).toBe("")
    expect(client.closed()).toBe(false)
    proxy.set("pass")
    await until("the broken connection closed", () => client.closed())
    const fresh = await connectClient(proxy.port)
    fresh.socket.write("again")
    await until("the echo after healing", () => fresh.received() === "again")
    fresh.socket.destroy()
  })

  it("resets open connections and refuses new ones until it passes again", async () => {
    const client = await connectClient(proxy.port)
    proxy.set("reset")
    await until("the open connection reset", () => client.closed())
    const refused = await connectClient(proxy.port)
    await until("the new connection reset", () => refused.closed())
    expect(proxy.open()).toBe(0)
    proxy.set("pass")
    const fresh = await connectClient(proxy.port)
    fresh.socket.write("back")
    await until("the echo after the reset", () => fresh.received() === "back")
    fresh.socket.destroy()
  })
})
