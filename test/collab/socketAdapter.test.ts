/**
 * SocketAdapter's listeners, as Hocuspocus drives them (`on`, `once`,
 * `removeListener`, `emit`, EventEmitter's semantics): kept in fields, one
 * listener per event as Hocuspocus adds them, several when more are added.
 */
import { describe, expect, it } from "vitest"
import type { WebSocket } from "../../facade/uws.ts"
import { SocketAdapter } from "../../collab/SocketAdapter.ts"

// The listeners never touch the uWS socket: a bare object stands in for it.
const adapter = () =>
  new SocketAdapter({} as unknown as WebSocket<unknown>, { maxBackpressureBytes: 1024, durable: () => Promise.resolve() })

describe("SocketAdapter listeners", () => {
  it("calls every listener of an event in the order they were added, and none once removed", () => {
    const socket = adapter()
    const heard: Array<string> = []
    const first = (data: Uint8Array) => heard.push(`first ${data.length}`)
    const second = (data: Uint8Array) => heard.push(`second ${data.length}`)
    expect(socket.emit("message", new Uint8Array(1))).toBe(false)
    socket.on("message", first).on("message", second)
    expect(socket.emit("message", new Uint8Array(2))).toBe(true)
    socket.removeListener("message", first)
    socket.emit("message", new Uint8Array(3))
    socket.removeListener("message", second)
    expect(socket.emit("message", new Uint8Array(4))).toBe(false)
    expect(heard).toEqual(["first 2", "second 2", "second 3"])
  })

  it("keeps events apart", () => {
    const socket = adapter()
    const heard: Array<string> = []
    socket.on("pong", () => heard.push("pong"))
    socket.on("message", () => heard.push("message"))
    socket.emit("pong")
    socket.removeListener("pong", () => undefined)
    socket.emit("pong")
    expect(heard).toEqual(["pong", "pong"])
  })

  it("calls a once listener only the first time, and removes it by the listener it wraps", () => {
    const socket = adapter()
    const closes: Array<number> = []
    socket.once("close", (code: number) => closes.push(code))
    socket.emit("close", 1000, Buffer.from(""))
    expect(socket.emit("close", 1001, Buffer.from(""))).toBe(false)
    const never = (code: number) => closes.push(code)
    socket.once("close", never)
    socket.removeListener("close", never)
    expect(socket.emit("close", 1002, Buffer.from(""))).toBe(false)
    expect(closes).toEqual([1000])
  })

  it("calls the listeners present when an event was emitted, even if one removes another", () => {
    const socket = adapter()
    const heard: Array<string> = []
    const second = () => heard.push("second")
    socket.on("message", () => {
      heard.push("first")
      socket.removeListener("message", second)
    })
    socket.on("message", second)
    socket.emit("message", new Uint8Array(0))
    socket.emit("message", new Uint8Array(0))
    expect(heard).toEqual(["first", "second", "first"])
  })
})
