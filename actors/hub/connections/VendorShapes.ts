/**
 * The public REST shape of each vendor kind the vendor resources speak, to a
 * connection's base URL:
 *
 * - tracker: `GET /projects` → `[{id, key, name}]`; `POST /issues` `{project, title, description, assignee, dueDate}` → `{id, url?}`;
 *   `GET /issues/{id}` → `{status, assignee}`
 * - taskapp: `GET /projects` → `{data: [{gid, name}]}`; `POST /tasks` `{projects: [p], name, notes, assignee, due_on}` →
 *   `{id|gid, permalink_url?}`; `GET /tasks/{id}` → `{completed, assignee}`
 * - tablebase: `GET /tables` → `{tables: [{id, name}]}`; `POST /tables/{t}/records` `{fields: {Name, Notes, Owner, Due, Status}}` → `{id}`;
 *   `GET /tables/{t}/records/{id}` → `{fields: {Status, Owner}}`
 * - docspace: `GET /spaces` → `{results: [{id, key, name}]}`; `POST /pages` `{spaceId, title, body: {markdown}}` → `{id, url?}`;
 *   `GET /pages/{id}` → `{status}`
 * - pm: `GET /projects` → `[{id, name}]`; `POST /projects/{p}/tasks` `{name, description, assignee, dueDate}` → `{id, url?}`;
 *   `GET /tasks/{id}` → `{status, assignee}`
 * - chatapp: `GET /conversations` → `{channels: [{id, name}]}`; `POST /chat.postMessage` `{channel, text}` → `{ts}`
 *
 * Field mapping renames the vendor's field for a hub field (a tracker's custom `summary` for `title`).
 */
export const HubFields = ["title", "description", "owner", "dueDate"] as const
export type HubField = (typeof HubFields)[number]

export interface Draft {
  readonly title: string
  readonly description: string
  readonly owner: string | null
  readonly dueDate: string | null
}

export interface RemoteState {
  readonly status: string | null
  readonly assignee: string | null
}

export interface VendorShape {
  /** What the vendor's destinations are called (projects, tables, spaces, channels). */
  readonly destinationsPath: string
  readonly destinationsKey: string
  /** What pushed items become there. */
  readonly itemKind: "task" | "record" | "document" | "message"
  readonly defaultFields: Readonly<Record<HubField, string>>
  readonly create: (destination: string, fields: Record<string, unknown>) => { readonly path: string; readonly body: unknown }
  readonly idOf: (json: Record<string, any>) => unknown
  readonly urlOf: (json: Record<string, any>, baseUrl: string, destination: string, id: string) => string
  /** Where the item's state is read back; absent when the vendor has nothing to pull (chat messages). */
  readonly statePath?: (destination: string, id: string) => string
  readonly stateOf?: (json: Record<string, any>) => RemoteState
}

const text = (value: unknown) => (value === null || value === undefined || value === "" ? null : String(value))
const enc = encodeURIComponent

export const vendorShapes = {
  tracker: {
    destinationsPath: "/projects",
    destinationsKey: "projects",
    itemKind: "task",
    defaultFields: { title: "title", description: "description", owner: "assignee", dueDate: "dueDate" },
    create: (project, fields) => ({ path: "/issues", body: { project, ...fields } }),
    idOf: (json) => json.id ?? json.key,
    urlOf: (json, base, _destination, id) => String(json.url ?? json.html_url ?? `${base}/issues/${enc(id)}`),
    statePath: (_destination, id) => `/issues/${enc(id)}`,
    stateOf: (json) => ({ status: text(json.status), assignee: text(json.assignee) })
  },
  taskapp: {
    destinationsPath: "/projects",
    destinationsKey: "data",
    itemKind: "task",
    defaultFields: { title: "name", description: "notes", owner: "assignee", dueDate: "due_on" },
    create: (project, fields) => ({ path: "/tasks", body: { projects: [project], ...fields } }),
    idOf: (json) => json.id ?? json.gid ?? json.data?.gid,
    urlOf: (json, base, _destination, id) => String(json.permalink_url ?? json.url ?? `${base}/tasks/${enc(id)}`),
    statePath: (_destination, id) => `/tasks/${enc(id)}`,
    stateOf: (json) => ({ status: json.completed === true ? "completed" : "open", assignee: text(json.assignee) })
  },
  tablebase: {
    destinationsPath: "/tables",
    destinationsKey: "tables",
    itemKind: "record",
    defaultFields: { title: "Name", description: "Notes", owner: "Owner", dueDate: "Due" },
    create: (table, fields) => ({ path: `/tables/${enc(table)}/records`, body: { fields: { ...fields, Status: "Open" } } }),
    idOf: (json) => json.id,
    urlOf: (json, base, table, id) => String(json.url ?? `${base}/tables/${enc(table)}/records/${enc(id)}`),
    statePath: (table, id) => `/tables/${enc(table)}/records/${enc(id)}`,
    stateOf: (json) => ({ status: text(json.fields?.Status), assignee: text(json.fields?.Owner) })
  },
  docspace: {
    destinationsPath: "/spaces",
    destinationsKey: "results",
    itemKind: "document",
    defaultFields: { title: "title", description: "markdown", owner: "owner", dueDate: "reviewBy" },
    create: (spaceId, { markdown, ...fields }) => ({ path: "/pages", body: { spaceId, ...fields, body: { markdown: markdown ?? "" } } }),
    idOf: (json) => json.id,
    urlOf: (json, base, _destination, id) => String(json.url ?? json._links?.webui ?? `${base}/pages/${enc(id)}`),
    statePath: (_destination, id) => `/pages/${enc(id)}`,
    stateOf: (json) => ({ status: text(json.status), assignee: text(json.owner) })
  },
  pm: {
    destinationsPath: "/projects",
    destinationsKey: "items",
    itemKind: "task",
    defaultFields: { title: "name", description: "description", owner: "assignee", dueDate: "dueDate" },
    create: (project, fields) => ({ path: `/projects/${enc(project)}/tasks`, body: fields }),
    idOf: (json) => json.id,
    urlOf: (json, base, _destination, id) => String(json.url ?? `${base}/tasks/${enc(id)}`),
    statePath: (_destination, id) => `/tasks/${enc(id)}`,
    stateOf: (json) => ({ status: text(json.status?.name ?? json.status), assignee: text(json.assignee) })
  },
  chatapp: {
    destinationsPath: "/conversations",
    destinationsKey: "channels",
    itemKind: "message",
    defaultFields: { title: "title", description: "details", owner: "owner", dueDate: "dueDate" },
    create: (channel, fields) => ({
      path: "/chat.postMessage",
      body: {
        channel,
        text: [
          fields.title,
          fields.details,
          fields.owner ? `Owner: ${fields.owner}` : null,
          fields.dueDate ? `Due: ${fields.dueDate}` : null
        ]
          .filter((line) => line)
          .join("\n")
      }
    }),
    idOf: (json) => json.ts ?? json.id,
    urlOf: (json, base, channel, id) => String(json.permalink ?? `${base}/archives/${enc(channel)}/p${enc(id)}`)
  }
} as const satisfies Record<string, VendorShape>

export type ResourceVendor = keyof typeof vendorShapes

/** The vendor's fields for a draft: each hub field under its mapped (or default) vendor name; empty values left out. */
export const fieldsFor = (shape: VendorShape, mapping: Partial<Record<HubField, string>>, draft: Draft): Record<string, unknown> => {
  const fields: Record<string, unknown> = {}
  for (const field of HubFields) {
    const value = draft[field]
    if (value !== null && value !== "") fields[mapping[field] ?? shape.defaultFields[field]] = value
  }
  return fields
}

/** A destination list in any of the usual envelopes: `{items}`, `{data}`, `{results}` or the shape's own key. */
export const destinationsIn = (shape: VendorShape, json: Record<string, any>) => {
  const list = [json[shape.destinationsKey], json.items, json.data, json.results].find(Array.isArray) ?? []
  return (list as Array<Record<string, unknown>>)
    .filter((entry) => typeof entry === "object" && entry !== null)
    .map((entry) => ({
      id: String(entry.id ?? entry.gid ?? entry.key ?? ""),
      name: String(entry.name ?? entry.title ?? entry.key ?? entry.id ?? ""),
      key: entry.key === undefined || entry.key === null ? null : String(entry.key)
    }))
    .filter((entry) => entry.id !== "")
}
