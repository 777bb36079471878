/**
 * Everything about one task, editable: name, status, priority, dates,
 * assignees, tags, watchers, description (rich text), subtasks, comments with
 * @-mentions, activity; move to another list, archive. Every change is a call
 * whose reply is written into the cache (so every view shows it at once);
 * the stream brings others' changes the same way. A refused change shows why.
 */
import { useQueryClient } from "@tanstack/react-query"
import { type FormEvent, lazy, Suspense, useState } from "react"
import { Link, useParams } from "react-router"
import { $api, client, data, messageOf, type Paths } from "../../api/client.ts"
import { useSession } from "../../api/session.ts"
import { placeTask } from "../../live/pmCache.ts"
import { announce } from "../../ui/announce.tsx"
import { ErrorMessage, Loading } from "../../ui/Status.tsx"
import { Comments } from "./Comments.tsx"
import { useWorkspaceRole } from "../common/useMe.ts"
import { Attachments } from "./Attachments.tsx"
import { CustomFields } from "./CustomFields.tsx"
import { useHierarchy, useMembers, useStatuses } from "./queries.ts"
import { Relationships } from "./Relationships.tsx"
import { TaskFeedback } from "./TaskFeedback.tsx"

const Description = lazy(() => import("./Description.tsx").then((m) => ({ default: m.Description })))

type UpdateBody = Paths["/pm/v1/tasks/{taskId}"]["patch"]["requestBody"]["content"]["application/json"]

const PRIORITIES = ["urgent", "high", "normal", "low"] as const

/** `YYYY-MM-DD` of an ISO date, for a date input. */
const dayOf = (iso: string | null) => (iso === null ? "" : iso.slice(0, 10))
const isoOf = (day: string) => (day === "" ? null : `${day}T12:00:00.000Z`)

const Activity = ({ taskId }: { readonly taskId: string }) => {
  const activity = $api.useQuery("get", "/pm/v1/tasks/{taskId}/activity", { params: { path: { taskId }, query: { limit: "30" } } })
  return (
    <section aria-labelledby="task-activity-title">
      <h3 id="task-activity-title">Activity</h3>
      {activity.isPending ? <Loading what="activity" /> : null}
      {activity.error ? <ErrorMessage error={activity.error} /> : null}
      <ol className="plain activity">
        {activity.data?.items.map((event) => (
          <li key={event.seq}>
            <span>{event.actor?.name ?? "Someone"}</span> <span>{event.type.replace(/[._]/g, " ")}</span>{" "}
            <span className="muted">{new Date(event.at).toLocaleString()}</span>
          </li>
        ))}
      </ol>
    </section>
  )
}

const Subtasks = ({ taskId, workspaceId }: { readonly taskId: string; readonly workspaceId: string }) => {
  const queryClient = useQueryClient()
  const subtasks = $api.useQuery("get", "/pm/v1/tasks/{taskId}/subtasks", { params: { path: { taskId } } })
  const [error, setError] = useState("")
  const add = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = event.currentTarget
    const name = String(new FormData(form).get("subtask") ?? "").trim()
    if (name === "") return
    try {
      const created = data(await client.POST("/pm/v1/tasks/{taskId}/subtasks", { params: { path: { taskId } }, body: { name } }))
      placeTask(queryClient, created.id, created)
      form.reset()
      setError("")
      await queryClient.invalidateQueries({ queryKey: ["get", "/pm/v1/tasks/{taskId}/subtasks"] })
    } catch (cause) {
      setError(messageOf(cause))
    }
  }
  return (
    <section aria-labelledby="subtasks-title">
      <h3 id="subtasks-title">Subtasks</h3>
      {subtasks.error ? <ErrorMessage error={subtasks.error} /> : null}
      <ul className="plain">
        {subtasks.data?.items.map((subtask) => (
          <li key={subtask.id}>
            <Link to={`/w/${workspaceId}/work/tasks/${subtask.id}`}>{subtask.name}</Link>{" "}
            <span className="muted">· {subtask.status.name}</span>
          </li>
        ))}
      </ul>
      <form className="inline-form" onSubmit={add}>
        <label className="field">
          <span>New subtask</span>
          <input name="subtask" required maxLength={500} />
        </label>
        <button type="submit">Add subtask</button>
      </form>
      <p className="error" role="alert">
        {error}
      </p>
    </section>
  )
}

export const TaskDetail = ({ taskId, headingLevel = 2 }: { readonly taskId: string; readonly headingLevel?: 1 | 2 }) => {
  const { workspaceId = "" } = useParams()
  const session = useSession()
  const queryClient = useQueryClient()
  const task = $api.useQuery("get", "/pm/v1/tasks/{taskId}", { params: { path: { taskId } } })
  const statuses = useStatuses(task.data?.listId ?? "")
  const members = useMembers(workspaceId)
  const hierarchy = useHierarchy(workspaceId)
  const { role, isAdmin } = useWorkspaceRole(workspaceId)
  const [error, setError] = useState("")

  if (task.isPending) return <Loading what="the task" />
  if (task.error) return <ErrorMessage error={task.error} what="The task could not be loaded" />
  const current = task.data
  const Heading = headingLevel === 1 ? "h1" : "h2"

  /** Runs a change; `shown` is how the task looks meanwhile (put back if the change is refused). */
  const run = async (what: string, call: () => Promise<typeof current>, shown?: Partial<typeof current>) => {
    setError("")
    if (shown !== undefined) placeTask(queryClient, taskId, { ...current, ...shown })
    try {
      const updated = await call()
      placeTask(queryClient, updated.id, updated)
      announce(what)
      return true
    } catch (cause) {
      if (shown !== undefined) placeTask(queryClient, taskId, current)
      setError(messageOf(cause))
      return false
    }
  }
  const update = (what: string, body: UpdateBody, shown?: Partial<typeof current>) =>
    run(what, async () => data(await client.PATCH("/pm/v1/tasks/{taskId}", { params: { path: { taskId } }, body })), shown)

  const me = session?.user.id
  const watching = me !== undefined && current.watcherIds.includes(me)
  const toggleWatch = async () => {
    setError("")
    try {
      if (watching) data(await client.DELETE("/pm/v1/tasks/{taskId}/watchers/{userId}", { params: { path: { taskId, userId: me } } }))
      else data(await client.POST("/pm/v1/tasks/{taskId}/watchers", { params: { path: { taskId } }, body: {} }))
      placeTask(queryClient, taskId, data(await client.GET("/pm/v1/tasks/{taskId}", { params: { path: { taskId } } })))
      announce(watching ? "You stopped watching this task" : "You are watching this task")
    } catch (cause) {
      setError(messageOf(cause))
    }
  }

  const lists = (hierarchy.data?.spaces ?? []).flatMap((space) => [
    ...space.lists.map((list) => ({ id: list.id, label: `${space.name} / ${list.name}` })),
    ...space.folders.flatMap((folder) =>
      folder.lists.map((list) => ({ id: list.id, label: `${space.name} / ${folder.name} / ${list.name}` }))
    )
  ])
  const assigneeIds = current.assignees.map((a) => a.id)
  // Viewers read; an archived task keeps its links and files as they are.
  const canChange = !current.archived && role !== undefined && role !== "viewer"

  return (
    <article className="task-detail" aria-labelledby="task-title">
      <p className="muted">
        {current.shortId}
        {current.archived ? " · archived" : ""}
      </p>
      <Heading id="task-title">{current.name}</Heading>
      <p className="error" role="alert">
        {error}
      </p>
      <form
        className="inline-form"
        onSubmit={(event) => {
          event.preventDefault()
          const name = String(new FormData(event.currentTarget).get("name") ?? "").trim()
          if (name !== "" && name !== current.name) void update("Renamed", { name })
        }}
      >
        <label className="field grow">
          <span>Name</span>
          <input name="name" defaultValue={current.name} key={current.name} required maxLength={500} />
        </label>
        <button type="submit">Rename</button>
      </form>
      <div className="fields">
        <label className="field">
          <span>Status</span>
          <select
            value={current.status.name}
            onChange={(event) => {
              const status = statuses.data?.items.find((s) => s.name === event.target.value)
              void update(`Status: ${event.target.value}`, { status: event.target.value }, status && { status })
            }}
          >
            {(statuses.data?.items ?? [current.status]).map((status) => (
              <option key={status.name} value={status.name}>
                {status.name}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>Priority</span>
          <select
            value={current.priority ?? ""}
            onChange={(event) =>
              void update("Priority changed", {
                priority: event.target.value === "" ? null : (event.target.value as (typeof PRIORITIES)[number])
              })
            }
          >
            <option value="">None</option>
            {PRIORITIES.map((priority) => (
              <option key={priority} value={priority}>
                {priority}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>Start date</span>
          <input
            type="date"
            value={dayOf(current.startDate)}
            onChange={(event) => void update("Start date changed", { startDate: isoOf(event.target.value) })}
          />
        </label>
        <label className="field">
          <span>Due date</span>
          <input
            type="date"
            value={dayOf(current.dueDate)}
            onChange={(event) => void update("Due date changed", { dueDate: isoOf(event.target.value) })}
          />
        </label>
      </div>
      <fieldset className="assignees">
        <legend>Assignees</legend>
        {members.data?.items.map((member) => (
          <label key={member.userId} className="check">
            <input
              type="checkbox"
              checked={assigneeIds.includes(member.userId)}
              onChange={(event) =>
                void update(
                  event.target.checked ? `${member.name} assigned` : `${member.name} unassigned`,
                  event.target.checked ? { addAssigneeIds: [member.userId] } : { removeAssigneeIds: [member.userId] },
                  {
                    assignees: event.target.checked
                      ? [...current.assignees, { id: member.userId, name: member.name, email: member.email }]
                      : current.assignees.filter((a) => a.id !== member.userId)
                  }
                )
              }
            />
            {member.name}
          </label>
        ))}
      </fieldset>
      <div className="tags-edit">
        <span className="label">Tags</span>
        <ul className="plain inline">
          {current.tags.map((tag) => (
            <li key={tag.name} className="tag">
              #{tag.name}{" "}
              <button
                type="button"
                className="link"
                aria-label={`Remove tag ${tag.name}`}
                onClick={() =>
                  void update(`Tag ${tag.name} removed`, { tags: current.tags.map((t) => t.name).filter((n) => n !== tag.name) })
                }
              >
                ×
              </button>
            </li>
          ))}
        </ul>
        <form
          className="inline-form"
          onSubmit={(event) => {
            event.preventDefault()
            const form = event.currentTarget
            const tag = String(new FormData(form).get("tag") ?? "").trim()
            if (tag === "") return
            void update(`Tag ${tag} added`, { tags: [...new Set([...current.tags.map((t) => t.name), tag])] }).then(
              (ok) => ok && form.reset()
            )
          }}
        >
          <label className="field">
            <span>Add tag</span>
            <input name="tag" maxLength={64} />
          </label>
          <button type="submit">Add tag</button>
        </form>
      </div>
      <p className="watchers">
        <span className="label">Watchers:</span>{" "}
        {members.data?.items
          .filter((m) => current.watcherIds.includes(m.userId))
          .map((m) => m.name)
          .join(", ") || "nobody"}{" "}
        <button type="button" onClick={() => void toggleWatch()}>
          {watching ? "Stop watching" : "Watch"}
        </button>
      </p>
      <section aria-labelledby="description-title">
        <h3 id="description-title">Description</h3>
        <Suspense fallback={<Loading what="the editor" />}>
          <Description
            markdown={current.description}
            canEdit={!current.archived}
            onSave={(description) => update("Description saved", { description })}
          />
        </Suspense>
      </section>
      <CustomFields taskId={taskId} archived={current.archived} />
      <Subtasks taskId={taskId} workspaceId={workspaceId} />
      <Relationships taskId={taskId} workspaceId={workspaceId} canEdit={canChange} />
      <Attachments
        taskId={taskId}
        canUpload={canChange}
        canDelete={(attachment) => canChange && (isAdmin || attachment.uploadedBy === me)}
      />
      <TaskFeedback taskId={taskId} workspaceId={workspaceId} />
      <Comments taskId={taskId} members={members.data?.items ?? []} />
      <section aria-labelledby="task-actions-title" className="task-actions">
        <h3 id="task-actions-title">Move or archive</h3>
        <form
          className="inline-form"
          onSubmit={(event) => {
            event.preventDefault()
            const listId = String(new FormData(event.currentTarget).get("list") ?? "")
            if (listId === "" || listId === current.listId) return
            void run("Task moved", async () =>
              data(await client.POST("/pm/v1/tasks/{taskId}/move", { params: { path: { taskId } }, body: { listId } }))
            )
          }}
        >
          <label className="field">
            <span>Move to list</span>
            <select name="list" defaultValue={current.listId}>
              {lists.map((list) => (
                <option key={list.id} value={list.id}>
                  {list.label}
                </option>
              ))}
            </select>
          </label>
          <button type="submit">Move</button>
        </form>
        {current.archived ? (
          <button
            type="button"
            onClick={() =>
              void run("Task restored", async () =>
                data(await client.POST("/pm/v1/tasks/{taskId}/unarchive", { params: { path: { taskId } } }))
              )
            }
          >
            Restore task
          </button>
        ) : (
          <button
            type="button"
            onClick={() =>
              void run("Task archived", async () =>
                data(await client.POST("/pm/v1/tasks/{taskId}/archive", { params: { path: { taskId } } }))
              )
            }
          >
            Archive task
          </button>
        )}
        <p>
          <Link to={`/w/${workspaceId}/work/lists/${current.listId}`}>Open its list</Link> ·{" "}
          <Link to={`/w/${workspaceId}/work/tasks/${current.id}`}>Open as a page</Link>
        </p>
      </section>
      <Activity taskId={taskId} />
    </article>
  )
}
