/**
 * The platform's floor for the collab fan-out: the least a uWebSockets.js
 * server can do to get each update to every reader — relay the frame as it
 * came, one native `publish` to the document's topic (the sender excluded).
 * It speaks just enough of Hocuspocus's protocol for the bench's clients: a
 * SyncStep1 subscribes the socket and is answered with an empty SyncStep2,
 * an update is published and acknowledged (SyncStatus), awareness is
 * published. No Yjs document, no validation, no storage, no auth. Listens on
 * 127.0.0.1:$PORT; prints `READY port=<port>`. uWS comes from facade/uws.ts.
 * Started with --expose-gc it reports its settled memory on SIGUSR2 (the
 * floor of an idle subscribed socket's memory, see settled-memory.ts).
 */
import * as decoding from "lib0/decoding"
import * as encoding from "lib0/encoding"
import { uws, uwsBuild } from "../../facade/uws.ts"
import { reportSettledMemoryOnSignal } from "../subjects/settled-memory.ts"

// Hocuspocus's message types and sync steps.
const Sync = 0
const Awareness = 1
const SyncStatus = 8
const SyncStep1 = 0
const SyncUpdate = 2
/** An empty document's state as an update (no structs, no deletions). */
const EMPTY_UPDATE = new Uint8Array([0, 0])

const frame = (name: string, write: (encoder: encoding.Encoder) => void): Uint8Array => {
  const encoder = encoding.createEncoder()
  encoding.writeVarString(encoder, name)
  write(encoder)
  return encoding.toUint8Array(encoder)
}

const port = Number(process.env.PORT ?? 0)
const app = uws.App()

app.ws("/*", {
  maxPayloadLength: 64 * 1024 * 1024,
  maxBackpressure: 64 * 1024 * 1024,
  idleTimeout: 0,
  message: (ws, message) => {
    const decoder = decoding.createDecoder(new Uint8Array(message))
    const name = decoding.readVarString(decoder)
    const type = decoding.readVarUint(decoder)
    if (type === Awareness) {
      ws.publish(name, message, true)
      return
    }
    if (type !== Sync) return
    const step = decoding.readVarUint(decoder)
    if (step === SyncStep1) {
      ws.subscribe(name)
      ws.send(
        frame(name, (e) => {
          encoding.writeVarUint(e, Sync)
          encoding.writeVarUint(e, 1)
          encoding.writeVarUint8Array(e, EMPTY_UPDATE)
        }),
        true
      )
    } else if (step === SyncUpdate) {
      ws.publish(name, message, true)
      ws.send(
        frame(name, (e) => {
          encoding.writeVarUint(e, SyncStatus)
          encoding.writeVarUint(e, 1)
        }),
        true
      )
    }
  }
})
// Before READY: the bench signals for a reading as soon as it sees that line, and
// an unhandled SIGUSR2 would end the process.
reportSettledMemoryOnSignal()
app.listen("127.0.0.1", port, (listenSocket) => {
  if (!listenSocket) {
    console.error(`uws-relay: cannot listen on ${port}`)
    process.exit(1)
  }
  console.log(`READY uws-relay port=${uws.us_socket_local_port(listenSocket)} build=${uwsBuild}`)
})
process.on("SIGTERM", () => process.exit(0))
