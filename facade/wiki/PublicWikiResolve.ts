/**
 * wiki tag "Public Wiki Resolve" (1): which workspace, space (key) and page a
 * public URL path names. Public paths: `/{siteSlug}` (a public wiki's home),
 * `/{siteSlug}/{pageSlug}`, the long form `/{workspaceId}/{spaceKey}[/{pageSlug}]`,
 * and `/share/{pageId}` for a page shared on its own. No authentication;
 * anything not public answers 404.
 */
import { Effect, Schema } from "effect"

import { publicPageById, publicPagesOf, publicPathOf, publicSpaceByKey, publicSpaceBySlug } from "../../actors/wiki/PublicWiki.ts"
import { reject } from "../../runtime/Rejection.ts"
import { tagGroup } from "../Operation.ts"
import { publicWikiResolveExamples } from "./PublicWikiResolve.examples.ts"

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

const Resolved = Schema.Struct({
  workspaceId: Schema.String,
  spaceId: Schema.String,
  spaceKey: Schema.String,
  siteSlug: Schema.NullOr(Schema.String).annotate({ description: "The public wiki's slug, when the space is a published public wiki" }),
  page: Schema.NullOr(Schema.Struct({ id: Schema.String, slug: Schema.String, title: Schema.String })).annotate({
    description: "The page the path names (null: the public wiki itself)"
  }),
  canonicalPath: Schema.String.annotate({ description: "The preferred public path for the same target" })
}).annotate({ identifier: "PublicWikiResolution" })

const noSuchPath = reject("not_found", "No public wiki or page at this path")

const { operation } = tagGroup("wiki", "Public Wiki Resolve", publicWikiResolveExamples)

export const publicWikiResolveOperations = [
  operation({
    operationId: "resolvePublicWikiPath",
    method: "GET",
    path: "/v1/public/resolve",
    summary: "Resolve a public URL path to its workspace, space key and page (no authentication)",
    description:
      "Accepts `/{siteSlug}`, `/{siteSlug}/{pageSlug}`, `/{workspaceId}/{spaceKey}`, `/{workspaceId}/{spaceKey}/{pageSlug}` and `/share/{pageId}` " +
      "(query string and trailing slash ignored). Returns the target and its canonical path; 404 when nothing public is there.",
    auth: "public",
    scopes: [],
    query: Schema.Struct({
      path: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(500)).annotate({
        description: "The public URL path, e.g. /acme-docs/getting-started"
      })
    }),
    responses: { 200: { description: "What the path names", schema: Resolved }, 404: { description: "Nothing public at this path" } },
    handler: ({ query }) =>
      Effect.gen(function* () {
        const segments = query.path
          .split(/[?#]/)[0]!
          .split("/")
          .filter((segment) => segment !== "")
          .map((segment) => {
            try {
              return decodeURIComponent(segment)
            } catch {
              return segment
            }
          })
        if (segments.length === 2 && segments[0] === "share" && UUID.test(segments[1]!)) {
          const { space, site, page } = yield* publicPageById(segments[1]!).pipe(Effect.mapError(() => noSuchPath))
          return {
            workspaceId: space.workspaceId,
            spaceId: space.id,
            spaceKey: space.key,
            siteSlug: site?.slug ?? null,
            page: { id: page.id, slug: page.slug, title: page.title },
            canonicalPath: site !== undefined ? publicPathOf(space, site, page) : `/share/${page.id}`
          }
        }
        const long = segments.length >= 2 && UUID.test(segments[0]!)
        if (segments.length === 0 || segments.length > (long ? 3 : 2)) return yield* noSuchPath
        const pub = yield* (long ? publicSpaceByKey(segments[0]!, segments[1]!) : publicSpaceBySlug(segments[0]!)).pipe(
          Effect.mapError(() => noSuchPath)
        )
        const pageSlug = segments[long ? 2 : 1]
        let page = null as { id: string; slug: string; title: string } | null
        if (pageSlug !== undefined) {
          const pages = yield* publicPagesOf(pub.space, true).pipe(Effect.orDie)
          const found = pages.pages.find((candidate) => candidate.slug === pageSlug.toLowerCase())
          if (found === undefined) return yield* noSuchPath
          page = { id: found.id, slug: found.slug, title: found.title }
        }
        return {
          workspaceId: pub.space.workspaceId,
          spaceId: pub.space.id,
          spaceKey: pub.space.key,
          siteSlug: pub.site.slug,
          page,
          canonicalPath: page === null ? pub.site.path : `${pub.site.path}/${page.slug}`
        }
      })
  })
]
