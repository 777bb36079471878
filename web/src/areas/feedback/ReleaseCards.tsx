/**
 * A changelog entry and a milestone as cards, the same for the team's
 * changelog page and the public portal; actions and the milestone's article
 * come in as children.
 */
import type { ReactNode } from "react"
import { day } from "../common/time.ts"
import { ServerHtml } from "./ServerHtml.tsx"

export const changelogKinds = { new: "New", improved: "Improved", fixed: "Fixed" } as const
export type ChangelogKind = keyof typeof changelogKinds

export const ChangelogEntryCard = ({
  title,
  kind,
  dateLine,
  html,
  children
}: {
  readonly title: string
  readonly kind: ChangelogKind
  readonly dateLine: string
  readonly html: string
  readonly children?: ReactNode
}) => (
  <article className="panel" aria-label={title}>
    <h3>
      <span className={`badge badge-${kind}`}>{changelogKinds[kind]}</span> {title}
    </h3>
    <p className="muted small">{dateLine}</p>
    <ServerHtml html={html} />
    {children}
  </article>
)

/** When a milestone shipped or is planned for; `unscheduled` otherwise. */
export const milestoneWhen = (milestone: { readonly releasedAt: string | null; readonly date: string | null }, unscheduled: string) =>
  milestone.releasedAt ? `Released ${day(milestone.releasedAt)}` : milestone.date ? `Planned for ${milestone.date}` : unscheduled

export const MilestoneCard = ({
  name,
  dateLine,
  children
}: {
  readonly name: string
  readonly dateLine: string
  readonly children?: ReactNode
}) => (
  <article className="panel" aria-label={name}>
    <h3>{name}</h3>
    <p className="muted small">{dateLine}</p>
    {children}
  </article>
)
