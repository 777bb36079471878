/**
 * How a pm stream event changes the one query cache, in place: an event
 * about a task re-reads that task once and writes it into every cached query that holds
 * it (the task itself, each list's tasks: replaced, added to its list, or
 * removed where it no longer belongs); any other event refetches the active
 * queries that name the changed entity (comments, watchers, activity…) and,
 * for a task, the reads computed from many tasks (sprints, burndown, backlog,
 * dashboards' data); a change of a custom field's definition refetches
 * every task's field values (they do not name the field's list or space); a
 * notification refetches the notification queries; a resync refetches pm.
 */
import type { Query, QueryClient } from "@tanstack/react-query"
import { client, data } from "../api/client.ts"
import type { StreamEvent } from "./Stream.ts"

const LIST_TASKS = "/pm/v1/lists/{listId}/tasks"
const MY_TASKS = "/pm/v1/workspaces/{workspaceId}/my-tasks"
const TASK = "/pm/v1/tasks/{taskId}"
const TASK_FIELDS = "/pm/v1/tasks/{taskId}/custom-fields"
const DERIVED_READS = /^\/pm\/v1\/(sprints\/|dashboards\/\{dashboardId\}\/data|spaces\/\{spaceId\}\/(sprints|backlog|velocity))/

export type Task = NonNullable<Awaited<ReturnType<typeof readTask>>>

const readTask = async (taskId: string) => {
  const result = await client.GET("/pm/v1/tasks/{taskId}", { params: { path: { taskId } } })
  if (result.response.status === 404 || result.response.status === 410) return undefined
  return data(result)
}

/** The cache key of `GET /pm/v1/tasks/{taskId}`, as `$api.queryOptions("get", …)` builds it. */
export const taskKey = (taskId: string) => ["get", TASK, { params: { path: { taskId } } }] as const

interface TaskPage {
  readonly items: ReadonlyArray<Task>
}

const pathOf = (query: Query) => query.queryKey[1]
const paramsOf = (query: Query) =>
  (query.queryKey[2] as { params?: { path?: Record<string, string>; query?: Record<string, unknown> } } | undefined)?.params

/** Whether a query's parameters name any of `ids`. */
const mentions = (query: Query, ids: ReadonlyArray<string>) => {
  const text = JSON.stringify(query.queryKey[2] ?? null)
  return ids.some((id) => text.includes(id))
}

/** Writes the task (or its absence) into the cached task and list queries. */
export const placeTask = (queryClient: QueryClient, taskId: string, task: Task | undefined) => {
  if (task === undefined) queryClient.removeQueries({ queryKey: taskKey(taskId) })
  else queryClient.setQueryData(taskKey(taskId), task)
  for (const query of queryClient.getQueryCache().findAll({ predicate: (q) => pathOf(q) === LIST_TASKS })) {
    const page = query.state.data as TaskPage | undefined
    if (page === undefined) continue
    const params = paramsOf(query)
    const belongs =
      task !== undefined &&
      task.listId === params?.path?.listId &&
      task.archived !== true &&
      (params?.query?.subtasks !== "exclude" || task.parentTaskId === null)
    const without = page.items.filter((item) => item.id !== taskId)
    const had = without.length !== page.items.length
    if (!belongs && !had) continue
    const items = belongs ? (had ? page.items.map((item) => (item.id === taskId ? task : item)) : [...page.items, task]) : without
    queryClient.setQueryData(query.queryKey, { ...page, items })
  }
}

/** Events about a task that leave the task itself as it was (its comments are read on their own). */
const besideTheTask = (type: string) => type.startsWith("comment.") || type.startsWith("reaction.")

export const applyPmEvent = async (queryClient: QueryClient, event: StreamEvent): Promise<void> => {
  const taskId = event.path.taskId ?? (event.scope === "task" ? event.entityId : undefined)
  if (taskId !== undefined && !besideTheTask(event.type)) placeTask(queryClient, taskId, await readTask(taskId))
  // A task's own reads (comments, watchers, activity) name it; a change of a list or space (its statuses…) names those.
  const ids =
    taskId !== undefined ? [event.entityId, taskId] : [event.entityId, ...Object.values(event.path).filter((id) => id !== undefined)]
  await queryClient.invalidateQueries({
    predicate: (query) => {
      const path = String(pathOf(query))
      if (path === MY_TASKS) return taskId !== undefined
      // A task's change may move any sprint's progress and burndown, and dashboards (they do not name the task).
      if (taskId !== undefined && DERIVED_READS.test(path)) return true
      if (path === TASK_FIELDS && event.type.startsWith("custom_field.")) return true
      return path.startsWith("/pm/") && path !== LIST_TASKS && path !== TASK && mentions(query, ids)
    }
  })
}

export const applyNotification = (queryClient: QueryClient) =>
  queryClient.invalidateQueries({ predicate: (query) => String(pathOf(query)).startsWith("/pm/v1/notifications") })

export const resyncPm = (queryClient: QueryClient) =>
  queryClient.invalidateQueries({ predicate: (query) => String(pathOf(query)).startsWith("/pm/") })
