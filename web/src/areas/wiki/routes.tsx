/**
 * The wiki: the workspace's spaces; a space's page tree (drag or keyboard to
 * move; it follows other people's changes live) beside the open page — the
 * live editor with who is editing, comments and versions — and the page's
 * export, permissions and public sharing; import into the space; search with
 * highlighted snippets; a new space; a space's trash and its members and roles.
 */
import { useEffect } from "react"
import { Link, NavLink, Route, Routes, useParams } from "react-router"
import { $api } from "../../api/client.ts"
import { ErrorMessage, Loading } from "../../ui/Status.tsx"
import { useWorkspaceRole } from "../common/useMe.ts"
import { PageContent, Presence, Toolbar, useLivePage } from "./LiveEditor.tsx"
import { useWikiSpaceLive } from "./live.ts"
import { NewPage } from "./NewPage.tsx"
import { NewSpace } from "./NewSpace.tsx"
import { PageTree, useTree } from "./PageTree.tsx"
import { PageComments } from "./PageComments.tsx"
import { PageSettings } from "./PageSettings.tsx"
import { PageVersions } from "./PageVersions.tsx"
import { PagePermissions } from "./Permissions.tsx"
import { SearchForm, SearchResults } from "./Search.tsx"
import { PublicShare } from "./Share.tsx"
import { SpaceAccess } from "./SpaceAccess.tsx"
import { ExportPage, ImportPages } from "./Transfer.tsx"
import { Trash } from "./Trash.tsx"
import "../common/areas.css"
import "./wiki.css"

const Spaces = () => {
  const { workspaceId = "" } = useParams()
  const spaces = $api.useQuery("get", "/wiki/v1/spaces", { params: { query: { workspaceId } } })
  const { role } = useWorkspaceRole(workspaceId)
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
      {role !== undefined && role !== "viewer" ? <NewSpace workspaceId={workspaceId} /> : null}
    </section>
  )
}

/** The open page: its title and who is editing, the live editor, its comments and versions, then its tools. */
const OpenPage = ({
  workspaceId,
  pageId,
  spaceId,
  isAdmin
}: {
  readonly workspaceId: string
  readonly pageId: string
  readonly spaceId: string
  readonly isAdmin: boolean
}) => {
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
            <PageComments pageId={pageId} workspaceId={workspaceId} isSpaceAdmin={isAdmin} editor={live.editor} />
            <PageVersions pageId={pageId} canEdit={canEdit} editor={live.editor} />
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

/** What the space shows beside its tree: a page, its trash, or who may use it. */
type SpaceView = "page" | "trash" | "access"

const Space = ({ view = "page" }: { readonly view?: SpaceView }) => {
  const { workspaceId = "", spaceId = "", pageId } = useParams()
  const space = $api.useQuery("get", "/wiki/v1/spaces/{spaceId}", { params: { path: { spaceId } } })
  const tree = useTree(spaceId)
  const live = useWikiSpaceLive(spaceId)
  const role = space.data?.role
  const canEdit = role === "admin" || role === "editor"
  const open = pageId ?? tree.data?.items[0]?.id
  useEffect(() => {
    if (space.data && pageId === undefined && view === "page") document.title = `${space.data.name} · Wiki · Atrium`
  }, [space.data, pageId, view])
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
        <ul className="plain space-links">
          <li>
            <NavLink to={`/w/${workspaceId}/wiki/${spaceId}/trash`}>Trash</NavLink>
          </li>
          <li>
            <NavLink to={`/w/${workspaceId}/wiki/${spaceId}/access`}>Members and roles</NavLink>
          </li>
        </ul>
      </nav>
      {space.error ? <ErrorMessage error={space.error} what="The space could not be loaded" /> : null}
      {view === "trash" && space.data ? (
        <Trash workspaceId={workspaceId} spaceId={spaceId} spaceName={space.data.name} role={role} />
      ) : null}
      {view === "access" && space.data ? <SpaceAccess spaceId={spaceId} spaceName={space.data.name} /> : null}
      {view !== "page" ? null : open !== undefined ? (
        <OpenPage key={open} workspaceId={workspaceId} pageId={open} spaceId={spaceId} isAdmin={role === "admin"} />
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
    <Route path=":spaceId/trash" element={<Space view="trash" />} />
    <Route path=":spaceId/access" element={<Space view="access" />} />
    <Route path=":spaceId/:pageId" element={<Space />} />
  </Routes>
)
