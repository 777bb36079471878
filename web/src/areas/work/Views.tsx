/**
 * A list's tasks as a list (grouped by status) or a table (sortable columns,
 * `aria-sort` on the sorted one). Each task opens in the drawer (`?task=`).
 */
import { Link, useLocation, useSearchParams } from "react-router"
import type { Filters, SortKey } from "./filters.ts"
import type { Status, Task } from "./queries.ts"
import { formatDate, isOverdue, TaskMeta } from "./TaskMeta.tsx"

/** The link that opens a task in the drawer, keeping the view and its filters. */
export const useTaskLink = () => {
  const location = useLocation()
  const [params] = useSearchParams()
  return (taskId: string) => {
    const next = new URLSearchParams(params)
    next.set("task", taskId)
    return { pathname: location.pathname, search: `?${next}` }
  }
}

export const ListView = ({ tasks, statuses }: { readonly tasks: ReadonlyArray<Task>; readonly statuses: ReadonlyArray<Status> }) => {
  const linkTo = useTaskLink()
  return (
    <div className="list-view">
      {statuses.map((status) => {
        const mine = tasks.filter((task) => task.status.name.toLowerCase() === status.name.toLowerCase())
        if (mine.length === 0) return null
        const id = `group-${status.name.replace(/\W+/g, "-")}`
        return (
          <section key={status.name} aria-labelledby={id} className="group">
            <h2 id={id}>
              <span className="swatch" style={{ background: status.color }} aria-hidden="true" />
              {status.name} <span className="count">{mine.length}</span>
            </h2>
            <ul className="rows">
              {mine.map((task) => (
                <li key={task.id}>
                  <Link to={linkTo(task.id)}>
                    <span className="short-id">{task.shortId}</span> {task.name}
                  </Link>
                  <TaskMeta task={task} />
                </li>
              ))}
            </ul>
          </section>
        )
      })}
      {tasks.length === 0 ? <p>No tasks match.</p> : null}
    </div>
  )
}

const COLUMNS: ReadonlyArray<{ readonly key: SortKey; readonly label: string }> = [
  { key: "name", label: "Task" },
  { key: "status", label: "Status" },
  { key: "assignee", label: "Assignees" },
  { key: "priority", label: "Priority" },
  { key: "due", label: "Due" }
]

export const TableView = ({ tasks, filters }: { readonly tasks: ReadonlyArray<Task>; readonly filters: Filters }) => {
  const [params, setParams] = useSearchParams()
  const linkTo = useTaskLink()
  const sortBy = (key: SortKey) => {
    const next = new URLSearchParams(params)
    const dir = filters.sort === key && filters.dir === "asc" ? "desc" : "asc"
    next.set("sort", key)
    next.set("dir", dir)
    setParams(next, { replace: true })
  }
  return (
    <div className="table-wrap">
      <table className="tasks-table">
        <caption className="visually-hidden">Tasks, sortable by column</caption>
        <thead>
          <tr>
            {COLUMNS.map((column) => (
              <th
                key={column.key}
                scope="col"
                aria-sort={filters.sort === column.key ? (filters.dir === "asc" ? "ascending" : "descending") : undefined}
              >
                <button type="button" className="sort" onClick={() => sortBy(column.key)}>
                  {column.label}
                  <span aria-hidden="true">{filters.sort === column.key ? (filters.dir === "asc" ? " ▲" : " ▼") : ""}</span>
                </button>
              </th>
            ))}
            <th scope="col">Tags</th>
          </tr>
        </thead>
        <tbody>
          {tasks.map((task) => (
            <tr key={task.id}>
              <td>
                <Link to={linkTo(task.id)}>
                  <span className="short-id">{task.shortId}</span> {task.name}
                </Link>
              </td>
              <td>{task.status.name}</td>
              <td>{task.assignees.map((a) => a.name).join(", ")}</td>
              <td>{task.priority ?? ""}</td>
              <td className={isOverdue(task) ? "overdue" : undefined}>{task.dueDate !== null ? formatDate(task.dueDate) : ""}</td>
              <td>{task.tags.map((t) => t.name).join(", ")}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {tasks.length === 0 ? <p>No tasks match.</p> : null}
    </div>
  )
}
