/**
 * Sharing a page publicly (space admins) and the preview of what a visitor
 * without an account reads: the public read of the page (`getSharedWikiPage`),
 * its HTML from the shared rich-text schema's serializer, shown as given (a
 * 404 there means the page is not public).
 */
import { useQueryClient } from "@tanstack/react-query"
import { useState } from "react"
import { $api, client, data, messageOf } from "../../api/client.ts"
import { announce } from "../../ui/announce.tsx"

export const PublicShare = ({
  pageId,
  spaceId,
  isAdmin
}: {
  readonly pageId: string
  readonly spaceId: string
  readonly isAdmin: boolean
}) => {
  const queryClient = useQueryClient()
  const preview = $api.useQuery("get", "/wiki/v1/public/pages/{pageId}", { params: { path: { pageId } } }, { retry: false })
  const [error, setError] = useState("")
  const [busy, setBusy] = useState(false)
  const shared = preview.data !== undefined
  const toggle = async (share: boolean) => {
    setBusy(true)
    setError("")
    try {
      data(
        await client.PUT("/wiki/v1/spaces/{spaceId}/public-wiki/shares/{pageId}", {
          params: { path: { spaceId, pageId } },
          body: { shared: share, includeSubpages: share }
        })
      )
      announce(share ? "The page is public" : "The page is no longer public")
    } catch (cause) {
      setError(messageOf(cause))
    } finally {
      setBusy(false)
      await queryClient.invalidateQueries({ queryKey: ["get", "/wiki/v1/public/pages/{pageId}"] })
    }
  }
  return (
    <section aria-labelledby="share-title" className="panel">
      <h2 id="share-title">Public sharing</h2>
      <p>
        {preview.isPending
          ? "Checking…"
          : shared
            ? "Anyone with the link can read this page (and its subpages)."
            : "Only people of the space can read this page."}
      </p>
      {isAdmin ? (
        <button type="button" onClick={() => void toggle(!shared)} disabled={busy || preview.isPending}>
          {shared ? "Stop sharing publicly" : "Share publicly"}
        </button>
      ) : (
        <p className="muted small">Space admins share pages publicly.</p>
      )}
      <p className="error" role="alert">
        {error}
      </p>
      {preview.data ? (
        <details>
          <summary>Preview as a visitor</summary>
          <article className="public-preview" aria-label="Public preview">
            <h3>{preview.data.title}</h3>
            <div className="rich-text" dangerouslySetInnerHTML={{ __html: preview.data.html }} />
          </article>
        </details>
      ) : null}
    </section>
  )
}
