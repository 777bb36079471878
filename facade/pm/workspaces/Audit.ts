/**
 * The membership audit: the identity workspace actor's membership history,
 * whichever service made the change.
 */
import { Effect, Schema } from "effect"
import { Id, Timestamp } from "../../../actors/Fields.ts"
import { userRefs } from "../../../actors/pm/Members.ts"
import { type RequestContext, tagGroup } from "../../Operation.ts"
import { orDieSql } from "../WorkAccess.ts"
import { tag, service, read, WorkspaceParams, identity, admin } from "./shared.ts"
import { auditExamples } from "./Audit.examples.ts"

const AuditUser = Schema.Struct({ id: Schema.String, name: Schema.String, email: Schema.String })
const AuditEntry = Schema.Struct({
  seq: Schema.Number,
  type: Schema.String,
  at: Timestamp,
  by: AuditUser,
  user: Schema.NullOr(AuditUser).annotate({ description: "The member concerned" }),
  data: Schema.Record(Schema.String, Schema.Unknown)
}).annotate({ identifier: "MembershipAuditEntry" })

/** A page of the membership history, newest first. */
const auditPage = (
  context: RequestContext,
  workspaceId: string,
  filter: { type?: string; userId?: string; before?: number; limit: number }
) =>
  Effect.gen(function* () {
    const caller = yield* admin(context, workspaceId)
    const history = yield* identity(workspaceId).history({ by: caller.userId })
    const matching = [...history]
      .reverse()
      .filter(
        (entry) =>
          (filter.type === undefined || entry.type === filter.type || entry.type.startsWith(`${filter.type}.`)) &&
          (filter.userId === undefined || entry.userId === filter.userId || entry.by === filter.userId) &&
          (filter.before === undefined || entry.seq < filter.before)
      )
    const page = matching.slice(0, filter.limit)
    const users = yield* orDieSql(userRefs(page.flatMap((e) => [e.by, ...(e.userId ? [e.userId] : [])])))
    const person = (id: string) => ({ id, name: users.get(id)?.name ?? "", email: users.get(id)?.email ?? "" })
    return {
      items: page.map((e) => ({
        seq: e.seq,
        type: e.type,
        at: e.at,
        by: person(e.by),
        user: e.userId ? person(e.userId) : null,
        data: e.data
      })),
      nextBefore: matching.length > filter.limit ? page[page.length - 1]!.seq : null
    }
  })

const { operation } = tagGroup(service, tag, auditExamples)

export const workspaceAuditOperations = [
  operation({
    operationId: "listWorkspaceMembershipAudit",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/audit",
    summary:
      "The membership audit, newest first: who added, removed, let in (and how) or changed the role of whom, guests, ownership, renaming, deletion (admin)",
    description:
      "Covers changes made through any service (the hub's member operations too). Invitation and settings changes are in the activity log.",
    auth: "both",
    scopes: read,
    params: WorkspaceParams,
    query: Schema.Struct({
      type: Schema.optionalKey(
        Schema.String.check(
          Schema.isPattern(/^(member|guest|ownership|workspace)(\.[a-z_]+)?$/, {
            expected: "a change type or family, e.g. member or member.role_changed"
          })
        )
      ),
      userId: Schema.optionalKey(Id.annotate({ description: "Entries about or by this user" })),
      before: Schema.optionalKey(
        Schema.FiniteFromString.check(Schema.isInt(), Schema.isGreaterThan(0)).annotate({ description: "nextBefore of the previous page" })
      ),
      limit: Schema.optionalKey(Schema.FiniteFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 200 })))
    }),
    responses: {
      200: {
        description: "A page of entries",
        schema: Schema.Struct({ items: Schema.Array(AuditEntry), nextBefore: Schema.NullOr(Schema.Number) }).annotate({
          identifier: "MembershipAuditPage"
        })
      }
    },
    handler: ({ params, query: q }, context) =>
      auditPage(context, params.workspaceId, {
        ...(q.type ? { type: q.type } : {}),
        ...(q.userId ? { userId: q.userId } : {}),
        ...(q.before ? { before: q.before } : {}),
        limit: q.limit ?? 50
      })
  })
]
