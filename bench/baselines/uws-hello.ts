/**
 * The limit: a bare uWebSockets.js server that answers every request with
 * "Hello", no routing, no parsing. Listens on 127.0.0.1:$PORT.
 *
 * uWS is loaded through `facade/uws.ts`, the project's one loader (which
 * refuses uWS's pure-JS fallback).
 */
import { uws, uwsBuild } from "../../facade/uws.ts"

const build = `${uwsBuild} via facade/uws.ts`
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
