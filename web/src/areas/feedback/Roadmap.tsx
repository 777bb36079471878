/**
 * A board's roadmap: one column per status type, each request with its short
 * id, title, votes and comments. Used by the team's live board and the public
 * portal; `linkOf` says where a request opens.
 */
import { Link } from "react-router"

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

export const RoadmapView = ({
  columns,
  linkOf
}: {
  readonly columns: ReadonlyArray<RoadmapColumn>
  readonly linkOf: (card: RoadmapCard) => string
}) => (
  <div className="roadmap">
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
                <Link to={linkOf(card)}>
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
  </div>
)
