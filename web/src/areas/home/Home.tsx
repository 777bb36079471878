/**
 * A workspace's home: my open tasks (overdue first, then by due date), my
 * notifications (live: the stream's notification frames refresh them; read
 * and unread), the latest meetings and the recently edited wiki pages.
 */
import { useQueries, useQueryClient } from "@tanstack/react-query"
import { useEffect, useState } from "react"
import { Link, useParams } from "react-router"
import { $api, client, data, messageOf } from "../../api/client.ts"
import { announce } from "../../ui/announce.tsx"
import { ErrorMessage, Loading } from "../../ui/Status.tsx"
import { formatDate, isOverdue } from "../work/TaskMeta.tsx"

const MyTasks = ({ workspaceId }: { readonly workspaceId: string }) => {
  const tasks = $api.useQuery("get", "/pm/v1/workspaces/{workspaceId}/my-tasks", {
    params: { path: { workspaceId }, query: { limit: "100" } }
  })
  const sorted = [...(tasks.data?.items ?? [])].sort((a, b) => {
    const due = (t: typeof a) => (t.dueDate === null ? Number.POSITIVE_INFINITY : new Date(t.dueDate).getTime())
    return due(a) - due(b)
  })
  const overdue = sorted.filter(isOverdue)
  const rest = sorted.filter((task) => !isOverdue(task))
  const item = (task: (typeof sorted)[number]) => (
    <li key={task.id}>
      <Link to={`/w/${workspaceId}/work/tasks/${task.id}`}>{task.name}</Link>{" "}
      <span className="muted">
        {task.shortId} · {task.status.name}
        {task.dueDate !== null ? ` · due ${formatDate(task.dueDate)}` : ""}
      </span>
    </li>
  )
  return (
    <section className="card" aria-labelledby="my-tasks-title">
      <h2 id="my-tasks-title">My tasks</h2>
      {tasks.isPending ? <Loading what="your tasks" /> : null}
      {tasks.error ? <ErrorMessage error={tasks.error} /> : null}
      {tasks.data && sorted.length === 0 ? <p>Nothing assigned to you.</p> : null}
      {overdue.length > 0 ? (
        <>
          <h3 className="overdue">Overdue ({overdue.length})</h3>
          <ul className="plain">{overdue.map(item)}</ul>
        </>
      ) : null}
      {rest.length > 0 ? (
        <>
          <h3>Open ({rest.length})</h3>
          <ul className="plain">{rest.map(item)}</ul>
        </>
      ) : null}
    </section>
  )
}

/** Where a notification leads: what its event is about (resolved by the event's page). */
const targetOf = (workspaceId: string, event: { readonly seq: number | string }) => `/w/${workspaceId}/work/events/${event.seq}`

const Notifications = ({ workspaceId }: { readonly workspaceId: string }) => {
  const [unreadOnly, setUnreadOnly] = useState(false)
  const queryClient = useQueryClient()
  const notifications = $api.useQuery("get", "/pm/v1/notifications", {
    params: { query: { workspaceId, limit: "30", ...(unreadOnly ? { unread: "true" } : {}) } }
  })
  const refresh = () => queryClient.invalidateQueries({ predicate: (q) => String(q.queryKey[1]).startsWith("/pm/v1/notifications") })
  const mark = async (notificationId: string, read: boolean) => {
    try {
      data(await client.PATCH("/pm/v1/notifications/{notificationId}", { params: { path: { notificationId } }, body: { read } }))
      await refresh()
    } catch (cause) {
      announce(messageOf(cause))
    }
  }
  const markAll = async () => {
    try {
      data(await client.POST("/pm/v1/notifications/read-all", { body: { workspaceId } }))
      await refresh()
      announce("All notifications marked read")
    } catch (cause) {
      announce(messageOf(cause))
    }
  }
  const items = notifications.data?.items ?? []
  const unread = items.filter((n) => !n.read).length
  return (
    <section className="card" aria-labelledby="notifications-title">
      <h2 id="notifications-title">Notifications {unread > 0 ? <span className="badge">{unread} unread</span> : null}</h2>
      <div className="actions">
        <label className="check">
          <input type="checkbox" checked={unreadOnly} onChange={(event) => setUnreadOnly(event.target.checked)} /> Unread only
        </label>
        <button type="button" onClick={() => void markAll()} disabled={unread === 0}>
          Mark all read
        </button>
      </div>
      {notifications.isPending ? <Loading what="notifications" /> : null}
      {notifications.error ? <ErrorMessage error={notifications.error} /> : null}
      {notifications.data && items.length === 0 ? <p>No notifications.</p> : null}
      <ul className="plain notifications" aria-label="Notifications">
        {items.map((notification) => {
          const target = targetOf(workspaceId, notification.event)
          return (
            <li key={notification.id} className={notification.read ? "read" : "unread"}>
              {notification.read ? null : <span className="visually-hidden">Unread: </span>}
              <Link to={target} onClick={() => void (notification.read ? undefined : mark(notification.id, true))}>
                {notification.title}
              </Link>{" "}
              <span className="muted">{new Date(notification.createdAt).toLocaleString()}</span>{" "}
              <button type="button" className="link" onClick={() => void mark(notification.id, !notification.read)}>
                {notification.read ? "Mark unread" : "Mark read"}
              </button>
            </li>
          )
        })}
      </ul>
    </section>
  )
}

const RecentMeetings = ({ workspaceId }: { readonly workspaceId: string }) => {
  const calls = $api.useQuery("get", "/hub/v1/calls", { params: { query: { workspaceId, limit: "5" } } })
  return (
    <section className="card" aria-labelledby="meetings-title">
      <h2 id="meetings-title">Recent meetings</h2>
      {calls.isPending ? <Loading what="meetings" /> : null}
      {calls.error ? <ErrorMessage error={calls.error} /> : null}
      {calls.data && calls.data.items.length === 0 ? <p>No meetings yet.</p> : null}
      <ul className="plain">
        {calls.data?.items.map((call) => (
          <li key={call.uuid}>
            <Link to={`/w/${workspaceId}/meetings/${call.id}`}>{call.name}</Link>
          </li>
        ))}
      </ul>
    </section>
  )
}

/** The pages edited last, across the workspace's wiki spaces (the first few spaces' recent pages, newest first). */
const RecentPages = ({ workspaceId }: { readonly workspaceId: string }) => {
  const spaces = $api.useQuery("get", "/wiki/v1/spaces", { params: { query: { workspaceId } } })
  const recent = useQueries({
    queries: (spaces.data?.items ?? [])
      .slice(0, 5)
      .map((space) =>
        $api.queryOptions("get", "/wiki/v1/spaces/{spaceId}/recent", { params: { path: { spaceId: space.id }, query: { limit: "5" } } })
      )
  })
  const pages = recent
    .flatMap((result) => result.data?.items ?? [])
    .sort((a, b) => Date.parse(b.updatedAt) - Date.parse(a.updatedAt))
    .slice(0, 6)
  const failed = spaces.error ?? recent.find((result) => result.error)?.error
  return (
    <section className="card" aria-labelledby="recent-pages-title">
      <h2 id="recent-pages-title">Recently edited pages</h2>
      {spaces.isPending ? <Loading what="pages" /> : null}
      {failed ? <ErrorMessage error={failed} /> : null}
      {spaces.data && pages.length === 0 && recent.every((result) => !result.isPending) ? <p>No pages yet.</p> : null}
      <ul className="plain">
        {pages.map((page) => (
          <li key={page.id}>
            <Link to={`/w/${workspaceId}/wiki/${page.spaceId}/${page.id}`}>{`${page.icon ?? ""} ${page.title}`.trim()}</Link>{" "}
            <span className="muted">{new Date(page.updatedAt).toLocaleDateString()}</span>
          </li>
        ))}
      </ul>
    </section>
  )
}

export const Home = () => {
  const { workspaceId = "" } = useParams()
  const workspace = $api.useQuery("get", "/pm/v1/workspaces/{workspaceId}", { params: { path: { workspaceId } } })
  useEffect(() => {
    document.title = `${workspace.data?.name ?? "Home"} · Atrium`
  }, [workspace.data?.name])
  return (
    <section aria-labelledby="home-title">
      <h1 id="home-title">{workspace.data?.name ?? "Home"}</h1>
      {workspace.error ? <ErrorMessage error={workspace.error} /> : null}
      <div className="home-grid">
        <MyTasks workspaceId={workspaceId} />
        <Notifications workspaceId={workspaceId} />
        <RecentMeetings workspaceId={workspaceId} />
        <RecentPages workspaceId={workspaceId} />
      </div>
    </section>
  )
}
