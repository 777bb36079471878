/**
 * pm tag "Favorites" (3): the caller's starred spaces, folders, lists and
 * tasks in a workspace — list, add, remove. Favorites are personal: any
 * member who can see an item (viewers too) may star it; the list shows only
 * what the caller can still see, in the order they were added.
 */
import { Effect, Schema } from "effect"
import { Id } from "../../actors/Fields.ts"
import { Favorite, favoritesOf, favoriteWorkspace, FavoriteType } from "../../actors/pm/Favorites.ts"
import { PmPersonal } from "../../actors/pm/OrganizationActors.ts"
import { send } from "../../actors/pm/WorkActor.ts"
import { reject } from "../../runtime/Rejection.ts"
import { tagGroup } from "../Operation.ts"
import { inWorkspace, onFolder, onList, onSpace, onTask, orDieSql } from "./WorkAccess.ts"
import { favoritesExamples } from "./Favorites.examples.ts"

const WorkspaceParams = Schema.Struct({ workspaceId: Id })

const { operation } = tagGroup("pm", "Favorites", favoritesExamples)

export const favoritesOperations = [
  operation({
    operationId: "listFavorites",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/favorites",
    summary: "The caller's favorites in a workspace (spaces, folders, lists, tasks), in the order added",
    description: "Items the caller can no longer see (deleted, or in a private space they left) are left out; archived ones are marked.",
    auth: "both",
    scopes: ["tasks:read"],
    params: WorkspaceParams,
    query: Schema.Struct({ type: Schema.optionalKey(FavoriteType.annotate({ description: "Only favorites of this kind" })) }),
    responses: {
      200: { description: "Favorites", schema: Schema.Struct({ items: Schema.Array(Favorite) }).annotate({ identifier: "Favorites" }) }
    },
    handler: ({ params, query: q }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId)
        return { items: yield* orDieSql(favoritesOf(params.workspaceId, caller.viewer, q.type ? { type: q.type } : {})) }
      })
  }),
  operation({
    operationId: "addFavorite",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/favorites",
    summary: "Star a space, folder, list or task the caller can see",
    auth: "both",
    scopes: ["tasks:write"],
    params: WorkspaceParams,
    body: Schema.Struct({ type: FavoriteType, id: Id.annotate({ description: "The space, folder, list or task" }) }),
    responses: {
      201: { description: "Added", schema: Favorite },
      404: { description: "No such item in this workspace" },
      409: { description: "Already a favorite" }
    },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId)
        const reach = body.type === "space" ? onSpace : body.type === "folder" ? onFolder : body.type === "list" ? onList : onTask
        const target = yield* reach(context, body.id).pipe(
          Effect.mapError((e) =>
            e._tag === "Rejection" && e.code === "not_found"
              ? reject("not_found", `No such ${body.type} in this workspace`, [{ path: "body.id", message: "not found" }])
              : e
          )
        )
        if (target.at.workspaceId !== params.workspaceId)
          return yield* reject("not_found", `No such ${body.type} in this workspace`, [
            { path: "body.id", message: "not in this workspace" }
          ])
        const { id } = yield* send(PmPersonal, caller.userId, "addFavorite", caller.userId, {
          workspaceId: params.workspaceId,
          type: body.type,
          entityId: body.id
        })
        const [favorite] = yield* orDieSql(favoritesOf(params.workspaceId, caller.viewer, { id }))
        return favorite!
      })
  }),
  operation({
    operationId: "removeFavorite",
    method: "DELETE",
    path: "/v1/workspaces/{workspaceId}/favorites/{favoriteId}",
    summary: "Unstar (remove one of the caller's favorites)",
    auth: "both",
    scopes: ["tasks:write"],
    params: Schema.Struct({ workspaceId: Id, favoriteId: Id }),
    responses: { 204: { description: "Removed" }, 404: { description: "No such favorite of the caller" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId)
        if ((yield* orDieSql(favoriteWorkspace(caller.userId, params.favoriteId))) !== params.workspaceId)
          return yield* reject("not_found", "No such favorite")
        yield* send(PmPersonal, caller.userId, "removeFavorite", caller.userId, { favoriteId: params.favoriteId })
      })
  })
]
