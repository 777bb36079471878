/**
 * The Socket.IO endpoint of pm live updates, attached to the same uWS app
 * (`io.attachApp`), path `/pm/socket.io`, ticket in the handshake `auth`.
 * Same sessions, same frames as the raw socket: every server frame arrives as
 * the `event` event; clients `emit("subscribe", {scope, id, lastSeq?})` and
 * `emit("unsubscribe", {scope, id})`. With `batch: true` in `auth`, like the
 * raw socket's `batch=1`, `event` may also carry `{type: "batch", frames}`.
 *
 * - A refused ticket fails the handshake: `connect_error` with
 *   `data: {code: 4401}`. Malformed frames get an `error` frame with
 *   `closeCode: 4400`, then the socket is disconnected.
 * - Rooms are the same topics as the raw socket's, broadcast with uWS's
 *   native publish (socket.io's uWS support, pinned to this server's app:
 *   see SocketIoInternals).
 * - The uWS behaviour socket.io registers gets `maxBackpressure` and
 *   `closeOnBackpressureLimit`, so a slow Socket.IO client is cut off (and
 *   resumes with `lastSeq`) rather than silently skipped by publish.
 */
import { Server, type Socket } from "socket.io"
import type { TemplatedApp } from "../facade/uws.ts"
import { CloseCode, type ClientFrame, parseClientFrame, type StreamSession } from "./StreamSession.ts"
import type { Viewer } from "../actors/pm/Visibility.ts"
import type { StreamNode } from "./StreamNode.ts"
import { batchedTopic } from "./StreamTopics.ts"
import { attachAppPinned } from "./SocketIoInternals.ts"

export const SOCKET_IO_PATH = "/pm/socket.io"

export interface SocketIoStreams {
  /** Emits `frame` as the `event` event to the room `topic` (nothing when the room is empty). */
  readonly publish: (topic: string, frame: object) => void
  readonly close: () => Promise<void>
}

/** The app as socket.io sees it: WebSocket behaviours it registers get our backpressure policy. */
const withBackpressure = (app: TemplatedApp, maxBackpressure: number): TemplatedApp =>
  new Proxy(app, {
    get(target, property) {
      if (property === "ws") {
        // closeOnBackpressureLimit `true`, not 1: see StreamSocket.
        return (pattern: string, behavior: object) =>
          target.ws(pattern, { ...behavior, maxBackpressure, closeOnBackpressureLimit: true as never })
      }
      const value = Reflect.get(target, property)
      return typeof value === "function" ? value.bind(target) : value
    }
  })

const asFrame = (type: ClientFrame["type"], payload: unknown): ClientFrame | string => {
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) return `${type} expects an object {scope, id}`
  const fields = payload as Record<string, unknown>
  if (fields.type !== undefined && fields.type !== type) return "type does not match the event"
  return parseClientFrame({ ...fields, type })
}

export const attachSocketIo = (app: TemplatedApp, node: StreamNode, maxBackpressure: number): SocketIoStreams => {
  const io = new Server({
    path: SOCKET_IO_PATH,
    serveClient: false,
    maxHttpBufferSize: 16 * 1024,
    cors: { origin: true }
  })
  attachAppPinned(io, withBackpressure(app, maxBackpressure))
  const namespace = io.of("/")

  io.use((socket, next) => {
    const auth = socket.handshake.auth as { ticket?: unknown; batch?: unknown } | undefined
    const ticket = auth?.ticket
    socket.data.batch = auth?.batch === true
    void node.authorize(typeof ticket === "string" ? ticket : "").then((outcome) => {
      if (outcome._tag === "Refused") {
        next(Object.assign(new Error(outcome.reason), { data: { code: outcome.code } }))
        return
      }
      socket.data.viewer = outcome.viewer
      next()
    })
  })

  io.on("connection", (socket: Socket) => {
    const viewer = socket.data.viewer as Viewer
    const topicOf = socket.data.batch === true ? batchedTopic : (topic: string) => topic
    const session = node.open(viewer, {
      send: (frame) => {
        socket.emit("event", frame)
      },
      join: (topic) => {
        void socket.join(topicOf(topic))
      },
      leave: (topic) => {
        void socket.leave(topicOf(topic))
      },
      close: (code, reason) => {
        socket.emit("event", {
          type: "error",
          code: code === CloseCode.malformed ? "malformed" : "closed",
          closeCode: code,
          message: reason
        })
        socket.disconnect(true)
      }
    })
    socket.onAny((event: string, payload: unknown) => {
      if (event === "subscribe" || event === "unsubscribe") session.handle(asFrame(event, payload))
      else session.handle(`unknown event "${String(event).slice(0, 40)}"`)
    })
    socket.on("disconnect", () => node.closed(session))
  })

  return {
    publish: (topic, frame) => {
      const room = namespace.adapter.rooms.get(topic)
      if (room !== undefined && room.size > 0) namespace.to(topic).emit("event", frame)
    },
    close: () => io.close().catch(() => {})
  }
}

export type { StreamSession }
