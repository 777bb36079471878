/**
 * socket.io's uWS support as streams/SocketIoInternals.ts relies on it, on the
 * installed version: attachApp writes uWS-publishing methods on the adapter
 * prototype, and pinning makes them this server's own, so a second server
 * attached later (or the first closed) leaves it publishing on its own app.
 */
import { Server } from "socket.io"
import { describe, expect, it } from "vitest"
import { uws } from "../../../facade/uws.ts"
import { attachAppPinned } from "../../../streams/SocketIoInternals.ts"

const METHODS = ["addAll", "del", "broadcast"] as const

describe("socket.io internals", () => {
  it("attachApp's uWS publishing is pinned to each server's adapter", async () => {
    const first = new Server({ path: "/first" })
    const second = new Server({ path: "/second" })
    attachAppPinned(first, uws.App())
    const pinned = METHODS.map((name) => Object.getOwnPropertyDescriptor(first.of("/").adapter, name)?.value as unknown)
    for (const method of pinned) expect(typeof method).toBe("function")
    attachAppPinned(second, uws.App())
    const secondPinned = METHODS.map((name) => Object.getOwnPropertyDescriptor(second.of("/").adapter, name)?.value as unknown)
    // The second attach wrote new closures (over its own app); the first server kept its own.
    METHODS.forEach((_, i) => {
      expect(secondPinned[i]).not.toBe(pinned[i])
      expect(Reflect.get(first.of("/").adapter, METHODS[i]!)).toBe(pinned[i])
    })
    await second.close()
    METHODS.forEach((name, i) => {
      expect(Reflect.get(first.of("/").adapter, name)).toBe(pinned[i])
    })
    await first.close()
  })

  it("refuses to run when attachApp no longer writes the prototype, naming the member and the version", () => {
    const io = new Server({ path: "/unpatched" })
    const app = uws.App()
    // An upgrade whose attachApp leaves the adapter alone.
    io.attachApp = () => io
    expect(() => attachAppPinned(io, app)).toThrow(
      /^socket\.io \d+\.\d+\.\d+: Adapter\.prototype\.addAll is no longer replaced by attachApp/
    )
  })
})
