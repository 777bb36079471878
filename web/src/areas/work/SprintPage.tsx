/**
 * One sprint: its dates, goal and progress; start it (planned) or complete
 * it (running: unfinished tasks to the next sprint or back to the backlog);
 * its burndown; its tasks (status changed in place, taken out of the sprint);
 * and the space's backlog, from which tasks are planned into it. Controls
 * are shown to those who may plan (members and above); a refusal reads as a
 * message. Live: the stream's task and sprint events refetch these reads.
 */
import { useQueryClient } from "@tanstack/react-query"
import { type FormEvent, useEffect, useState } from "react"
import { Link, useParams } from "react-router"
import { $api, client, data, messageOf } from "../../api/client.ts"
import { placeTask } from "../../live/pmCache.ts"
import { taskHref } from "../common/links.ts"
import { announce } from "../../ui/announce.tsx"
import { ErrorMessage, Loading } from "../../ui/Status.tsx"
import { LiveIndicator } from "./ListPage.tsx"
import { type Task, useStatuses } from "./queries.ts"
import { BurndownChart } from "./SprintCharts.tsx"
import { Progress, type Sprint, SprintDates, useCanPlan, useSprint } from "./Sprints.tsx"
import { TaskMeta } from "./TaskMeta.tsx"
import "../common/areas.css"
import "./sprints.css"

/** Every read about sprints (they change together: a sprint's tasks, its burndown, the space's backlog and velocity). */
const isSprintRead = (key: ReadonlyArray<unknown>) => /\/(sprints|backlog|velocity)\b/.test(String(key[1]))

const useRefreshSprints = () => {
  const queryClient = useQueryClient()
  return () => queryClient.invalidateQueries({ predicate: (query) => isSprintRead(query.queryKey) })
}

/** Runs a write, announces `done` or shows the refusal; refreshes the sprint reads either way. */
const useAct = () => {
  const refresh = useRefreshSprints()
  const [error, setError] = useState("")
  const [busy, setBusy] = useState(false)
  const act = async (work: () => Promise<string>) => {
    setBusy(true)
    setError("")
    try {
      announce(await work())
    } catch (cause) {
      setError(messageOf(cause))
    } finally {
      setBusy(false)
      await refresh()
    }
  }
  return { act, error, busy }
}

const Controls = ({ sprint }: { readonly sprint: Sprint }) => {
  const { act, error, busy } = useAct()
  const [unfinished, setUnfinished] = useState<"next_sprint" | "backlog">("next_sprint")
  const start = () =>
    act(async () => {
      data(await client.POST("/pm/v1/sprints/{sprintId}/start", { params: { path: { sprintId: sprint.id } } }))
      return `${sprint.name} started`
    })
  const complete = (event: FormEvent) => {
    event.preventDefault()
    return act(async () => {
      const result = data(
        await client.POST("/pm/v1/sprints/{sprintId}/complete", { params: { path: { sprintId: sprint.id } }, body: { unfinished } })
      )
      return `${sprint.name} completed${result.nextSprint ? `; unfinished tasks moved to ${result.nextSprint.name}` : ""}`
    })
  }
  return (
    <div className="sprint-controls">
      {sprint.status === "planned" ? (
        <button type="button" className="primary" onClick={start} disabled={busy}>
          Start sprint
        </button>
      ) : null}
      {sprint.status === "active" ? (
        <form className="inline-form" onSubmit={complete}>
          <label className="field">
            <span>Unfinished tasks go</span>
            <select value={unfinished} onChange={(event) => setUnfinished(event.target.value === "backlog" ? "backlog" : "next_sprint")}>
              <option value="next_sprint">to the next sprint</option>
              <option value="backlog">back to the backlog</option>
            </select>
          </label>
          <button type="submit" disabled={busy}>
            Complete sprint
          </button>
        </form>
      ) : null}
      <p className="error" role="alert">
        {error}
      </p>
    </div>
  )
}

/** A task's status as a select of its list's statuses (a change is a task PATCH, placed in the cache). */
const StatusSelect = ({ task, disabled }: { readonly task: Task; readonly disabled: boolean }) => {
  const statuses = useStatuses(task.listId)
  const queryClient = useQueryClient()
  const { act, error, busy } = useAct()
  const change = (status: string) =>
    act(async () => {
      const updated = data(await client.PATCH("/pm/v1/tasks/{taskId}", { params: { path: { taskId: task.id } }, body: { status } }))
      placeTask(queryClient, task.id, updated)
      return `${task.name} moved to ${updated.status.name}`
    })
  const names = statuses.data?.items.map((s) => s.name) ?? [task.status.name]
  return (
    <>
      <select
        aria-label={`Status of ${task.name}`}
        value={task.status.name}
        disabled={disabled || busy}
        onChange={(event) => void change(event.target.value)}
      >
        {(names.includes(task.status.name) ? names : [task.status.name, ...names]).map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
      {error !== "" ? (
        <span className="error" role="alert">
          {error}
        </span>
      ) : null}
    </>
  )
}

const OUTCOME = { completed: "completed", rolled_over: "rolled over", backlog: "back to backlog" } as const

const SprintTasks = ({ sprint, canPlan }: { readonly sprint: Sprint; readonly canPlan: boolean }) => {
  const { workspaceId = "" } = useParams()
  const tasks = $api.useQuery("get", "/pm/v1/sprints/{sprintId}/tasks", {
    params: { path: { sprintId: sprint.id }, query: { limit: "200" } }
  })
  const { act, error, busy } = useAct()
  const open = sprint.status !== "completed"
  const remove = (task: Task) =>
    act(async () => {
      data(await client.DELETE("/pm/v1/sprints/{sprintId}/tasks/{taskId}", { params: { path: { sprintId: sprint.id, taskId: task.id } } }))
      return `${task.name} back in the backlog`
    })
  return (
    <section aria-labelledby="sprint-tasks-title" className="panel">
      <h2 id="sprint-tasks-title">
        Tasks in this sprint <span className="count">{tasks.data?.total ?? ""}</span>
      </h2>
      {tasks.error ? <ErrorMessage error={tasks.error} /> : null}
      {tasks.isPending ? <Loading what="the sprint's tasks" /> : null}
      {tasks.data?.items.length === 0 ? (
        <p className="muted">No tasks yet{open && canPlan ? ": add some from the backlog." : "."}</p>
      ) : null}
      <ul className="rows sprint-tasks" aria-label="Tasks in this sprint">
        {tasks.data?.items.map(({ task, outcome }) => (
          <li key={task.id} className="sprint-task">
            <Link to={taskHref(workspaceId, task.id)}>
              <span className="short-id">{task.shortId}</span> {task.name}
            </Link>
            <TaskMeta task={task} />
            <span className="row">
              {outcome !== null ? <span className="muted">{OUTCOME[outcome]}</span> : <StatusSelect task={task} disabled={!canPlan} />}
              {open && canPlan ? (
                <button type="button" className="link" onClick={() => void remove(task)} disabled={busy}>
                  Remove <span className="visually-hidden">{task.name}</span> from the sprint
                </button>
              ) : null}
            </span>
          </li>
        ))}
      </ul>
      <p className="error" role="alert">
        {error}
      </p>
    </section>
  )
}

const Backlog = ({ sprint }: { readonly sprint: Sprint }) => {
  const backlog = $api.useQuery("get", "/pm/v1/spaces/{spaceId}/backlog", {
    params: { path: { spaceId: sprint.spaceId }, query: { limit: "200" } }
  })
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set())
  const { act, error, busy } = useAct()
  const items = backlog.data?.items ?? []
  const add = (event: FormEvent) => {
    event.preventDefault()
    const taskIds = items.filter((t) => chosen.has(t.id)).map((t) => t.id)
    if (taskIds.length === 0) return
    return act(async () => {
      const result = data(
        await client.POST("/pm/v1/sprints/{sprintId}/tasks", { params: { path: { sprintId: sprint.id } }, body: { taskIds } })
      )
      setChosen(new Set())
      return `${result.added.length} ${result.added.length === 1 ? "task" : "tasks"} added to ${sprint.name}`
    })
  }
  const toggle = (id: string, on: boolean) => {
    const next = new Set(chosen)
    if (on) next.add(id)
    else next.delete(id)
    setChosen(next)
  }
  return (
    <section aria-labelledby="backlog-title" className="panel">
      <h2 id="backlog-title">
        Backlog <span className="count">{backlog.data?.total ?? ""}</span>
      </h2>
      {backlog.error ? <ErrorMessage error={backlog.error} /> : null}
      {backlog.isPending ? <Loading what="the backlog" /> : null}
      {backlog.data && items.length === 0 ? <p className="muted">The backlog is empty: every open task is planned.</p> : null}
      {items.length > 0 ? (
        <form onSubmit={add}>
          <fieldset className="backlog">
            <legend className="visually-hidden">Tasks to add to {sprint.name}</legend>
            <ul className="plain">
              {items.map((task) => (
                <li key={task.id}>
                  <label className="check">
                    <input type="checkbox" checked={chosen.has(task.id)} onChange={(event) => toggle(task.id, event.target.checked)} />
                    <span className="short-id">{task.shortId}</span> {task.name}
                  </label>{" "}
                  <span className="muted small">{task.status.name}</span>
                </li>
              ))}
            </ul>
          </fieldset>
          <button type="submit" disabled={busy || chosen.size === 0}>
            Add to sprint{chosen.size > 0 ? ` (${chosen.size})` : ""}
          </button>
          <p className="error" role="alert">
            {error}
          </p>
        </form>
      ) : null}
    </section>
  )
}

const Report = ({ sprint }: { readonly sprint: Sprint }) => {
  const summary = sprint.summary
  if (summary === null) return null
  return (
    <dl className="pairs">
      <dt>Committed</dt>
      <dd>{summary.committedTasks} tasks</dd>
      <dt>Completed</dt>
      <dd>{summary.completedTasks} tasks</dd>
      <dt>Added during the sprint</dt>
      <dd>{summary.addedDuringSprint}</dd>
      <dt>Rolled over</dt>
      <dd>{summary.rolledOver}</dd>
      <dt>Back to the backlog</dt>
      <dd>{summary.returnedToBacklog}</dd>
    </dl>
  )
}

export const SprintPage = () => {
  const { workspaceId = "", sprintId = "" } = useParams()
  const sprint = useSprint(sprintId)
  const burndown = $api.useQuery("get", "/pm/v1/sprints/{sprintId}/burndown", { params: { path: { sprintId } } })
  const canPlan = useCanPlan(workspaceId)
  useEffect(() => {
    if (sprint.data) document.title = `${sprint.data.name} · Sprints · Atrium`
  }, [sprint.data])
  if (sprint.error) return <ErrorMessage error={sprint.error} what="The sprint could not be loaded" />
  if (sprint.isPending) return <Loading what="the sprint" />
  const s = sprint.data
  return (
    <section className="area-page sprint-page" aria-labelledby="sprint-title">
      <p className="breadcrumb">
        <Link to={`/w/${workspaceId}/work/spaces/${s.spaceId}/sprints`}>All sprints of the space</Link>
      </p>
      <header className="list-header">
        <h1 id="sprint-title">{s.name}</h1>
        <span className={`badge sprint-${s.status}`}>{s.status === "active" ? "running" : s.status}</span>
        <LiveIndicator />
      </header>
      <p className="row">
        <SprintDates sprint={s} />
        <Progress sprint={s} />
      </p>
      {s.goal !== "" ? <p>Goal: {s.goal}</p> : null}
      {canPlan ? <Controls sprint={s} /> : null}
      <Report sprint={s} />
      <section aria-labelledby="burndown-title" className="panel">
        <h2 id="burndown-title">Burndown</h2>
        {burndown.error ? <ErrorMessage error={burndown.error} /> : null}
        {burndown.data ? <BurndownChart burndown={burndown.data} /> : burndown.isPending ? <Loading what="the burndown" /> : null}
      </section>
      <div className="columns">
        <SprintTasks sprint={s} canPlan={canPlan} />
        {s.status !== "completed" && canPlan ? <Backlog sprint={s} /> : null}
      </div>
    </section>
  )
}
