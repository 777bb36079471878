/**
 * Atrium for the work tests: the whole server (as `startAtrium`, with the
 * real ChangeLog of the streams extension), plus read access to its database
 * so tests can check the change log (`pm_events`) and the notifications the
 * changes produced, and helpers to set up a workspace with its roles.
 */
import { appendFileSync } from "node:fs"
import type { AtriumConfig } from "../../../../facade/Config.ts"
import { atriumRegistry } from "../../../../facade/operations.ts"
import { signUp, startAtrium, type TestAtrium, type TestResponse, type TestServer } from "../../../support/atrium.ts"

export interface LoggedChange {
  readonly seq: number
  readonly type: string
  readonly scope: string
  readonly entityId: string
  readonly spaceId: string | null
  readonly listId: string | null
  readonly taskId: string | null
  readonly data: Record<string, any>
  readonly actorId: string
}

export interface PmAtrium extends TestServer {
  /** The workspace's change log, oldest first (optionally of one type). */
  readonly changes: (workspaceId: string, type?: string) => Promise<ReadonlyArray<LoggedChange>>
  /** Notifications the changes produced for a user, oldest first. */
  readonly notifications: (userId: string) => Promise<ReadonlyArray<{ reason: string; title: string; eventType: string; entityId: string }>>
}

export const startPmAtrium = async (overrides: Partial<AtriumConfig> = {}): Promise<PmAtrium> => {
  const atrium = await startAtrium(overrides)
  const request: TestAtrium["request"] = async (method, urlPath, options = {}) => {
    const response = await atrium.request(method, urlPath, options)
    // PM_WORK_HITS=<file>: record which operations answered 2xx (to check every operation has a happy path).
    if (process.env.PM_WORK_HITS && response.status < 300) {
      const match = atriumRegistry.router.match(method, urlPath.split("?")[0]!)
      if (match._tag === "Found") appendFileSync(process.env.PM_WORK_HITS, `${match.operation.operationId}\n`)
    }
    return response
  }
  return {
    ...atrium,
    request,
    changes: (workspaceId, type) =>
      atrium.sql<LoggedChange>(
        `SELECT seq, type, scope, entity_id AS "entityId", space_id AS "spaceId", list_id AS "listId", task_id AS "taskId", data, actor_id AS "actorId"
           FROM pm_events WHERE workspace_id = $1 AND ($2::text IS NULL OR type = $2) ORDER BY seq`,
        [workspaceId, type ?? null]
      ),
    notifications: (userId) =>
      atrium.sql(
        `SELECT reason, title, event_type AS "eventType", entity_id AS "entityId" FROM pm_notifications WHERE user_id = $1 ORDER BY created_at, event_seq`,
        [userId]
      ) as never
  }
}

export type User = Awaited<ReturnType<typeof signUp>>

/** A workspace with an owner, a member, a viewer, and an outsider who owns another workspace. */
export const setupWorkspace = async (atrium: TestAtrium) => {
  const owner = await signUp(atrium, "Owner")
  const member = await signUp(atrium, "Member")
  const viewer = await signUp(atrium, "Viewer")
  const outsider = await signUp(atrium, "Outsider")
  const created = await atrium.request("POST", "/pm/v1/workspaces", { token: owner.token, body: { name: "Acme" } })
  if (created.status !== 201) throw new Error(created.text)
  const workspaceId = created.body.id as string
  for (const [user, role] of [
    [member, "member"],
    [viewer, "viewer"]
  ] as const) {
    const added = await atrium.request("POST", `/pm/v1/workspaces/${workspaceId}/members`, {
      token: owner.token,
      body: { email: user.email, role }
    })
    if (added.status !== 201) throw new Error(added.text)
  }
  const other = await atrium.request("POST", "/pm/v1/workspaces", { token: outsider.token, body: { name: "Elsewhere" } })
  return { owner, member, viewer, outsider, workspaceId, otherWorkspaceId: other.body.id as string }
}

/** Fails the test with the response text unless the status matches. */
export const expectStatus = (response: TestResponse, status: number) => {
  if (response.status !== status) throw new Error(`expected ${status}, got ${response.status}: ${response.text}`)
  return response.body
}
