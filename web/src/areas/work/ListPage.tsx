/** One list: its name, the live state, and its tasks as a board. */
import { useEffect } from "react"
import { useParams } from "react-router"
import { usePmLiveState } from "../../live/PmLive.tsx"
import { ErrorMessage, Loading } from "../../ui/Status.tsx"
import { Board } from "./Board.tsx"
import { useList, useListTasks, useStatuses } from "./queries.ts"

export const LiveIndicator = () => {
  const state = usePmLiveState()
  return (
    <span className="live-state" data-state={state}>
      {state === "live" ? "● live" : state === "connecting" ? "connecting…" : "not live"}
    </span>
  )
}

export const ListPage = () => {
  const { listId = "" } = useParams()
  const list = useList(listId)
  const statuses = useStatuses(listId)
  const tasks = useListTasks(listId)
  useEffect(() => {
    if (list.data) document.title = `${list.data.name} · Work · Atrium`
  }, [list.data])
  const error = list.error ?? statuses.error ?? tasks.error
  return (
    <section className="list-page" aria-labelledby="list-title">
      <header className="list-header">
        <h1 id="list-title">{list.data?.name ?? "List"}</h1>
        <LiveIndicator />
      </header>
      {error ? <ErrorMessage error={error} what="The list could not be loaded" /> : null}
      {statuses.data && tasks.data ? (
        <Board tasks={tasks.data.items} statuses={statuses.data.items} />
      ) : error ? null : (
        <Loading what="tasks" />
      )}
    </section>
  )
}
