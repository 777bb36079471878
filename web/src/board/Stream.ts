/**
 * The live stream for one subscription: a WebSocket ticket (pm's
 * `POST /pm/v1/ws/ticket`, or another service's, e.g. a feedback board's
 * stream ticket), the raw socket (`/pm/v1/ws?ticket=…`), and
 * after any drop a new ticket and `subscribe` with `lastSeq` = the highest
 * seq handled, so the events missed meanwhile are replayed.
 */
import { api } from "../api.ts"

export interface StreamEvent {
  readonly seq: number
  readonly type: string
  readonly scope: string
  readonly entityId: string
  readonly path: Record<string, string>
  readonly data: Record<string, unknown>
}

export interface StreamHandlers {
  readonly event: (event: StreamEvent) => void
  /** The log no longer holds what was missed: reload everything. */
  readonly resync: () => void
  readonly state: (state: "live" | "reconnecting" | "closed") => void
}

/** Closed for good: the ticket or membership is gone (4403: no longer a member). */
const FINAL_CODES = new Set([4403])

/** Asks for a single-use ticket; answers the raw socket's URL. */
export type TicketSource = () => Promise<{ readonly url: string }>

/** pm's workspace ticket (any scope of the workspace may then be subscribed). */
export const workspaceTicket =
  (workspaceId: string): TicketSource =>
  () =>
    api<{ url: string }>("POST", "/pm/v1/ws/ticket", { workspaceId })

export const openStream = (ticket: TicketSource, scope: string, id: string, handlers: StreamHandlers) => {
  let lastSeq: number | undefined
  let socket: WebSocket | undefined
  let stopped = false
  let attempt = 0
  let timer: ReturnType<typeof setTimeout> | undefined

  const handle = (frame: Record<string, unknown>) => {
    if (frame.type === "batch" && Array.isArray(frame.frames)) {
      for (const inner of frame.frames) handle(inner as Record<string, unknown>)
      return
    }
    if (typeof frame.seq === "number" && typeof frame.entityId === "string") {
      if (lastSeq !== undefined && frame.seq <= lastSeq) return
      lastSeq = frame.seq
      handlers.event(frame as unknown as StreamEvent)
    } else if (frame.type === "subscribed") {
      attempt = 0
      if (lastSeq === undefined && typeof frame.seq === "number") lastSeq = frame.seq
      handlers.state("live")
    } else if (frame.type === "resync") {
      if (typeof frame.seq === "number") lastSeq = frame.seq
      handlers.resync()
    }
  }

  const connect = async () => {
    if (stopped) return
    try {
      const { url } = await ticket()
      if (stopped) return
      const target = new URL(url)
      target.protocol = location.protocol === "https:" ? "wss:" : "ws:"
      target.host = location.host
      target.searchParams.set("batch", "1")
      const ws = new WebSocket(target)
      socket = ws
      ws.onopen = () => ws.send(JSON.stringify({ type: "subscribe", scope, id, ...(lastSeq !== undefined ? { lastSeq } : {}) }))
      ws.onmessage = (message) => handle(JSON.parse(String(message.data)))
      ws.onclose = (event) => {
        if (socket !== ws) return
        socket = undefined
        if (stopped) return
        if (FINAL_CODES.has(event.code)) return handlers.state("closed")
        retry()
      }
    } catch {
      retry()
    }
  }

  const retry = () => {
    if (stopped) return
    handlers.state("reconnecting")
    const delay = Math.min(5000, 200 * 2 ** attempt++) * (0.75 + Math.random() / 2)
    timer = setTimeout(() => void connect(), delay)
  }

  void connect()
  return () => {
    stopped = true
    clearTimeout(timer)
    socket?.close(1000, "done")
  }
}

/** Shows a stream's state in its indicator (`data-state` styles it; the text says it). */
export const showStreamState = (indicator: HTMLElement, value: "live" | "reconnecting" | "closed" | "offline") => {
  indicator.dataset.state = value
  indicator.textContent =
    value === "live" ? "● live" : value === "reconnecting" ? "reconnecting…" : value === "closed" ? "disconnected" : "not live"
}
