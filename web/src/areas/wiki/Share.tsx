/**
 * Sharing a page publicly (space admins, who read the space's shares) and
 * the preview of what a visitor without an account reads: the public read of
 * the page (`getSharedWikiPage`), its HTML from the shared rich-text schema's
 * serializer, shown as given.
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
  // Only admins read the space's shares (others would be refused); the preview is read once the page is shared.
  const shares = $api.useQuery(
    "get",
    "/wiki/v1/spaces/{spaceId}/public-wiki/shares",
    { params: { path: { spaceId } } },
    { enabled: isAdmin }
  )
  const share = shares.data?.items.find((item) => item.pageId === pageId)
  const shared = share !== undefined
  const preview = $api.useQuery(
    "get",
    "/wiki/v1/public/pages/{pageId}",
    { params: { path: { pageId } } },
    { enabled: shared, retry: false }
  )
  const [error, setError] = useState("")
  const [busy, setBusy] = useState(false)
  const toggle = async (on: boolean) => {
    setBusy(true)
    setError("")
    try {
      data(
        await client.PUT("/wiki/v1/spaces/{spaceId}/public-wiki/shares/{pageId}", {
          params: { path: { spaceId, pageId } },
          body: { shared: on, includeSubpages: on }
        })
      )
      announce(on ? "The page is public" : "The page is no longer public")
    } catch (cause) {
      setError(messageOf(cause))
    } finally {
      setBusy(false)
      await queryClient.invalidateQueries({
        predicate: (query) => /^\/wiki\/v1\/(public\/pages|spaces\/\{spaceId\}\/public-wiki\/shares)/.test(String(query.queryKey[1]))
      })
    }
  }
  return (
    <section aria-labelledby="share-title" className="panel">
      <h2 id="share-title">Public sharing</h2>
      {isAdmin ? (
        <p>
          {shares.isPending
            ? "Checking…"
            : shared
              ? "Anyone with the link can read this page (and its subpages)."
              : "Only people of the space can read this page."}
        </p>
      ) : null}
      {share !== undefined ? (
        <p className="small">
          Public address: <span className="mono">{`${location.origin}${share.path}`}</span>
        </p>
      ) : null}
      {isAdmin ? (
        <button type="button" onClick={() => void toggle(!shared)} disabled={busy || shares.isPending}>
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
