/**
 * The limit: a bare uWebSockets.js server that answers every request with
 * "Hello", no routing, no parsing. Listens on 127.0.0.1:$PORT.
 *
 * uWS is loaded through `facade/uws.ts` (the project's one loader, which
 * refuses uWS's pure-JS fallback) when it exists, else directly from
 * `@trufflesuite/uws-js-unofficial`.
 */
import { existsSync } from "node:fs"
import { createRequire } from "node:module"
import type * as Uws from "@trufflesuite/uws-js-unofficial"

const loadUws = async (): Promise<{ uws: typeof Uws; build: string }> => {
  const facadeLoader = new URL("../../facade/uws.ts", import.meta.url)
  if (existsSync(facadeLoader)) {
    const module = (await import(facadeLoader.href)) as { uws: typeof Uws; uwsBuild?: string }
    return { uws: module.uws, build: `${module.uwsBuild ?? "?"} via facade/uws.ts` }
  }
  const uws = createRequire(import.meta.url)("@trufflesuite/uws-js-unofficial") as typeof Uws
  return { uws, build: "@trufflesuite/uws-js-unofficial (direct)" }
}

const { uws, build } = await loadUws()
const port = Number(process.env.PORT ?? 0)

uws
  .App()
  .any("/*", (res) => {
    res.end("Hello")
  })
  .listen("127.0.0.1", port, (listenSocket) => {
    if (!listenSocket) {
      console.error(`uws-hello: cannot listen on ${port}`)
      process.exit(1)
    }
    console.log(`READY uws-hello port=${uws.us_socket_local_port(listenSocket)} build=${build}`)
  })

process.on("SIGTERM", () => process.exit(0))
