/**
 * The one place that relies on socket.io's undocumented behaviour, checked
 * when it runs (at server start) against the installed version; a change
 * stops the server with an error naming the member and the version (also
 * test/pm/live/socketIoInternals.test.ts). Written against socket.io 4.8.4.
 *
 * socket.io's uWS support (`io.attachApp`) broadcasts to a room with uWS's
 * native publish by writing `addAll`, `del` and `broadcast` on the in-memory
 * adapter's PROTOTYPE, as closures over the app it was attached to (and puts
 * the originals back on `io.close()`). Two servers in one process (tests,
 * benches) would then publish on each other's app, so the methods written for
 * this app are pinned to this server's adapter instance.
 */
import { createRequire } from "node:module"
import type { Server } from "socket.io"
import type { TemplatedApp } from "../facade/uws.ts"

export const WRITTEN_AGAINST = "4.8.4"

/** What attachApp writes on the adapter's prototype, and how many parameters each takes. */
const PATCHED = [
  ["addAll", 2],
  ["del", 2],
  ["broadcast", 2]
] as const

const installedVersion = (): string => {
  try {
    return (createRequire(import.meta.url)("socket.io/package.json") as { version: string }).version
  } catch {
    return "unknown"
  }
}

class InternalsChanged extends Error {
  constructor(member: string, expected: string) {
    super(
      `socket.io ${installedVersion()}: ${member} ${expected}. Atrium relies on it through streams/SocketIoInternals.ts ` +
        `(written against ${WRITTEN_AGAINST}); adapt that module to this version or pin ${WRITTEN_AGAINST}.`
    )
    this.name = "SocketIoInternalsChanged"
  }
}

/**
 * `io.attachApp(app)`, then the uWS-publishing methods it wrote on the
 * adapter prototype become own properties of the default namespace's adapter.
 * Throws if attachApp no longer writes them there.
 */
export const attachAppPinned = (io: Server, app: TemplatedApp): void => {
  const adapter: object = io.of("/").adapter
  const prototype: object | null = Object.getPrototypeOf(adapter)
  if (prototype === null) throw new InternalsChanged("the namespace adapter", "has no prototype")
  const before = PATCHED.map(([name]) => Reflect.get(prototype, name) as unknown)
  io.attachApp(app)
  PATCHED.forEach(([name, arity], i) => {
    const written: unknown = Reflect.get(prototype, name)
    if (typeof written !== "function" || written.length !== arity) {
      throw new InternalsChanged(`Adapter.prototype.${name}`, `is not a method of ${arity} parameters`)
    }
    if (written === before[i]) throw new InternalsChanged(`Adapter.prototype.${name}`, "is no longer replaced by attachApp (uWS publish)")
    Reflect.set(adapter, name, written)
  })
}
