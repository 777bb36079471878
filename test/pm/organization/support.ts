/**
 * Helpers of the organization tests: a JSON caller that fails loudly on an
 * unexpected status, and a small hierarchy (space → folder → list → tasks,
 * plus a private space) built through the public API.
 */
import { expect } from "vitest"
import { expectStatus, type PmAtrium, type setupWorkspace } from "../work/support/pmAtrium.ts"

export type Workspace = Awaited<ReturnType<typeof setupWorkspace>>

export const caller = (atrium: PmAtrium) => {
  const call = async (method: string, path: string, token: string, body?: unknown, status?: number) => {
    const response = await atrium.request(method, `/pm/v1${path}`, body === undefined ? { token } : { token, body })
    if (status !== undefined) return expectStatus(response, status)
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${response.text}`)
    return response.body
  }
  /** Expects `status`; returns the error body. */
  const fail = async (method: string, path: string, token: string, status: number, body?: unknown) => {
    const response = await atrium.request(method, `/pm/v1${path}`, body === undefined ? { token } : { token, body })
    expect(response.status, `${method} ${path}: ${response.text}`).toBe(status)
    return response.body
  }
  return { call, fail }
}

export const qs = (params: Record<string, string | number | boolean>) =>
  new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString()

/** Engineering (S) → Roadmap (F) → Backlog (L) with two tasks and a subtask; a loose list; a private space of the owner. */
export const buildHierarchy = async (atrium: PmAtrium, w: Workspace, name = "Engineering") => {
  const { call } = caller(atrium)
  const token = w.owner.token
  const space = await call("POST", `/workspaces/${w.workspaceId}/spaces`, token, { name }, 201)
  const folder = await call("POST", `/spaces/${space.id}/folders`, token, { name: "Roadmap" }, 201)
  const list = await call("POST", `/folders/${folder.id}/lists`, token, { name: "Backlog" }, 201)
  const loose = await call("POST", `/spaces/${space.id}/lists`, token, { name: "Inbox" }, 201)
  const field = await call(
    "POST",
    `/spaces/${space.id}/custom-fields`,
    token,
    { name: "Env", type: "dropdown", options: [{ name: "prod" }, { name: "dev" }] },
    201
  )
  const task = await call(
    "POST",
    `/lists/${list.id}/tasks`,
    token,
    {
      name: "Ship login",
      description: `Ask ${w.member.email} about it`,
      assigneeIds: [w.member.userId],
      tags: ["frontend"],
      priority: "high"
    },
    201
  )
  const other = await call("POST", `/lists/${list.id}/tasks`, token, { name: "Write docs" }, 201)
  const subtask = await call("POST", `/lists/${list.id}/tasks`, token, { name: "Login copy", parentTaskId: task.id }, 201)
  const secret = await call("POST", `/workspaces/${w.workspaceId}/spaces`, token, { name: `${name} secret`, isPrivate: true }, 201)
  const secretList = await call("POST", `/spaces/${secret.id}/lists`, token, { name: "Hidden" }, 201)
  const secretTask = await call("POST", `/lists/${secretList.id}/tasks`, token, { name: "Top secret" }, 201)
  return { space, folder, list, loose, field, task, other, subtask, secret, secretList, secretTask }
}

/** The workspace's membership audit, oldest first (read as an admin). */
export const auditOf = async (atrium: PmAtrium, workspaceId: string, token: string, filter: Record<string, string> = {}) => {
  const response = await atrium.request("GET", `/pm/v1/workspaces/${workspaceId}/audit?${qs({ limit: 200, ...filter })}`, { token })
  const body = expectStatus(response, 200)
  return [...body.items].reverse() as Array<{
    seq: number
    type: string
    by: { id: string }
    user: { id: string } | null
    data: Record<string, any>
  }>
}
