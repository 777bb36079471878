/**
 * Baseline of the stream-fanout scenario: Socket.IO as most apps run it —
 * on node:http, default in-memory adapter, every client in one room — and
 * `POST /publish` broadcasting the request body (a JSON event) to the room as
 * the `event` event. Listens on 127.0.0.1:$PORT; `GET /healthz` answers 200.
 */
import { createServer } from "node:http"
import { Server } from "socket.io"

const port = Number(process.env.PORT ?? 0)
const ROOM = "workspace"

const http = createServer((req, res) => {
  if (req.method === "GET" && req.url === "/healthz") {
    res.writeHead(200, { "content-type": "application/json" }).end('{"status":"ok"}')
    return
  }
  if (req.method === "POST" && req.url === "/publish") {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      io.to(ROOM).emit("event", JSON.parse(Buffer.concat(chunks).toString("utf8")))
      res.writeHead(204).end()
    })
    return
  }
  if (!req.url?.startsWith("/socket.io")) res.writeHead(404).end()
})

const io = new Server(http, { serveClient: false })
io.on("connection", (socket) => {
  void socket.join(ROOM)
})

http.listen(port, "127.0.0.1", () => {
  const address = http.address()
  console.log(`READY socketio-broadcast port=${typeof address === "object" && address ? address.port : port}`)
})
process.on("SIGTERM", () => process.exit(0))
