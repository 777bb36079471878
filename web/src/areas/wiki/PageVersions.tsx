/**
 * A page's version history, newest first (20 at a time, then "Older
 * versions"): each can be viewed (its content rendered from the shared
 * rich-text schema) and restored — the restore is one change to the live
 * document, so every open editor shows it at once, and is itself a new version.
 */
import { useInfiniteQuery, useQueryClient } from "@tanstack/react-query"
import { useState } from "react"
import { $api, client, data, messageOf } from "../../api/client.ts"
import { announce } from "../../ui/announce.tsx"
import { ErrorMessage, Loading } from "../../ui/Status.tsx"
import { when } from "../common/time.ts"
import { type RichNode, RichText } from "../feedback/RichText.tsx"

const PAGE_SIZE = 20
const versionsPath = "/wiki/v1/pages/{pageId}/versions"

const REASONS: Record<string, string> = {
  created: "created",
  edited: "edited",
  saved: "saved",
  restored: "restored",
  autosaved: "while editing"
}

export const PageVersions = ({ pageId, canEdit }: { readonly pageId: string; readonly canEdit: boolean }) => {
  const queryClient = useQueryClient()
  const versions = useInfiniteQuery({
    queryKey: ["get", versionsPath, { params: { path: { pageId } } }, "pages"],
    initialPageParam: undefined as number | undefined,
    queryFn: async ({ pageParam }) =>
      data(
        await client.GET(versionsPath, {
          params: {
            path: { pageId },
            query: { limit: String(PAGE_SIZE), ...(pageParam !== undefined ? { before: String(pageParam) } : {}) }
          }
        })
      ),
    getNextPageParam: (last) => {
      const oldest = last.items.at(-1)?.number
      return last.items.length === PAGE_SIZE && typeof oldest === "number" ? oldest : undefined
    }
  })
  const [viewing, setViewing] = useState<string>()
  const [error, setError] = useState("")
  const [busy, setBusy] = useState(false)
  const items = versions.data?.pages.flatMap((page) => page.items) ?? []

  const restore = async (versionId: string, number: string) => {
    setError("")
    setBusy(true)
    try {
      data(await client.POST("/wiki/v1/pages/{pageId}/versions/{versionId}/restore", { params: { path: { pageId, versionId } } }))
      announce(`Version ${number} restored`)
      setViewing(undefined)
      await queryClient.invalidateQueries({
        predicate: (query) => query.queryKey[1] === versionsPath || query.queryKey[1] === "/wiki/v1/pages/{pageId}"
      })
    } catch (cause) {
      setError(messageOf(cause, "The version could not be restored"))
    } finally {
      setBusy(false)
    }
  }

  return (
    <section className="versions card" aria-labelledby="versions-title">
      <h2 id="versions-title">Versions</h2>
      {versions.isPending ? <Loading what="versions" /> : null}
      {versions.error ? <ErrorMessage error={versions.error} what="The versions could not be loaded" /> : null}
      {versions.data && items.length === 0 ? <p className="muted small">No versions yet (one is captured while people edit).</p> : null}
      {items.length > 0 ? (
        <ol className="version-list" aria-label="Page versions">
          {items.map((version) => {
            const number = String(version.number)
            return (
              <li key={version.id}>
                <span>{`v${number} · ${version.label ?? REASONS[version.reason] ?? version.reason} · ${when(version.createdAt)}`}</span>
                <span className="version-actions">
                  <button
                    type="button"
                    aria-label={`View version ${number}`}
                    aria-expanded={viewing === version.id}
                    onClick={() => setViewing(viewing === version.id ? undefined : version.id)}
                  >
                    View
                  </button>
                  {canEdit ? (
                    <button
                      type="button"
                      aria-label={`Restore version ${number}`}
                      disabled={busy}
                      onClick={() => void restore(version.id, number)}
                    >
                      Restore
                    </button>
                  ) : null}
                </span>
              </li>
            )
          })}
        </ol>
      ) : null}
      {versions.hasNextPage ? (
        <button type="button" onClick={() => void versions.fetchNextPage()} disabled={versions.isFetchingNextPage}>
          Older versions
        </button>
      ) : null}
      <button type="button" onClick={() => void versions.refetch()}>
        Refresh
      </button>
      <p className="error" role="alert">
        {error}
      </p>
      {viewing !== undefined ? (
        <VersionView
          pageId={pageId}
          versionId={viewing}
          canEdit={canEdit}
          busy={busy}
          onRestore={restore}
          onClose={() => setViewing(undefined)}
        />
      ) : null}
    </section>
  )
}

const VersionView = ({
  pageId,
  versionId,
  canEdit,
  busy,
  onRestore,
  onClose
}: {
  readonly pageId: string
  readonly versionId: string
  readonly canEdit: boolean
  readonly busy: boolean
  readonly onRestore: (versionId: string, number: string) => Promise<void>
  readonly onClose: () => void
}) => {
  const version = $api.useQuery("get", "/wiki/v1/pages/{pageId}/versions/{versionId}", { params: { path: { pageId, versionId } } })
  if (version.isPending) return <Loading what="the version" />
  if (version.error) return <ErrorMessage error={version.error} what="The version could not be loaded" />
  const number = String(version.data.number)
  return (
    <article className="version-view" aria-labelledby="version-view-title">
      <h3 id="version-view-title">{`Version ${number}: ${version.data.title}`}</h3>
      <p className="muted small">{`${REASONS[version.data.reason] ?? version.data.reason} · ${when(version.data.createdAt)} · ${String(version.data.characters)} characters`}</p>
      <div className="rich-text">
        <RichText doc={version.data.content as RichNode} />
      </div>
      <p>
        {canEdit ? (
          <button type="button" disabled={busy} onClick={() => void onRestore(versionId, number)}>
            Restore this version
          </button>
        ) : null}{" "}
        <button type="button" onClick={onClose}>
          Close
        </button>
      </p>
    </article>
  )
}
