/**
 * The adapters speaking each vendor kind's public REST shape to a
 * connection's base URL, with its token as a bearer credential:
 *
 * - tracker (issue tracker): `POST {base}/issues` `{title, description, assignee?, dueDate?, project?}` → `{id, url?}`;
 *   `GET {base}/issues/{id}` → `{status, assignee?}`
 * - taskapp (task tool): `POST {base}/tasks` `{name, notes, assignee?, due_on?}` → `{id, permalink_url?}`;
 *   `GET {base}/tasks/{id}` → `{completed, assignee?}`
 * - tablebase (spreadsheet-database): `POST {base}/tables/{table}/records` `{fields: {...}}` → `{id}`;
 *   `GET {base}/tables/{table}/records/{id}` → `{fields: {Status?, Owner?}}`
 *
 * Requests go through VendorRequest.ts (refresh before expiry and once on a
 * 401, retries of reads); a vendor rate limiting, failing or not answering is
 * a 502 (504 on a timeout) naming the vendor: the caller may retry; the sends
 * stay idempotent.
 */
import { Effect } from "effect"
import type { Sql } from "../../../persistence/Sql.ts"
import { reject } from "../../../runtime/Rejection.ts"
import type { HubKeys } from "../HubKeys.ts"
import type { Connection } from "./Connections.ts"
import { vendorRequest } from "./VendorRequest.ts"

export type TaskVendor = "tracker" | "taskapp" | "tablebase"

export interface TaskDraft {
  readonly title: string
  readonly description: string
  readonly owner: string | null
  readonly dueDate: string | null
}

export interface RemoteTask {
  readonly externalId: string
  readonly url: string
}

export interface RemoteState {
  readonly status: string | null
  readonly assignee: string | null
}

/**
 * One request through the shared vendor rules (VendorRequest.ts: token refresh, retries, 502/504 naming the
 * vendor). A rate limit is a 502 here too: the caller may retry, the sends stay idempotent.
 */
const call = (connection: Connection, method: "GET" | "POST", path: string, body?: unknown) =>
  Effect.mapError(vendorRequest(connection, { method, path, ...(body !== undefined ? { body } : {}) }), (error) =>
    error.code === "rate_limited" ? reject("bad_gateway", error.message) : error
  )

const idOf = (json: Record<string, any>, vendor: string) =>
  typeof json.id === "string" || typeof json.id === "number"
    ? Effect.succeed(String(json.id))
    : Effect.fail(reject("bad_gateway", `The ${vendor} answered without an id`))

export const createRemoteTask = (
  connection: Connection,
  draft: TaskDraft
): Effect.Effect<RemoteTask, ReturnType<typeof reject>, HubKeys | Sql> =>
  Effect.gen(function* () {
    switch (connection.vendor) {
      case "tracker": {
        const json = yield* call(connection, "POST", "/issues", {
          title: draft.title,
          description: draft.description,
          ...(draft.owner ? { assignee: draft.owner } : {}),
          ...(draft.dueDate ? { dueDate: draft.dueDate } : {}),
          ...(connection.settings.project ? { project: connection.settings.project } : {})
        })
        const id = yield* idOf(json, "issue tracker")
        return { externalId: id, url: String(json.url ?? json.html_url ?? `${connection.baseUrl}/issues/${id}`) }
      }
      case "taskapp": {
        const json = yield* call(connection, "POST", "/tasks", {
          name: draft.title,
          notes: draft.description,
          ...(draft.owner ? { assignee: draft.owner } : {}),
          ...(draft.dueDate ? { due_on: draft.dueDate } : {})
        })
        const id = yield* idOf(json, "task tool")
        return { externalId: id, url: String(json.permalink_url ?? json.url ?? `${connection.baseUrl}/tasks/${id}`) }
      }
      case "tablebase": {
        const table = connection.settings.table ?? "Action items"
        const path = `/tables/${encodeURIComponent(table)}/records`
        const json = yield* call(connection, "POST", path, {
          fields: { Name: draft.title, Notes: draft.description, Owner: draft.owner ?? "", Due: draft.dueDate ?? "", Status: "Open" }
        })
        const id = yield* idOf(json, "spreadsheet-database tool")
        return { externalId: id, url: String(json.url ?? `${connection.baseUrl}${path}/${encodeURIComponent(id)}`) }
      }
      default:
        return yield* reject("invalid", `A ${connection.vendor} connection cannot take tasks`)
    }
  })

/** The task's state in the vendor system now (status, assignee), normalized to text. */
export const fetchRemoteState = (
  connection: Connection,
  externalId: string
): Effect.Effect<RemoteState, ReturnType<typeof reject>, HubKeys | Sql> =>
  Effect.gen(function* () {
    const id = encodeURIComponent(externalId)
    switch (connection.vendor) {
      case "tracker": {
        const json = yield* call(connection, "GET", `/issues/${id}`)
        return { status: json.status == null ? null : String(json.status), assignee: json.assignee == null ? null : String(json.assignee) }
      }
      case "taskapp": {
        const json = yield* call(connection, "GET", `/tasks/${id}`)
        return { status: json.completed === true ? "completed" : "open", assignee: json.assignee == null ? null : String(json.assignee) }
      }
      case "tablebase": {
        const table = encodeURIComponent(connection.settings.table ?? "Action items")
        const json = yield* call(connection, "GET", `/tables/${table}/records/${id}`)
        const fields = (json.fields ?? {}) as Record<string, unknown>
        return { status: fields.Status == null ? null : String(fields.Status), assignee: fields.Owner ? String(fields.Owner) : null }
      }
      default:
        return yield* reject("invalid", `A ${connection.vendor} connection has no tasks`)
    }
  })
