/**
 * A task's relationships, read from its side (blocks, blocked by, relates
 * to, duplicates, duplicated by), each related task with its status and a
 * link; members add one by searching the workspace's tasks and remove one.
 * Both tasks' lists reread after a change (the other task sees it too); the
 * stream's task events reread them for everyone else.
 */
import { useQueryClient } from "@tanstack/react-query"
import { useDeferredValue, useState } from "react"
import { Link } from "react-router"
import { $api, client, data } from "../../api/client.ts"
import type { components } from "../../api/generated/pm.ts"
import { taskHref } from "../common/links.ts"
import { useChange } from "../common/useChange.ts"
import { ErrorMessage } from "../../ui/Status.tsx"

type Kind = components["schemas"]["TaskRelationship"]["type"]

const KINDS: ReadonlyArray<{ readonly type: Kind; readonly label: string }> = [
  { type: "blocks", label: "Blocks" },
  { type: "blocked_by", label: "Blocked by" },
  { type: "relates_to", label: "Relates to" },
  { type: "duplicates", label: "Duplicates" },
  { type: "duplicated_by", label: "Duplicated by" }
]

const labelOf = (type: Kind) => KINDS.find((k) => k.type === type)?.label ?? type

export const Relationships = ({
  taskId,
  workspaceId,
  canEdit
}: {
  readonly taskId: string
  readonly workspaceId: string
  readonly canEdit: boolean
}) => {
  const queryClient = useQueryClient()
  const related = $api.useQuery("get", "/pm/v1/tasks/{taskId}/relationships", { params: { path: { taskId } } })
  const [kind, setKind] = useState<Kind>("blocks")
  const [search, setSearch] = useState("")
  const q = useDeferredValue(search.trim())
  const found = $api.useQuery(
    "get",
    "/pm/v1/workspaces/{workspaceId}/tasks",
    { params: { path: { workspaceId }, query: { q, limit: "8" } } },
    { enabled: canEdit && q.length >= 2 }
  )
  const { error, run } = useChange(() => queryClient.invalidateQueries({ queryKey: ["get", "/pm/v1/tasks/{taskId}/relationships"] }))

  const items = related.data?.items ?? []
  const linked = new Set([taskId, ...items.map((r) => r.task.id)])
  const candidates = (found.data?.items ?? []).filter((task) => !linked.has(task.id))

  return (
    <section aria-labelledby={`relationships-${taskId}`}>
      <h3 id={`relationships-${taskId}`}>Relationships</h3>
      {related.error ? <ErrorMessage error={related.error} what="The relationships could not be loaded" /> : null}
      {related.data && items.length === 0 ? <p className="muted">No related tasks.</p> : null}
      {KINDS.map(({ type, label }) => {
        const ofKind = items.filter((r) => r.type === type)
        if (ofKind.length === 0) return null
        return (
          <ul key={type} className="plain" aria-label={label}>
            {ofKind.map((r) => (
              <li key={r.id}>
                <span className="label">{label}</span>{" "}
                <Link to={taskHref(workspaceId, r.task.id)}>
                  <span className="short-id">{r.task.shortId}</span> {r.task.name}
                </Link>{" "}
                <span className="muted">· {r.task.status}</span>{" "}
                {canEdit ? (
                  <button
                    type="button"
                    className="link"
                    onClick={() =>
                      void run(`${r.task.name} no longer related`, async () =>
                        data(
                          await client.DELETE("/pm/v1/workspaces/{workspaceId}/relationships/{relationshipId}", {
                            params: { path: { workspaceId, relationshipId: r.id } }
                          })
                        )
                      )
                    }
                  >
                    Remove <span className="visually-hidden">{`${label.toLowerCase()} ${r.task.name}`}</span>
                  </button>
                ) : null}
              </li>
            ))}
          </ul>
        )
      })}
      {canEdit ? (
        <search className="inline-form" aria-label="Relate a task">
          <label className="field">
            <span>This task</span>
            <select value={kind} onChange={(event) => setKind(KINDS.find((k) => k.type === event.target.value)?.type ?? "blocks")}>
              {KINDS.map((k) => (
                <option key={k.type} value={k.type}>
                  {k.label.toLowerCase()}
                </option>
              ))}
            </select>
          </label>
          <label className="field grow">
            <span>Find a task to relate</span>
            <input type="search" value={search} onChange={(event) => setSearch(event.target.value)} placeholder="Name or id" />
          </label>
        </search>
      ) : null}
      {canEdit && q.length >= 2 ? (
        <ul className="plain" aria-label="Tasks found">
          {found.error ? (
            <li>
              <ErrorMessage error={found.error} />
            </li>
          ) : null}
          {found.data && candidates.length === 0 ? <li className="muted">No other task matches.</li> : null}
          {candidates.map((task) => (
            <li key={task.id}>
              <button
                type="button"
                onClick={() =>
                  void run(`${labelOf(kind)} ${task.name}`, async () =>
                    data(
                      await client.POST("/pm/v1/tasks/{taskId}/relationships", {
                        params: { path: { taskId } },
                        body: { type: kind, relatedTaskId: task.id }
                      })
                    )
                  ).then((ok) => ok && setSearch(""))
                }
              >
                {`${labelOf(kind)} ${task.shortId} ${task.name}`}
              </button>{" "}
              <span className="muted">· {task.status.name}</span>
            </li>
          ))}
        </ul>
      ) : null}
      <p className="error" role="alert">
        {error}
      </p>
    </section>
  )
}
