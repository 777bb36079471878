/**
 * Stock Hocuspocus for the collab bench (the installed @hocuspocus/server,
 * the one Atrium runs): its own `Server` (node:http + ws), in-memory documents, every token accepted, no storage
 * (acknowledgements are immediate). With COLD_STATE set (a file holding one
 * Yjs update), every document loads that state in onLoadDocument — the
 * cold-open baseline. Prints `READY port=<port>`.
 */
import { readFileSync } from "node:fs"
import { Server } from "@hocuspocus/server"
import * as Y from "yjs"
import { reportSettledMemoryOnSignal } from "../subjects/settled-memory.ts"

const coldState = process.env.COLD_STATE ? new Uint8Array(readFileSync(process.env.COLD_STATE)) : undefined

const server = new Server(
  {
    port: 0,
    address: "127.0.0.1",
    quiet: true,
    stopOnSignals: false,
    async onAuthenticate() {
      return {}
    },
    async onLoadDocument({ document }) {
      if (coldState !== undefined) Y.applyUpdate(document, coldState)
    }
  },
  // ws's options (Hocuspocus 3 takes them beside its configuration).
  { maxPayload: 64 * 1024 * 1024, perMessageDeflate: false }
)

process.on("SIGTERM", () => process.exit(0))
reportSettledMemoryOnSignal()
await server.listen()
const address = server.httpServer.address()
process.stdout.write(`READY port=${typeof address === "object" && address !== null ? address.port : 0}\n`)
