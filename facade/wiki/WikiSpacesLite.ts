/**
 * wiki tag "Wiki Spaces (Lite)" (1): space discovery by key — which spaces
 * the caller can use, each with its key, its home page and top-level pages
 * as slugs, ready for the Lite page operations.
 */
import { Effect, Schema } from "effect"
import { workspacesOf } from "../../actors/identity/IdentityQueries.ts"
import { Id } from "../../actors/Fields.ts"
import { livePages, spaceByRef } from "../../actors/wiki/LiteRefs.ts"
import { type SpaceAccess, visibleSpaces } from "../../actors/wiki/WikiAccess.ts"
import { SpaceRole } from "../../actors/wiki/WikiRoles.ts"

import { tagGroup } from "../Operation.ts"
import { callerFrom, SpaceKey } from "./WikiSpaces.ts"
import { wikiSpacesLiteExamples } from "./WikiSpacesLite.examples.ts"

const PageRef = Schema.Struct({ slug: Schema.String, title: Schema.String }).annotate({ identifier: "WikiLitePageRef" })

const LiteSpace = Schema.Struct({
  workspaceId: Id,
  key: Schema.String,
  name: Schema.String,
  description: Schema.String,
  role: SpaceRole,
  canEdit: Schema.Boolean,
  pageCount: Schema.Number,
  homePage: Schema.NullOr(PageRef),
  topPages: Schema.Array(PageRef).annotate({ description: "Top-level pages in order (at most 50)" })
}).annotate({ identifier: "WikiLiteSpace" })

const { operation } = tagGroup("wiki", "Wiki Spaces (Lite)", wikiSpacesLiteExamples)

export const wikiSpacesLiteOperations = [
  operation({
    operationId: "discoverWikiSpaces",
    mcp: { tool: "listWikiSpaces" },
    method: "GET",
    path: "/v1/lite/spaces",
    summary: "Discover the spaces you can use, by key, with their home and top-level pages as slugs",
    description:
      "Without `workspaceId`: every workspace you belong to (an API key: its own). With `key`: just that space (404 if you cannot see it). Archived spaces are left out. Use the keys and slugs with the Lite page operations.",
    auth: "both",
    scopes: ["wiki:read"],
    query: Schema.Struct({ workspaceId: Schema.optionalKey(Id), key: Schema.optionalKey(SpaceKey) }),
    responses: {
      200: { description: "Spaces", schema: Schema.Struct({ items: Schema.Array(LiteSpace) }).annotate({ identifier: "WikiLiteSpaces" }) }
    },
    handler: ({ query }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        let spaces: ReadonlyArray<SpaceAccess>
        if (query.key !== undefined) {
          spaces = [yield* spaceByRef(caller, query.key, query.workspaceId)]
        } else {
          const workspaceIds =
            query.workspaceId !== undefined
              ? [query.workspaceId]
              : caller.keyWorkspaceId !== undefined
                ? [caller.keyWorkspaceId]
                : (yield* Effect.orDie(workspacesOf(caller.userId))).map((workspace) => workspace.id)
          spaces = (yield* Effect.forEach(workspaceIds, (id) => visibleSpaces(caller, id))).flat()
        }
        const items = yield* Effect.forEach(
          spaces.filter(({ space }) => space.archivedAt === null),
          (access) =>
            Effect.map(livePages(caller, access), (live) => {
              const ref = (page: { slug: string; title: string }) => ({ slug: page.slug, title: page.title })
              const home = live.pages.find(({ page }) => page.id === access.space.homePageId)
              return {
                workspaceId: access.space.workspaceId,
                key: access.space.key,
                name: access.space.name,
                description: access.space.description,
                role: access.role,
                canEdit: access.role !== "viewer",
                pageCount: live.pages.length,
                homePage: home === undefined ? null : ref(home.page),
                topPages: live.pages
                  .map(({ page }) => page)
                  .filter((page) => page.parentId === null)
                  .sort((a, b) => a.position - b.position || a.createdAt.localeCompare(b.createdAt))
                  .slice(0, 50)
                  .map(ref)
              }
            })
        )
        return { items }
      })
  })
]
