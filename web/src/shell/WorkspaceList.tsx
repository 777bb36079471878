/** "/": the workspaces the signed-in user belongs to; with exactly one, it opens directly. */
import { useEffect } from "react"
import { Link, Navigate } from "react-router"
import { $api } from "../api/client.ts"
import { ErrorMessage, Loading } from "../ui/Status.tsx"
import { AccountMenu } from "./AccountMenu.tsx"

export const useWorkspaces = () => $api.useQuery("get", "/pm/v1/workspaces/switcher")

export const WorkspaceList = () => {
  const workspaces = useWorkspaces()
  useEffect(() => {
    document.title = "Workspaces · Atrium"
  }, [])
  if (workspaces.data?.items.length === 1) return <Navigate to={`/w/${workspaces.data.items[0]!.id}`} replace />
  return (
    <>
      <header className="top">
        <Link className="brand" to="/">
          Atrium
        </Link>
        <AccountMenu />
      </header>
      <main id="main" className="page-narrow">
        <h1>Your workspaces</h1>
        {workspaces.isPending ? <Loading what="workspaces" /> : null}
        {workspaces.error ? <ErrorMessage error={workspaces.error} /> : null}
        {workspaces.data?.items.length === 0 ? <p>You are not a member of any workspace yet.</p> : null}
        <ul className="tiles">
          {workspaces.data?.items.map((workspace) => (
            <li key={workspace.id} className="card">
              <Link to={`/w/${workspace.id}`}>{workspace.name}</Link>
              <span className="muted">
                {" "}
                · {workspace.role} · {workspace.memberCount} members
                {Number(workspace.unreadNotifications) > 0 ? ` · ${workspace.unreadNotifications} unread` : ""}
              </span>
            </li>
          ))}
        </ul>
      </main>
    </>
  )
}
