/**
 * Shared setup of the planning tests: an Atrium with a workspace (owner,
 * member, viewer, outsider), a space with two lists, and small JSON helpers.
 */
import { expect } from "vitest"
import type { AtriumConfig } from "../../../facade/Config.ts"
import { expectStatus, type PmAtrium, setupWorkspace, startPmAtrium } from "../work/support/pmAtrium.ts"

export interface Planning {
  readonly atrium: PmAtrium
  readonly w: Awaited<ReturnType<typeof setupWorkspace>>
  readonly space: any
  readonly list: any
  readonly other: any
  /** Calls `/pm/v1<path>` as `token` (the member by default); expects `status`, else any 2xx. */
  readonly call: (method: string, path: string, body?: unknown, token?: string, status?: number) => Promise<any>
  /** Expects exactly `status` and returns the body. */
  readonly fail: (method: string, path: string, body: unknown, status: number, token?: string) => Promise<any>
  readonly newTask: (body?: Record<string, unknown>, listId?: string) => Promise<any>
}

export const startPlanning = async (overrides: Partial<AtriumConfig> = {}): Promise<Planning> => {
  const atrium = await startPmAtrium(overrides)
  const w = await setupWorkspace(atrium)
  const call = async (method: string, path: string, body?: unknown, token = w.member.token, status?: number) => {
    const response = await atrium.request(method, `/pm/v1${path}`, body === undefined ? { token } : { token, body })
    if (status !== undefined) return expectStatus(response, status)
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${response.text}`)
    return response.body
  }
  const fail = async (method: string, path: string, body: unknown, status: number, token = w.member.token) => {
    const response = await atrium.request(method, `/pm/v1${path}`, body === undefined ? { token } : { token, body })
    expect(response.status, response.text).toBe(status)
    return response.body
  }
  const space = await call("POST", `/workspaces/${w.workspaceId}/spaces`, { name: "Engineering" }, w.member.token, 201)
  const list = await call("POST", `/spaces/${space.id}/lists`, { name: "Backlog" }, w.member.token, 201)
  const other = await call("POST", `/spaces/${space.id}/lists`, { name: "Bugs" }, w.member.token, 201)
  const newTask = (body: Record<string, unknown> = {}, listId: string = list.id) =>
    call("POST", `/lists/${listId}/tasks`, { name: "Task", ...body }, w.member.token, 201)
  return { atrium, w, space, list, other, call, fail, newTask }
}

export const qs = (params: Record<string, string | number | boolean>) =>
  new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString()
