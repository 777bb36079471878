/**
 * The filter bar of a list: assignee, status, tag, due date and a text search, all kept in the URL.
 * Changing one leaves the saved view that set them (`saved`): the page no longer shows that view.
 */
import { useSearchParams } from "react-router"
import { type Filters, hasFilters } from "./filters.ts"
import type { Status, Task } from "./queries.ts"

interface Member {
  readonly userId: string
  readonly name: string
}

export const FilterBar = ({
  filters,
  statuses,
  members,
  tasks,
  shown
}: {
  readonly filters: Filters
  readonly statuses: ReadonlyArray<Status>
  readonly members: ReadonlyArray<Member>
  readonly tasks: ReadonlyArray<Task>
  readonly shown: number
}) => {
  const [params, setParams] = useSearchParams()
  const set = (name: string, value: string) => {
    const next = new URLSearchParams(params)
    next.delete("saved")
    if (value === "") next.delete(name)
    else next.set(name, value)
    setParams(next, { replace: true })
  }
  const tags = [...new Set(tasks.flatMap((task) => task.tags.map((tag) => tag.name)))].sort()
  const clear = () => {
    const next = new URLSearchParams(params)
    for (const name of ["assignee", "status", "tag", "due", "q", "saved"]) next.delete(name)
    setParams(next, { replace: true })
  }
  return (
    <search className="filters" aria-label="Filter tasks">
      <label>
        <span>Assignee</span>
        <select value={filters.assignee} onChange={(event) => set("assignee", event.target.value)}>
          <option value="">Anyone</option>
          <option value="none">Unassigned</option>
          {members.map((member) => (
            <option key={member.userId} value={member.userId}>
              {member.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        <span>Status</span>
        <select value={filters.status} onChange={(event) => set("status", event.target.value)}>
          <option value="">Any status</option>
          {statuses.map((status) => (
            <option key={status.name} value={status.name}>
              {status.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        <span>Tag</span>
        <select value={filters.tag} onChange={(event) => set("tag", event.target.value)}>
          <option value="">Any tag</option>
          {tags.map((tag) => (
            <option key={tag} value={tag}>
              {tag}
            </option>
          ))}
        </select>
      </label>
      <label>
        <span>Due</span>
        <select value={filters.due} onChange={(event) => set("due", event.target.value)}>
          <option value="">Any time</option>
          <option value="overdue">Overdue</option>
          <option value="week">Due within a week</option>
          <option value="none">No due date</option>
        </select>
      </label>
      <label>
        <span>Search</span>
        <input type="search" value={filters.q} onChange={(event) => set("q", event.target.value)} placeholder="Name or id" />
      </label>
      {hasFilters(filters) ? (
        <button type="button" onClick={clear}>
          Clear filters
        </button>
      ) : null}
      <output className="muted" aria-live="polite">
        {shown} of {tasks.length} tasks
      </output>
    </search>
  )
}
