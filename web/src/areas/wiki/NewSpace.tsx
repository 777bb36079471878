/**
 * A form that creates a wiki space (workspace members and admins; viewers do
 * not see it) and opens it: its name, an optional key (the server makes one
 * from the name otherwise), icon, description and who sees it.
 */
import { useQueryClient } from "@tanstack/react-query"
import { type FormEvent, useState } from "react"
import { useNavigate } from "react-router"
import { client, data, messageOf } from "../../api/client.ts"
import { announce } from "../../ui/announce.tsx"

const VISIBILITY = [
  { id: "workspace", label: "Everyone in the workspace (with their workspace role)" },
  { id: "restricted", label: "Only people and roles listed in the space" }
] as const

export const NewSpace = ({ workspaceId }: { readonly workspaceId: string }) => {
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const [error, setError] = useState("")
  const [busy, setBusy] = useState(false)

  const create = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const text = (name: string) => String(form.get(name) ?? "").trim()
    const visibility = VISIBILITY.find((v) => v.id === form.get("visibility"))?.id ?? "workspace"
    if (text("name") === "") return
    setError("")
    setBusy(true)
    try {
      const space = data(
        await client.POST("/wiki/v1/spaces", {
          body: {
            workspaceId,
            name: text("name"),
            visibility,
            ...(text("key") !== "" ? { key: text("key") } : {}),
            ...(text("icon") !== "" ? { icon: text("icon") } : {}),
            ...(text("description") !== "" ? { description: text("description") } : {})
          }
        })
      )
      await queryClient.invalidateQueries({ queryKey: ["get", "/wiki/v1/spaces"] })
      announce(`Space ${space.name} created`)
      navigate(`/w/${workspaceId}/wiki/${space.id}`)
    } catch (cause) {
      setError(messageOf(cause, "The space could not be created"))
      setBusy(false)
    }
  }

  return (
    <details className="panel new-space">
      <summary>New space</summary>
      <form className="stack narrow-form" onSubmit={create} aria-label="New space">
        <label>
          <span>Name</span>
          <input name="name" required maxLength={100} />
        </label>
        <label>
          <span>Key (optional, e.g. ENG)</span>
          <input name="key" maxLength={50} pattern="[A-Za-z0-9][A-Za-z0-9_\-]*" title="Letters, digits, _ or -" />
        </label>
        <label>
          <span>Icon (optional emoji)</span>
          <input name="icon" maxLength={64} />
        </label>
        <label>
          <span>Description</span>
          <textarea name="description" rows={2} maxLength={2000} />
        </label>
        <fieldset>
          <legend>Who sees it</legend>
          {VISIBILITY.map((v) => (
            <label key={v.id} className="check">
              <input type="radio" name="visibility" value={v.id} defaultChecked={v.id === "workspace"} /> {v.label}
            </label>
          ))}
        </fieldset>
        <button type="submit" disabled={busy}>
          Create space
        </button>
        <p className="error" role="alert">
          {error}
        </p>
      </form>
    </details>
  )
}
