/**
 * The platform audit trail: every change made by a platform operator, an
 * internal service or the payment provider (suspensions, deactivations,
 * password resets, plan changes, provisioning). Append-only rows, written
 * right after the change they describe and before the reply.
 */
import { Effect, Schema } from "effect"
import * as SqlSchema from "../../persistence/SqlSchema.ts"
import { query } from "../../persistence/Sql.ts"
import { Timestamp } from "../Fields.ts"

export const AuditEntry = Schema.Struct({
  id: Schema.String,
  at: Timestamp,
  actor: Schema.String.annotate({ description: "user:<id> (platform admin), internal:<key name> (a service) or payment (the provider)" }),
  action: Schema.String,
  targetType: Schema.String,
  targetId: Schema.String,
  workspaceId: Schema.NullOr(Schema.String),
  data: Schema.Record(Schema.String, Schema.Unknown)
}).annotate({ identifier: "PlatformAuditEntry" })
export type AuditEntry = typeof AuditEntry.Type

export interface AuditRecord {
  readonly actor: string
  readonly action: string
  readonly targetType: string
  readonly targetId: string
  readonly workspaceId?: string
  readonly data?: Record<string, unknown>
}

export const audit = (record: AuditRecord) =>
  query(`INSERT INTO platform_audit (actor, action, target_type, target_id, workspace_id, data) VALUES ($1, $2, $3, $4, $5, $6::jsonb)`, [
    record.actor,
    record.action,
    record.targetType,
    record.targetId,
    record.workspaceId ?? null,
    record.data ?? {}
  ]).pipe(Effect.asVoid)

export const AuditFilter = Schema.Struct({
  actor: Schema.NullOr(Schema.String),
  action: Schema.NullOr(Schema.String),
  workspaceId: Schema.NullOr(Schema.String),
  since: Schema.NullOr(Schema.String),
  before: Schema.NullOr(Schema.String),
  limit: Schema.Number
})

const findEntries = SqlSchema.findAll({
  Request: AuditFilter,
  Result: AuditEntry,
  execute: (filter) => [
    `SELECT id::text AS id, to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at, actor, action,
            target_type AS "targetType", target_id AS "targetId", workspace_id AS "workspaceId", data
       FROM platform_audit
      WHERE ($1::text IS NULL OR actor = $1) AND ($2::text IS NULL OR action = $2) AND ($3::text IS NULL OR workspace_id = $3)
        AND ($4::timestamptz IS NULL OR at >= $4::timestamptz) AND ($5::bigint IS NULL OR id < $5::bigint)
      ORDER BY id DESC LIMIT $6`,
    [filter.actor, filter.action, filter.workspaceId, filter.since, filter.before, filter.limit]
  ]
})

/** Entries newest first; `before` is the id of the last entry of the previous page. */
export const auditEntries = (filter: typeof AuditFilter.Type) => findEntries(filter)
