/**
 * The broker's integrations (an app the tenant installed in the broker),
 * each known to the hub under the broker's id and optionally bound to one
 * of the workspace's connections: a workflow step run for that integration's
 * events goes through the bound connection. Events naming an integration
 * that is unknown or disabled are stored but run nothing.
 */
import { randomUUID } from "node:crypto"
import { Effect, Schema } from "effect"
import { query } from "../../../persistence/Sql.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { Id, Timestamp } from "../../Fields.ts"
import { get as getConnection } from "../connections/Connections.ts"
import { getTenant } from "./Tenants.ts"

export const BrokerIntegration = Schema.Struct({
  id: Id,
  workspaceId: Id,
  tenantConnectionId: Id,
  externalId: Schema.String.annotate({ description: "The broker's id of the integration" }),
  app: Schema.String.annotate({ description: "The app the broker integrates (its own name for it)" }),
  name: Schema.String,
  connectionId: Schema.NullOr(Id).annotate({ description: "The hub connection its workflow steps use" }),
  enabled: Schema.Boolean,
  createdBy: Id,
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotate({ identifier: "BrokerIntegration" })
export type BrokerIntegration = typeof BrokerIntegration.Type

const columns = `id, workspace_id AS "workspaceId", tenant_ref AS "tenantConnectionId", external_id AS "externalId", app, name,
  connection_id AS "connectionId", enabled, created_by AS "createdBy", created_at AS "createdAt", updated_at AS "updatedAt"`

const notFound = () => reject("not_found", "No such integration")

const checkConnection = (workspaceId: string, connectionId: string | null | undefined) =>
  connectionId
    ? Effect.asVoid(
        Effect.mapError(getConnection(workspaceId, connectionId), () =>
          reject("not_found", "No such connection in this workspace", [{ path: "body.connectionId", message: "unknown connection" }])
        )
      )
    : Effect.void

export const listIntegrations = (workspaceId: string) =>
  Effect.orDie(
    query<BrokerIntegration>(`SELECT ${columns} FROM hub_broker_integrations WHERE workspace_id = $1 ORDER BY created_at, id`, [
      workspaceId
    ])
  )

export const getIntegration = (workspaceId: string, id: string) =>
  Effect.flatMap(
    Effect.orDie(
      query<BrokerIntegration>(`SELECT ${columns} FROM hub_broker_integrations WHERE id = $1 AND workspace_id = $2`, [id, workspaceId])
    ),
    ([row]) => (row ? Effect.succeed(row) : Effect.fail(notFound()))
  )

export interface NewIntegration {
  readonly tenantConnectionId: string
  readonly externalId: string
  readonly app: string
  readonly name: string
  readonly connectionId?: string | undefined
}

export const createIntegration = (workspaceId: string, input: NewIntegration, userId: string) =>
  Effect.gen(function* () {
    yield* Effect.mapError(getTenant(workspaceId, input.tenantConnectionId), () =>
      reject("not_found", "No such tenant connection in this workspace", [{ path: "body.tenantConnectionId", message: "unknown" }])
    )
    yield* checkConnection(workspaceId, input.connectionId)
    const [row] = yield* Effect.orDie(
      query<BrokerIntegration>(
        `INSERT INTO hub_broker_integrations (id, workspace_id, tenant_ref, external_id, app, name, connection_id, created_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (tenant_ref, external_id) DO NOTHING RETURNING ${columns}`,
        [randomUUID(), workspaceId, input.tenantConnectionId, input.externalId, input.app, input.name, input.connectionId ?? null, userId]
      )
    )
    if (!row)
      return yield* reject("conflict", "This broker integration is already known", [{ path: "body.externalId", message: "already known" }])
    return row
  })

export interface IntegrationChange {
  readonly name?: string | undefined
  readonly enabled?: boolean | undefined
  /** null unbinds the connection. */
  readonly connectionId?: string | null | undefined
}

export const updateIntegration = (workspaceId: string, id: string, change: IntegrationChange) =>
  Effect.gen(function* () {
    yield* checkConnection(workspaceId, change.connectionId)
    const [row] = yield* Effect.orDie(
      query<BrokerIntegration>(
        `UPDATE hub_broker_integrations SET name = COALESCE($3, name), enabled = COALESCE($4, enabled),
           connection_id = CASE WHEN $5 THEN $6 ELSE connection_id END, updated_at = now()
         WHERE id = $1 AND workspace_id = $2 RETURNING ${columns}`,
        [id, workspaceId, change.name ?? null, change.enabled ?? null, change.connectionId !== undefined, change.connectionId ?? null]
      )
    )
    return row ?? (yield* notFound())
  })

export const deleteIntegration = (workspaceId: string, id: string) =>
  Effect.flatMap(
    Effect.orDie(query(`DELETE FROM hub_broker_integrations WHERE id = $1 AND workspace_id = $2 RETURNING id`, [id, workspaceId])),
    ([row]) => (row ? Effect.void : Effect.fail(notFound()))
  )

/** The tenant's integration an event names, when known. */
export const integrationOfEvent = (tenantRef: string, externalId: string) =>
  Effect.map(
    Effect.orDie(
      query<BrokerIntegration>(`SELECT ${columns} FROM hub_broker_integrations WHERE tenant_ref = $1 AND external_id = $2`, [
        tenantRef,
        externalId
      ])
    ),
    ([row]) => row ?? null
  )
