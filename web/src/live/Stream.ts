/**
 * One live stream subscription over the raw socket: a single-use ticket
 * (pm's `POST /pm/v1/ws/ticket`, or a feedback board's stream ticket), the
 * socket with `batch=1` (a `batch` frame carries several frames, each handled
 * as if it came alone), and after any drop a new ticket and `subscribe` with
 * `lastSeq` = the highest seq handled, so the events missed meanwhile are
 * replayed. Framework-free: the React side is PmLive.tsx.
 */

export interface StreamEvent {
  readonly seq: number
  readonly type: string
  readonly scope: string
  readonly entityId: string
  readonly path: Record<string, string | undefined>
  readonly data: Record<string, unknown>
  readonly actorId?: string | null
}

export type StreamState = "connecting" | "live" | "reconnecting" | "closed"

export interface StreamHandlers {
  readonly event: (event: StreamEvent) => void
  /** A frame that is not a change event (e.g. `notification`). */
  readonly other?: (frame: Record<string, unknown>) => void
  /** The log no longer holds what was missed: reload everything. */
  readonly resync: () => void
  readonly state: (state: StreamState) => void
}

/** Closed for good: the ticket or membership is gone (4403: no longer a member). */
const FINAL_CODES = new Set([4403])

/** Asks for a single-use ticket; answers the raw socket's URL. */
export type TicketSource = () => Promise<{ readonly url: string }>

export const openStream = (ticket: TicketSource, scope: string, id: string, handlers: StreamHandlers): (() => void) => {
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
    } else handlers.other?.(frame)
  }

  const connect = async () => {
    if (stopped) return
    try {
      const { url } = await ticket()
      if (stopped) return
      const target = new URL(url, location.href)
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

  handlers.state("connecting")
  void connect()
  return () => {
    stopped = true
    clearTimeout(timer)
    socket?.close(1000, "done")
  }
}
