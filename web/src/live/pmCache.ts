/**
 * How a pm stream event changes the one query cache, in place: a task event
 * re-reads that task once and writes it into every cached query that holds
 * it (the task itself, each list's tasks: replaced, added to its list, or
 * removed where it no longer belongs); any other event refetches the active
 * queries that name the changed entity (comments, watchers, activity…); a
 * notification refetches the notification queries; a resync refetches pm.
 */
import type { Query, QueryClient } from "@tanstack/react-query"
import { client, data } from "../api/client.ts"
import type { StreamEvent } from "./Stream.ts"

export type Task = NonNullable<Awaited<ReturnType<typeof readTask>>>

const readTask = async (taskId: string) => {
  const result = await client.GET("/pm/v1/tasks/{taskId}", { params: { path: { taskId } } })
  if (result.response.status === 404 || result.response.status === 410) return undefined
  return data(result)
}

/** The cache key of `GET /pm/v1/tasks/{taskId}`, as `$api.queryOptions("get", …)` builds it. */
export const taskKey = (taskId: string) => ["get", "/pm/v1/tasks/{taskId}", { params: { path: { taskId } } }] as const

const LIST_TASKS = "/pm/v1/lists/{listId}/tasks"

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

export const applyPmEvent = async (queryClient: QueryClient, event: StreamEvent): Promise<void> => {
  const taskId = event.scope === "task" ? event.entityId : event.path.taskId
  if (taskId !== undefined && event.type.startsWith("task.")) placeTask(queryClient, taskId, await readTask(taskId))
  const ids = [event.entityId, ...(taskId !== undefined ? [taskId] : [])]
  await queryClient.invalidateQueries({
    predicate: (query) =>
      typeof pathOf(query) === "string" &&
      (pathOf(query) as string).startsWith("/pm/") &&
      pathOf(query) !== LIST_TASKS &&
      query.queryKey[1] !== taskKey("")[1] &&
      mentions(query, ids)
  })
}

export const applyNotification = (queryClient: QueryClient) =>
  queryClient.invalidateQueries({ predicate: (query) => String(pathOf(query)).startsWith("/pm/v1/notifications") })

export const resyncPm = (queryClient: QueryClient) =>
  queryClient.invalidateQueries({ predicate: (query) => String(pathOf(query)).startsWith("/pm/") })
