/**
 * wiki tag "Public Wiki Space" (8): a published public wiki (a space whose
 * admins published it, see Public Wiki Settings), read without credentials by
 * workspace id and space key: the site, its page tree, page list, pages by
 * slug, home page, children, recent updates and search. Archived pages and
 * pages restricted to named readers are never shown; unpublished spaces answer 404.
 */
import { Effect, Predicate, Schema } from "effect"
import { Id } from "../../actors/Fields.ts"
import { Limit, Offset } from "../../actors/wiki/DiscoveryViews.ts"
import { recordView } from "../../actors/wiki/PageActivity.ts"
import {
  linkOf,
  PublicPage,
  PublicPageLink,
  publicPagesOf,
  publicPageView,
  publicPathOf,
  PublicSiteInfo,
  type PublicSpace,
  publicSpaceByKey,
  PublicTreeNode,
  siteInfo,
  treeOf
} from "../../actors/wiki/PublicWiki.ts"
import { searchPages } from "../../actors/wiki/SearchIndex.ts"
import { recordPublicSearch } from "../../actors/wiki/WikiAnalytics.ts"
import { parseSearchQuery } from "../../actors/wiki/SearchQuery.ts"
import { reject } from "../../runtime/Rejection.ts"
import { tagGroup } from "../Operation.ts"
import { VisitorId } from "./PublicWiki.ts"
import { SpaceKey } from "./WikiSpaces.ts"
import { publicWikiSpaceExamples } from "./PublicWikiSpace.examples.ts"
const base = "/v1/public/workspaces/{workspaceId}/spaces/{spaceKey}"

export const PageSlug = Schema.String.check(
  Schema.isPattern(/^[a-z0-9][a-z0-9-]{0,99}$/, { expected: "a page slug (lower-case letters, digits and dashes)" })
).annotate({ description: "The page's slug (unique within its space)", examples: ["getting-started"] })

const SpaceParams = Schema.Struct({ workspaceId: Id, spaceKey: SpaceKey })
const PageParams = Schema.Struct({ workspaceId: Id, spaceKey: SpaceKey, pageSlug: PageSlug })

/** persistence's `SqlError`, told by its tag: the facade does not import persistence/. */
type SqlFailure = { readonly _tag: "SqlError" }

/** A failing query is a defect (logged, 500); rejections (404, 403…) pass through. */
const dieSql = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, Exclude<E, SqlFailure>, R> =>
  effect.pipe(
    Effect.catchIf((error): error is Extract<E, SqlFailure> => Predicate.isTagged(error, "SqlError"), Effect.die)
  ) as Effect.Effect<A, Exclude<E, SqlFailure>, R>

const PublicPageItem = Schema.Struct({
  id: Schema.String,
  title: Schema.String,
  slug: Schema.String,
  icon: Schema.NullOr(Schema.String),
  parentId: Schema.NullOr(Schema.String).annotate({ description: "Nearest public parent" }),
  path: Schema.String,
  updatedAt: Schema.NullOr(Schema.String)
}).annotate({ identifier: "PublicWikiPageItem" })

const withPages = (workspaceId: string, spaceKey: string) =>
  dieSql(
    Effect.gen(function* () {
      const pub = yield* publicSpaceByKey(workspaceId, spaceKey)
      const pages = yield* publicPagesOf(pub.space, true)
      return { pub, pages }
    })
  )

const itemOf =
  (pub: PublicSpace, pages: Effect.Success<ReturnType<typeof withPages>>["pages"]) => (page: (typeof pages.pages)[number]) => ({
    ...linkOf(page),
    parentId: pages.parentOf(page)?.id ?? null,
    path: publicPathOf(pub.space, pub.site, page),
    updatedAt: pub.site.showLastUpdated ? page.updatedAt : null
  })

const pageBySlug = (workspaceId: string, spaceKey: string, slug: string) =>
  Effect.gen(function* () {
    const { pub, pages } = yield* withPages(workspaceId, spaceKey)
    const page = pages.pages.find((candidate) => candidate.slug === slug)
    if (page === undefined) return yield* reject("not_found", "No such public page")
    return { pub, pages, page }
  })

const { operation } = tagGroup("wiki", "Public Wiki Space", publicWikiSpaceExamples)

export const publicWikiSpaceOperations = [
  operation({
    operationId: "getPublicWikiSpace",
    method: "GET",
    path: base,
    summary: "A public wiki: its site settings, home page and size (no authentication)",
    auth: "public",
    scopes: [],
    params: SpaceParams,
    responses: {
      200: {
        description: "The public wiki",
        schema: Schema.Struct({
          workspaceId: Schema.String,
          spaceKey: Schema.String,
          name: Schema.String,
          icon: Schema.NullOr(Schema.String),
          site: PublicSiteInfo,
          homePage: Schema.NullOr(PublicPageLink),
          pageCount: Schema.Number
        }).annotate({ identifier: "PublicWikiSpace" })
      },
      404: { description: "No such public wiki" }
    },
    handler: ({ params }) =>
      Effect.gen(function* () {
        const { pub, pages } = yield* withPages(params.workspaceId, params.spaceKey)
        const home = (pub.space.homePageId !== null ? pages.byId.get(pub.space.homePageId) : undefined) ?? pages.childrenOf(null)[0]
        return {
          workspaceId: pub.space.workspaceId,
          spaceKey: pub.space.key,
          name: pub.space.name,
          icon: pub.space.icon,
          site: siteInfo(pub),
          homePage: home === undefined ? null : linkOf(home),
          pageCount: pages.pages.length
        }
      })
  }),
  operation({
    operationId: "getPublicWikiSpaceTree",
    method: "GET",
    path: `${base}/tree`,
    summary: "A public wiki's page tree, for navigation (no authentication)",
    auth: "public",
    scopes: [],
    params: SpaceParams,
    responses: {
      200: {
        description: "Top-level pages with their children, in order",
        schema: Schema.Struct({ items: Schema.Array(PublicTreeNode) }).annotate({ identifier: "PublicWikiTree" })
      },
      404: { description: "No such public wiki" }
    },
    handler: ({ params }) => Effect.map(withPages(params.workspaceId, params.spaceKey), ({ pages }) => ({ items: treeOf(pages, null) }))
  }),
  operation({
    operationId: "listPublicWikiSpacePages",
    method: "GET",
    path: `${base}/pages`,
    summary: "A public wiki's pages as a flat list, in tree order (no authentication)",
    auth: "public",
    scopes: [],
    params: SpaceParams,
    query: Schema.Struct({ limit: Schema.optionalKey(Limit(200)), offset: Schema.optionalKey(Offset) }),
    responses: {
      200: {
        description: "Pages",
        schema: Schema.Struct({ total: Schema.Number, items: Schema.Array(PublicPageItem) }).annotate({ identifier: "PublicWikiPageList" })
      },
      404: { description: "No such public wiki" }
    },
    handler: ({ params, query }) =>
      Effect.map(withPages(params.workspaceId, params.spaceKey), ({ pub, pages }) => {
        // Tree order: depth-first, siblings by position.
        const ordered: Array<(typeof pages.pages)[number]> = []
        const walk = (parentId: string | null) => {
          for (const page of pages.childrenOf(parentId)) {
            ordered.push(page)
            walk(page.id)
          }
        }
        walk(null)
        const offset = query.offset ?? 0
        return { total: ordered.length, items: ordered.slice(offset, offset + (query.limit ?? 100)).map(itemOf(pub, pages)) }
      })
  }),
  operation({
    operationId: "getPublicWikiSpacePage",
    method: "GET",
    path: `${base}/pages/{pageSlug}`,
    summary: "Read a public wiki page by its slug (no authentication)",
    description:
      "The page's content as HTML, with breadcrumbs and children. Counts a public view (pass `visitorId` to count unique visitors).",
    auth: "public",
    scopes: [],
    params: PageParams,
    query: Schema.Struct({ visitorId: Schema.optionalKey(VisitorId) }),
    responses: { 200: { description: "The page", schema: PublicPage }, 404: { description: "No such public wiki or page" } },
    handler: ({ params, query }) =>
      Effect.gen(function* () {
        const { pub, pages, page } = yield* pageBySlug(params.workspaceId, params.spaceKey, params.pageSlug)
        const view = yield* dieSql(publicPageView(pub.space, pub.site, pages, page))
        yield* recordView({ pageId: page.id, userId: null, visitorId: query.visitorId ?? null, source: "public" })
        return view
      })
  }),
  operation({
    operationId: "getPublicWikiSpaceHome",
    method: "GET",
    path: `${base}/home`,
    summary: "Read a public wiki's home page (no authentication)",
    description: "The space's home page when it is public, else its first top-level page. Counts a public view.",
    auth: "public",
    scopes: [],
    params: SpaceParams,
    query: Schema.Struct({ visitorId: Schema.optionalKey(VisitorId) }),
    responses: {
      200: { description: "The home page", schema: PublicPage },
      404: { description: "No such public wiki, or it has no pages" }
    },
    handler: ({ params, query }) =>
      Effect.gen(function* () {
        const { pub, pages } = yield* withPages(params.workspaceId, params.spaceKey)
        const home = (pub.space.homePageId !== null ? pages.byId.get(pub.space.homePageId) : undefined) ?? pages.childrenOf(null)[0]
        if (home === undefined) return yield* reject("not_found", "This public wiki has no pages yet")
        const view = yield* dieSql(publicPageView(pub.space, pub.site, pages, home))
        yield* recordView({ pageId: home.id, userId: null, visitorId: query.visitorId ?? null, source: "public" })
        return view
      })
  }),
  operation({
    operationId: "listPublicWikiSpacePageChildren",
    method: "GET",
    path: `${base}/pages/{pageSlug}/children`,
    summary: "The public subpages of a public wiki page (no authentication)",
    auth: "public",
    scopes: [],
    params: PageParams,
    responses: {
      200: {
        description: "Children, in order",
        schema: Schema.Struct({ items: Schema.Array(PublicPageItem) }).annotate({ identifier: "PublicWikiChildren" })
      },
      404: { description: "No such public wiki or page" }
    },
    handler: ({ params }) =>
      Effect.map(pageBySlug(params.workspaceId, params.spaceKey, params.pageSlug), ({ pub, pages, page }) => ({
        items: pages.childrenOf(page.id).map(itemOf(pub, pages))
      }))
  }),
  operation({
    operationId: "listRecentPublicWikiSpacePages",
    method: "GET",
    path: `${base}/recent`,
    summary: "A public wiki's most recently updated pages (no authentication)",
    description: '"What\'s new": newest first. Update times are omitted when the public wiki hides them (the order still follows them).',
    auth: "public",
    scopes: [],
    params: SpaceParams,
    query: Schema.Struct({ limit: Schema.optionalKey(Limit(50)) }),
    responses: {
      200: {
        description: "Recently updated pages",
        schema: Schema.Struct({ items: Schema.Array(PublicPageItem) }).annotate({ identifier: "PublicWikiRecentPages" })
      },
      404: { description: "No such public wiki" }
    },
    handler: ({ params, query }) =>
      Effect.map(withPages(params.workspaceId, params.spaceKey), ({ pub, pages }) => ({
        items: [...pages.pages]
          .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || a.id.localeCompare(b.id))
          .slice(0, query.limit ?? 10)
          .map(itemOf(pub, pages))
      }))
  }),
  operation({
    operationId: "searchPublicWikiSpace",
    method: "GET",
    path: `${base}/search`,
    summary: "Search a public wiki (no authentication)",
    description:
      "Full-text search over the public wiki's pages (same query syntax as searchWiki), with highlighted snippets. 403 when the wiki's admins turned search off.",
    auth: "public",
    scopes: [],
    params: SpaceParams,
    query: Schema.Struct({
      q: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200)),
      limit: Schema.optionalKey(Limit(50)),
      offset: Schema.optionalKey(Offset)
    }),
    responses: {
      200: {
        description: "Ranked results",
        schema: Schema.Struct({
          query: Schema.String,
          total: Schema.Number,
          results: Schema.Array(
            Schema.Struct({
              pageId: Schema.String,
              title: Schema.String,
              titleHighlight: Schema.String,
              snippet: Schema.String,
              slug: Schema.String,
              path: Schema.String
            })
          )
        }).annotate({ identifier: "PublicWikiSearchResults" })
      },
      403: { description: "Search is turned off for this public wiki" },
      404: { description: "No such public wiki" }
    },
    handler: ({ params, query }) =>
      Effect.gen(function* () {
        const { pub, pages } = yield* withPages(params.workspaceId, params.spaceKey)
        if (!pub.site.allowSearch) return yield* reject("forbidden", "Search is turned off for this public wiki")
        const parsed = parseSearchQuery(query.q)
        if (parsed === undefined) {
          return yield* reject("invalid", "The query has no word to search for", [
            { path: "query.q", message: "needs at least one word that is not excluded" }
          ])
        }
        const found = yield* dieSql(
          searchPages(
            { _tag: "pages", pageIds: pages.pages.map((page) => page.id) },
            parsed,
            {},
            { limit: query.limit ?? 20, offset: query.offset ?? 0 }
          )
        )
        if ((query.offset ?? 0) === 0) {
          yield* recordPublicSearch(pub.space.id, query.q, found.total).pipe(
            Effect.catchCause((cause) => Effect.logWarning("public wiki search: could not record the search", cause))
          )
        }
        return {
          query: query.q,
          total: found.total,
          results: found.results.map((hit) => {
            const page = pages.byId.get(hit.pageId)!
            return {
              pageId: hit.pageId,
              title: hit.title,
              titleHighlight: hit.titleHighlight,
              snippet: hit.snippet,
              slug: hit.slug,
              path: publicPathOf(pub.space, pub.site, page)
            }
          })
        }
      })
  })
]
