/**
 * The wiki: the workspace's spaces; a space's page tree (drag or keyboard to
 * move; it follows other people's changes live) beside the open page — the
 * live editor with who is editing, comments and versions — and the page's
 * export, permissions and public sharing; import into the space; search with
 * highlighted snippets.
 */
import { useEffect } from "react"
import { Link, Route, Routes, useParams } from "react-router"
import { $api } from "../../api/client.ts"
import { ErrorMessage, Loading } from "../../ui/Status.tsx"
import { PageContent, Presence, Toolbar, useLivePage } from "./LiveEditor.tsx"
import { useWikiSpaceLive } from "./live.ts"
import { NewPage } from "./NewPage.tsx"
import { PageTree, useTree } from "./PageTree.tsx"
import { PageComments } from "./PageComments.tsx"
import { PageSettings } from "./PageSettings.tsx"
import { PageVersions } from "./PageVersions.tsx"
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

/** The open page: its title and who is editing, the live editor, its comments and versions, then its tools. */
const OpenPage = ({ pageId, spaceId, isAdmin }: { readonly pageId: string; readonly spaceId: string; readonly isAdmin: boolean }) => {
  const page = $api.useQuery("get", "/wiki/v1/pages/{pageId}", { params: { path: { pageId } } })
  const live = useLivePage(pageId)
  const canEdit = page.data?.access === "edit"
  useEffect(() => {
    if (page.data) document.title = `${page.data.title} · Wiki · Atrium`
  }, [page.data])
  // Read-only until the page says the caller may edit it (the server refuses a reader's changes anyway).
  useEffect(() => {
    live?.editor.setEditable(canEdit)
  }, [live, canEdit])
  return (
    <div className="open-page">
      {page.error ? <ErrorMessage error={page.error} what="The page could not be loaded" /> : null}
      {page.isPending || (page.data && live === undefined) ? <Loading what="the page" /> : null}
      {page.data && live ? (
        <div className="page-area">
          <article className="page" aria-labelledby="page-title">
            <header>
              <h1 id="page-title">{`${page.data.icon ?? ""} ${page.data.title}`.trim()}</h1>
              <Presence provider={live.provider} />
            </header>
            {canEdit ? <Toolbar editor={live.editor} /> : <p className="muted small">Read only: you cannot edit this page.</p>}
            <PageContent editor={live.editor} />
          </article>
          <aside className="side" aria-label="Comments and versions">
            <PageComments pageId={pageId} editor={live.editor} />
            <PageVersions pageId={pageId} canEdit={canEdit} />
          </aside>
        </div>
      ) : null}
      {page.data ? (
        <div className="page-tools">
          {canEdit ? <PageSettings key={page.data.title} pageId={pageId} spaceId={spaceId} title={page.data.title} /> : null}
          <ExportPage pageId={pageId} title={page.data.title} spaceId={spaceId} />
          <PagePermissions pageId={pageId} />
          <PublicShare pageId={pageId} spaceId={spaceId} isAdmin={isAdmin} />
        </div>
      ) : null}
    </div>
  )
}

const LIVE_WORDS = { connecting: "connecting…", live: "● live", reconnecting: "offline — reconnecting…", closed: "not live" } as const

const Space = () => {
  const { workspaceId = "", spaceId = "", pageId } = useParams()
  const space = $api.useQuery("get", "/wiki/v1/spaces/{spaceId}", { params: { path: { spaceId } } })
  const tree = useTree(spaceId)
  const live = useWikiSpaceLive(spaceId)
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
        <p className="muted small live-state">{LIVE_WORDS[live]}</p>
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
