/**
 * A space's sprint series (sprint groups): each with its default sprint
 * length, whether the next sprint is planned when one completes, how many of
 * its sprints are planned, running and completed, and its running sprint.
 * Planners create a series, change one (name, length, next sprint
 * automatically) and delete one (its sprints stay in the space, outside any
 * series; refused while one of them runs). Live: a series' event names its
 * space, which refetches this read (live/pmCache.ts).
 */
import { useQueryClient } from "@tanstack/react-query"
import { type FormEvent, useState } from "react"
import { Link, useParams } from "react-router"
import { $api, client, data, messageOf } from "../../api/client.ts"
import type { components } from "../../api/generated/pm.ts"
import { announce } from "../../ui/announce.tsx"
import { ErrorMessage, Loading } from "../../ui/Status.tsx"

type SprintGroup = components["schemas"]["SprintGroup"]

export const useSprintGroups = (spaceId: string) =>
  $api.useQuery("get", "/pm/v1/spaces/{spaceId}/sprint-groups", { params: { path: { spaceId } } }, { enabled: spaceId !== "" })

const refetchGroups = (queryClient: ReturnType<typeof useQueryClient>) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: ["get", "/pm/v1/spaces/{spaceId}/sprint-groups"] }),
    queryClient.invalidateQueries({ queryKey: ["get", "/pm/v1/spaces/{spaceId}/sprints"] })
  ])

/** The series' fields as a form gives them (the length in days, 1 to 365). */
const fieldsOf = (form: FormData) => {
  const days = Number(form.get("defaultLengthDays"))
  return {
    name: String(form.get("name") ?? "").trim(),
    ...(Number.isInteger(days) && days > 0 ? { defaultLengthDays: days } : {}),
    autoCreateNext: form.get("autoCreateNext") === "on"
  }
}

const SeriesFields = ({ group }: { readonly group?: SprintGroup }) => (
  <>
    <label>
      Series name
      <input name="name" required maxLength={200} defaultValue={group?.name} />
    </label>
    <label>
      Sprint length (days)
      <input name="defaultLengthDays" type="number" min={1} max={365} defaultValue={Number(group?.defaultLengthDays ?? 14)} />
    </label>
    <label className="check">
      <input name="autoCreateNext" type="checkbox" defaultChecked={group?.autoCreateNext ?? false} /> Plan the next sprint when one
      completes
    </label>
  </>
)

export const SprintGroups = ({ spaceId, canPlan }: { readonly spaceId: string; readonly canPlan: boolean }) => {
  const { workspaceId = "" } = useParams()
  const queryClient = useQueryClient()
  const groups = useSprintGroups(spaceId)
  const [editing, setEditing] = useState<string>()
  const [confirming, setConfirming] = useState<string>()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState("")

  const act = async (work: () => Promise<string>) => {
    setError("")
    setBusy(true)
    try {
      announce(await work())
      setEditing(undefined)
      setConfirming(undefined)
    } catch (cause) {
      setError(messageOf(cause))
    } finally {
      setBusy(false)
      await refetchGroups(queryClient)
    }
  }

  const create = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const target = event.currentTarget
    const fields = fieldsOf(new FormData(target))
    return act(async () => {
      const group = data(await client.POST("/pm/v1/spaces/{spaceId}/sprint-groups", { params: { path: { spaceId } }, body: fields }))
      target.reset()
      return `Series ${group.name} created`
    })
  }

  const save = (event: FormEvent<HTMLFormElement>, sprintGroupId: string) => {
    event.preventDefault()
    const fields = fieldsOf(new FormData(event.currentTarget))
    return act(async () => {
      const group = data(await client.PATCH("/pm/v1/sprint-groups/{sprintGroupId}", { params: { path: { sprintGroupId } }, body: fields }))
      return `Series ${group.name} saved`
    })
  }

  const remove = (group: SprintGroup) =>
    act(async () => {
      data(await client.DELETE("/pm/v1/sprint-groups/{sprintGroupId}", { params: { path: { sprintGroupId: group.id } } }))
      return `Series ${group.name} deleted`
    })

  const items = groups.data?.items ?? []
  return (
    <section aria-labelledby="sprint-series-title" className="panel sprint-series">
      <h2 id="sprint-series-title">Sprint series</h2>
      {groups.isPending ? <Loading what="sprint series" /> : null}
      {groups.error ? <ErrorMessage error={groups.error} what="The sprint series could not be loaded" /> : null}
      {groups.data && items.length === 0 ? <p className="muted">No series yet: sprints are planned one by one.</p> : null}
      {items.length > 0 ? (
        <ul className="card-list" aria-label="Sprint series">
          {items.map((group) => (
            <li key={group.id} aria-label={group.name}>
              {editing === group.id ? (
                <form className="stack narrow-form" aria-label={`Edit ${group.name}`} onSubmit={(event) => void save(event, group.id)}>
                  <SeriesFields group={group} />
                  <div className="row">
                    <button type="submit" disabled={busy}>
                      Save series
                    </button>
                    <button type="button" onClick={() => setEditing(undefined)}>
                      Cancel
                    </button>
                  </div>
                </form>
              ) : (
                <>
                  <p className="card-title">{group.name}</p>
                  <p className="muted small">
                    {`${String(group.defaultLengthDays)}-day sprints${group.autoCreateNext ? ", the next planned automatically" : ""} · ${String(group.sprints.planned)} planned, ${String(group.sprints.active)} running, ${String(group.sprints.completed)} completed`}
                  </p>
                  {group.activeSprintId !== null ? (
                    <p className="small">
                      <Link to={`/w/${workspaceId}/work/sprints/${group.activeSprintId}`}>{`Running sprint of ${group.name}`}</Link>
                    </p>
                  ) : null}
                  {canPlan ? (
                    <div className="row">
                      <button type="button" onClick={() => setEditing(group.id)}>
                        Edit <span className="visually-hidden">{group.name}</span>
                      </button>
                      {confirming === group.id ? (
                        <>
                          <button type="button" className="danger" disabled={busy} onClick={() => void remove(group)}>
                            {`Delete ${group.name} (its sprints stay)`}
                          </button>
                          <button type="button" onClick={() => setConfirming(undefined)}>
                            Keep it
                          </button>
                        </>
                      ) : (
                        <button type="button" onClick={() => setConfirming(group.id)}>
                          Delete <span className="visually-hidden">{group.name}</span>
                        </button>
                      )}
                    </div>
                  ) : null}
                </>
              )}
            </li>
          ))}
        </ul>
      ) : null}
      {canPlan ? (
        <details>
          <summary>New series</summary>
          <form className="stack narrow-form" aria-label="New series" onSubmit={(event) => void create(event)}>
            <SeriesFields />
            <button type="submit" disabled={busy}>
              Create series
            </button>
          </form>
        </details>
      ) : null}
      <p className="error" role="alert">
        {error}
      </p>
    </section>
  )
}
