/**
 * A board's roadmap: one column per status type, each request with its short
 * id, title, votes and comments; used by the team's board and the public
 * portal (`linkOf` says where a request opens). Keyboard: ↑/↓ within a column,
 * ←/→ across columns. A request moving to another column is announced.
 */
import { type KeyboardEvent, useEffect, useRef } from "react"
import { Link } from "react-router"
import { announce } from "../../ui/announce.tsx"

export const statusTypeNames = {
  open: "Open",
  under_review: "Under review",
  planned: "Planned",
  in_progress: "In progress",
  shipped: "Shipped",
  declined: "Declined"
} as const

export type StatusType = keyof typeof statusTypeNames

export interface RoadmapCard {
  readonly id: string
  readonly shortId: string
  readonly title: string
  readonly voteCount: number | string
  readonly commentCount: number | string
}

export interface RoadmapColumn {
  readonly type: StatusType
  readonly items: ReadonlyArray<RoadmapCard>
}

const votes = (count: number | string) => `${String(count)} vote${Number(count) === 1 ? "" : "s"}`

/** Announces the requests that changed column since the last render (a remote change, mostly). */
const useAnnounceMoves = (columns: ReadonlyArray<RoadmapColumn>) => {
  const previous = useRef<ReadonlyMap<string, StatusType> | undefined>(undefined)
  useEffect(() => {
    const now = new Map<string, StatusType>()
    for (const column of columns) for (const card of column.items) now.set(card.id, column.type)
    const before = previous.current
    previous.current = now
    if (before === undefined) return
    for (const column of columns) {
      for (const card of column.items) {
        const was = before.get(card.id)
        if (was !== undefined && was !== column.type) announce(`${card.shortId} ${card.title} moved to ${statusTypeNames[column.type]}`)
      }
    }
  }, [columns])
}

/** Arrow keys move focus between the requests' links. */
const navigate = (event: KeyboardEvent<HTMLDivElement>) => {
  const current = event.target as HTMLElement
  const column = current.closest<HTMLElement>("[data-status-type]")
  if (column === null || !current.classList.contains("request-card")) return
  const all = [...event.currentTarget.querySelectorAll<HTMLElement>("[data-status-type]")]
  const cardsOf = (element: Element) => [...element.querySelectorAll<HTMLElement>(".request-card")]
  const row = cardsOf(column).indexOf(current)
  let target: HTMLElement | undefined
  if (event.key === "ArrowDown") target = cardsOf(column)[row + 1]
  else if (event.key === "ArrowUp") target = cardsOf(column)[row - 1]
  else if (event.key === "ArrowRight" || event.key === "ArrowLeft") {
    const step = event.key === "ArrowRight" ? 1 : -1
    for (let index = all.indexOf(column) + step; index >= 0 && index < all.length && target === undefined; index += step) {
      const cards = cardsOf(all[index]!)
      target = cards[Math.min(row, cards.length - 1)]
    }
  } else return
  event.preventDefault()
  target?.focus()
}

export const RoadmapView = ({
  columns,
  linkOf
}: {
  readonly columns: ReadonlyArray<RoadmapColumn>
  readonly linkOf: (card: RoadmapCard) => string
}) => {
  useAnnounceMoves(columns)
  return (
    <>
      <p className="muted small" id="roadmap-help">
        Focus a request, then use ↑ / ↓ within a column and ← / → between columns.
      </p>
      {/* The columns scroll sideways on a phone: the region takes focus so the keyboard can scroll it even with no card in it. */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable (WCAG 2.1.1) */}
      <section className="roadmap" aria-label="Roadmap columns" tabIndex={0} onKeyDown={navigate}>
        {columns
          .filter((column) => column.type !== "declined")
          .map((column) => (
            <section key={column.type} className="roadmap-column" aria-labelledby={`roadmap-${column.type}`} data-status-type={column.type}>
              <h2 id={`roadmap-${column.type}`}>
                {statusTypeNames[column.type]} <span className="muted">({column.items.length})</span>
              </h2>
              <ul aria-label={statusTypeNames[column.type]}>
                {column.items.map((card) => (
                  <li key={card.id} className="roadmap-card">
                    <Link className="request-card" to={linkOf(card)} aria-describedby="roadmap-help">
                      <span className="muted">{card.shortId}</span> {card.title}
                    </Link>
                    <span className="muted small">
                      {" "}
                      <span aria-hidden="true">▲ {String(card.voteCount)}</span>
                      <span className="visually-hidden">{votes(card.voteCount)}</span> · {String(card.commentCount)} comments
                    </span>
                  </li>
                ))}
              </ul>
            </section>
          ))}
      </section>
    </>
  )
}
