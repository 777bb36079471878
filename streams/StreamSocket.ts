/**
 * The raw WebSocket endpoint of pm live updates, on uWebSockets.js:
 * `GET /pm/v1/ws?ticket=…` upgrades, JSON text frames both ways (see
 * StreamSession for the protocol). Fan-out is uWS's native topic publish.
 * With `&batch=1` the socket also accepts `{"type":"batch","frames":[…]}`
 * (several frames in order, see StreamBatcher) and follows the batched topics.
 *
 * - A missing, unknown, used or expired ticket: the socket opens and is
 *   closed at once with 4401 (browsers see close codes, not HTTP statuses).
 * - Binary, oversized, non-JSON or malformed frames close that connection with 4400.
 * - A client that stops reading is cut off when `maxBackpressure` bytes are
 *   queued for it (`closeOnBackpressureLimit`: uWS closes instead of silently
 *   skipping messages); it reconnects with its `lastSeq` and catches up.
 */
import type { TemplatedApp, WebSocket } from "../facade/uws.ts"
import { CloseCode, parseClientFrame, type StreamSession } from "./StreamSession.ts"
import type { StreamNode } from "./StreamNode.ts"
import { batchedTopic } from "./StreamTopics.ts"

export const RAW_SOCKET_PATH = "/pm/v1/ws"
const MAX_FRAME_BYTES = 4096

interface SocketData {
  readonly outcome: Awaited<ReturnType<StreamNode["authorize"]>>
  /** The client accepts batch frames. */
  readonly batch: boolean
  session?: StreamSession
}

export interface RawSockets {
  /** Closes every open socket with 1001 (going away), e.g. when the server drains. */
  readonly closeAll: () => void
}

export const attachRawSocket = (app: TemplatedApp, node: StreamNode, maxBackpressure: number): RawSockets => {
  const open = new Set<WebSocket<SocketData>>()
  app.ws<SocketData>(RAW_SOCKET_PATH, {
    // Larger frames than this are cut by uWS itself (1009); between 4 KiB and this we answer 4400.
    maxPayloadLength: 64 * 1024,
    idleTimeout: 60,
    sendPingsAutomatically: true,
    maxBackpressure,
    // `true`, not 1: the build that loads here (@btc-vision) takes a boolean and behaves otherwise with 1
    // (test/pm/live/batching.test.ts); the typings are the truffle build's (a number).
    closeOnBackpressureLimit: true as never,
    upgrade: (res, req, context) => {
      const key = req.getHeader("sec-websocket-key")
      const protocol = req.getHeader("sec-websocket-protocol")
      const extensions = req.getHeader("sec-websocket-extensions")
      const params = new URLSearchParams(req.getQuery() ?? "")
      const ticket = params.get("ticket") ?? ""
      const batch = params.get("batch") === "1" || params.get("batch") === "true"
      let aborted = false
      res.onAborted(() => {
        aborted = true
      })
      void node.authorize(ticket).then((outcome) => {
        if (aborted) return
        res.cork(() => {
          res.upgrade<SocketData>({ outcome, batch }, key, protocol, extensions, context)
        })
      })
    },
    open: (ws: WebSocket<SocketData>) => {
      const data = ws.getUserData()
      const outcome = data.outcome
      if (outcome._tag === "Refused") {
        ws.end(outcome.code, outcome.reason)
        return
      }
      open.add(ws)
      const topicOf = data.batch ? batchedTopic : (topic: string) => topic
      data.session = node.open(outcome.viewer, {
        send: (_frame, json) => {
          ws.send(json, false)
        },
        join: (topic) => {
          ws.subscribe(topicOf(topic))
        },
        leave: (topic) => {
          ws.unsubscribe(topicOf(topic))
        },
        close: (code, reason) => {
          ws.end(code, reason.slice(0, 120))
        }
      })
    },
    message: (ws, message, isBinary) => {
      const session = ws.getUserData().session
      if (session === undefined) return
      if (isBinary) return session.handle("binary frames are not accepted")
      if (message.byteLength > MAX_FRAME_BYTES) return session.handle(`frames are limited to ${MAX_FRAME_BYTES} bytes`)
      let value: unknown
      try {
        value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(message))
      } catch {
        return session.handle("not a JSON text frame")
      }
      session.handle(parseClientFrame(value))
    },
    close: (ws) => {
      open.delete(ws)
      const data = ws.getUserData()
      if (data.session !== undefined) node.closed(data.session)
    }
  })
  return {
    closeAll: () => {
      for (const ws of [...open]) ws.end(1001, "server shutting down")
    }
  }
}

export { CloseCode }
