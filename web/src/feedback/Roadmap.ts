/**
 * A feedback board's roadmap: one column per status type (open → declined),
 * its requests most voted first, each with its vote count. Either a board of
 * the workspace (`GET /feedback/v1/boards/{id}/roadmap`) or a public board by
 * slug (`GET /feedback/v1/public/boards/{slug}/roadmap`, no account needed).
 * Live: the board's stream ticket, then `subscribe` with scope `board`; every
 * board event re-reads the roadmap (one read, served from the Board actor's
 * memory), and a reconnect resumes from `lastSeq` (see ../live/Stream.ts).
 * Keyboard: ↑/↓ step through a column's requests, ←/→ across columns.
 */
import { ApiError, api, currentSession } from "../api.ts"
import { openStream, type StreamState, type TicketSource } from "../live/Stream.ts"
import { announce, h, mount } from "../dom.ts"

/** What the roadmap shows: a workspace board by id, or a public board by slug. */
export type RoadmapSource =
  | { readonly kind: "board"; readonly workspaceId: string; readonly boardId: string }
  | { readonly kind: "public"; readonly slug: string; readonly workspaceId?: string | undefined }

interface Status {
  readonly name: string
  readonly color: string
}
interface Request {
  readonly id: string
  readonly shortId: string
  readonly title: string
  readonly voteCount: number
  readonly commentCount: number
  readonly status: Status | null
}
interface Column {
  readonly type: string
  readonly items: ReadonlyArray<Request>
}
interface Roadmap {
  readonly boardId: string
  readonly name: string
  readonly description: string
  readonly columns: ReadonlyArray<Column>
}

const TYPE_LABELS: Record<string, string> = {
  open: "Open",
  under_review: "Under review",
  planned: "Planned",
  in_progress: "In progress",
  shipped: "Shipped",
  declined: "Declined"
}

/** Shows a stream's state in its indicator (`data-state` styles it; the text says it). */
const showStreamState = (indicator: HTMLElement, value: StreamState | "offline") => {
  indicator.dataset.state = value
  indicator.textContent =
    value === "live"
      ? "● live"
      : value === "reconnecting"
        ? "reconnecting…"
        : value === "closed"
          ? "disconnected"
          : value === "connecting"
            ? "connecting…"
            : "not live"
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`

const ticketOf = (boardId: string) => () => api<{ url: string }>("POST", `/feedback/v1/boards/${encodeURIComponent(boardId)}/stream-ticket`)

/** Reads the roadmap (and the board's name) from the authenticated or the public operations. */
const readRoadmap = async (source: RoadmapSource): Promise<Roadmap> => {
  if (source.kind === "board") {
    const base = `/feedback/v1/boards/${encodeURIComponent(source.boardId)}`
    const [board, roadmap] = await Promise.all([
      api<{ id: string; name: string; description: string }>("GET", base),
      api<{ columns: Array<{ type: string; items: Array<Request> }> }>("GET", `${base}/roadmap`)
    ])
    return { boardId: board.id, name: board.name, description: board.description, columns: roadmap.columns }
  }
  const base = `/feedback/v1/public/boards/${encodeURIComponent(source.slug)}`
  const query = source.workspaceId === undefined ? "" : `?workspaceId=${encodeURIComponent(source.workspaceId)}`
  const [board, roadmap] = await Promise.all([
    api<{ id: string; name: string; description: string }>("GET", `${base}${query}`),
    api<{ columns: Array<{ type: string; requests: Array<Request> }> }>("GET", `${base}/roadmap${query}`)
  ])
  return {
    boardId: board.id,
    name: board.name,
    description: board.description,
    columns: roadmap.columns.map((c) => ({ type: c.type, items: c.requests }))
  }
}

export const showRoadmap = (main: HTMLElement, source: RoadmapSource) => {
  const state = h("span", { className: "live-state", "data-state": "connecting" }, "connecting…")
  const title = h("h1", { id: "roadmap-title" }, "Roadmap")
  const description = h("p", { className: "muted" })
  const columns = h("div", { className: "board-columns roadmap-columns" })
  let stopped = false
  let stopStream: (() => void) | undefined
  let loading: Promise<void> | undefined
  let again = false

  const refreshButton = h("button", { type: "button", onclick: () => void reload() }, "Refresh")
  mount(
    main,
    h(
      "section",
      { className: "board roadmap", "aria-labelledby": "roadmap-title" },
      h(
        "header",
        {},
        source.kind === "board" ? h("a", { href: `/w/${source.workspaceId}/feedback` }, "← Boards") : h("a", { href: "/" }, "← Atrium"),
        title,
        state,
        refreshButton
      ),
      description,
      h("p", { className: "muted", id: "roadmap-help" }, "Focus a request, then use ↑ / ↓ within a column and ← / → between columns."),
      columns
    )
  )

  /** Arrow keys move focus between requests (the roadmap is read-only: nothing to activate). */
  const navigate = (event: KeyboardEvent) => {
    const current = event.target as HTMLElement
    const column = current.closest(".column")
    if (column === null || !current.classList.contains("request-card")) return
    const all = [...columns.querySelectorAll<HTMLElement>(".column")]
    const cardsOf = (c: Element) => [...c.querySelectorAll<HTMLElement>(".request-card")]
    const row = cardsOf(column).indexOf(current)
    let target: HTMLElement | undefined
    if (event.key === "ArrowDown") target = cardsOf(column)[row + 1]
    else if (event.key === "ArrowUp") target = cardsOf(column)[row - 1]
    else if (event.key === "ArrowRight" || event.key === "ArrowLeft") {
      const step = event.key === "ArrowRight" ? 1 : -1
      for (let i = all.indexOf(column as HTMLElement) + step; i >= 0 && i < all.length; i += step) {
        const cards = cardsOf(all[i]!)
        if (cards.length > 0) {
          target = cards[Math.min(row, cards.length - 1)]
          break
        }
      }
    } else return
    event.preventDefault()
    target?.focus()
  }

  const card = (request: Request) =>
    h(
      "li",
      { className: "task-card request-card", tabindex: "0", "data-request-id": request.id, "aria-describedby": "roadmap-help" },
      h("span", { className: "short-id" }, request.shortId),
      h("span", { className: "task-name" }, request.title),
      h(
        "span",
        { className: "request-meta" },
        h("span", { className: "votes", "aria-label": plural(request.voteCount, "vote") }, `▲ ${request.voteCount}`),
        request.status ? h("span", { className: "muted" }, ` · ${request.status.name}`) : null,
        request.commentCount > 0 ? h("span", { className: "muted" }, ` · ${plural(request.commentCount, "comment")}`) : null
      )
    )

  /** Where each request was at the last drawing (request id → status type), to announce live changes. */
  let placed: Map<string, string> | undefined

  /** Tells screen readers what a live update added or moved (not the first drawing). */
  const announceChanges = (roadmap: Roadmap) => {
    const now = new Map(roadmap.columns.flatMap((c) => c.items.map((r) => [r.id, c.type] as const)))
    const before = placed
    placed = now
    if (before === undefined) return
    const changes = roadmap.columns.flatMap((c) =>
      c.items.flatMap((r) => {
        const was = before.get(r.id)
        if (was === c.type) return []
        const where = TYPE_LABELS[c.type] ?? c.type
        return [was === undefined ? `${r.shortId} ${r.title} added to ${where}` : `${r.shortId} ${r.title} moved to ${where}`]
      })
    )
    if (changes.length > 0) announce(changes.length <= 3 ? changes.join("; ") : `${changes.length} requests changed`)
  }

  /** Draws the columns; the request that had keyboard focus keeps it wherever it moved. */
  const render = (roadmap: Roadmap) => {
    announceChanges(roadmap)
    const focused = (document.activeElement as HTMLElement | null)?.dataset?.requestId
    title.textContent = `${roadmap.name} · Roadmap`
    description.textContent = roadmap.description
    mount(
      columns,
      ...roadmap.columns.map((column) => {
        const headingId = `roadmap-${column.type}`
        return h(
          "section",
          { className: "column", "data-status-type": column.type, "aria-labelledby": headingId, onkeydown: navigate },
          h(
            "h2",
            { id: headingId },
            `${TYPE_LABELS[column.type] ?? column.type} `,
            h("span", { className: "count" }, String(column.items.length))
          ),
          column.items.length === 0
            ? h("p", { className: "muted" }, "Nothing here yet.")
            : h("ul", { className: "cards", "aria-labelledby": headingId }, ...column.items.map(card))
        )
      })
    )
    if (focused !== undefined) columns.querySelector<HTMLElement>(`[data-request-id="${focused}"]`)?.focus()
  }

  const showError = (cause: unknown) =>
    mount(
      columns,
      h("p", { className: "error", role: "alert" }, cause instanceof ApiError ? cause.message : "The roadmap could not be loaded")
    )

  /** One read at a time; events arriving meanwhile ask for one more read after it. */
  const reload = (): Promise<void> => {
    if (loading !== undefined) {
      again = true
      return loading
    }
    loading = readRoadmap(source)
      .then((roadmap) => {
        if (!stopped) render(roadmap)
        return roadmap
      })
      .then(
        () => undefined,
        (cause) => {
          if (!stopped) showError(cause)
        }
      )
      .finally(() => {
        loading = undefined
        if (again && !stopped) {
          again = false
          void reload()
        }
      })
    return loading
  }

  const follow = (ticket: TicketSource, boardId: string) => {
    let subscribed = false
    stopStream = openStream(ticket, "board", boardId, {
      event: () => void reload(),
      resync: () => void reload(),
      state: (value) => {
        showStreamState(state, value)
        // Changes between the first read and the first subscription are in no replay: read once more.
        if (value === "live" && !subscribed) {
          subscribed = true
          void reload()
        }
      }
    })
  }

  /** A public board is live for those the board's stream lets in (signed in, and allowed to see it). */
  const followPublic = async () => {
    const first = await readRoadmap(source).catch((cause) => {
      showError(cause)
      return undefined
    })
    if (first === undefined || stopped) return showStreamState(state, "offline")
    render(first)
    if (currentSession() === undefined) return showStreamState(state, "offline")
    const fresh = ticketOf(first.boardId)
    let prefetched = await fresh().catch(() => undefined)
    if (stopped) return
    if (prefetched === undefined) return showStreamState(state, "offline")
    follow(() => {
      const ready = prefetched
      prefetched = undefined
      return ready === undefined ? fresh() : Promise.resolve(ready)
    }, first.boardId)
  }

  if (source.kind === "board") {
    follow(ticketOf(source.boardId), source.boardId)
    void reload()
  } else void followPublic()

  return () => {
    stopped = true
    stopStream?.()
  }
}
