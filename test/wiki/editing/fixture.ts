/** A workspace with an owner, an admin, a member (editor), a viewer and an outsider, for the wiki editing tests. */
import { expect } from "vitest"
import { signUp, type TestAtrium } from "../../support/atrium.ts"
import { eventually, type TestEditor } from "../../support/collabAtrium.ts"

export type User = Awaited<ReturnType<typeof signUp>>

export interface Team {
  readonly workspaceId: string
  readonly owner: User
  readonly admin: User
  readonly member: User
  readonly viewer: User
  readonly outsider: User
}

export const team = async (atrium: TestAtrium): Promise<Team> => {
  const [owner, admin, member, viewer, outsider] = await Promise.all(
    ["Owner", "Admin", "Member", "Viewer", "Outsider"].map((name) => signUp(atrium, name))
  )
  const created = await atrium.request("POST", "/pm/v1/workspaces", { token: owner!.token, body: { name: "Acme" } })
  expect(created.status).toBe(201)
  const workspaceId = created.body.id as string
  for (const [user, role] of [
    [admin!, "admin"],
    [member!, "member"],
    [viewer!, "viewer"]
  ] as const) {
    const added = await atrium.request("POST", `/pm/v1/workspaces/${workspaceId}/members`, {
      token: owner!.token,
      body: { email: user.email, role }
    })
    expect(added.status).toBe(201)
  }
  return { workspaceId, owner: owner!, admin: admin!, member: member!, viewer: viewer!, outsider: outsider! }
}

/** Mints an API key of `user` for the workspace with these scopes. */
export const apiKey = async (atrium: TestAtrium, user: User, workspaceId: string, scopes: Array<string>) => {
  const created = await atrium.request("POST", "/hub/v1/api-keys", { token: user.token, body: { workspaceId, name: "bot", scopes } })
  expect(created.status, created.text).toBe(201)
  return created.body.key as string
}

let keys = 0
/** A fresh space key (keys are unique per workspace). */
export const freshKey = (prefix = "S") => `${prefix}${Date.now().toString(36).toUpperCase().slice(-5)}${++keys}`

export const createSpace = async (atrium: TestAtrium, token: string, workspaceId: string, extra: Record<string, unknown> = {}) => {
  const created = await atrium.request("POST", "/wiki/v1/spaces", {
    token,
    body: { workspaceId, name: "Engineering", key: freshKey(), ...extra }
  })
  expect(created.status, created.text).toBe(201)
  return created.body as { id: string; key: string; [field: string]: unknown }
}

export const createPage = async (atrium: TestAtrium, token: string, spaceId: string, body: Record<string, unknown>) => {
  const created = await atrium.request("POST", `/wiki/v1/spaces/${spaceId}/pages`, { token, body })
  expect(created.status, created.text).toBe(201)
  return created.body as { id: string; title: string; slug: string; [field: string]: unknown }
}

/** Closes a test editor without racing a reconnect in progress (closing a socket still connecting raises in `ws`). */
export const closeEditor = async (editor: TestEditor) => {
  const socket = editor.socket as unknown as { shouldConnect: boolean; clearReconnectTimeout?: () => void; status: string }
  socket.shouldConnect = false
  socket.clearReconnectTimeout?.()
  await eventually(() => socket.status !== "connecting", "the editor's socket settled")
  editor.destroy()
}
