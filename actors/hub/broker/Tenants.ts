/**
 * Integration-broker tenants mapped to workspaces: the broker names its
 * tenant in each event (`x-connector-tenant-id`), and the tenant's signing
 * secret (Standard Webhooks, shown once, stored encrypted) proves the event.
 * A tenant id maps to exactly one workspace.
 */
import { randomUUID } from "node:crypto"
import { Effect, Schema } from "effect"
import { query } from "../../../persistence/Sql.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { Id, Timestamp } from "../../Fields.ts"
import { newWebhookSecret } from "../../webhooks/StandardWebhooks.ts"
import { HubKeys } from "../HubKeys.ts"

export const TenantConnection = Schema.Struct({
  id: Id,
  workspaceId: Id,
  tenantId: Schema.String.annotate({ description: "The broker's tenant id" }),
  name: Schema.String,
  enabled: Schema.Boolean,
  createdBy: Id,
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotate({ identifier: "TenantWorkspaceConnection" })
export type TenantConnection = typeof TenantConnection.Type

const columns = `id, workspace_id AS "workspaceId", tenant_id AS "tenantId", name, enabled, created_by AS "createdBy",
  created_at AS "createdAt", updated_at AS "updatedAt"`

const notFound = () => reject("not_found", "No such tenant connection")

export const listTenants = (workspaceId: string) =>
  Effect.orDie(
    query<TenantConnection>(`SELECT ${columns} FROM hub_broker_tenants WHERE workspace_id = $1 ORDER BY created_at, id`, [workspaceId])
  )

export const getTenant = (workspaceId: string, id: string) =>
  Effect.flatMap(
    Effect.orDie(
      query<TenantConnection>(`SELECT ${columns} FROM hub_broker_tenants WHERE id = $1 AND workspace_id = $2`, [id, workspaceId])
    ),
    ([row]) => (row ? Effect.succeed(row) : Effect.fail(notFound()))
  )

/** Maps a broker tenant to the workspace; answers the connection and its signing secret (shown this once). */
export const createTenant = (workspaceId: string, tenantId: string, name: string, userId: string) =>
  Effect.gen(function* () {
    const keys = yield* HubKeys
    const secret = newWebhookSecret()
    const rows = yield* Effect.orDie(
      query<TenantConnection>(
        `INSERT INTO hub_broker_tenants (id, workspace_id, tenant_id, name, secret_ciphertext, created_by) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (tenant_id) DO NOTHING RETURNING ${columns}`,
        [randomUUID(), workspaceId, tenantId, name, keys.encrypt(secret), userId]
      )
    )
    if (!rows[0])
      return yield* reject("conflict", "This broker tenant is already mapped to a workspace", [
        { path: "body.tenantId", message: "already mapped" }
      ])
    return { tenant: rows[0], signingSecret: secret }
  })

export const updateTenant = (workspaceId: string, id: string, change: { readonly name?: string; readonly enabled?: boolean }) =>
  Effect.flatMap(
    Effect.orDie(
      query<TenantConnection>(
        `UPDATE hub_broker_tenants SET name = COALESCE($3, name), enabled = COALESCE($4, enabled), updated_at = now()
         WHERE id = $1 AND workspace_id = $2 RETURNING ${columns}`,
        [id, workspaceId, change.name ?? null, change.enabled ?? null]
      )
    ),
    ([row]) => (row ? Effect.succeed(row) : Effect.fail(notFound()))
  )

export const deleteTenant = (workspaceId: string, id: string) =>
  Effect.flatMap(
    Effect.orDie(query(`DELETE FROM hub_broker_tenants WHERE id = $1 AND workspace_id = $2 RETURNING id`, [id, workspaceId])),
    ([row]) => (row ? Effect.void : Effect.fail(notFound()))
  )

/** A new signing secret; the old one stops verifying at once. */
export const rotateTenantSecret = (workspaceId: string, id: string) =>
  Effect.gen(function* () {
    const keys = yield* HubKeys
    const secret = newWebhookSecret()
    const [row] = yield* Effect.orDie(
      query<TenantConnection>(
        `UPDATE hub_broker_tenants SET secret_ciphertext = $3, updated_at = now() WHERE id = $1 AND workspace_id = $2 RETURNING ${columns}`,
        [id, workspaceId, keys.encrypt(secret)]
      )
    )
    if (!row) return yield* notFound()
    return { tenant: row, signingSecret: secret }
  })

/** The tenant named by an inbound event with its decrypted secret, for verification only. */
export const tenantForEvent = (tenantId: string) =>
  Effect.gen(function* () {
    const keys = yield* HubKeys
    const [row] = yield* Effect.orDie(
      query<TenantConnection & { sealed: string }>(
        `SELECT ${columns}, secret_ciphertext AS "sealed" FROM hub_broker_tenants WHERE tenant_id = $1`,
        [tenantId]
      )
    )
    if (!row) return null
    const { sealed, ...tenant } = row
    return { tenant: tenant as TenantConnection, secret: keys.decrypt(sealed) }
  })
