/**
 * wiki tag "Wiki Space Permissions" (3): who has which role in a space.
 * Workspace members get a baseline role (owner/admin → admin, member →
 * editor, viewer → viewer); an entry for a user, or for everyone holding a
 * workspace role, overrides it (a user's own entry wins). In a restricted
 * space only entries (and workspace admins) get in. The space's visibility
 * is changed with updateWikiSpace.
 */
import { Effect, Schema } from "effect"
import { Id } from "../../actors/Fields.ts"
import { blameEmail, resolveSubject, subjectFields, SubjectView, withUsers } from "../../actors/wiki/PermissionSubjects.ts"
import { spaceAccess } from "../../actors/wiki/WikiAccess.ts"
import { SpaceRole, SpaceVisibility } from "../../actors/wiki/WikiRoles.ts"
import { WikiSpace } from "../../actors/wiki/WikiSpace.ts"

import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { tagGroup } from "../Operation.ts"
import { callerFrom, SpaceParams } from "./WikiSpaces.ts"
import { wikiSpacePermissionsExamples } from "./WikiSpacePermissions.examples.ts"

const SpacePermission = Schema.Struct({ id: Id, spaceId: Id, role: SpaceRole, ...SubjectView }).annotate({
  identifier: "WikiSpacePermission"
})

const SpacePermissions = Schema.Struct({
  spaceId: Id,
  visibility: SpaceVisibility,
  baseline: Schema.NullOr(Schema.Struct({ admin: SpaceRole, member: SpaceRole, viewer: SpaceRole })).annotate({
    description:
      "Role of each workspace role without an entry (null in a restricted space: no access); workspace owners and admins are always space admins"
  }),
  entries: Schema.Array(SpacePermission),
  yourRole: SpaceRole
}).annotate({ identifier: "WikiSpacePermissions" })

const { operation } = tagGroup("wiki", "Wiki Space Permissions", wikiSpacePermissionsExamples)

export const wikiSpacePermissionsOperations = [
  operation({
    operationId: "listWikiSpacePermissions",
    method: "GET",
    path: "/v1/spaces/{spaceId}/permissions",
    summary: "Who has which role in a space: the baseline and the entries",
    auth: "both",
    scopes: ["wiki:read"],
    params: SpaceParams,
    responses: { 200: { description: "Permissions", schema: SpacePermissions } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        const access = yield* spaceAccess(caller, params.spaceId)
        const entries = yield* withUsers(access.entries)
        return {
          spaceId: params.spaceId,
          visibility: access.space.visibility,
          baseline:
            access.space.visibility === "restricted"
              ? null
              : { admin: "admin" as const, member: "editor" as const, viewer: "viewer" as const },
          entries,
          yourRole: access.role
        }
      })
  }),
  operation({
    operationId: "setWikiSpacePermission",
    method: "PUT",
    path: "/v1/spaces/{spaceId}/permissions",
    summary: "Give a user (by id or e-mail) or a workspace role a role in the space (space admin)",
    description:
      "Name exactly one of `userId`, `email` or `workspaceRole`. An existing entry for the same subject is changed. Users must be workspace members.",
    auth: "both",
    scopes: ["wiki:admin"],
    params: SpaceParams,
    body: Schema.Struct({ ...subjectFields, role: SpaceRole }),
    responses: { 200: { description: "The entry", schema: SpacePermission } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        yield* spaceAccess(caller, params.spaceId, "admin")
        const subject = yield* resolveSubject(body)
        const entry = yield* (yield* ActorSystem)
          .ask(WikiSpace, params.spaceId, "grant", { by: caller.userId, subject, role: body.role })
          .pipe(blameEmail(body))
        return (yield* withUsers([entry]))[0]!
      })
  }),
  operation({
    operationId: "removeWikiSpacePermission",
    method: "DELETE",
    path: "/v1/spaces/{spaceId}/permissions/{permissionId}",
    summary: "Remove a permission entry (space admin); the subject falls back to the baseline",
    auth: "both",
    scopes: ["wiki:admin"],
    params: Schema.Struct({ spaceId: Id, permissionId: Id }),
    responses: { 204: { description: "Removed" }, 404: { description: "No such entry" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        yield* spaceAccess(caller, params.spaceId, "admin")
        yield* (yield* ActorSystem).ask(WikiSpace, params.spaceId, "revoke", { by: caller.userId, permissionId: params.permissionId })
      })
  })
]
