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
 * A vendor answering 429 (with Retry-After) or 5xx, or not answering, is a
 * 502 naming the vendor: the caller may retry; the sends stay idempotent.
 */
import { Effect } from "effect"
import { reject } from "../../../runtime/Rejection.ts"
import { checkOutboundUrl } from "../../webhooks/OutboundAddress.ts"
import type { Connection } from "./Connections.ts"

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

const vendorNames: Record<TaskVendor, string> = { tracker: "issue tracker", taskapp: "task tool", tablebase: "spreadsheet-database tool" }

const call = (connection: Connection, token: string, method: "GET" | "POST", path: string, body?: unknown) =>
  Effect.gen(function* () {
    const vendor = `the ${vendorNames[connection.vendor as TaskVendor] ?? connection.vendor} "${connection.name}"`
    // Checked again at each call: a host's addresses can change after the connection was made.
    const refusal = yield* Effect.promise(() => checkOutboundUrl(connection.baseUrl))
    if (refusal) return yield* reject("bad_gateway", `${vendor} was not called: its address ${refusal.reason}`)
    const response = yield* Effect.tryPromise({
      try: (signal) =>
        fetch(connection.baseUrl + path, {
          method,
          signal: AbortSignal.any([signal, AbortSignal.timeout(15_000)]),
          headers: {
            accept: "application/json",
            authorization: `Bearer ${token}`,
            ...(body ? { "content-type": "application/json" } : {})
          },
          ...(body ? { body: JSON.stringify(body) } : {})
        }),
      catch: () => reject("bad_gateway", `${vendor} did not answer`)
    })
    if (response.status === 429) {
      const after = response.headers.get("retry-after")
      return yield* reject("bad_gateway", `${vendor} is rate limiting${after ? `; retry after ${after} s` : ""}`)
    }
    if (response.status >= 500) return yield* reject("bad_gateway", `${vendor} failed (${response.status}); retry later`)
    if (response.status === 401 || response.status === 403)
      return yield* reject("bad_gateway", `${vendor} refused the connection's credentials (${response.status}); reconnect it`)
    if (response.status === 404) return yield* reject("bad_gateway", `${vendor} does not know ${path}`)
    if (!response.ok) return yield* reject("bad_gateway", `${vendor} refused the request (${response.status})`)
    const json = yield* Effect.tryPromise({
      try: () => response.json() as Promise<Record<string, any>>,
      catch: () => reject("bad_gateway", `${vendor} answered something that is not JSON`)
    })
    if (typeof json !== "object" || json === null) return yield* reject("bad_gateway", `${vendor} answered something that is not an object`)
    return json
  })

const idOf = (json: Record<string, any>, vendor: string) =>
  typeof json.id === "string" || typeof json.id === "number"
    ? Effect.succeed(String(json.id))
    : Effect.fail(reject("bad_gateway", `The ${vendor} answered without an id`))

export const createRemoteTask = (
  connection: Connection,
  token: string,
  draft: TaskDraft
): Effect.Effect<RemoteTask, ReturnType<typeof reject>> =>
  Effect.gen(function* () {
    switch (connection.vendor) {
      case "tracker": {
        const json = yield* call(connection, token, "POST", "/issues", {
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
        const json = yield* call(connection, token, "POST", "/tasks", {
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
        const json = yield* call(connection, token, "POST", path, {
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
  token: string,
  externalId: string
): Effect.Effect<RemoteState, ReturnType<typeof reject>> =>
  Effect.gen(function* () {
    const id = encodeURIComponent(externalId)
    switch (connection.vendor) {
      case "tracker": {
        const json = yield* call(connection, token, "GET", `/issues/${id}`)
        return { status: json.status == null ? null : String(json.status), assignee: json.assignee == null ? null : String(json.assignee) }
      }
      case "taskapp": {
        const json = yield* call(connection, token, "GET", `/tasks/${id}`)
        return { status: json.completed === true ? "completed" : "open", assignee: json.assignee == null ? null : String(json.assignee) }
      }
      case "tablebase": {
        const table = encodeURIComponent(connection.settings.table ?? "Action items")
        const json = yield* call(connection, token, "GET", `/tables/${table}/records/${id}`)
        const fields = (json.fields ?? {}) as Record<string, unknown>
        return { status: fields.Status == null ? null : String(fields.Status), assignee: fields.Owner ? String(fields.Owner) : null }
      }
      default:
        return yield* reject("invalid", `A ${connection.vendor} connection has no tasks`)
    }
  })
