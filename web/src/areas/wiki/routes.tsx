/** The wiki: the workspace's spaces, then a space's page tree beside the open page (live editor, comments, versions). */
import { useCallback, useEffect } from "react"
import { Link, Route, Routes, useNavigate, useParams } from "react-router"
import { $api } from "../../api/client.ts"
import { LegacyView } from "../../ui/LegacyView.tsx"
import { ErrorMessage, Loading } from "../../ui/Status.tsx"
import { showWiki } from "../../wiki/Wiki.ts"

const Spaces = () => {
  const { workspaceId = "" } = useParams()
  const spaces = $api.useQuery("get", "/wiki/v1/spaces", { params: { query: { workspaceId } } })
  useEffect(() => {
    document.title = "Wiki · Atrium"
  }, [])
  return (
    <section aria-labelledby="wiki-title">
      <h1 id="wiki-title">Wiki</h1>
      {spaces.isPending ? <Loading what="spaces" /> : null}
      {spaces.error ? <ErrorMessage error={spaces.error} /> : null}
      {spaces.data?.items.length === 0 ? <p>No wiki spaces yet.</p> : null}
      <ul className="tiles">
        {spaces.data?.items.map((space) => (
          <li key={space.id} className="card">
            <Link to={space.id}>{`${space.icon ?? ""} ${space.name}`.trim()}</Link>
          </li>
        ))}
      </ul>
    </section>
  )
}

const Space = () => {
  const { workspaceId = "", spaceId = "", pageId } = useParams()
  const navigate = useNavigate()
  const show = useCallback(
    (host: HTMLElement) => showWiki(host, workspaceId, spaceId, pageId, (to) => navigate(to)),
    [workspaceId, spaceId, pageId, navigate]
  )
  return <LegacyView show={show} />
}

export const WikiArea = () => (
  <Routes>
    <Route index element={<Spaces />} />
    <Route path=":spaceId" element={<Space />} />
    <Route path=":spaceId/:pageId" element={<Space />} />
  </Routes>
)
