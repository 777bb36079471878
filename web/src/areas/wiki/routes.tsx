/**
 * The wiki: the workspace's spaces; a space's page tree (drag or keyboard to
 * move) beside the open page — the live editor with comments and versions
 * (wiki/Page.ts, hosted as it is) and the page's export, permissions and
 * public sharing; import into the space; search with highlighted snippets.
 */
import { useCallback, useEffect } from "react"
import { Link, Route, Routes, useParams } from "react-router"
import { $api } from "../../api/client.ts"
import { LegacyView } from "../../ui/LegacyView.tsx"
import { ErrorMessage, Loading } from "../../ui/Status.tsx"
import { openPage } from "../../wiki/Page.ts"
import { NewPage } from "./NewPage.tsx"
import { PageTree, useTree } from "./PageTree.tsx"
import { PagePermissions } from "./Permissions.tsx"
import { SearchForm, SearchResults } from "./Search.tsx"
import { PublicShare } from "./Share.tsx"
import { ExportPage, ImportPages } from "./Transfer.tsx"
import "../common/areas.css"
import "./wiki.css"

const Spaces = () => {
  const { workspaceId = "" } = useParams()
  const spaces = $api.useQuery("get", "/wiki/v1/spaces", { params: { query: { workspaceId } } })
  useEffect(() => {
    document.title = "Wiki · Atrium"
  }, [])
  return (
    <section aria-labelledby="wiki-title">
      <h1 id="wiki-title">Wiki</h1>
      <SearchForm />
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

/** The open page: the live editor, comments and versions (a DOM view), then its tools. */
const OpenPage = ({ pageId, spaceId, isAdmin }: { readonly pageId: string; readonly spaceId: string; readonly isAdmin: boolean }) => {
  const page = $api.useQuery("get", "/wiki/v1/pages/{pageId}", { params: { path: { pageId } } })
  const show = useCallback((host: HTMLElement) => openPage(host, pageId), [pageId])
  useEffect(() => {
    if (page.data) document.title = `${page.data.title} · Wiki · Atrium`
  }, [page.data])
  return (
    <div className="open-page">
      <LegacyView show={show} className="page-area" />
      {page.error ? <ErrorMessage error={page.error} what="The page could not be loaded" /> : null}
      {page.data ? (
        <div className="page-tools">
          <ExportPage pageId={pageId} title={page.data.title} spaceId={spaceId} />
          <PagePermissions pageId={pageId} />
          <PublicShare pageId={pageId} spaceId={spaceId} isAdmin={isAdmin} />
        </div>
      ) : null}
    </div>
  )
}

const Space = () => {
  const { workspaceId = "", spaceId = "", pageId } = useParams()
  const space = $api.useQuery("get", "/wiki/v1/spaces/{spaceId}", { params: { path: { spaceId } } })
  const tree = useTree(spaceId)
  const role = space.data?.role
  const canEdit = role === "admin" || role === "editor"
  const open = pageId ?? tree.data?.items[0]?.id
  useEffect(() => {
    if (space.data && pageId === undefined) document.title = `${space.data.name} · Wiki · Atrium`
  }, [space.data, pageId])
  return (
    <div className="wiki">
      <nav className="tree card" aria-label="Pages of the space">
        <p>
          <Link to={`/w/${workspaceId}/wiki`}>← Spaces</Link>
        </p>
        <SearchForm spaceId={spaceId} />
        <PageTree workspaceId={workspaceId} spaceId={spaceId} current={open} canMove={canEdit} />
        {canEdit ? <NewPage spaceId={spaceId} /> : null}
        {canEdit ? <ImportPages spaceId={spaceId} /> : null}
      </nav>
      {space.error ? <ErrorMessage error={space.error} what="The space could not be loaded" /> : null}
      {open !== undefined ? (
        <OpenPage key={open} pageId={open} spaceId={spaceId} isAdmin={role === "admin"} />
      ) : tree.data ? (
        <p className="card">Create the first page of this space.</p>
      ) : null}
    </div>
  )
}

export const WikiArea = () => (
  <Routes>
    <Route index element={<Spaces />} />
    <Route path="search" element={<SearchResults />} />
    <Route path=":spaceId" element={<Space />} />
    <Route path=":spaceId/:pageId" element={<Space />} />
  </Routes>
)
