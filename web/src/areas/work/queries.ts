/**
 * The pm reads the Work area shares, keyed as the generated client keys them
 * (`[method, path, init]`), so the live stream's cache updates reach them
 * (live/pmCache.ts): a list's tasks are every page of `listTasks`, held as one
 * `{ items }` entry.
 */
import { useQuery } from "@tanstack/react-query"
import { $api, client, data } from "../../api/client.ts"
import type { Task } from "../../live/pmCache.ts"

export type { Task }
export type Status = Task["status"]

const PAGE = 100

/** The list's tasks, top-level only, closed included, in board order. */
export const listTasksKey = (listId: string) =>
  [
    "get",
    "/pm/v1/lists/{listId}/tasks",
    { params: { path: { listId }, query: { includeClosed: "true", subtasks: "exclude", order: "position" } } }
  ] as const

export const useListTasks = (listId: string) =>
  useQuery({
    queryKey: listTasksKey(listId),
    queryFn: async ({ signal }) => {
      const items: Array<Task> = []
      for (let offset = 0; ; offset += PAGE) {
        const page = data(
          await client.GET("/pm/v1/lists/{listId}/tasks", {
            params: {
              path: { listId },
              query: { ...listTasksKey(listId)[2].params.query, limit: String(PAGE), offset: String(offset) }
            },
            signal
          })
        )
        items.push(...page.items)
        if (page.items.length < PAGE) return { items }
      }
    }
  })

export const useList = (listId: string) => $api.useQuery("get", "/pm/v1/lists/{listId}", { params: { path: { listId } } })

/** The list's statuses (none asked for while the list is not known yet). */
export const useStatuses = (listId: string) =>
  $api.useQuery("get", "/pm/v1/lists/{listId}/statuses", { params: { path: { listId } } }, { enabled: listId !== "" })

export const useHierarchy = (workspaceId: string) =>
  $api.useQuery("get", "/pm/v1/workspaces/{workspaceId}/hierarchy", { params: { path: { workspaceId } } })

export const useMembers = (workspaceId: string) =>
  $api.useQuery("get", "/pm/v1/workspaces/{workspaceId}/members", { params: { path: { workspaceId } } })
