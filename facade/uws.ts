/**
 * The one place that loads uWebSockets.js. It is not on npm under its own
 * name; two builds are pinned and the first whose native binary loads wins:
 * `@btc-vision/uwebsockets.js` (Node 20–25, glibc >= 2.38) then
 * `@trufflesuite/uws-js-unofficial` (Node 16/18/20, glibc 2.27). The truffle
 * build silently falls back to a pure-JS `ws` emulation when its binary fails;
 * that would serve, slowly and subtly differently, so we refuse to start.
 */
import { createRequire } from "node:module"
import type * as Uws from "@trufflesuite/uws-js-unofficial"

export type { HttpRequest, HttpResponse, TemplatedApp, WebSocket, us_listen_socket } from "@trufflesuite/uws-js-unofficial"

const require = createRequire(import.meta.url)

const isNative = (candidate: unknown): boolean => {
  const app = (candidate as { App?: unknown } | undefined)?.App
  return typeof app === "function" && Function.prototype.toString.call(app).includes("[native code]")
}

const load = (): { readonly module: typeof Uws; readonly build: string } => {
  const failures: Array<string> = []
  for (const build of ["@btc-vision/uwebsockets.js", "@trufflesuite/uws-js-unofficial"]) {
    try {
      const candidate = require(build)
      if (isNative(candidate)) return { module: candidate as typeof Uws, build }
      failures.push(`${build}: loaded its pure-JS fallback, not the native binary`)
    } catch (error) {
      failures.push(`${build}: ${String((error as Error).message).split("\n")[0]}`)
    }
  }
  throw new Error(
    `uWebSockets.js: no native build loads on Node ${process.versions.node} ` +
      `(${process.platform}-${process.arch}, ABI ${process.versions.modules}). Atrium refuses to run on the JS fallback.\n  ` +
      failures.join("\n  ")
  )
}

const loaded = load()

/** The uWebSockets.js namespace (native). */
export const uws: typeof Uws = loaded.module
/** Which pinned package supplied it, for the startup banner. */
export const uwsBuild: string = loaded.build
