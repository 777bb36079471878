/**
 * One list: its name and live state, the view switch (list, board, table),
 * the filter bar, a form to add a task, and the task drawer (`?task=`).
 */
import { useQueryClient } from "@tanstack/react-query"
import { type FormEvent, useEffect, useRef, useState } from "react"
import { Link, useLocation, useParams, useSearchParams } from "react-router"
import { client, data, messageOf } from "../../api/client.ts"
import { placeTask } from "../../live/pmCache.ts"
import { usePmLiveState } from "../../live/PmLive.tsx"
import { announce } from "../../ui/announce.tsx"
import { ErrorMessage, Loading } from "../../ui/Status.tsx"
import { Board } from "./Board.tsx"
import { FieldDefinitions } from "./FieldDefinitions.tsx"
import { FilterBar } from "./Filters.tsx"
import { applyFilters, filtersOf } from "./filters.ts"
import { useList, useListTasks, useMembers, useStatuses } from "./queries.ts"
import { SavedViews } from "./SavedViews.tsx"
import { TaskDrawer } from "./TaskDrawer.tsx"
import { ListView, TableView } from "./Views.tsx"

export const LiveIndicator = () => {
  const state = usePmLiveState()
  return (
    <span className="live-state" data-state={state}>
      {state === "live" ? "● live" : state === "connecting" ? "connecting…" : "not live"}
    </span>
  )
}

const VIEWS = [
  { id: "board", label: "Board" },
  { id: "list", label: "List" },
  { id: "table", label: "Table" }
] as const
type View = (typeof VIEWS)[number]["id"]

const ViewSwitch = ({ view }: { readonly view: View }) => {
  const location = useLocation()
  const [params] = useSearchParams()
  const hrefOf = (id: View) => {
    const next = new URLSearchParams(params)
    next.set("view", id)
    next.delete("task")
    return { pathname: location.pathname, search: `?${next}` }
  }
  return (
    <nav aria-label="Views" className="view-switch">
      {VIEWS.map((v) => (
        <Link key={v.id} to={hrefOf(v.id)} aria-current={v.id === view ? "page" : undefined} replace>
          {v.label}
        </Link>
      ))}
    </nav>
  )
}

const NewTask = ({ listId }: { readonly listId: string }) => {
  const queryClient = useQueryClient()
  const [error, setError] = useState("")
  const [busy, setBusy] = useState(false)
  const name = useRef<HTMLInputElement>(null)
  const create = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const value = name.current?.value.trim() ?? ""
    if (value === "") return
    setBusy(true)
    setError("")
    try {
      const task = data(await client.POST("/pm/v1/lists/{listId}/tasks", { params: { path: { listId } }, body: { name: value } }))
      placeTask(queryClient, task.id, task)
      if (name.current) name.current.value = ""
      announce(`${task.name} created`)
    } catch (cause) {
      setError(messageOf(cause))
    } finally {
      setBusy(false)
    }
  }
  return (
    <form className="inline-form new-task" onSubmit={create}>
      <label className="field">
        <span>New task</span>
        <input ref={name} name="name" required maxLength={500} placeholder="What needs doing?" />
      </label>
      <button type="submit" disabled={busy}>
        Add task
      </button>
      <p className="error" role="alert">
        {error}
      </p>
    </form>
  )
}

export const ListPage = () => {
  const { workspaceId = "", listId = "" } = useParams()
  const [params] = useSearchParams()
  const list = useList(listId)
  const statuses = useStatuses(listId)
  const tasks = useListTasks(listId)
  const members = useMembers(workspaceId)
  const view: View = VIEWS.find((v) => v.id === params.get("view"))?.id ?? "board"
  const filters = filtersOf(params)
  const openTask = params.get("task")
  useEffect(() => {
    if (list.data) document.title = `${list.data.name} · Work · Atrium`
  }, [list.data])
  const error = list.error ?? statuses.error ?? tasks.error
  const statusItems = statuses.data?.items ?? []
  const shown = tasks.data
    ? applyFilters(
        tasks.data.items,
        filters,
        statusItems.map((s) => s.name)
      )
    : []
  return (
    <section className="list-page" aria-labelledby="list-title">
      <header className="list-header">
        <h1 id="list-title">{list.data?.name ?? "List"}</h1>
        <LiveIndicator />
        <ViewSwitch view={view} />
      </header>
      {error ? <ErrorMessage error={error} what="The list could not be loaded" /> : null}
      <NewTask listId={listId} />
      {tasks.data && statuses.data ? (
        <>
          <FilterBar
            filters={filters}
            statuses={statusItems}
            members={members.data?.items ?? []}
            tasks={tasks.data.items}
            shown={shown.length}
          />
          <SavedViews listId={listId} filters={filters} viewType={view} />
          {view === "board" ? <Board tasks={shown} statuses={statusItems} /> : null}
          {view === "list" ? <ListView tasks={shown} statuses={statusItems} /> : null}
          {view === "table" ? <TableView tasks={shown} filters={filters} /> : null}
        </>
      ) : error ? null : (
        <Loading what="tasks" />
      )}
      <FieldDefinitions listId={listId} />
      {openTask !== null ? <TaskDrawer taskId={openTask} /> : null}
    </section>
  )
}
