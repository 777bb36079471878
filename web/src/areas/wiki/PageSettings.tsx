/**
 * The page's own settings for those who may edit it: its title (the tree of
 * everyone in the space follows, live) and archiving it with its subpages
 * (asked twice; the page goes to the space's trash, restorable through the API).
 */
import { useQueryClient } from "@tanstack/react-query"
import { type FormEvent, useState } from "react"
import { useNavigate, useParams } from "react-router"
import { client, data, messageOf } from "../../api/client.ts"
import { announce } from "../../ui/announce.tsx"
import { treeKey } from "./PageTree.tsx"

export const PageSettings = ({ pageId, spaceId, title }: { readonly pageId: string; readonly spaceId: string; readonly title: string }) => {
  const { workspaceId = "" } = useParams()
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const [draft, setDraft] = useState(title)
  const [confirming, setConfirming] = useState(false)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState("")

  const reread = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: treeKey(spaceId) }),
      queryClient.invalidateQueries({ queryKey: ["get", "/wiki/v1/pages/{pageId}", { params: { path: { pageId } } }] })
    ])

  const rename = async (event: FormEvent) => {
    event.preventDefault()
    setError("")
    setBusy(true)
    try {
      data(await client.PATCH("/wiki/v1/pages/{pageId}", { params: { path: { pageId } }, body: { title: draft.trim() } }))
      await reread()
      announce("Page renamed")
    } catch (cause) {
      setError(messageOf(cause, "The page could not be renamed"))
    } finally {
      setBusy(false)
    }
  }

  const archive = async () => {
    setError("")
    setBusy(true)
    try {
      data(await client.POST("/wiki/v1/pages/{pageId}/archive", { params: { path: { pageId } } }))
      await queryClient.invalidateQueries({ queryKey: treeKey(spaceId) })
      announce(`${title} archived`)
      navigate(`/w/${workspaceId}/wiki/${spaceId}`)
    } catch (cause) {
      setError(messageOf(cause, "The page could not be archived"))
      setBusy(false)
    }
  }

  return (
    <section aria-labelledby="page-settings-title" className="panel">
      <h2 id="page-settings-title">Page</h2>
      <form onSubmit={rename}>
        <label className="field">
          <span>Title</span>
          <input type="text" required maxLength={255} value={draft} onChange={(event) => setDraft(event.target.value)} />
        </label>
        <button type="submit" disabled={busy || draft.trim() === title || draft.trim() === ""}>
          Rename
        </button>
      </form>
      <p>
        {confirming ? (
          <>
            <button type="button" className="danger" disabled={busy} onClick={() => void archive()}>
              Archive it and its subpages
            </button>{" "}
            <button type="button" onClick={() => setConfirming(false)}>
              Keep it
            </button>
          </>
        ) : (
          <button type="button" onClick={() => setConfirming(true)}>
            Archive page
          </button>
        )}
      </p>
      <p className="error" role="alert">
        {error}
      </p>
    </section>
  )
}
