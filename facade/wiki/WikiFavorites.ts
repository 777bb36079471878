/**
 * wiki tag "Wiki Favorites" (3): the caller's pinned pages in a workspace —
 * list, pin, unpin. The list shows only pages the caller may still read
 * (a pin of a page they lost access to, or that was archived, stays hidden
 * until it is readable again or unpinned).
 */
import { Effect, Schema } from "effect"
import { Id } from "../../actors/Fields.ts"
import { Limit, PageRef } from "../../actors/wiki/DiscoveryViews.ts"
import { favoritesOf, favoriteWorkspace } from "../../actors/wiki/HomeReads.ts"
import { readerOf } from "../../actors/wiki/VisiblePages.ts"
import { callerOf, pageAccess } from "../../actors/wiki/WikiAccess.ts"
import { WikiMember } from "../../actors/wiki/WikiMember.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { reject } from "../../runtime/Rejection.ts"
import { principalOf } from "../Access.ts"
import { tagGroup } from "../Operation.ts"
import { wikiFavoritesExamples } from "./WikiFavorites.examples.ts"

const Favorite = Schema.Struct({ ...PageRef.fields, addedAt: Schema.String }).annotate({ identifier: "WikiFavorite" })

const { operation } = tagGroup("wiki", "Wiki Favorites", wikiFavoritesExamples)

export const wikiFavoritesOperations = [
  operation({
    operationId: "listWikiFavorites",
    method: "GET",
    path: "/v1/favorites",
    summary: "The caller's favorite pages in a workspace",
    description: "Newest first; only pages the caller may read.",
    auth: "both",
    scopes: ["wiki:read"],
    query: Schema.Struct({ workspaceId: Id, limit: Schema.optionalKey(Limit(500)) }),
    responses: {
      200: { description: "Favorites", schema: Schema.Struct({ items: Schema.Array(Favorite) }).annotate({ identifier: "WikiFavorites" }) }
    },
    handler: ({ query: q }, context) =>
      Effect.gen(function* () {
        const caller = callerOf(yield* principalOf(context))
        const reader = yield* readerOf(caller, q.workspaceId)
        return { items: yield* favoritesOf(reader, q.limit ?? 100).pipe(Effect.orDie) }
      })
  }),
  operation({
    operationId: "addWikiFavorite",
    method: "POST",
    path: "/v1/favorites",
    summary: "Pin a page as a favorite",
    description: "The page must be readable by the caller and not archived. 409 when it is already a favorite.",
    auth: "both",
    scopes: ["wiki:write"],
    body: Schema.Struct({ pageId: Id }),
    responses: {
      201: { description: "The favorite", schema: Favorite },
      409: { description: "Already a favorite, archived, or too many favorites" }
    },
    handler: ({ body }, context) =>
      Effect.gen(function* () {
        const caller = callerOf(yield* principalOf(context))
        const access = yield* pageAccess(caller, body.pageId).pipe(
          Effect.mapError((error) => reject(error.code, error.message, [{ path: "body.pageId", message: error.message }]))
        )
        if (access.page.archivedAt !== null || access.space.archivedAt !== null) {
          return yield* reject("conflict", "The page is archived; restore it first", [{ path: "body.pageId", message: "archived" }])
        }
        const favorite = yield* (yield* ActorSystem).ask(WikiMember, caller.userId, "addFavorite", {
          pageId: access.page.id,
          workspaceId: access.page.workspaceId
        })
        return {
          pageId: access.page.id,
          title: access.page.title,
          slug: access.page.slug,
          icon: access.page.icon,
          spaceId: access.space.id,
          spaceKey: access.space.key,
          spaceName: access.space.name,
          addedAt: favorite.createdAt
        }
      })
  }),
  operation({
    operationId: "removeWikiFavorite",
    method: "DELETE",
    path: "/v1/favorites/{pageId}",
    summary: "Unpin a favorite page",
    description: "Works even if the caller can no longer read the page. 404 when it is not a favorite.",
    auth: "both",
    scopes: ["wiki:write"],
    params: Schema.Struct({ pageId: Id }),
    responses: { 204: { description: "Unpinned" }, 404: { description: "Not a favorite" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const principal = yield* principalOf(context)
        if (principal.kind === "apiKey") {
          // A key acts only inside its workspace.
          const workspaceId = yield* favoriteWorkspace(principal.userId, params.pageId).pipe(Effect.orDie)
          if (workspaceId !== undefined && workspaceId !== principal.workspaceId)
            return yield* reject("not_found", "The page is not a favorite")
        }
        yield* (yield* ActorSystem).ask(WikiMember, principal.userId, "removeFavorite", { pageId: params.pageId })
      })
  })
]
