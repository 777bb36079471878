/**
 * Items the hub pushes through a connection (action items as tasks or
 * records, notes as documents, summaries as chat messages) and what is
 * pulled back from them. A push is idempotent per (connection, key): the
 * vendor gets the key as `Idempotency-Key` and a repeated push answers the
 * item already created. The destination and field mapping of a connection
 * are kept beside it (hub_vendor_mappings).
 */
import { randomUUID } from "node:crypto"
import { Effect, Schema } from "effect"
import { query } from "../../../persistence/Sql.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { Id, Timestamp } from "../../Fields.ts"
import { type Connection, activeOf, get } from "./Connections.ts"
import { vendorLabel, vendorRequest } from "./VendorRequest.ts"
import { type Draft, type HubField, HubFields, type ResourceVendor, destinationsIn, fieldsFor, vendorShapes } from "./VendorShapes.ts"

const VendorFieldName = Schema.String.check(
  Schema.isMinLength(1),
  Schema.isMaxLength(100),
  Schema.isPattern(/^[\w .-]+$/, { expected: "a field name (letters, digits, space, _ . -)" })
)

export const FieldMapping = Schema.Struct(
  Object.fromEntries(HubFields.map((field) => [field, Schema.optionalKey(VendorFieldName)])) as {
    readonly [K in HubField]: Schema.optionalKey<typeof VendorFieldName>
  }
).annotate({ identifier: "VendorFieldMapping", description: "The vendor's field name for each hub field (defaults per vendor)" })

export const Mapping = Schema.Struct({
  connectionId: Id,
  destination: Schema.String,
  fields: FieldMapping,
  updatedAt: Timestamp
}).annotate({ identifier: "VendorMapping" })
export type Mapping = typeof Mapping.Type

export const Destination = Schema.Struct({ id: Schema.String, name: Schema.String, key: Schema.NullOr(Schema.String) }).annotate({
  identifier: "VendorDestination"
})

export const VendorItem = Schema.Struct({
  id: Id,
  connectionId: Id,
  kind: Schema.Literals(["task", "record", "document", "message"]),
  key: Schema.String.annotate({ description: "The hub's reference of the item (an action item or note id)" }),
  title: Schema.String,
  destination: Schema.String,
  externalId: Schema.String,
  url: Schema.String,
  remoteStatus: Schema.NullOr(Schema.String),
  remoteAssignee: Schema.NullOr(Schema.String),
  pushedAt: Timestamp,
  pulledAt: Schema.NullOr(Timestamp)
}).annotate({ identifier: "VendorItem" })
export type VendorItem = typeof VendorItem.Type

const itemColumns = `id, connection_id AS "connectionId", kind, local_key AS "key", title, destination, external_id AS "externalId", url,
  remote_status AS "remoteStatus", remote_assignee AS "remoteAssignee", pushed_at AS "pushedAt", pulled_at AS "pulledAt"`

/** The connection to use: the named one (it must be of this vendor kind) or the workspace's newest of the kind. */
export const connectionFor = (workspaceId: string, vendor: ResourceVendor, connectionId: string | undefined) =>
  Effect.gen(function* () {
    if (connectionId === undefined) return yield* activeOf(workspaceId, vendor)
    const connection = yield* get(workspaceId, connectionId)
    if (connection.vendor !== vendor)
      return yield* reject("invalid", `The connection is a ${connection.vendor} connection, not ${vendor}`, [
        { path: "connectionId", message: `not a ${vendor} connection` }
      ])
    return connection
  })

export const listDestinations = (connection: Connection) =>
  Effect.gen(function* () {
    const shape = vendorShapes[connection.vendor as ResourceVendor]
    const json = yield* vendorRequest(connection, { method: "GET", path: shape.destinationsPath })
    return destinationsIn(shape, json)
  })

export const mappingOf = (connectionId: string) =>
  Effect.map(
    Effect.orDie(
      query<Mapping>(
        `SELECT connection_id AS "connectionId", destination, fields, updated_at AS "updatedAt" FROM hub_vendor_mappings WHERE connection_id = $1`,
        [connectionId]
      )
    ),
    ([row]) => row ?? null
  )

export const saveMapping = (connection: Connection, destination: string, fields: typeof FieldMapping.Type, userId: string) =>
  Effect.map(
    Effect.orDie(
      query<Mapping>(
        `INSERT INTO hub_vendor_mappings (connection_id, workspace_id, destination, fields, updated_by) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (connection_id) DO UPDATE SET destination = $3, fields = $4, updated_by = $5, updated_at = now()
         RETURNING connection_id AS "connectionId", destination, fields, updated_at AS "updatedAt"`,
        [connection.id, connection.workspaceId, destination, fields, userId]
      )
    ),
    ([row]) => row!
  )

export const itemsOf = (connectionId: string) =>
  Effect.orDie(
    query<VendorItem>(`SELECT ${itemColumns} FROM hub_vendor_items WHERE connection_id = $1 ORDER BY pushed_at, id`, [connectionId])
  )

const itemByKey = (connectionId: string, key: string) =>
  Effect.map(
    Effect.orDie(
      query<VendorItem>(`SELECT ${itemColumns} FROM hub_vendor_items WHERE connection_id = $1 AND local_key = $2`, [connectionId, key])
    ),
    ([row]) => row
  )

export interface PushItem extends Draft {
  readonly key: string
}

/** Where items go: the push's own destination, else the connection's mapping; a 409 when neither names one. */
const destinationFor = (connection: Connection, mapping: Mapping | null, given: string | undefined) =>
  given !== undefined
    ? Effect.succeed(given)
    : mapping
      ? Effect.succeed(mapping.destination)
      : Effect.fail(
          reject("conflict", `Choose where items go first: ${vendorLabel(connection)} has no destination mapped`, [
            { path: "body.destination", message: "required when the connection has no mapping" }
          ])
        )

/**
 * Pushes each item once; the ones pushed before are answered from the record.
 * Stops at the first vendor failure (the items before it stay pushed, and a
 * retry pushes only the rest).
 */
export const pushItems = (connection: Connection, items: ReadonlyArray<PushItem>, destination: string | undefined, userId: string) =>
  Effect.gen(function* () {
    const shape = vendorShapes[connection.vendor as ResourceVendor]
    const mapping = yield* mappingOf(connection.id)
    const target = yield* destinationFor(connection, mapping, destination)
    return yield* Effect.forEach(items, (item) =>
      Effect.gen(function* () {
        const existing = yield* itemByKey(connection.id, item.key)
        if (existing) return { item: existing, alreadyPushed: true }
        const request = shape.create(target, fieldsFor(shape, mapping?.fields ?? {}, item))
        const json = yield* vendorRequest(connection, {
          method: "POST",
          path: request.path,
          body: request.body,
          idempotencyKey: `${connection.id}:${item.key}`
        })
        const rawId = shape.idOf(json)
        if (typeof rawId !== "string" && typeof rawId !== "number")
          return yield* reject("bad_gateway", `${vendorLabel(connection)} answered without an id`)
        const externalId = String(rawId)
        yield* Effect.orDie(
          query(
            `INSERT INTO hub_vendor_items (id, workspace_id, connection_id, kind, local_key, title, destination, external_id, url, pushed_by, remote_status)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (connection_id, local_key) DO NOTHING`,
            [
              randomUUID(),
              connection.workspaceId,
              connection.id,
              shape.itemKind,
              item.key,
              item.title,
              target,
              externalId,
              shape.urlOf(json, connection.baseUrl, target, externalId),
              userId,
              "stateOf" in shape ? shape.stateOf(json).status : null
            ]
          )
        )
        const stored = (yield* itemByKey(connection.id, item.key))!
        return { item: stored, alreadyPushed: stored.externalId !== externalId }
      })
    )
  })

/** Reads each pushed item back and records its status and assignee there; answers what changed. */
export const pullItems = (connection: Connection) =>
  Effect.gen(function* () {
    const shape = vendorShapes[connection.vendor as ResourceVendor]
    const items = yield* itemsOf(connection.id)
    if (!("statePath" in shape)) return { checked: 0, changed: 0, items }
    let changed = 0
    for (const item of items) {
      const json = yield* vendorRequest(connection, { method: "GET", path: shape.statePath(item.destination, item.externalId) })
      const state = shape.stateOf(json)
      if (state.status !== item.remoteStatus || state.assignee !== item.remoteAssignee) changed += 1
      yield* Effect.orDie(
        query(`UPDATE hub_vendor_items SET remote_status = $2, remote_assignee = $3, pulled_at = now() WHERE id = $1`, [
          item.id,
          state.status,
          state.assignee
        ])
      )
    }
    return { checked: items.length, changed, items: yield* itemsOf(connection.id) }
  })
