/**
 * A space's trash: the pages archived with their subpages, newest first.
 * Editors restore one (it returns to its parent, or to the top level); space
 * admins delete one for good, or empty the trash, each asked twice. It follows
 * the space's live stream (archive, restore and delete re-read it).
 */
import { useQueryClient } from "@tanstack/react-query"
import { useEffect, useState } from "react"
import { Link } from "react-router"
import { $api, client, data, messageOf } from "../../api/client.ts"
import { announce } from "../../ui/announce.tsx"
import { ErrorMessage, Loading } from "../../ui/Status.tsx"
import { pageHref } from "../common/links.ts"
import { when } from "../common/time.ts"
import { treeKey } from "./PageTree.tsx"

export const trashKey = (spaceId: string) => ["get", "/wiki/v1/spaces/{spaceId}/trash", { params: { path: { spaceId } } }] as const

export const Trash = ({
  workspaceId,
  spaceId,
  spaceName,
  role
}: {
  readonly workspaceId: string
  readonly spaceId: string
  readonly spaceName: string
  readonly role: "admin" | "editor" | "viewer" | undefined
}) => {
  const queryClient = useQueryClient()
  const trash = $api.useQuery("get", "/wiki/v1/spaces/{spaceId}/trash", { params: { path: { spaceId } } })
  const [confirming, setConfirming] = useState<string>()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState("")
  const [lastRestored, setLastRestored] = useState<{ readonly id: string; readonly title: string }>()
  const canRestore = role === "admin" || role === "editor"
  const isAdmin = role === "admin"
  useEffect(() => {
    document.title = `Trash · ${spaceName} · Wiki · Atrium`
  }, [spaceName])

  const act = async (work: () => Promise<string>) => {
    setError("")
    setBusy(true)
    try {
      announce(await work())
      setConfirming(undefined)
    } catch (cause) {
      setError(messageOf(cause))
    } finally {
      setBusy(false)
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: trashKey(spaceId) }),
        queryClient.invalidateQueries({ queryKey: treeKey(spaceId) })
      ])
    }
  }

  const restore = (pageId: string, title: string) =>
    act(async () => {
      data(await client.POST("/wiki/v1/pages/{pageId}/restore", { params: { path: { pageId } } }))
      setLastRestored({ id: pageId, title })
      return `${title} restored`
    })
  const remove = (pageId: string, title: string) =>
    act(async () => {
      data(await client.DELETE("/wiki/v1/pages/{pageId}", { params: { path: { pageId } } }))
      return `${title} deleted for good`
    })
  const empty = () =>
    act(async () => {
      const gone = data(await client.DELETE("/wiki/v1/spaces/{spaceId}/trash", { params: { path: { spaceId } } }))
      return `${String(gone.deletedPageIds.length)} pages deleted for good`
    })

  const items = trash.data?.items ?? []
  return (
    <section className="open-page card" aria-labelledby="trash-title">
      <h1 id="trash-title">Trash</h1>
      <p className="muted small">
        Archived pages of {spaceName}, with the subpages archived along with them. Restoring puts a page back where it was.
      </p>
      {trash.isPending ? <Loading what="the trash" /> : null}
      {trash.error ? <ErrorMessage error={trash.error} what="The trash could not be loaded" /> : null}
      {trash.data && items.length === 0 ? <p>The trash is empty.</p> : null}
      {lastRestored !== undefined ? (
        <p role="status">
          <Link to={pageHref(workspaceId, spaceId, lastRestored.id)}>{`Open ${lastRestored.title}`}</Link>
        </p>
      ) : null}
      {items.length > 0 ? (
        <ul className="plain trash-list" aria-label="Archived pages">
          {items.map((page) => (
            <li key={page.id} className="row" aria-label={page.title}>
              <span className="trash-title">
                <strong>{`${page.icon ?? ""} ${page.title}`.trim()}</strong>{" "}
                <span className="muted small">{page.archivedAt !== null ? `archived ${when(page.archivedAt)}` : ""}</span>
              </span>
              {canRestore ? (
                <button type="button" disabled={busy} onClick={() => void restore(page.id, page.title)}>
                  Restore <span className="visually-hidden">{page.title}</span>
                </button>
              ) : null}
              {isAdmin && confirming !== page.id ? (
                <button type="button" disabled={busy} onClick={() => setConfirming(page.id)}>
                  Delete for good <span className="visually-hidden">{page.title}</span>
                </button>
              ) : null}
              {confirming === page.id ? (
                <>
                  <button type="button" className="danger" disabled={busy} onClick={() => void remove(page.id, page.title)}>
                    {`Delete ${page.title} and its subpages`}
                  </button>
                  <button type="button" onClick={() => setConfirming(undefined)}>
                    Keep it
                  </button>
                </>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      {isAdmin && items.length > 0 ? (
        <p>
          {confirming === "all" ? (
            <>
              <button type="button" className="danger" disabled={busy} onClick={() => void empty()}>
                Delete every page in the trash
              </button>{" "}
              <button type="button" onClick={() => setConfirming(undefined)}>
                Keep them
              </button>
            </>
          ) : (
            <button type="button" onClick={() => setConfirming("all")}>
              Empty the trash
            </button>
          )}
        </p>
      ) : null}
      {!canRestore && trash.data ? <p className="muted small">Space editors restore pages.</p> : null}
      <p className="error" role="alert">
        {error}
      </p>
    </section>
  )
}
