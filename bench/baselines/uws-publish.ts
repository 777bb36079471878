/**
 * Baseline of the stream-fanout scenario: the least a uWebSockets.js server
 * can do — every WebSocket at `/ws` subscribes to one topic on open, and
 * `POST /publish` publishes the request body to it. The same backpressure
 * policy as Atrium's live streams (1 MiB, close when passed). Listens on
 * 127.0.0.1:$PORT; `GET /healthz` answers 200. uWS comes from facade/uws.ts.
 */
import { uws, uwsBuild } from "../../facade/uws.ts"

const port = Number(process.env.PORT ?? 0)
const TOPIC = "workspace"
const app = uws.App()

app.ws("/ws", {
  maxBackpressure: 1024 * 1024,
  closeOnBackpressureLimit: true as never,
  idleTimeout: 60,
  sendPingsAutomatically: true,
  open: (ws) => {
    ws.subscribe(TOPIC)
  }
})
app.get("/healthz", (res) => {
  res.writeHeader("content-type", "application/json").end('{"status":"ok"}')
})
app.post("/publish", (res) => {
  const chunks: Array<Buffer> = []
  let aborted = false
  res.onAborted(() => {
    aborted = true
  })
  res.onData((chunk, isLast) => {
    chunks.push(Buffer.from(chunk.slice(0)))
    if (!isLast) return
    app.publish(TOPIC, Buffer.concat(chunks).toString("utf8"), false)
    if (!aborted) res.cork(() => res.writeStatus("204 No Content").end())
  })
})
app.listen("127.0.0.1", port, (listenSocket) => {
  if (!listenSocket) {
    console.error(`uws-publish: cannot listen on ${port}`)
    process.exit(1)
  }
  console.log(`READY uws-publish port=${uws.us_socket_local_port(listenSocket)} build=${uwsBuild}`)
})
process.on("SIGTERM", () => process.exit(0))
