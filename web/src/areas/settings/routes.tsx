/** Settings: the signed-in person's profile and the workspace's members with their roles. */
import { useEffect } from "react"
import { Route, Routes, useParams } from "react-router"
import { $api } from "../../api/client.ts"
import { useSession } from "../../api/session.ts"
import { ErrorMessage, Loading } from "../../ui/Status.tsx"

const Overview = () => {
  const { workspaceId = "" } = useParams()
  const session = useSession()
  const members = $api.useQuery("get", "/pm/v1/workspaces/{workspaceId}/members", { params: { path: { workspaceId } } })
  useEffect(() => {
    document.title = "Settings · Atrium"
  }, [])
  return (
    <section aria-labelledby="settings-title">
      <h1 id="settings-title">Settings</h1>
      <section className="card" aria-labelledby="profile-title">
        <h2 id="profile-title">Profile</h2>
        <dl className="pairs">
          <dt>Name</dt>
          <dd>{session?.user.name}</dd>
          <dt>Email</dt>
          <dd>{session?.user.email}</dd>
        </dl>
      </section>
      <section className="card" aria-labelledby="members-title">
        <h2 id="members-title">Members</h2>
        {members.isPending ? <Loading what="members" /> : null}
        {members.error ? <ErrorMessage error={members.error} /> : null}
        <ul className="plain">
          {members.data?.items.map((member) => (
            <li key={member.userId}>
              {member.name}{" "}
              <span className="muted">
                · {member.email} · {member.role}
              </span>
            </li>
          ))}
        </ul>
      </section>
    </section>
  )
}

export const SettingsArea = () => (
  <Routes>
    <Route index element={<Overview />} />
  </Routes>
)
