/**
 * A page's permissions: its restriction (open, edit-restricted, view-
 * restricted), the people and roles listed, and the restricted ancestors whose
 * rules apply too. Those who may edit the page change them; others read them.
 */
import { useQueryClient } from "@tanstack/react-query"
import { type FormEvent, useState } from "react"
import { $api, client, data, messageOf } from "../../api/client.ts"
import { announce } from "../../ui/announce.tsx"
import { ErrorMessage, Loading } from "../../ui/Status.tsx"

// Short labels (a select cannot wrap: a long one was cut off in the narrow tools column); the choice is explained below it.
const RESTRICTIONS = [
  { id: "open", label: "Open", explained: "The space's roles apply." },
  { id: "edit", label: "Listed people edit", explained: "Everyone in the space views it; only those listed edit it." },
  { id: "view", label: "Only listed people", explained: "Only those listed view it (or edit it, when listed as editors)." }
] as const
type Restriction = (typeof RESTRICTIONS)[number]["id"]

const ROLES = ["admin", "member", "viewer"] as const

export const PagePermissions = ({ pageId }: { readonly pageId: string }) => {
  const queryClient = useQueryClient()
  const key = ["get", "/wiki/v1/pages/{pageId}/permissions", { params: { path: { pageId } } }] as const
  const permissions = $api.useQuery("get", "/wiki/v1/pages/{pageId}/permissions", { params: { path: { pageId } } })
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
      await queryClient.invalidateQueries({ queryKey: key })
    }
  }
  const restrict = (restriction: Restriction) =>
    act(async () => {
      data(await client.PUT("/wiki/v1/pages/{pageId}/permissions", { params: { path: { pageId } }, body: { restriction } }))
      return "Restriction changed"
    })
  const add = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const who = String(form.get("who") ?? "").trim()
    const access = form.get("access") === "edit" ? "edit" : "view"
    const role = ROLES.find((r) => r === who)
    if (who === "") return
    const target = event.currentTarget
    return act(async () => {
      data(
        await client.POST("/wiki/v1/pages/{pageId}/permissions/entries", {
          params: { path: { pageId } },
          body: role !== undefined ? { workspaceRole: role, access } : { email: who, access }
        })
      )
      target.reset()
      return `${who} may ${access} the page`
    })
  }
  const remove = (entryId: string, who: string) =>
    act(async () => {
      data(await client.DELETE("/wiki/v1/pages/{pageId}/permissions/entries/{entryId}", { params: { path: { pageId, entryId } } }))
      return `${who} removed`
    })

  if (permissions.isPending) return <Loading what="permissions" />
  if (permissions.error) return <ErrorMessage error={permissions.error} what="The permissions could not be loaded" />
  const p = permissions.data
  const canChange = p.yourAccess === "edit"
  const whoOf = (entry: (typeof p.entries)[number]) =>
    entry.workspaceRole !== null ? `Everyone with role ${entry.workspaceRole}` : (entry.name ?? entry.email ?? "Someone")
  return (
    <section aria-labelledby="permissions-title" className="panel">
      <h2 id="permissions-title">Permissions</h2>
      <label className="field">
        <span>Who may see and edit this page</span>
        <select
          value={p.restriction}
          aria-describedby="restriction-explained"
          disabled={!canChange || busy}
          onChange={(event) => {
            const chosen = RESTRICTIONS.find((r) => r.id === event.target.value)
            if (chosen) void restrict(chosen.id)
          }}
        >
          {RESTRICTIONS.map((r) => (
            <option key={r.id} value={r.id}>
              {r.label}
            </option>
          ))}
        </select>
      </label>
      <p id="restriction-explained" className="small">
        {RESTRICTIONS.find((r) => r.id === p.restriction)?.explained}
      </p>
      {!canChange ? <p className="muted small">You can read this page but not change who may use it.</p> : null}
      {p.inherited.length > 0 ? (
        <p className="small">
          Also restricted through:{" "}
          {p.inherited.map((a) => `${a.title} (${a.restriction === "view" ? "view" : "edit"} restricted)`).join(", ")}
        </p>
      ) : null}
      {p.entries.length > 0 ? (
        <ul className="plain" aria-label="Listed people and roles">
          {p.entries.map((entry) => (
            <li key={entry.id} className="row">
              <span>
                {whoOf(entry)}: {entry.access === "edit" ? "can edit" : "can view"}
              </span>
              {canChange ? (
                <button type="button" className="link" onClick={() => void remove(entry.id, whoOf(entry))} disabled={busy}>
                  Remove <span className="visually-hidden">{whoOf(entry)}</span>
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      {canChange && p.restriction !== "open" ? (
        <form className="inline-form" onSubmit={add}>
          <label className="field">
            <span>E-mail or role (admin, member, viewer)</span>
            <input name="who" required maxLength={320} />
          </label>
          <label className="field">
            <span>Access</span>
            <select name="access" defaultValue="view">
              <option value="view">can view</option>
              <option value="edit">can edit</option>
            </select>
          </label>
          <button type="submit" disabled={busy}>
            Add
          </button>
        </form>
      ) : null}
      <p className="error" role="alert">
        {error}
      </p>
    </section>
  )
}
