/**
 * The frame of every workspace page: a skip link, the banner (workspace
 * switcher, Lens, account), the area navigation, the live connection banner,
 * the main landmark (each area loads on demand), and the Lens panel. Under
 * 48rem the navigation folds behind a "Menu" button.
 */
import { lazy, Suspense, useEffect, useRef, useState } from "react"
import { Link, NavLink, Outlet, useLocation, useNavigate, useParams } from "react-router"
import { ConnectionBanner, PmLive } from "../live/PmLive.tsx"
import { Announcer } from "../ui/announce.tsx"
import { Loading } from "../ui/Status.tsx"
import { AccountMenu } from "./AccountMenu.tsx"
import { useWorkspaces } from "./WorkspaceList.tsx"

const LensPanel = lazy(() => import("../areas/lens/LensPanel.tsx").then((m) => ({ default: m.LensPanel })))

const AREAS = [
  { to: "", label: "Home", end: true },
  { to: "work", label: "Work" },
  { to: "wiki", label: "Wiki" },
  { to: "meetings", label: "Meetings" },
  { to: "feedback", label: "Feedback" },
  { to: "settings", label: "Settings" }
] as const

const WorkspaceSwitcher = ({ workspaceId }: { readonly workspaceId: string }) => {
  const workspaces = useWorkspaces()
  const navigate = useNavigate()
  const items = workspaces.data?.items ?? []
  const current = items.find((w) => w.id === workspaceId)
  return (
    <label className="switcher">
      <span className="visually-hidden">Workspace</span>
      <select
        value={workspaceId}
        onChange={(event) => navigate(event.target.value === "" ? "/" : `/w/${event.target.value}`)}
        aria-describedby={current?.unreadNotifications ? "switcher-unread" : undefined}
      >
        {current === undefined ? <option value={workspaceId}>Workspace</option> : null}
        {items.map((workspace) => (
          <option key={workspace.id} value={workspace.id}>
            {workspace.name}
          </option>
        ))}
        <option value="">All workspaces…</option>
      </select>
    </label>
  )
}

export const AppShell = () => {
  const { workspaceId = "" } = useParams()
  const location = useLocation()
  const [menuOpen, setMenuOpen] = useState(false)
  const [lensOpen, setLensOpen] = useState(false)
  const main = useRef<HTMLElement>(null)
  const firstRender = useRef(true)

  // A route change closes the folded menu and moves focus to the new page's content (not on the first load).
  useEffect(() => {
    setMenuOpen(false)
    if (firstRender.current) firstRender.current = false
    else main.current?.focus({ preventScroll: true })
  }, [location.pathname])

  return (
    <PmLive workspaceId={workspaceId}>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <Link className="brand" to={`/w/${workspaceId}`}>
          Atrium
        </Link>
        <WorkspaceSwitcher workspaceId={workspaceId} />
        <button
          type="button"
          className="menu-toggle"
          aria-expanded={menuOpen}
          aria-controls="area-nav"
          onClick={() => setMenuOpen(!menuOpen)}
        >
          Menu
        </button>
        <div className="top-end">
          <button type="button" aria-expanded={lensOpen} aria-controls="lens-panel" onClick={() => setLensOpen(!lensOpen)}>
            Lens
          </button>
          <AccountMenu />
        </div>
      </header>
      <div className={`frame${lensOpen ? " with-lens" : ""}`}>
        <nav id="area-nav" className={`areas${menuOpen ? " open" : ""}`} aria-label="Areas">
          <ul>
            {AREAS.map((area) => (
              <li key={area.label}>
                <NavLink to={area.to === "" ? `/w/${workspaceId}` : `/w/${workspaceId}/${area.to}`} end={"end" in area}>
                  {area.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main" ref={main} tabIndex={-1}>
          <ConnectionBanner />
          <Suspense fallback={<Loading what="this page" />}>
            <Outlet />
          </Suspense>
        </main>
        {lensOpen ? (
          <Suspense fallback={<Loading what="Lens" />}>
            <LensPanel workspaceId={workspaceId} onClose={() => setLensOpen(false)} />
          </Suspense>
        ) : null}
      </div>
      <Announcer />
    </PmLive>
  )
}
