/**
 * Guests: members without a seat, limited to the private spaces they are
 * added to, whose access may end at a date.
 */
import { Effect, Schema } from "effect"
import { Email, Id } from "../../../actors/Fields.ts"
import { AssignableRole } from "../../../actors/identity/Workspace.ts"
import { locateSpace } from "../../../actors/pm/Locate.ts"
import { memberSpaces } from "../../../actors/pm/MemberReads.ts"
import { requireSeats, rosterEntry, rosterOf } from "../../../actors/pm/Roster.ts"
import { send } from "../../../actors/pm/WorkActor.ts"
import { PmSpace } from "../../../actors/pm/WorkActors.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { tagGroup } from "../../Operation.ts"
import { inWorkspace, orDieSql } from "../WorkAccess.ts"
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
  futureDate,
  DateTimeString,
  configOfWorkspace
} from "./shared.ts"
import { guestsExamples } from "./Guests.examples.ts"

const GuestView = Schema.Struct({
  ...MemberDetail.fields,
  spaces: Schema.Array(Schema.Struct({ id: Id, name: Schema.String })).annotate({ description: "Private spaces the guest belongs to" })
}).annotate({ identifier: "WorkspaceGuest" })

const guestsWithSpaces = (workspaceId: string, userIds?: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const roster = (yield* orDieSql(rosterOf(workspaceId))).filter((m) => m.guest && (userIds === undefined || userIds.includes(m.userId)))
    if (roster.length === 0) return []
    const spaces = yield* orDieSql(
      memberSpaces(
        workspaceId,
        roster.map((m) => m.userId)
      )
    )
    return roster.map((m) => ({ ...m, spaces: spaces.filter((s) => s.userId === m.userId).map(({ id, name }) => ({ id, name })) }))
  })

const aGuest = (workspaceId: string, userId: string) =>
  Effect.flatMap(guestsWithSpaces(workspaceId, [userId]), (guests) =>
    guests[0] ? Effect.succeed(guests[0]) : Effect.fail(reject("not_found", "No such guest"))
  )

const { operation } = tagGroup(service, tag, guestsExamples)

export const workspaceGuestsOperations = [
  operation({
    operationId: "addWorkspaceGuest",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/guests",
    summary:
      "Add a registered user as a guest (admin): a member or viewer without a seat, whose access can end at a date, optionally let into private spaces",
    auth: "both",
    scopes: write,
    params: WorkspaceParams,
    body: Schema.Struct({
      email: Email,
      role: Schema.optionalKey(Schema.Literals(["member", "viewer"]).annotate({ description: "default viewer" })),
      expiresAt: Schema.optionalKey(
        Schema.NullOr(DateTimeString).annotate({ description: "When their access ends (null or absent: when removed)" })
      ),
      spaceIds: Schema.optionalKey(
        Schema.Array(Id).check(Schema.isMaxLength(50)).annotate({ description: "Private spaces to let them into" })
      )
    }),
    responses: {
      201: { description: "Added", schema: GuestView },
      403: { description: "Guests are turned off" },
      404: { description: "No user with that e-mail" },
      409: { description: "Already a member" }
    },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* admin(context, params.workspaceId)
        if (!(yield* configOfWorkspace(params.workspaceId)).features.guests)
          return yield* reject("forbidden", "Guests are turned off in this workspace")
        const expiresAt = (yield* futureDate(body.expiresAt, "body.expiresAt")) ?? null
        const spaceIds = [...new Set(body.spaceIds ?? [])]
        for (const [index, spaceId] of spaceIds.entries()) {
          const space = yield* orDieSql(Effect.option(locateSpace(spaceId)))
          if (space._tag === "None" || space.value.workspaceId !== params.workspaceId || !space.value.isPrivate) {
            return yield* reject("invalid", "Guests are let into private spaces of this workspace only", [
              { path: `body.spaceIds.${index}`, message: "not a private space of this workspace" }
            ])
          }
        }
        const user = yield* userByEmail(body.email, "body.email")
        yield* identity(params.workspaceId).admit({
          userId: user.id,
          role: body.role ?? "viewer",
          guest: { expiresAt },
          via: "guest",
          by: caller.userId
        })
        for (const spaceId of spaceIds) yield* send(PmSpace, spaceId, "addMember", caller.userId, { userId: user.id })
        return yield* aGuest(params.workspaceId, user.id)
      })
  }),
  operation({
    operationId: "listWorkspaceGuests",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/guests",
    summary: "The workspace's guests, when their access ends, and the private spaces they are in",
    auth: "both",
    scopes: read,
    params: WorkspaceParams,
    responses: { 200: { description: "Guests", schema: Items(GuestView) } },
    handler: ({ params }, context) =>
      Effect.andThen(
        inWorkspace(context, params.workspaceId),
        Effect.map(guestsWithSpaces(params.workspaceId), (items) => ({ items }))
      )
  }),
  operation({
    operationId: "updateWorkspaceGuest",
    method: "PATCH",
    path: "/v1/workspaces/{workspaceId}/guests/{userId}",
    summary: "Change when a guest's access ends (admin)",
    auth: "both",
    scopes: write,
    params: MemberParams,
    body: Schema.Struct({ expiresAt: Schema.NullOr(DateTimeString) }),
    responses: { 200: { description: "Updated", schema: GuestView }, 404: { description: "Not a guest" } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* admin(context, params.workspaceId)
        yield* aGuest(params.workspaceId, params.userId)
        const expiresAt = (yield* futureDate(body.expiresAt, "body.expiresAt")) ?? null
        yield* identity(params.workspaceId).setGuest({ by: caller.userId, userId: params.userId, guest: { expiresAt } })
        return yield* aGuest(params.workspaceId, params.userId)
      })
  }),
  operation({
    operationId: "removeWorkspaceGuest",
    method: "DELETE",
    path: "/v1/workspaces/{workspaceId}/guests/{userId}",
    summary: "Remove a guest (admin)",
    auth: "both",
    scopes: write,
    params: MemberParams,
    responses: { 204: { description: "Removed" }, 404: { description: "Not a guest" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* admin(context, params.workspaceId)
        yield* aGuest(params.workspaceId, params.userId)
        yield* identity(params.workspaceId).removeMember({ by: caller.userId, userId: params.userId })
      })
  }),
  operation({
    operationId: "convertWorkspaceGuest",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/guests/{userId}/convert",
    summary: "Make a guest a full member with a role (admin; takes a seat; their access no longer ends)",
    auth: "both",
    scopes: write,
    params: MemberParams,
    body: Schema.Struct({ role: AssignableRole }),
    responses: {
      200: { description: "A full member now", schema: MemberDetail },
      404: { description: "Not a guest" },
      409: { description: "No free seat" }
    },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* admin(context, params.workspaceId)
        const guest = yield* aGuest(params.workspaceId, params.userId)
        yield* orDieSql(requireSeats(params.workspaceId, 1))
        yield* identity(params.workspaceId).setGuest({ by: caller.userId, userId: params.userId, guest: null })
        if (guest.role !== body.role)
          yield* identity(params.workspaceId).setMemberRole({ by: caller.userId, userId: params.userId, role: body.role })
        return yield* orDieSql(rosterEntry(params.workspaceId, params.userId))
      })
  })
]
