/**
 * Workspace members: roles, removal, bulk changes, deactivation, search,
 * summaries, export and permissions. Membership is the identity workspace
 * actor's (shared with the hub).
 */
import { Effect, Schema } from "effect"
import { Id, normalizeEmail, Timestamp } from "../../../actors/Fields.ts"
import { AssignableRole, atLeast, Role } from "../../../actors/identity/Workspace.ts"
import { deactivationsOf } from "../../../actors/pm/Deactivations.ts"
import { PmOrganization } from "../../../actors/pm/OrganizationActors.ts"
import { requireSeats, rosterEntry, rosterOf } from "../../../actors/pm/Roster.ts"
import { memberActivity, spaceMembershipsOf } from "../../../actors/pm/MemberReads.ts"
import * as Reads from "../../../actors/pm/StructureReads.ts"
import { send } from "../../../actors/pm/WorkActor.ts"

import type { ActorError } from "../../../runtime/ActorError.ts"
import { type Rejection, reject } from "../../../runtime/Rejection.ts"
import { type DomainError, refusalOf } from "../../HttpError.ts"
import { raw, tagGroup } from "../../Operation.ts"
import * as W from "../../shared/WorkspaceAccess.ts"
import { inWorkspace, Limit, Offset, orDieSql, pageOf } from "../WorkAccess.ts"
import {
  tag,
  service,
  read,
  write,
  Items,
  WorkspaceParams,
  MemberParams,
  identity,
  admin,
  MemberDetail,
  userByEmail,
  isGuest,
  configOfWorkspace,
  Permissions,
  permissionsOf
} from "./shared.ts"
import { membersExamples } from "./Members.examples.ts"

const csvCell = (value: unknown) => {
  const text = value === null || value === undefined ? "" : String(value)
  // A leading =, +, - or @ would be a formula in a spreadsheet.
  const safe = /^[=+\-@]/.test(text) ? `'${text}` : text
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe
}
const csv = (rows: ReadonlyArray<ReadonlyArray<unknown>>) => rows.map((row) => row.map(csvCell).join(",")).join("\r\n") + "\r\n"

const BulkResult = Schema.Struct({
  ref: Schema.String.annotate({ description: "The e-mail or user id of the row" }),
  ok: Schema.Boolean,
  member: Schema.optionalKey(MemberDetail),
  error: Schema.optionalKey(Schema.Struct({ code: Schema.String, message: Schema.String }))
}).annotate({ identifier: "BulkMemberResult" })

/** A row's refusal as its result's error; anything else (the runtime's failures) fails the whole request. */
const failure = (error: Rejection | ActorError | DomainError) => {
  const refusal = refusalOf(error)
  return refusal === undefined ? undefined : { code: refusal.code, message: refusal.message }
}

const Deactivated = Schema.Struct({
  userId: Id,
  email: Schema.String,
  name: Schema.String,
  role: AssignableRole,
  deactivatedBy: Id,
  deactivatedAt: Timestamp
}).annotate({ identifier: "DeactivatedMember" })

const { operation } = tagGroup(service, tag, membersExamples)

export const workspaceMembersOperations = [
  operation({
    operationId: "listWorkspaceMembers",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/members",
    summary: "List a workspace's members",
    auth: "both",
    scopes: read,
    params: WorkspaceParams,
    responses: { 200: { description: "Members", schema: Items(W.MemberView) } },
    handler: ({ params }, context) => W.listMembers(context, params.workspaceId)
  }),
  operation({
    operationId: "addWorkspaceMember",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/members",
    summary: "Add a registered user by e-mail (admin)",
    description: "Takes a seat: refused (409) when the workspace's seat limit is reached.",
    auth: "both",
    scopes: write,
    params: WorkspaceParams,
    body: W.AddMemberBody,
    responses: {
      201: { description: "Added", schema: W.MemberView },
      404: { description: "No user with that e-mail" },
      409: { description: "Already a member, or no free seat" }
    },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId)
        if (caller.admin) yield* orDieSql(requireSeats(params.workspaceId, 1))
        const member = yield* W.addMember(context, params.workspaceId, body.email, body.role)
        return member
      })
  }),
  operation({
    operationId: "getMyWorkspaceMembership",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/members/me",
    summary: "The caller's own membership: role, since when, guest access",
    auth: "both",
    scopes: read,
    params: WorkspaceParams,
    responses: { 200: { description: "Membership", schema: MemberDetail } },
    handler: ({ params }, context) =>
      Effect.flatMap(inWorkspace(context, params.workspaceId), (caller) => orDieSql(rosterEntry(params.workspaceId, caller.userId)))
  }),
  operation({
    operationId: "searchWorkspaceMembers",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/members/search",
    summary: "Find members by name or e-mail, role or guest status (paged)",
    auth: "both",
    scopes: read,
    params: WorkspaceParams,
    query: Schema.Struct({
      q: Schema.optionalKey(
        Schema.String.check(Schema.isMaxLength(200)).annotate({ description: "Part of a name or e-mail (case-insensitive)" })
      ),
      role: Schema.optionalKey(Role),
      guest: Schema.optionalKey(Schema.Literals(["true", "false"])),
      offset: Schema.optionalKey(Offset),
      limit: Schema.optionalKey(Limit)
    }),
    responses: {
      200: {
        description: "A page of members, by name",
        schema: Schema.Struct({
          items: Schema.Array(MemberDetail),
          total: Schema.Number,
          offset: Schema.Number,
          limit: Schema.Number
        }).annotate({ identifier: "WorkspaceMemberPage" })
      }
    },
    handler: ({ params, query: q }, context) =>
      Effect.gen(function* () {
        yield* inWorkspace(context, params.workspaceId)
        const text = q.q?.trim().toLowerCase() ?? ""
        const matches = (yield* orDieSql(rosterOf(params.workspaceId)))
          .filter(
            (m) =>
              (text === "" || m.name.toLowerCase().includes(text) || m.email.toLowerCase().includes(text)) &&
              (q.role === undefined || m.role === q.role) &&
              (q.guest === undefined || m.guest === (q.guest === "true"))
          )
          .sort((a, b) => a.name.localeCompare(b.name) || a.email.localeCompare(b.email))
        const { offset, limit } = pageOf(q)
        return { items: matches.slice(offset, offset + limit), total: matches.length, offset, limit }
      })
  }),
  operation({
    operationId: "exportWorkspaceMembers",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/members/export",
    summary: "Download the members as CSV: e-mail, name, role, guest, access end, joined (admin)",
    auth: "both",
    scopes: read,
    params: WorkspaceParams,
    responses: { 200: { description: "CSV file", contentType: "text/csv" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* admin(context, params.workspaceId)
        const roster = yield* orDieSql(rosterOf(params.workspaceId))
        const body = csv([
          ["email", "name", "role", "guest", "guestExpiresAt", "addedAt"],
          ...roster.map((m) => [m.email, m.name, m.role, m.guest, m.guestExpiresAt, m.addedAt])
        ])
        return raw("text/csv; charset=utf-8", body, { "content-disposition": `attachment; filename="members-${params.workspaceId}.csv"` })
      })
  }),
  operation({
    operationId: "bulkAddWorkspaceMembers",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/members/bulk",
    summary: "Add up to 100 registered users by e-mail (admin); each row succeeds or fails on its own",
    auth: "both",
    scopes: write,
    params: WorkspaceParams,
    body: Schema.Struct({ members: Schema.Array(W.AddMemberBody).check(Schema.isMinLength(1), Schema.isMaxLength(100)) }),
    responses: { 200: { description: "One result per row, in order", schema: Items(BulkResult) } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* admin(context, params.workspaceId)
        const items = []
        for (const [index, row] of body.members.entries()) {
          const attempt = yield* Effect.result(
            Effect.gen(function* () {
              yield* orDieSql(requireSeats(params.workspaceId, 1))
              const user = yield* userByEmail(row.email, `body.members.${index}.email`)
              yield* identity(params.workspaceId).addMember({ by: caller.userId, userId: user.id, role: row.role })
              return yield* orDieSql(rosterEntry(params.workspaceId, user.id))
            })
          )
          if (attempt._tag === "Success") items.push({ ref: normalizeEmail(row.email), ok: true, member: attempt.success })
          else {
            const error = failure(attempt.failure)
            if (error === undefined) return yield* Effect.fail(attempt.failure)
            items.push({ ref: normalizeEmail(row.email), ok: false, error })
          }
        }
        return { items }
      })
  }),
  operation({
    operationId: "bulkRemoveWorkspaceMembers",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/members/bulk-remove",
    summary: "Remove up to 100 members (admin); each row succeeds or fails on its own (the owner is never removed)",
    auth: "both",
    scopes: write,
    params: WorkspaceParams,
    body: Schema.Struct({ userIds: Schema.Array(Id).check(Schema.isMinLength(1), Schema.isMaxLength(100)) }),
    responses: { 200: { description: "One result per row, in order", schema: Items(BulkResult) } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* admin(context, params.workspaceId)
        const items = []
        for (const userId of new Set(body.userIds)) {
          const attempt = yield* Effect.result(
            Effect.gen(function* () {
              yield* orDieSql(rosterEntry(params.workspaceId, userId))
              yield* identity(params.workspaceId).removeMember({ by: caller.userId, userId })
            })
          )
          if (attempt._tag === "Success") items.push({ ref: userId, ok: true })
          else {
            const error = failure(attempt.failure)
            if (error === undefined) return yield* Effect.fail(attempt.failure)
            items.push({ ref: userId, ok: false, error })
          }
        }
        return { items }
      })
  }),
  operation({
    operationId: "listDeactivatedWorkspaceMembers",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/members/deactivated",
    summary: "Deactivated members, who can be brought back with their role (admin)",
    auth: "both",
    scopes: read,
    params: WorkspaceParams,
    responses: { 200: { description: "Deactivated members, most recent first", schema: Items(Deactivated) } },
    handler: ({ params }, context) =>
      Effect.andThen(
        admin(context, params.workspaceId),
        Effect.map(orDieSql(deactivationsOf(params.workspaceId)), (items) => ({ items }))
      )
  }),
  operation({
    operationId: "getWorkspaceMember",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/members/{userId}",
    summary: "One member: role, since when, guest access",
    auth: "both",
    scopes: read,
    params: MemberParams,
    responses: { 200: { description: "The member", schema: MemberDetail }, 404: { description: "Not a member" } },
    handler: ({ params }, context) =>
      Effect.andThen(inWorkspace(context, params.workspaceId), orDieSql(rosterEntry(params.workspaceId, params.userId)))
  }),
  operation({
    operationId: "updateWorkspaceMemberRole",
    method: "PATCH",
    path: "/v1/workspaces/{workspaceId}/members/{userId}",
    summary: "Change a member's role (admin; the owner's role changes only by transferring ownership; guests cannot be admins)",
    auth: "both",
    scopes: write,
    params: MemberParams,
    body: Schema.Struct({ role: AssignableRole }),
    responses: { 200: { description: "Updated", schema: MemberDetail }, 409: { description: "The owner, or a guest made admin" } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        yield* admin(context, params.workspaceId)
        yield* orDieSql(rosterEntry(params.workspaceId, params.userId))
        yield* W.setMemberRole(context, params.workspaceId, params.userId, body.role)
        return yield* orDieSql(rosterEntry(params.workspaceId, params.userId))
      })
  }),
  operation({
    operationId: "removeWorkspaceMember",
    method: "DELETE",
    path: "/v1/workspaces/{workspaceId}/members/{userId}",
    summary: "Remove a member (admin), or leave (yourself); the owner cannot be removed",
    auth: "both",
    scopes: write,
    params: MemberParams,
    responses: { 204: { description: "Removed" }, 409: { description: "The owner" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* inWorkspace(context, params.workspaceId)
        yield* orDieSql(rosterEntry(params.workspaceId, params.userId))
        yield* W.removeMember(context, params.workspaceId, params.userId)
      })
  }),
  operation({
    operationId: "getWorkspaceMemberSummary",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/members/{userId}/summary",
    summary: "What a member does here: assigned tasks (open, done, overdue), tasks created, comments, time tracked and when last active",
    description: "Counts only what the caller can see (private spaces as their member or admin).",
    auth: "both",
    scopes: read,
    params: MemberParams,
    responses: {
      200: {
        description: "Summary",
        schema: Schema.Struct({
          member: MemberDetail,
          assigned: Schema.Struct({ open: Schema.Number, done: Schema.Number, overdue: Schema.Number }),
          created: Schema.Number,
          comments: Schema.Number,
          trackedMinutes: Schema.Number,
          lastActiveAt: Schema.NullOr(Timestamp),
          changesLast30Days: Schema.Number
        }).annotate({ identifier: "WorkspaceMemberSummary" })
      }
    },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId)
        const member = yield* orDieSql(rosterEntry(params.workspaceId, params.userId))
        const r = yield* orDieSql(memberActivity(params.workspaceId, params.userId, caller.viewer))
        return {
          member,
          assigned: { open: r.open, done: r.done, overdue: r.overdue },
          created: r.created,
          comments: r.comments,
          trackedMinutes: r.tracked,
          lastActiveAt: r.lastActiveAt,
          changesLast30Days: r.recent
        }
      })
  }),
  operation({
    operationId: "listWorkspaceMemberSpaces",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/members/{userId}/spaces",
    summary:
      "The spaces a member can reach, and why: every public space, private ones as their member, all as an admin (admins, or the member themself)",
    auth: "both",
    scopes: read,
    params: MemberParams,
    responses: {
      200: {
        description: "Spaces",
        schema: Items(
          Schema.Struct({
            id: Id,
            shortId: Schema.String,
            name: Schema.String,
            isPrivate: Schema.Boolean,
            access: Schema.Literals(["public", "member", "admin"])
          }).annotate({ identifier: "MemberSpaceAccess" })
        )
      }
    },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId)
        if (!caller.admin && caller.userId !== params.userId) return yield* reject("forbidden", "Only admins see other members' access")
        const member = yield* orDieSql(rosterEntry(params.workspaceId, params.userId))
        const memberAdmin = atLeast(member.role, "admin")
        const spaces = yield* orDieSql(Reads.listSpaces(params.workspaceId, { userId: member.userId, admin: memberAdmin }))
        const memberships = yield* orDieSql(spaceMembershipsOf(member.userId))
        return {
          items: spaces.map((s) => ({
            id: s.id,
            shortId: s.shortId,
            name: s.name,
            isPrivate: s.isPrivate,
            access: !s.isPrivate ? ("public" as const) : memberships.has(s.id) ? ("member" as const) : ("admin" as const)
          }))
        }
      })
  }),
  operation({
    operationId: "deactivateWorkspaceMember",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/members/{userId}/deactivate",
    summary: "Deactivate a member (admin): they lose access at once, their role is kept for reactivation; their tasks and history stay",
    auth: "both",
    scopes: write,
    params: MemberParams,
    responses: { 200: { description: "Deactivated", schema: Deactivated }, 409: { description: "The owner, or yourself (leave instead)" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* admin(context, params.workspaceId)
        if (params.userId === caller.userId) return yield* reject("conflict", "You cannot deactivate yourself; leave the workspace instead")
        const entry = yield* orDieSql(rosterEntry(params.workspaceId, params.userId))
        if (entry.role === "owner") return yield* reject("conflict", "The owner cannot be deactivated")
        yield* identity(params.workspaceId).removeMember({ by: caller.userId, userId: params.userId, reason: "deactivated" })
        yield* send(PmOrganization, params.workspaceId, "recordDeactivation", caller.userId, { userId: params.userId, role: entry.role })
        return (yield* orDieSql(deactivationsOf(params.workspaceId, params.userId)))[0]!
      })
  }),
  operation({
    operationId: "reactivateWorkspaceMember",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/members/{userId}/reactivate",
    summary: "Bring a deactivated member back with the role they had (admin; takes a seat)",
    auth: "both",
    scopes: write,
    params: MemberParams,
    responses: {
      200: { description: "Member again", schema: MemberDetail },
      404: { description: "Not deactivated" },
      409: { description: "No free seat" }
    },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* admin(context, params.workspaceId)
        if ((yield* orDieSql(deactivationsOf(params.workspaceId, params.userId))).length === 0)
          return yield* reject("not_found", "No deactivated member with this id")
        yield* orDieSql(requireSeats(params.workspaceId, 1))
        const role = yield* send(PmOrganization, params.workspaceId, "takeDeactivation", caller.userId, { userId: params.userId })
        yield* identity(params.workspaceId)
          .admit({ userId: params.userId, role, via: "reactivation", by: caller.userId })
          .pipe(
            Effect.tapError(() =>
              send(PmOrganization, params.workspaceId, "restoreDeactivation", caller.userId, { userId: params.userId, role }).pipe(
                Effect.ignore
              )
            )
          )
        return yield* orDieSql(rosterEntry(params.workspaceId, params.userId))
      })
  }),
  operation({
    operationId: "getWorkspacePermissions",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/permissions",
    summary: "What each role may do in this workspace, and what the caller may do (following the workspace's features and policy)",
    auth: "both",
    scopes: read,
    params: WorkspaceParams,
    responses: { 200: { description: "Permissions", schema: Permissions } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId)
        return permissionsOf(caller.role, yield* isGuest(params.workspaceId, caller.userId), yield* configOfWorkspace(params.workspaceId))
      })
  })
]
