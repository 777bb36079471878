/**
 * A list's saved views (the pm Views of the list): the current view type,
 * filters and sort saved under a name (shared, or for oneself), picked to
 * apply them, renamed by members and deleted by their creator or an admin.
 * The chosen view is in the URL (`?saved=<view id>` beside the filters it
 * set), so a link opens it; a link carrying only `saved` gets the view's
 * filters once it is read. Criteria hold what the URL filters say except
 * "unassigned" and due-date windows other than "overdue": those are named
 * when saving rather than silently dropped.
 */
import { useQueryClient } from "@tanstack/react-query"
import { type FormEvent, useEffect, useState } from "react"
import { useParams, useSearchParams } from "react-router"
import { $api, client, data } from "../../api/client.ts"
import { useSession } from "../../api/session.ts"
import type { components } from "../../api/generated/pm.ts"
import { RenameForm } from "../common/RenameForm.tsx"
import { useWorkspaceRole } from "../common/useMe.ts"
import { useChange } from "../common/useChange.ts"
import { ErrorMessage } from "../../ui/Status.tsx"
import type { Filters, SortKey } from "./filters.ts"

type View = components["schemas"]["View"]
type Criteria = components["schemas"]["TaskCriteria"]
export type ListViewType = "board" | "list" | "table"

/** The list's sort keys as view columns. */
const SORT_FIELDS: ReadonlyArray<readonly [SortKey, string]> = [
  ["name", "name"],
  ["status", "status"],
  ["priority", "priority"],
  ["due", "dueDate"],
  ["assignee", "assignees"]
]

/** The URL parameters a saved view sets (and picking another clears). */
const VIEW_PARAMS = ["view", "assignee", "status", "tag", "due", "q", "sort", "dir", "task", "saved"] as const

const criteriaOf = (filters: Filters): Criteria => ({
  ...(filters.assignee !== "" && filters.assignee !== "none" ? { assigneeIds: [filters.assignee] } : {}),
  ...(filters.status !== "" ? { statuses: [filters.status] } : {}),
  ...(filters.tag !== "" ? { tags: [filters.tag] } : {}),
  ...(filters.q !== "" ? { q: filters.q } : {}),
  ...(filters.due === "overdue" ? { overdue: true } : {})
})

/** What of the current filters a saved view cannot hold. */
const unsaveable = (filters: Filters): Array<string> => [
  ...(filters.assignee === "none" ? ["“Unassigned”"] : []),
  ...(filters.due === "week" ? ["“Due within a week”"] : filters.due === "none" ? ["“No due date”"] : [])
]

/** The URL parameters that show a saved view. */
const paramsOf = (view: View, keep: URLSearchParams): URLSearchParams => {
  const next = new URLSearchParams(keep)
  for (const name of VIEW_PARAMS) next.delete(name)
  const set = (name: string, value: string | undefined) => {
    if (value !== undefined && value !== "") next.set(name, value)
  }
  set("saved", view.id)
  // Always set, so a view that filters nothing still leaves the URL more than `saved` (see `bare`).
  set("view", view.type === "list" || view.type === "table" ? view.type : "board")
  set("assignee", view.filters.assigneeIds?.[0])
  set("status", view.filters.statuses?.[0])
  set("tag", view.filters.tags?.[0])
  set("q", view.filters.q)
  set("due", view.filters.overdue === true ? "overdue" : undefined)
  const sort = view.sortBy[0]
  const key = SORT_FIELDS.find(([, field]) => field === sort?.field)?.[0]
  if (sort !== undefined && key !== undefined) {
    next.set("sort", key)
    next.set("dir", sort.direction)
  }
  return next
}

export const SavedViews = ({
  listId,
  filters,
  viewType
}: {
  readonly listId: string
  readonly filters: Filters
  readonly viewType: ListViewType
}) => {
  const { workspaceId = "" } = useParams()
  const { role, isAdmin } = useWorkspaceRole(workspaceId)
  const me = useSession()?.user.id
  const queryClient = useQueryClient()
  const [params, setParams] = useSearchParams()
  const views = $api.useQuery("get", "/pm/v1/workspaces/{workspaceId}/views", {
    params: { path: { workspaceId }, query: { scopeType: "list", scopeId: listId } }
  })
  const { error, run } = useChange(() => queryClient.invalidateQueries({ queryKey: ["get", "/pm/v1/workspaces/{workspaceId}/views"] }))
  const [renaming, setRenaming] = useState(false)
  const canEdit = role !== undefined && role !== "viewer"
  const savedId = params.get("saved") ?? ""
  const chosen = views.data?.items.find((v) => v.id === savedId)

  // A link that names only the view (no filters of its own) shows the view's filters once it is read.
  const bare = VIEW_PARAMS.every((name) => name === "saved" || name === "task" || !params.has(name))
  useEffect(() => {
    if (chosen !== undefined && bare) setParams(paramsOf(chosen, params), { replace: true })
  }, [chosen, bare, params, setParams])

  const pick = (id: string) => {
    setRenaming(false)
    const view = views.data?.items.find((v) => v.id === id)
    if (view !== undefined) return setParams(paramsOf(view, params))
    const next = new URLSearchParams(params)
    next.delete("saved")
    setParams(next)
  }

  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = event.currentTarget
    const values = new FormData(form)
    const name = String(values.get("name") ?? "").trim()
    if (name === "") return
    const sortField = SORT_FIELDS.find(([key]) => key === filters.sort)?.[1]
    let created: View | undefined
    const ok = await run(`View ${name} saved`, async () => {
      created = data(
        await client.POST("/pm/v1/workspaces/{workspaceId}/views", {
          params: { path: { workspaceId } },
          body: {
            scopeType: "list",
            scopeId: listId,
            name,
            type: viewType,
            isPrivate: values.get("private") === "on",
            filters: criteriaOf(filters),
            ...(sortField !== undefined ? { sortBy: [{ field: sortField, direction: filters.dir }] } : {})
          }
        })
      )
    })
    if (ok && created !== undefined) {
      form.reset()
      const next = new URLSearchParams(params)
      next.set("saved", created.id)
      setParams(next)
    }
  }

  const rename = async (view: View, name: string) => {
    const ok = await run(`View renamed to ${name}`, async () =>
      data(
        await client.PATCH("/pm/v1/workspaces/{workspaceId}/views/{viewId}", {
          params: { path: { workspaceId, viewId: view.id } },
          body: { name }
        })
      )
    )
    if (ok) setRenaming(false)
  }

  const remove = async (view: View) => {
    const ok = await run(`View ${view.name} deleted`, async () =>
      data(
        await client.DELETE("/pm/v1/workspaces/{workspaceId}/views/{viewId}", {
          params: { path: { workspaceId, viewId: view.id } }
        })
      )
    )
    if (ok) pick("")
  }

  const lost = unsaveable(filters)
  const mayDelete = (view: View) => canEdit && (view.createdBy === me || (isAdmin && !view.isPrivate))

  return (
    <section className="saved-views" aria-label="Saved views">
      {views.error ? <ErrorMessage error={views.error} what="The saved views could not be loaded" /> : null}
      <div className="inline-form">
        <label className="field">
          <span>Saved view</span>
          <select value={chosen?.id ?? ""} onChange={(event) => pick(event.target.value)}>
            <option value="">None</option>
            {views.data?.items.map((view) => (
              <option key={view.id} value={view.id}>
                {view.isPrivate ? `${view.name} (only me)` : view.name}
              </option>
            ))}
          </select>
        </label>
        {chosen !== undefined && canEdit && !renaming ? (
          <button type="button" onClick={() => setRenaming(true)}>
            Rename view
          </button>
        ) : null}
        {chosen !== undefined && mayDelete(chosen) ? (
          <button type="button" onClick={() => void remove(chosen)}>
            Delete view
          </button>
        ) : null}
      </div>
      {chosen !== undefined && renaming ? (
        <RenameForm
          current={chosen.name}
          label="View name"
          onRename={(name) => void rename(chosen, name)}
          onCancel={() => setRenaming(false)}
        />
      ) : null}
      {canEdit ? (
        <details>
          <summary>Save these filters as a view</summary>
          <form className="inline-form" aria-label="Save as view" onSubmit={(event) => void save(event)}>
            <label className="field">
              <span>New view name</span>
              <input name="name" required maxLength={100} />
            </label>
            <label className="check">
              <input type="checkbox" name="private" />
              Only for me
            </label>
            <button type="submit">Save view</button>
          </form>
          {lost.length > 0 ? <p className="muted small">{`A saved view does not keep ${lost.join(" or ")}.`}</p> : null}
        </details>
      ) : null}
      <p className="error" role="alert">
        {error}
      </p>
    </section>
  )
}
