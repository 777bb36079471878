import { Link, useParams } from "react-router"
import { ErrorMessage, Loading } from "../../ui/Status.tsx"
import { callHref } from "../common/links.ts"
import { when } from "../common/time.ts"
import { useCalls } from "./queries.ts"

const statusLabel = { queued: "Queued", processing: "Processing", ready: "Ready", failed: "Failed" } as const

/** The workspace's calls the user may see, newest first. */
export const CallList = () => {
  const workspaceId = useParams().workspaceId!
  const calls = useCalls(workspaceId)
  return (
    <section aria-labelledby="meetings-heading" className="area-page">
      <header className="area-header">
        <h1 id="meetings-heading">Meetings</h1>
        <nav aria-label="Meetings" className="area-tabs">
          <Link to="calendar">Calendar</Link>
          <Link to="webhooks">My webhooks</Link>
        </nav>
      </header>
      {calls.isPending ? <Loading what="meetings" /> : null}
      {calls.isError ? <ErrorMessage error={calls.error} what="Meetings" /> : null}
      {calls.data && calls.data.items.length === 0 ? <p>No recorded meetings yet.</p> : null}
      {calls.data && calls.data.items.length > 0 ? (
        <ul className="card-list" aria-label="Recorded meetings">
          {calls.data.items.map((call) => (
            <li key={call.id} className="card">
              <h2 className="card-title">
                <Link to={callHref(workspaceId, call.id)}>{call.name}</Link>
              </h2>
              <p className="muted">
                {when(call.createdAt)} · {call.attendees.map((attendee) => attendee.name ?? attendee.email).join(", ")} ·{" "}
                <span className={`badge badge-${call.status}`}>{statusLabel[call.status]}</span>
              </p>
              {call.summary ? <p className="clamp">{call.summary}</p> : null}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  )
}
