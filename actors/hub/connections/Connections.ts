/**
 * The workspace connection store: a connection to a vendor system (its kind,
 * base URL, settings) with its access token encrypted at rest (AES-256-GCM,
 * HubKeys). Tokens are never returned or logged; `tokenOf` decrypts one for
 * an adapter's request. OAuth flows build on create/get/list/revoke.
 */
import { randomUUID } from "node:crypto"
import { Effect, Schema } from "effect"
import { query, wakeAfterCommit } from "../../../persistence/Sql.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { Id, Timestamp } from "../../Fields.ts"
import { HubKeys } from "../HubKeys.ts"

export const VendorKind = Schema.Literals([
  "tracker",
  "taskapp",
  "tablebase",
  "docspace",
  "pm",
  "chatapp",
  "notes",
  "mail",
  "calendar",
  "codehost",
  "videomeet",
  "workchat",
  "suite"
]).annotate({
  description:
    "The kind of system: issue tracker, task tool, spreadsheet-database tool, documentation tool, external project-management tool, team chat, notes tool, mail, calendar suite, code host, video-meeting app, team-meeting app, office suite's meetings"
})
export type VendorKind = typeof VendorKind.Type

export const ConnectionSettings = Schema.Struct({
  project: Schema.optionalKey(
    Schema.String.check(Schema.isMaxLength(200)).annotate({ description: "Tracker project key new issues go to" })
  ),
  table: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(200)).annotate({ description: "Tablebase table new records go to" })),
  calendarProtocol: Schema.optionalKey(
    Schema.Literals(["ics", "google", "microsoft"]).annotate({
      description:
        "A calendar connection's protocol: `ics` (the token is the calendar's secret iCalendar address), `google` (Calendar API v3 at the base URL) or `microsoft` (Graph at the base URL); default: `microsoft` for a graph.microsoft.com base URL, else `google`"
    })
  ),
  calendarId: Schema.optionalKey(
    Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(500)).annotate({
      description: "The Google calendar synced (default `primary`)"
    })
  )
}).annotate({ identifier: "ConnectionSettings" })

export const Connection = Schema.Struct({
  id: Id,
  workspaceId: Id,
  vendor: VendorKind,
  name: Schema.String,
  baseUrl: Schema.String,
  settings: ConnectionSettings,
  createdBy: Id,
  createdAt: Timestamp,
  hasToken: Schema.Boolean.annotate({ description: "A token is stored (it is never shown)" })
}).annotate({ identifier: "IntegrationConnection" })
export type Connection = typeof Connection.Type

export interface NewConnection {
  readonly workspaceId: string
  readonly vendor: VendorKind
  readonly name: string
  readonly baseUrl: string
  readonly token: string
  readonly settings: typeof ConnectionSettings.Type
  readonly createdBy: string
}

const columns = `id, workspace_id AS "workspaceId", vendor, name, base_url AS "baseUrl", settings, created_by AS "createdBy",
  created_at AS "createdAt", token_ciphertext <> '' AS "hasToken"`

/** The wake-up topic (runtime/Wakeup.ts) signalled once a new connection commits (the calendar sync enrols it). */
export const connectionCreated = "hub.connections.created"

export const create = (connection: NewConnection) =>
  Effect.gen(function* () {
    const keys = yield* HubKeys
    const [row] = yield* query<Connection>(
      `INSERT INTO hub_connections (id, workspace_id, vendor, name, base_url, token_ciphertext, settings, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${columns}`,
      [
        randomUUID(),
        connection.workspaceId,
        connection.vendor,
        connection.name,
        connection.baseUrl.replace(/\/+$/, ""),
        keys.encrypt(connection.token),
        connection.settings,
        connection.createdBy
      ]
    )
    yield* wakeAfterCommit(connectionCreated)
    return row!
  })

/**
 * A calendar connection is its maker's own: it syncs into their calendar, which only they see and change (the
 * seed's actor-scoped calendar). Any member may connect one; nobody else, an admin neither, lists, reads or
 * disconnects it — to them it does not exist (404).
 */
export const isPersonal = (vendor: VendorKind) => vendor === "calendar"

/** Whether `userId` may see the connection at all (every workspace connection but other users' personal ones). */
export const seenBy = (connection: Connection, userId: string) => !isPersonal(connection.vendor) || connection.createdBy === userId

/** The workspace's connections as `userId` sees them: without other users' personal (calendar) connections. */
export const listSeenBy = (workspaceId: string, userId: string) =>
  Effect.map(list(workspaceId), (rows) => rows.filter((row) => seenBy(row, userId)))

/** One connection `userId` may see; 404 for another user's personal one, as if it did not exist. */
export const getSeenBy = (workspaceId: string, connectionId: string, userId: string) =>
  Effect.filterOrFail(
    get(workspaceId, connectionId),
    (connection) => seenBy(connection, userId),
    () => reject("not_found", "No such connection")
  )

/** Every workspace connection (internal: callers that act for a user list through `listSeenBy`). */
export const list = (workspaceId: string) =>
  query<Connection>(`SELECT ${columns} FROM hub_connections WHERE workspace_id = $1 AND revoked_at IS NULL ORDER BY created_at, id`, [
    workspaceId
  ])

export const get = (workspaceId: string, connectionId: string) =>
  Effect.flatMap(
    Effect.orDie(
      query<Connection>(`SELECT ${columns} FROM hub_connections WHERE id = $1 AND workspace_id = $2 AND revoked_at IS NULL`, [
        connectionId,
        workspaceId
      ])
    ),
    ([row]) => (row ? Effect.succeed(row) : Effect.fail(reject("not_found", "No such connection")))
  )

/** The workspace's active connection of `vendor` (the newest), or a 409 saying none is connected. */
export const activeOf = (workspaceId: string, vendor: VendorKind) =>
  Effect.flatMap(
    Effect.orDie(
      query<Connection>(
        `SELECT ${columns} FROM hub_connections WHERE workspace_id = $1 AND vendor = $2 AND revoked_at IS NULL ORDER BY created_at DESC LIMIT 1`,
        [workspaceId, vendor]
      )
    ),
    ([row]) => (row ? Effect.succeed(row) : Effect.fail(reject("conflict", `The workspace has no ${vendor} connection; connect one first`)))
  )

/** Decrypts the connection's token for one request (never logged). */
export const tokenOf = (connectionId: string) =>
  Effect.gen(function* () {
    const keys = yield* HubKeys
    const [row] = yield* Effect.orDie(
      query<{ sealed: string }>(`SELECT token_ciphertext AS "sealed" FROM hub_connections WHERE id = $1`, [connectionId])
    )
    return row ? keys.decrypt(row.sealed) : ""
  })

export const revoke = (workspaceId: string, connectionId: string) =>
  Effect.flatMap(
    Effect.orDie(
      query<{ id: string }>(
        `UPDATE hub_connections SET revoked_at = now(), token_ciphertext = '' WHERE id = $1 AND workspace_id = $2 AND revoked_at IS NULL RETURNING id`,
        [connectionId, workspaceId]
      )
    ),
    ([row]) => (row ? Effect.void : Effect.fail(reject("not_found", "No such connection")))
  )
