/**
 * A pm list as a board: one column per status, a card per task. Cards move
 * by drag and drop or from the keyboard (focus a card, Shift+→ / Shift+←),
 * each move a `PATCH /pm/v1/tasks/{id}` of its status. Live: every event of
 * the list's stream re-reads the task it names, so others' changes arrive.
 */
import { ApiError, api } from "../api.ts"
import { announce, h, mount } from "../dom.ts"
import { openStream, type StreamEvent, showStreamState, workspaceTicket } from "./Stream.ts"

interface Status {
  readonly name: string
  readonly type: string
  readonly color: string
}
interface Task {
  readonly id: string
  readonly listId: string
  readonly shortId: string
  readonly name: string
  readonly status: Status
  readonly priority: string | null
  readonly parentTaskId: string | null
  readonly position: number
}

const PAGE = 100
const STATUS_DEFINITIONS = new Set([
  "status.created",
  "status.updated",
  "status.deleted",
  "statuses.reordered",
  "statuses.replaced",
  "statuses.reset"
])

export const showBoard = (main: HTMLElement, workspaceId: string, listId: string) => {
  const tasks = new Map<string, Task>()
  let statuses: Array<Status> = []
  const state = h("span", { className: "live-state", "data-state": "connecting" }, "connecting…")
  const columns = h("div", { className: "board-columns" })
  const title = h("h1", { id: "board-title" }, "Board")
  mount(
    main,
    h(
      "section",
      { className: "board", "aria-labelledby": "board-title" },
      h("header", {}, h("a", { href: `#/w/${workspaceId}` }, "← Workspace"), title, state),
      h(
        "p",
        { className: "muted", id: "board-help" },
        "Drag a card to another column, or focus it and press Shift+→ / Shift+← to change its status."
      ),
      columns
    )
  )
  let stopped = false

  const move = async (task: Task, status: Status) => {
    if (task.status.name === status.name) return
    tasks.set(task.id, { ...task, status })
    render(task.id)
    try {
      const updated = await api<Task>("PATCH", `/pm/v1/tasks/${encodeURIComponent(task.id)}`, { status: status.name })
      tasks.set(updated.id, updated)
      announce(`${task.name} moved to ${status.name}`)
    } catch (cause) {
      tasks.set(task.id, task)
      announce(cause instanceof ApiError ? cause.message : "The move failed")
    }
    render(task.id)
  }

  const card = (task: Task) =>
    h(
      "li",
      {
        className: "task-card",
        tabindex: "0",
        draggable: "true",
        "data-task-id": task.id,
        "aria-describedby": "board-help",
        ondragstart: (event: DragEvent) => event.dataTransfer?.setData("text/plain", task.id),
        onkeydown: (event: KeyboardEvent) => {
          if (!event.shiftKey || (event.key !== "ArrowRight" && event.key !== "ArrowLeft")) return
          event.preventDefault()
          const index = statuses.findIndex((s) => s.name === task.status.name)
          const next = statuses[index + (event.key === "ArrowRight" ? 1 : -1)]
          if (next !== undefined) void move(tasks.get(task.id) ?? task, next)
        }
      },
      h("span", { className: "short-id" }, task.shortId),
      h("span", { className: "task-name" }, task.name),
      task.priority ? h("span", { className: `priority ${task.priority}` }, task.priority) : null
    )

  /** Draws the columns; keeps keyboard focus on the card that was focused (by task id). */
  const render = (focusTaskId?: string) => {
    const focused = focusTaskId ?? (document.activeElement as HTMLElement | null)?.dataset?.taskId
    mount(
      columns,
      ...statuses.map((status) => {
        const mine = [...tasks.values()]
          .filter((t) => t.status.name.toLowerCase() === status.name.toLowerCase())
          .sort((a, b) => a.position - b.position)
        const headingId = `column-${status.name.replace(/\W+/g, "-")}`
        return h(
          "section",
          {
            className: "column",
            "data-status": status.name,
            "aria-labelledby": headingId,
            ondragover: (event: DragEvent) => event.preventDefault(),
            ondrop: (event: DragEvent) => {
              event.preventDefault()
              const task = tasks.get(event.dataTransfer?.getData("text/plain") ?? "")
              if (task !== undefined) void move(task, status)
            }
          },
          h(
            "h2",
            { id: headingId },
            h("span", { className: "swatch", style: `background:${status.color}`, "aria-hidden": "true" }),
            `${status.name} `,
            h("span", { className: "count" }, String(mine.length))
          ),
          h("ul", { className: "cards" }, ...mine.map(card))
        )
      })
    )
    // A live update redraws the columns: the card that had focus keeps it, wherever it moved.
    if (focused !== undefined) (columns.querySelector(`[data-task-id="${focused}"]`) as HTMLElement | null)?.focus()
  }

  /** Every top-level task of the list, page by page. */
  const allTasks = async (): Promise<Array<Task>> => {
    const result: Array<Task> = []
    for (let offset = 0; ; offset += PAGE) {
      const page = await api<{ items: Array<Task> }>(
        "GET",
        `/pm/v1/lists/${encodeURIComponent(listId)}/tasks?includeClosed=true&subtasks=exclude&order=position&limit=${PAGE}&offset=${offset}`
      )
      result.push(...page.items)
      if (page.items.length < PAGE) return result
    }
  }

  const loadAll = async () => {
    try {
      const [list, statusList, taskList] = await Promise.all([
        api<{ name: string }>("GET", `/pm/v1/lists/${encodeURIComponent(listId)}`),
        api<{ items: Array<Status> }>("GET", `/pm/v1/lists/${encodeURIComponent(listId)}/statuses`),
        allTasks()
      ])
      if (stopped) return
      title.textContent = list.name
      statuses = statusList.items
      tasks.clear()
      for (const task of taskList) if (task.parentTaskId === null) tasks.set(task.id, task)
      render()
    } catch (cause) {
      mount(
        columns,
        h("p", { className: "error", role: "alert" }, cause instanceof ApiError ? cause.message : "The board could not be loaded")
      )
    }
  }

  /** The event names a task: read it again (it may have moved here, left, or gone). */
  const refreshTask = async (event: StreamEvent) => {
    const taskId = event.scope === "task" ? event.entityId : event.path.taskId
    if (taskId === undefined) return
    try {
      const task = await api<Task>("GET", `/pm/v1/tasks/${encodeURIComponent(taskId)}`)
      if (task.listId === listId && task.parentTaskId === null) tasks.set(task.id, task)
      else tasks.delete(task.id)
    } catch (cause) {
      if (cause instanceof ApiError && (cause.status === 404 || cause.status === 410)) tasks.delete(taskId)
      else throw cause
    }
    if (!stopped) render()
  }

  const stopStream = openStream(workspaceTicket(workspaceId), "list", listId, {
    event: (event) => {
      // The list's statuses were redefined: redraw the columns; anything else names a task to read again.
      if (STATUS_DEFINITIONS.has(event.type)) void loadAll()
      else void refreshTask(event)
    },
    resync: () => void loadAll(),
    state: (value) => showStreamState(state, value)
  })
  void loadAll()

  return () => {
    stopped = true
    stopStream()
  }
}
