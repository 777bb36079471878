/** What the operator, internal and billing operations share: who acted (for the audit), paging, example ids. */
import { Effect, Schema } from "effect"
import { audit, type AuditRecord } from "../../../actors/platform/PlatformAudit.ts"
import { Id } from "../../../actors/Fields.ts"
import { requireInternalKey } from "../../InternalKeys.ts"
import type { RequestContext } from "../../Operation.ts"
import { requirePlatformAdmin } from "../../PlatformAdmin.ts"

/** A platform admin, as the audit names them. */
export const asOperator = (context: RequestContext) =>
  Effect.map(requirePlatformAdmin(context), (principal) => ({ userId: principal.userId, actor: `user:${principal.userId}` }))

/** An internal service, as the audit names it. */
export const asService = (context: RequestContext) =>
  Effect.map(requireInternalKey(context), (caller) => ({ actor: `internal:${caller.name}` }))

/** Records an audit entry; the audit is part of the change, so a failure to write it is a defect. */
export const audited = (record: AuditRecord) => Effect.orDie(audit(record))

export const Paging = {
  limit: Schema.optionalKey(Schema.FiniteFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 200 }))),
  offset: Schema.optionalKey(Schema.FiniteFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 0, maximum: 1_000_000 })))
}

export const WorkspaceIdParams = Schema.Struct({ workspaceId: Id })
export const UserIdParams = Schema.Struct({ userId: Id })

export const INTERNAL_NOTE =
  "Internal: service-to-service only, authenticated by an internal key in `X-Internal-Key` (ATRIUM_INTERNAL_KEYS); user sessions and API keys get 403."
export const OPERATOR_NOTE =
  "Platform operators only (a user session whose e-mail is in ATRIUM_PLATFORM_ADMINS); workspace roles and API keys get 403."

export const ids = {
  workspace: "0b9e4c1a-6f0e-4d5f-9a77-3f7c2f1e8a10",
  owner: "6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f",
  member: "7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d"
}
export const at = "2026-11-21T12:00:00.000Z"
