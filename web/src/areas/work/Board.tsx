/**
 * A list as a board: a column per status, a card per top-level task. Cards
 * move by drag and drop or from the keyboard (focus a card, Shift+→ /
 * Shift+←), each move a `PATCH /pm/v1/tasks/{taskId}` of its status, and up or
 * down their column (Shift+↑ / Shift+↓, `PUT …/position`), shown at once and
 * undone if refused. Live: the stream's updates land in the same
 * cache entry, so moves made elsewhere appear without a reload.
 */
import { useQueryClient } from "@tanstack/react-query"
import { type DragEvent, type KeyboardEvent, useLayoutEffect, useRef } from "react"
import { Link } from "react-router"
import { client, data, messageOf } from "../../api/client.ts"
import { placeTask } from "../../live/pmCache.ts"
import { announce } from "../../ui/announce.tsx"
import { TaskMeta } from "./TaskMeta.tsx"
import type { Status, Task } from "./queries.ts"
import { useTaskLink } from "./Views.tsx"

const sameStatus = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()

/** Changes a task's status: in the cache first, then on the server (undone when refused). */
export const useMoveTask = () => {
  const queryClient = useQueryClient()
  return async (task: Task, status: Status) => {
    if (sameStatus(task.status.name, status.name)) return
    placeTask(queryClient, task.id, { ...task, status })
    try {
      const updated = data(
        await client.PATCH("/pm/v1/tasks/{taskId}", { params: { path: { taskId: task.id } }, body: { status: status.name } })
      )
      placeTask(queryClient, task.id, updated)
      announce(`${task.name} moved to ${status.name}`)
    } catch (cause) {
      placeTask(queryClient, task.id, task)
      announce(messageOf(cause, "The move failed"))
    }
  }
}

/** Moves a task up or down within its column (`PUT …/position` after its new predecessor), shown at once. */
const useReorderTask = () => {
  const queryClient = useQueryClient()
  return async (task: Task, column: ReadonlyArray<Task>, step: -1 | 1) => {
    const others = column.filter((t) => t.id !== task.id)
    const index = column.findIndex((t) => t.id === task.id) + step
    if (index < 0 || index > others.length) return
    const before = others[index - 1]
    const after = others[index]
    const position =
      before === undefined
        ? Number(after!.position) - 1
        : after === undefined
          ? Number(before.position) + 1
          : (Number(before.position) + Number(after.position)) / 2
    placeTask(queryClient, task.id, { ...task, position })
    try {
      data(
        await client.PUT("/pm/v1/tasks/{taskId}/position", {
          params: { path: { taskId: task.id } },
          body: { afterTaskId: before?.id ?? null }
        })
      )
      placeTask(queryClient, task.id, data(await client.GET("/pm/v1/tasks/{taskId}", { params: { path: { taskId: task.id } } })))
      announce(`${task.name} moved ${step < 0 ? "up" : "down"}`)
    } catch (cause) {
      placeTask(queryClient, task.id, task)
      announce(messageOf(cause, "The move failed"))
    }
  }
}

export const Board = ({ tasks, statuses }: { readonly tasks: ReadonlyArray<Task>; readonly statuses: ReadonlyArray<Status> }) => {
  const move = useMoveTask()
  const reorder = useReorderTask()
  const linkTo = useTaskLink()
  const columns = useRef<HTMLDivElement>(null)
  /** The card that had keyboard focus: a move or a live update re-renders it elsewhere, and it keeps focus. */
  const focused = useRef<string | undefined>(undefined)

  useLayoutEffect(() => {
    // Only when focus fell to the page (its card was re-rendered elsewhere), never away from where the person put it.
    if (focused.current === undefined || (document.activeElement !== null && document.activeElement !== document.body)) return
    const card = columns.current?.querySelector<HTMLElement>(`[data-task-id="${focused.current}"]`)
    card?.focus()
  })

  const onKey = (task: Task, column: ReadonlyArray<Task>) => (event: KeyboardEvent) => {
    if (!event.shiftKey) return
    if (event.key === "ArrowUp" || event.key === "ArrowDown") {
      event.preventDefault()
      void reorder(task, column, event.key === "ArrowUp" ? -1 : 1)
      return
    }
    if (event.key !== "ArrowRight" && event.key !== "ArrowLeft") return
    event.preventDefault()
    const index = statuses.findIndex((s) => sameStatus(s.name, task.status.name))
    const next = statuses[index + (event.key === "ArrowRight" ? 1 : -1)]
    if (next !== undefined) void move(task, next)
  }

  const onDrop = (status: Status) => (event: DragEvent) => {
    event.preventDefault()
    const task = tasks.find((t) => t.id === event.dataTransfer.getData("text/plain"))
    if (task !== undefined) void move(task, status)
  }

  return (
    <div className="board-columns" ref={columns}>
      <p className="visually-hidden" id="board-help">
        Press Shift+Right or Shift+Left to move the task to the next or previous status, Shift+Up or Shift+Down to move it within its
        column.
      </p>
      {statuses.map((status) => {
        const mine = tasks.filter((t) => sameStatus(t.status.name, status.name)).sort((a, b) => Number(a.position) - Number(b.position))
        return (
          <section
            key={status.name}
            className="column"
            aria-label={status.name}
            data-status={status.name}
            onDragOver={(event) => event.preventDefault()}
            onDrop={onDrop(status)}
          >
            <h2>
              <span className="swatch" style={{ background: status.color }} aria-hidden="true" />
              {status.name} <span className="count">{mine.length}</span>
            </h2>
            <ul className="cards">
              {mine.map((task) => (
                <li key={task.id} className="task-card">
                  <Link
                    to={linkTo(task.id)}
                    data-task-id={task.id}
                    draggable
                    aria-describedby="board-help"
                    onDragStart={(event) => event.dataTransfer.setData("text/plain", task.id)}
                    onKeyDown={onKey(task, mine)}
                    onFocus={() => {
                      focused.current = task.id
                    }}
                    onBlur={(event) => {
                      // Focus moved elsewhere on purpose (not the card re-rendered in another column): forget it.
                      const next = event.relatedTarget as Node | null
                      if (next !== null && !columns.current?.contains(next)) focused.current = undefined
                    }}
                  >
                    <span className="short-id">{task.shortId}</span> <span className="task-name">{task.name}</span>
                  </Link>
                  <TaskMeta task={task} />
                </li>
              ))}
            </ul>
          </section>
        )
      })}
    </div>
  )
}
