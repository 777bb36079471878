/** Meetings (hub): the workspace's recorded calls, newest first. */
import { useEffect } from "react"
import { Route, Routes, useParams } from "react-router"
import { $api } from "../../api/client.ts"
import { ErrorMessage, Loading } from "../../ui/Status.tsx"

const Calls = () => {
  const { workspaceId = "" } = useParams()
  const calls = $api.useQuery("get", "/hub/v1/calls", { params: { query: { workspaceId, limit: "50" } } })
  useEffect(() => {
    document.title = "Meetings · Atrium"
  }, [])
  return (
    <section aria-labelledby="calls-title">
      <h1 id="calls-title">Meetings</h1>
      {calls.isPending ? <Loading what="meetings" /> : null}
      {calls.error ? <ErrorMessage error={calls.error} /> : null}
      {calls.data && calls.data.items.length === 0 ? <p>No recorded meetings yet.</p> : null}
      <ul className="tiles">
        {calls.data?.items.map((call) => (
          <li key={call.uuid} className="card">
            <h2>{call.name}</h2>
            <p className="muted">
              {call.status} · {call.attendees.map((a) => a.name).join(", ")}
            </p>
            {call.summary ? <p>{call.summary}</p> : null}
          </li>
        ))}
      </ul>
    </section>
  )
}

export const MeetingsArea = () => (
  <Routes>
    <Route index element={<Calls />} />
    <Route path=":callId" element={<Calls />} />
  </Routes>
)
