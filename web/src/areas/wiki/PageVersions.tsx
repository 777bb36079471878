/**
 * A page's version history, newest first (20 at a time, then "Older
 * versions"): each can be viewed (its content rendered from the shared
 * rich-text schema), compared with the page as it is now (the server's line
 * diff of the Markdown) and restored — the restore is one change to the live
 * document, so every open editor shows it at once, and is itself a new version.
 * The list follows the live document: versions are captured from its changes
 * (anyone's, a restore included), so a change re-reads the list once the
 * editing has paused.
 */
import { useInfiniteQuery, useQueryClient } from "@tanstack/react-query"
import type { Editor } from "@tiptap/react"
import { useEffect, useState } from "react"
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

/** The server captures a version a moment after a change (COLLAB_CHANGE_DEBOUNCE_MS, 1 s by default); read after that. */
const SETTLED_MS = 2000

/** Re-reads the page's versions when its live document has changed and then stayed still for a moment. */
const useVersionsFollowDocument = (editor: Editor, pageId: string) => {
  const queryClient = useQueryClient()
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined
    const changed = ({ transaction }: { transaction: { docChanged: boolean } }) => {
      if (!transaction.docChanged) return
      clearTimeout(timer)
      timer = setTimeout(() => void queryClient.invalidateQueries({ queryKey: versionsKey(pageId) }), SETTLED_MS)
    }
    editor.on("update", changed)
    return () => {
      clearTimeout(timer)
      editor.off("update", changed)
    }
  }, [editor, pageId, queryClient])
}

const versionsKey = (pageId: string) => ["get", versionsPath, { params: { path: { pageId } } }, "pages"]

export const PageVersions = ({
  pageId,
  canEdit,
  editor
}: {
  readonly pageId: string
  readonly canEdit: boolean
  readonly editor: Editor
}) => {
  const queryClient = useQueryClient()
  useVersionsFollowDocument(editor, pageId)
  const versions = useInfiniteQuery({
    queryKey: versionsKey(pageId),
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
  const [viewing, setViewing] = useState<{ readonly versionId: string; readonly as: "content" | "changes" }>()
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
                    aria-expanded={viewing?.versionId === version.id && viewing.as === "content"}
                    onClick={() =>
                      setViewing(
                        viewing?.versionId === version.id && viewing.as === "content" ? undefined : { versionId: version.id, as: "content" }
                      )
                    }
                  >
                    View
                  </button>
                  <button
                    type="button"
                    aria-label={`Compare version ${number} with the current page`}
                    aria-expanded={viewing?.versionId === version.id && viewing.as === "changes"}
                    onClick={() =>
                      setViewing(
                        viewing?.versionId === version.id && viewing.as === "changes" ? undefined : { versionId: version.id, as: "changes" }
                      )
                    }
                  >
                    Compare
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
      <p className="error" role="alert">
        {error}
      </p>
      {viewing?.as === "changes" ? (
        <VersionDiff pageId={pageId} versionId={viewing.versionId} onClose={() => setViewing(undefined)} />
      ) : null}
      {viewing?.as === "content" ? (
        <VersionView
          pageId={pageId}
          versionId={viewing.versionId}
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

const lines = (n: number | string) => (n === 1 ? "1 line" : `${String(n)} lines`)

const MARKS = { equal: " ", removed: "−", added: "+" } as const
const SAID_AS = { equal: "unchanged", removed: "only in the version", added: "only in the current page" } as const

/** A version against the page now: the title when it changed, then the Markdown lines removed and added since. */
const VersionDiff = ({
  pageId,
  versionId,
  onClose
}: {
  readonly pageId: string
  readonly versionId: string
  readonly onClose: () => void
}) => {
  const diff = $api.useQuery("get", "/wiki/v1/pages/{pageId}/versions/{versionId}/diff", {
    params: { path: { pageId, versionId } }
  })
  if (diff.isPending) return <Loading what="the changes" />
  if (diff.error) return <ErrorMessage error={diff.error} what="The changes could not be loaded" />
  const number = String(diff.data.from.number)
  const { added, removed, title, blocks } = diff.data
  return (
    <article className="version-view version-diff" aria-labelledby="version-diff-title">
      <h3 id="version-diff-title">{`Version ${number} compared with now`}</h3>
      <p className="muted small">{`${lines(added)} added, ${lines(removed)} removed since ${when(diff.data.from.createdAt)}`}</p>
      {title !== null ? <p className="small">{`Title: “${title.from}” → “${title.to}”`}</p> : null}
      {added === 0 && removed === 0 && title === null ? <p>The page is the same as this version.</p> : null}
      <ol className="diff-lines" aria-label="Changed lines">
        {blocks.flatMap((block, b) => {
          const lines = block.lines.map((line, l) => (
            <li key={`${String(b)}-${String(l)}`} className={`diff-${block.type}`}>
              <span aria-hidden="true" className="diff-mark">
                {MARKS[block.type]}
              </span>
              <span className="visually-hidden">{`${SAID_AS[block.type]}: `}</span>
              {block.type === "removed" ? <del>{line}</del> : block.type === "added" ? <ins>{line}</ins> : <span>{line}</span>}
            </li>
          ))
          const skipped = typeof block.skipped === "number" ? block.skipped : 0
          if (skipped === 0) return lines
          const marker = (
            <li key={`${String(b)}-skipped`} className="diff-skip muted small">
              {`… ${String(skipped)} unchanged lines …`}
            </li>
          )
          // The server keeps context after the change before and before the change after: the gap is where it cut.
          const cut = b === 0 ? 0 : b === blocks.length - 1 ? lines.length : lines.length / 2
          return [...lines.slice(0, cut), marker, ...lines.slice(cut)]
        })}
      </ol>
      <button type="button" onClick={onClose}>
        Close
      </button>
    </article>
  )
}
