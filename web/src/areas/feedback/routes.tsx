/**
 * Feedback boards: the workspace's boards (those the user may see), a board's
 * live roadmap, and the public portal of a public board (`/portal/:slug`,
 * no account needed; `?workspace=` settles a slug several workspaces use).
 */
import { type FormEvent, useCallback, useEffect } from "react"
import { Link, Route, Routes, useNavigate, useParams, useSearchParams } from "react-router"
import { $api } from "../../api/client.ts"
import { showRoadmap } from "../../feedback/Roadmap.ts"
import { Announcer } from "../../ui/announce.tsx"
import { LegacyView } from "../../ui/LegacyView.tsx"
import { ErrorMessage, Loading } from "../../ui/Status.tsx"

/** The address of a public board's portal. */
export const portalPath = (slug: string, workspaceId?: string) =>
  `/portal/${encodeURIComponent(slug)}${workspaceId === undefined ? "" : `?workspace=${encodeURIComponent(workspaceId)}`}`

const Boards = () => {
  const { workspaceId = "" } = useParams()
  const navigate = useNavigate()
  const boards = $api.useQuery("get", "/feedback/v1/boards", { params: { query: { workspaceId } } })
  useEffect(() => {
    document.title = "Feedback · Atrium"
  }, [])
  const openPublic = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const slug = String(new FormData(event.currentTarget).get("slug") ?? "").trim()
    if (slug !== "") navigate(portalPath(slug, workspaceId))
  }
  return (
    <section aria-labelledby="feedback-title">
      <h1 id="feedback-title">Feedback</h1>
      {boards.isPending ? <Loading what="boards" /> : null}
      {boards.error ? <ErrorMessage error={boards.error} what="The feedback boards could not be loaded" /> : null}
      {boards.data?.items.length === 0 ? <p>No feedback boards yet.</p> : null}
      <ul className="tiles">
        {boards.data?.items.map((board) => (
          <li key={board.id} className="card">
            <Link to={board.id}>{board.name} roadmap</Link>
            <span className="muted"> · {board.visibility}</span>
          </li>
        ))}
      </ul>
      <form className="inline-form" onSubmit={openPublic}>
        <label className="field">
          <span>Public board slug</span>
          <input name="slug" required autoComplete="off" placeholder="product-ideas" />
        </label>
        <button type="submit">Open public roadmap</button>
      </form>
    </section>
  )
}

const BoardRoadmap = () => {
  const { workspaceId = "", boardId = "" } = useParams()
  const show = useCallback((host: HTMLElement) => showRoadmap(host, { kind: "board", workspaceId, boardId }), [workspaceId, boardId])
  return <LegacyView show={show} />
}

export const FeedbackArea = () => (
  <Routes>
    <Route index element={<Boards />} />
    <Route path=":boardId" element={<BoardRoadmap />} />
  </Routes>
)

export const PublicPortal = () => {
  const { slug = "" } = useParams()
  const [params] = useSearchParams()
  const workspaceId = params.get("workspace") ?? undefined
  const show = useCallback((host: HTMLElement) => showRoadmap(host, { kind: "public", slug, workspaceId }), [slug, workspaceId])
  return (
    <>
      <header className="top">
        <Link className="brand" to="/">
          Atrium
        </Link>
      </header>
      <main id="main">
        <LegacyView show={show} />
      </main>
      <Announcer />
    </>
  )
}
