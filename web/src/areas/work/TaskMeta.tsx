/** A task's priority, due date (overdue marked) and assignees, in words a screen reader reads well. */
import type { Task } from "./queries.ts"

export const formatDate = (iso: string) => new Date(iso).toLocaleDateString(undefined, { day: "numeric", month: "short" })

export const isOverdue = (task: Pick<Task, "dueDate" | "closedAt">) =>
  task.dueDate !== null && task.closedAt === null && new Date(task.dueDate).getTime() < Date.now()

export const TaskMeta = ({ task }: { readonly task: Task }) => (
  <span className="task-meta">
    {task.priority !== null && task.priority !== "normal" ? <span className={`priority ${task.priority}`}>{task.priority}</span> : null}
    {task.dueDate !== null ? (
      <span className={isOverdue(task) ? "due overdue" : "due"}>
        {isOverdue(task) ? "Overdue: " : "Due "}
        {formatDate(task.dueDate)}
      </span>
    ) : null}
    {task.assignees.length > 0 ? <span className="assignees">{task.assignees.map((a) => a.name).join(", ")}</span> : null}
    {task.tags.length > 0 ? <span className="tags">{task.tags.map((t) => `#${t.name}`).join(" ")}</span> : null}
  </span>
)
