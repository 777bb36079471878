/**
 * Who may use a space: its visibility, the role each workspace role gets by
 * default (none in a restricted space), and the people and workspace roles
 * listed with a space role of their own. Space admins add, change and remove
 * entries; everyone else who sees the space reads them.
 */
import { useQueryClient } from "@tanstack/react-query"
import { type FormEvent, useEffect, useState } from "react"
import { $api, client, data, messageOf } from "../../api/client.ts"
import type { components } from "../../api/generated/wiki.ts"
import { announce } from "../../ui/announce.tsx"
import { ErrorMessage, Loading } from "../../ui/Status.tsx"

type Entry = components["schemas"]["WikiSpacePermission"]
type SpaceRole = Entry["role"]

const SPACE_ROLES: ReadonlyArray<{ readonly id: SpaceRole; readonly label: string }> = [
  { id: "viewer", label: "Viewer: reads and comments" },
  { id: "editor", label: "Editor: creates and edits pages" },
  { id: "admin", label: "Admin: manages the space and who may use it" }
]
const WORKSPACE_ROLES = ["admin", "member", "viewer"] as const

const whoOf = (entry: Entry) =>
  entry.workspaceRole !== null ? `Everyone with workspace role ${entry.workspaceRole}` : (entry.name ?? entry.email ?? "Someone")

export const SpaceAccess = ({ spaceId, spaceName }: { readonly spaceId: string; readonly spaceName: string }) => {
  const queryClient = useQueryClient()
  const params = { params: { path: { spaceId } } }
  const permissions = $api.useQuery("get", "/wiki/v1/spaces/{spaceId}/permissions", params)
  const [error, setError] = useState("")
  const [busy, setBusy] = useState(false)
  useEffect(() => {
    document.title = `Members and roles · ${spaceName} · Wiki · Atrium`
  }, [spaceName])

  const act = async (work: () => Promise<string>) => {
    setError("")
    setBusy(true)
    try {
      announce(await work())
    } catch (cause) {
      setError(messageOf(cause))
    } finally {
      setBusy(false)
      await queryClient.invalidateQueries({ queryKey: ["get", "/wiki/v1/spaces/{spaceId}/permissions", params] })
    }
  }

  /** The subject of an entry as the PUT names it (the server keeps one entry per subject). */
  const subjectOf = (entry: Entry) =>
    entry.workspaceRole !== null ? { workspaceRole: entry.workspaceRole } : entry.userId !== null ? { userId: entry.userId } : undefined

  const setRole = (entry: Entry, role: SpaceRole) => {
    const subject = subjectOf(entry)
    if (subject === undefined) return
    return act(async () => {
      data(await client.PUT("/wiki/v1/spaces/{spaceId}/permissions", { params: { path: { spaceId } }, body: { ...subject, role } }))
      return `${whoOf(entry)} is now ${role}`
    })
  }

  const remove = (entry: Entry) =>
    act(async () => {
      data(
        await client.DELETE("/wiki/v1/spaces/{spaceId}/permissions/{permissionId}", {
          params: { path: { spaceId, permissionId: entry.id } }
        })
      )
      return `${whoOf(entry)} removed`
    })

  const add = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const target = event.currentTarget
    const form = new FormData(target)
    const who = String(form.get("who") ?? "").trim()
    const role = SPACE_ROLES.find((r) => r.id === form.get("role"))?.id ?? "viewer"
    const workspaceRole = WORKSPACE_ROLES.find((r) => r === who)
    if (who === "") return
    return act(async () => {
      data(
        await client.PUT("/wiki/v1/spaces/{spaceId}/permissions", {
          params: { path: { spaceId } },
          body: workspaceRole !== undefined ? { workspaceRole, role } : { email: who, role }
        })
      )
      target.reset()
      return `${who} is now ${role}`
    })
  }

  return (
    <section className="open-page card" aria-labelledby="space-access-title">
      <h1 id="space-access-title">Members and roles</h1>
      {permissions.isPending ? <Loading what="the space's members" /> : null}
      {permissions.error ? <ErrorMessage error={permissions.error} what="The space's members could not be loaded" /> : null}
      {permissions.data ? (
        <SpaceAccessBody
          permissions={permissions.data}
          busy={busy}
          onRole={(entry, role) => void setRole(entry, role)}
          onRemove={(entry) => void remove(entry)}
          onAdd={add}
        />
      ) : null}
      <p className="error" role="alert">
        {error}
      </p>
    </section>
  )
}

const SpaceAccessBody = ({
  permissions,
  busy,
  onRole,
  onRemove,
  onAdd
}: {
  readonly permissions: components["schemas"]["WikiSpacePermissions"]
  readonly busy: boolean
  readonly onRole: (entry: Entry, role: SpaceRole) => void
  readonly onRemove: (entry: Entry) => void
  readonly onAdd: (event: FormEvent<HTMLFormElement>) => void
}) => {
  const canManage = permissions.yourRole === "admin"
  const baseline = permissions.baseline
  return (
    <>
      <p>{`Your role in this space: ${permissions.yourRole}.`}</p>
      {baseline !== null ? (
        <>
          <h2>Everyone in the workspace</h2>
          <p className="small">{`Workspace admins are space ${baseline.admin}s, members are ${baseline.member}s, viewers are ${baseline.viewer}s, unless listed below.`}</p>
        </>
      ) : (
        <p className="small">This space is restricted: only the people and roles listed below (and workspace admins) see it.</p>
      )}
      <h2>Listed people and roles</h2>
      {permissions.entries.length === 0 ? <p className="muted small">No one is listed.</p> : null}
      {permissions.entries.length > 0 ? (
        <ul className="plain space-entries" aria-label="Space members">
          {permissions.entries.map((entry) => (
            <li key={entry.id} className="row">
              <span className="entry-who">
                {whoOf(entry)}
                {entry.email !== null && entry.name !== null ? <span className="muted small">{` ${entry.email}`}</span> : null}
              </span>
              {canManage ? (
                <>
                  <label className="visually-hidden" htmlFor={`role-${entry.id}`}>{`Space role of ${whoOf(entry)}`}</label>
                  <select
                    id={`role-${entry.id}`}
                    value={entry.role}
                    disabled={busy}
                    onChange={(event) => {
                      const role = SPACE_ROLES.find((r) => r.id === event.target.value)?.id
                      if (role !== undefined) onRole(entry, role)
                    }}
                  >
                    {SPACE_ROLES.map((r) => (
                      <option key={r.id} value={r.id}>
                        {r.id}
                      </option>
                    ))}
                  </select>
                  <button type="button" className="link" disabled={busy} onClick={() => onRemove(entry)}>
                    Remove <span className="visually-hidden">{whoOf(entry)}</span>
                  </button>
                </>
              ) : (
                <span>{entry.role}</span>
              )}
            </li>
          ))}
        </ul>
      ) : null}
      {canManage ? (
        <form className="stack narrow-form" onSubmit={onAdd} aria-label="Add to the space">
          <h2>Add someone</h2>
          <label>
            <span>E-mail or workspace role (admin, member, viewer)</span>
            <input name="who" required maxLength={320} />
          </label>
          <label htmlFor="new-space-role">Space role</label>
          <select id="new-space-role" name="role" defaultValue="viewer">
            {SPACE_ROLES.map((r) => (
              <option key={r.id} value={r.id}>
                {r.label}
              </option>
            ))}
          </select>
          <button type="submit" disabled={busy}>
            Add to space
          </button>
        </form>
      ) : (
        <p className="muted small">Space admins change who may use the space.</p>
      )}
    </>
  )
}
