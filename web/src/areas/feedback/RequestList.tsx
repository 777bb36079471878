/**
 * The pieces of a list of feature requests that the team's board and the
 * public portal share: the filter bar kept in the URL's query, the vote
 * toggle and a request's row.
 */
import type { ReactNode } from "react"
import { Link, useSearchParams } from "react-router"
import { type StatusType, statusTypeNames } from "./Roadmap.tsx"

/** A count as the generated client types it (a JSON number, or "Infinity"/"NaN" spelled out). */
type Count = number | string

export interface FilterOption {
  readonly value: string
  readonly label: string
}

export const sorts = { top: "Most votes", trending: "Trending", new: "Newest" } as const
export type Sort = keyof typeof sorts

/** The list's filters as the URL keeps them (`?status=&category=&area=&sort=`), and their setter. */
export const useRequestFilters = () => {
  const [search, setSearch] = useSearchParams()
  const setFilter = (name: string, value: string) =>
    setSearch(
      (current) => {
        const next = new URLSearchParams(current)
        if (value === "") next.delete(name)
        else next.set(name, value)
        return next
      },
      { replace: true }
    )
  return {
    statusType: (search.get("status") ?? "") as StatusType | "",
    category: search.get("category") ?? "",
    area: search.get("area") ?? "",
    sort: (search.get("sort") ?? "top") as Sort,
    setFilter
  }
}

const Choice = ({
  label,
  value,
  options,
  onChange,
  any = true
}: {
  readonly label: string
  readonly value: string
  readonly options: ReadonlyArray<FilterOption>
  readonly onChange: (value: string) => void
  readonly any?: boolean
}) => (
  <label>
    {label}
    <select value={value} onChange={(event) => onChange(event.currentTarget.value)}>
      {any ? <option value="">Any</option> : null}
      {options.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </select>
  </label>
)

/** Filter by status type, category and product area, and sort; the option values are what the URL keeps. */
export const RequestFilters = ({
  statusTypes,
  categories,
  areas
}: {
  readonly statusTypes: ReadonlyArray<StatusType>
  readonly categories: ReadonlyArray<FilterOption>
  readonly areas: ReadonlyArray<FilterOption>
}) => {
  const filters = useRequestFilters()
  return (
    <form className="filters" aria-label="Filter requests" onSubmit={(event) => event.preventDefault()}>
      <Choice
        label="Status"
        value={filters.statusType}
        options={[...new Set(statusTypes)].map((type) => ({ value: type, label: statusTypeNames[type] }))}
        onChange={(value) => filters.setFilter("status", value)}
      />
      <Choice label="Category" value={filters.category} options={categories} onChange={(value) => filters.setFilter("category", value)} />
      <Choice label="Product area" value={filters.area} options={areas} onChange={(value) => filters.setFilter("area", value)} />
      <Choice
        label="Sort"
        value={filters.sort}
        any={false}
        options={Object.entries(sorts).map(([value, label]) => ({ value, label }))}
        onChange={(value) => filters.setFilter("sort", value)}
      />
    </form>
  )
}

/** The ▲ button that votes for a request and takes the vote back. */
export const VoteToggle = ({
  shortId,
  count,
  voted,
  disabled,
  title,
  onToggle
}: {
  readonly shortId: string
  readonly count: Count
  readonly voted: boolean
  readonly disabled: boolean
  readonly title?: string | undefined
  readonly onToggle: () => void
}) => (
  <button
    type="button"
    className={voted ? "vote voted" : "vote"}
    aria-pressed={voted}
    disabled={disabled}
    title={title}
    onClick={onToggle}
    aria-label={`${voted ? "Remove vote from" : "Vote for"} ${shortId}, ${String(count)} vote${Number(count) === 1 ? "" : "s"}`}
  >
    ▲ {String(count)}
  </button>
)

interface RowRequest {
  readonly shortId: string
  readonly title: string
  readonly commentCount: Count
  readonly status: { readonly name: string } | null
  readonly category: { readonly name: string } | null
  readonly productArea: { readonly name: string } | null
}

/** One request in a list: its vote control, its title linking to it, and a line of where it stands. */
export const RequestRow = ({
  request,
  to,
  vote,
  noStatus,
  note
}: {
  readonly request: RowRequest
  readonly to: string
  readonly vote: ReactNode
  readonly noStatus: string
  readonly note?: string | undefined
}) => (
  <li className="request-row">
    {vote}
    <div>
      <Link to={to}>
        <span className="muted">{request.shortId}</span> {request.title}
      </Link>
      <p className="muted small">
        {request.status?.name ?? noStatus}
        {request.category ? ` · ${request.category.name}` : ""}
        {request.productArea ? ` · ${request.productArea.name}` : ""} · {String(request.commentCount)} comments
        {note ? ` · ${note}` : ""}
      </p>
    </div>
  </li>
)
