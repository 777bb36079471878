/**
 * A space's sprints: the running one, those planned and those completed
 * (each with its progress, each a link to its page), a form to plan a new
 * one (in a series or on its own), the space's sprint series (SprintGroups.tsx;
 * the list shows one series or all), and the space's velocity. Live: a sprint or task event of the space
 * refetches these reads (live/pmCache.ts).
 */
import { useQueryClient } from "@tanstack/react-query"
import { type FormEvent, useEffect, useState } from "react"
import { Link, useNavigate, useParams } from "react-router"
import { $api, client, data, messageOf } from "../../api/client.ts"
import { useWorkspaceRole } from "../common/useMe.ts"
import { announce } from "../../ui/announce.tsx"
import { ErrorMessage, Loading } from "../../ui/Status.tsx"
import { LiveIndicator } from "./ListPage.tsx"
import { useHierarchy } from "./queries.ts"
import { VelocityChart } from "./SprintCharts.tsx"
import { SprintGroups, useSprintGroups } from "./SprintGroups.tsx"
import "../common/areas.css"
import "./sprints.css"

export type Sprint = NonNullable<ReturnType<typeof useSprint>["data"]>

export const useSprint = (sprintId: string) => $api.useQuery("get", "/pm/v1/sprints/{sprintId}", { params: { path: { sprintId } } })

export const useSpaceSprints = (spaceId: string) =>
  $api.useQuery("get", "/pm/v1/spaces/{spaceId}/sprints", { params: { path: { spaceId } } }, { enabled: spaceId !== "" })

/** Whether the caller may plan, start and complete sprints (members and above; viewers read). */
export const useCanPlan = (workspaceId: string) => {
  const { role } = useWorkspaceRole(workspaceId)
  return role !== undefined && role !== "viewer"
}

const dayOf = (iso: string) => new Date(iso).toLocaleDateString(undefined, { day: "numeric", month: "short", year: "numeric" })

export const sprintHref = (workspaceId: string, sprintId: string) => `/w/${workspaceId}/work/sprints/${sprintId}`

export const SprintDates = ({ sprint }: { readonly sprint: Sprint }) => (
  <span className="muted">
    {dayOf(sprint.startDate)} – {dayOf(sprint.endDate)}
  </span>
)

export const Progress = ({ sprint }: { readonly sprint: Sprint }) => (
  <span className="sprint-progress">
    <progress
      max={Math.max(1, Number(sprint.progress.tasks))}
      value={Number(sprint.progress.finished)}
      aria-label={`${sprint.name} progress`}
    />{" "}
    {`${sprint.progress.finished} of ${sprint.progress.tasks} done`}
  </span>
)

const STATUS_LABEL = { active: "Running", planned: "Planned", completed: "Completed" } as const

const SprintGroupList = ({
  title,
  sprints,
  seriesName
}: {
  readonly title: keyof typeof STATUS_LABEL
  readonly sprints: ReadonlyArray<Sprint>
  readonly seriesName: (sprint: Sprint) => string | undefined
}) => {
  const { workspaceId = "" } = useParams()
  if (sprints.length === 0) return null
  const id = `sprints-${title}`
  return (
    <section aria-labelledby={id} className="panel">
      <h2 id={id}>{STATUS_LABEL[title]}</h2>
      <ul className="card-list">
        {sprints.map((sprint) => (
          <li key={sprint.id} className="sprint-row">
            <Link to={sprintHref(workspaceId, sprint.id)} className="card-title">
              {sprint.name}
            </Link>{" "}
            <SprintDates sprint={sprint} />
            {seriesName(sprint) !== undefined ? <span className="muted small">{` · ${seriesName(sprint)}`}</span> : null}
            {sprint.goal !== "" ? <p className="clamp">{sprint.goal}</p> : null}
            <Progress sprint={sprint} />
          </li>
        ))}
      </ul>
    </section>
  )
}

const NewSprint = ({ spaceId }: { readonly spaceId: string }) => {
  const groups = useSprintGroups(spaceId)
  const { workspaceId = "" } = useParams()
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const [error, setError] = useState("")
  const [busy, setBusy] = useState(false)
  const create = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const text = (key: string) => String(form.get(key) ?? "").trim()
    // A date field's day, as the start (or the end) of that day in the person's time zone.
    const at = (key: string, endOfDay: boolean) =>
      text(key) === "" ? undefined : new Date(`${text(key)}T${endOfDay ? "23:59:59" : "00:00:00"}`).toISOString()
    const startDate = at("startDate", false)
    const endDate = at("endDate", true)
    setBusy(true)
    setError("")
    try {
      const sprint = data(
        await client.POST("/pm/v1/spaces/{spaceId}/sprints", {
          params: { path: { spaceId } },
          body: {
            ...(text("name") !== "" ? { name: text("name") } : {}),
            ...(text("goal") !== "" ? { goal: text("goal") } : {}),
            ...(text("sprintGroupId") !== "" ? { sprintGroupId: text("sprintGroupId") } : {}),
            ...(startDate !== undefined ? { startDate } : {}),
            ...(endDate !== undefined ? { endDate } : {})
          }
        })
      )
      await queryClient.invalidateQueries({ queryKey: ["get", "/pm/v1/spaces/{spaceId}/sprints"] })
      announce(`${sprint.name} planned`)
      navigate(sprintHref(workspaceId, sprint.id))
    } catch (cause) {
      setError(messageOf(cause))
    } finally {
      setBusy(false)
    }
  }
  return (
    <details className="panel">
      <summary>Plan a sprint</summary>
      <form className="stack narrow-form" onSubmit={create}>
        <label>
          Sprint name
          <input name="name" maxLength={200} placeholder="Defaults to the next number" />
        </label>
        <label>
          Goal
          <input name="goal" maxLength={1000} />
        </label>
        {groups.data && groups.data.items.length > 0 ? (
          <>
            <label htmlFor="new-sprint-series">Series</label>
            <select id="new-sprint-series" name="sprintGroupId" defaultValue="">
              <option value="">None (a sprint on its own)</option>
              {groups.data.items.map((group) => (
                <option key={group.id} value={group.id}>
                  {group.name}
                </option>
              ))}
            </select>
          </>
        ) : null}
        <div className="row">
          <label>
            Starts
            <input type="date" name="startDate" />
          </label>
          <label>
            Ends
            <input type="date" name="endDate" />
          </label>
        </div>
        <button type="submit" disabled={busy}>
          Create sprint
        </button>
        <p className="error" role="alert">
          {error}
        </p>
      </form>
    </details>
  )
}

export const SpaceSprints = () => {
  const { workspaceId = "", spaceId = "" } = useParams()
  const hierarchy = useHierarchy(workspaceId)
  const sprints = useSpaceSprints(spaceId)
  const velocity = $api.useQuery("get", "/pm/v1/spaces/{spaceId}/velocity", { params: { path: { spaceId } } })
  const canPlan = useCanPlan(workspaceId)
  const groups = useSprintGroups(spaceId)
  const [series, setSeries] = useState("")
  const space = hierarchy.data?.spaces.find((s) => s.id === spaceId)
  useEffect(() => {
    document.title = `Sprints${space ? ` · ${space.name}` : ""} · Work · Atrium`
  }, [space])
  const items = (sprints.data?.items ?? []).filter((s) => series === "" || s.sprintGroupId === series)
  const of = (status: Sprint["status"]) => items.filter((s) => s.status === status)
  const seriesName = (sprint: Sprint) => groups.data?.items.find((g) => g.id === sprint.sprintGroupId)?.name
  return (
    <section className="area-page sprints" aria-labelledby="sprints-title">
      <header className="list-header">
        <h1 id="sprints-title">Sprints{space ? ` · ${space.name}` : ""}</h1>
        <LiveIndicator />
      </header>
      {sprints.error ? <ErrorMessage error={sprints.error} what="The sprints could not be loaded" /> : null}
      {canPlan ? <NewSprint spaceId={spaceId} /> : null}
      {sprints.isPending ? <Loading what="sprints" /> : null}
      {groups.data && groups.data.items.length > 0 ? (
        <label className="field inline">
          <span>Show sprints of</span>
          <select value={series} onChange={(event) => setSeries(event.target.value)}>
            <option value="">Every series</option>
            {groups.data.items.map((group) => (
              <option key={group.id} value={group.id}>
                {group.name}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      {sprints.data && items.length === 0 ? (
        <p>{series === "" ? "No sprints in this space yet." : "No sprints in this series yet."}</p>
      ) : null}
      <SprintGroupList title="active" sprints={of("active")} seriesName={seriesName} />
      <SprintGroupList title="planned" sprints={of("planned")} seriesName={seriesName} />
      <SprintGroupList title="completed" sprints={[...of("completed")].reverse()} seriesName={seriesName} />
      <SprintGroups spaceId={spaceId} canPlan={canPlan} />
      <section aria-labelledby="velocity-title" className="panel">
        <h2 id="velocity-title">Velocity</h2>
        {velocity.error ? <ErrorMessage error={velocity.error} /> : null}
        {velocity.data ? <VelocityChart velocity={velocity.data} /> : velocity.isPending ? <Loading what="velocity" /> : null}
      </section>
    </section>
  )
}
