/**
 * wiki tag "Public Wiki Sitemap" (1): what search engines may crawl of a
 * workspace's public wikis — every public page of every published public
 * wiki that allows indexing, with its path and last change — for rendering
 * sitemap.xml. No authentication.
 */
import { Effect, Schema } from "effect"
import { Id } from "../../actors/Fields.ts"

import { publicAllowed, publicPagesOf, publicPathOf, publishedSpace, publishedSpacesOf } from "../../actors/wiki/PublicWiki.ts"
import { reject } from "../../runtime/Rejection.ts"
import { tagGroup } from "../Operation.ts"
import { publicWikiSitemapExamples } from "./PublicWikiSitemap.examples.ts"

const SitemapEntry = Schema.Struct({
  path: Schema.String.annotate({ description: "Public URL path of the page (prefix it with the public wiki's host)" }),
  pageId: Schema.String,
  title: Schema.String,
  spaceKey: Schema.String,
  lastModified: Schema.String,
  home: Schema.Boolean.annotate({ description: "The public wiki's home page" })
}).annotate({ identifier: "PublicWikiSitemapEntry" })

const { operation } = tagGroup("wiki", "Public Wiki Sitemap", publicWikiSitemapExamples)

export const publicWikiSitemapOperations = [
  operation({
    operationId: "getPublicWikiSitemap",
    method: "GET",
    path: "/v1/public/workspaces/{workspaceId}/sitemap",
    summary: "Sitemap data of a workspace's public wikis (no authentication)",
    description:
      "Every public page of the workspace's published public wikis whose admins allow search-engine indexing, newest change first, " +
      "with the public wikis' own paths. Wikis that disallow indexing are left out. 404 when the workspace has no public wiki.",
    auth: "public",
    scopes: [],
    params: Schema.Struct({ workspaceId: Id }),
    responses: {
      200: {
        description: "Sitemap entries",
        schema: Schema.Struct({
          workspaceId: Schema.String,
          sites: Schema.Array(Schema.Struct({ spaceKey: Schema.String, path: Schema.String, lastModified: Schema.NullOr(Schema.String) })),
          entries: Schema.Array(SitemapEntry)
        }).annotate({ identifier: "PublicWikiSitemap" })
      },
      404: { description: "The workspace has no public wiki" }
    },
    handler: ({ params }) =>
      Effect.gen(function* () {
        if (!(yield* publicAllowed(params.workspaceId))) return yield* reject("not_found", "No public wiki in this workspace")
        const spaces = yield* publishedSpacesOf(params.workspaceId)
        if (spaces.length === 0) return yield* reject("not_found", "No public wiki in this workspace")
        const sites: Array<{ spaceKey: string; path: string; lastModified: string | null }> = []
        const entries: Array<typeof SitemapEntry.Type> = []
        for (const space of spaces) {
          const pub = yield* publishedSpace(space)
          if (!pub.site.allowIndexing) continue
          const pages = yield* publicPagesOf(pub.space, true)
          const home = (pub.space.homePageId !== null ? pages.byId.get(pub.space.homePageId) : undefined) ?? pages.childrenOf(null)[0]
          const latest = pages.pages.reduce<string | null>(
            (max, page) => (max === null || page.updatedAt > max ? page.updatedAt : max),
            null
          )
          sites.push({ spaceKey: pub.space.key, path: pub.site.path, lastModified: latest })
          for (const page of pages.pages) {
            entries.push({
              path: publicPathOf(pub.space, pub.site, page),
              pageId: page.id,
              title: page.title,
              spaceKey: pub.space.key,
              lastModified: page.updatedAt,
              home: page.id === home?.id
            })
          }
        }
        entries.sort((a, b) => b.lastModified.localeCompare(a.lastModified) || a.path.localeCompare(b.path))
        return { workspaceId: params.workspaceId, sites, entries }
      }).pipe(Effect.catchTag("SqlError", Effect.die))
  })
]
