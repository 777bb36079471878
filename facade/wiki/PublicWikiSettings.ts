/**
 * wiki tag "Public Wiki Settings" (8): a space's public wiki — its settings
 * (URL slug, title, look, search, indexing, authors, dates), publishing and
 * unpublishing it, sharing single pages (with or without their subpages)
 * publicly, and its analytics (views, visitors, top pages, what visitors
 * search for). Every operation requires the admin role in the space.
 */
import { Effect, Schema } from "effect"
import { Id } from "../../actors/Fields.ts"
import { DateParam, Interval, Limit, ReportRange, reportRange } from "../../actors/wiki/DiscoveryViews.ts"
import {
  type PublicShare,
  PublicSite,
  PublicSitePatch,
  PublicSiteView,
  sharesOf,
  siteRowOf,
  siteViewOf
} from "../../actors/wiki/PublicSite.ts"
import { publicAllowed } from "../../actors/wiki/PublicWiki.ts"
import { publicSearchTerms, publicVisitors, topPages, viewsSeries } from "../../actors/wiki/WikiAnalytics.ts"
import { callerOf, pageAccess, spaceAccess } from "../../actors/wiki/WikiAccess.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { reject } from "../../runtime/Rejection.ts"
import { principalOf } from "../Access.ts"
import { type RawReply, type RequestContext, tagGroup } from "../Operation.ts"
import { publicWikiSettingsExamples } from "./PublicWikiSettings.examples.ts"

const SpaceParams = Schema.Struct({ spaceId: Id })

/** The caller as an admin of the space (404 when they cannot see it, 403 below admin). */
const spaceAdmin = (context: RequestContext, spaceId: string) =>
  Effect.gen(function* () {
    const caller = callerOf(yield* principalOf(context))
    const access = yield* spaceAccess(caller, spaceId, "admin")
    return { caller, access }
  })

const requireAllowed = (workspaceId: string) =>
  Effect.flatMap(publicAllowed(workspaceId).pipe(Effect.orDie), (allowed) =>
    allowed ? Effect.void : Effect.fail(reject("forbidden", "Public wikis are turned off for this workspace (see Wiki Settings)"))
  )

const ShareView = Schema.Struct({
  pageId: Schema.String,
  title: Schema.String,
  includeSubpages: Schema.Boolean,
  sharedBy: Schema.String,
  sharedAt: Schema.String,
  path: Schema.String.annotate({ description: "Public path: under the public wiki when the space is published, else /share/{pageId}" })
}).annotate({ identifier: "PublicWikiSharedPage" })

const AnalyticsQuery = Schema.Struct({
  from: Schema.optionalKey(DateParam),
  to: Schema.optionalKey(DateParam),
  interval: Schema.optionalKey(Interval),
  limit: Schema.optionalKey(Limit(50))
})

/** A share with its page's title and public path (under the public wiki when the space is published). */
const shareView = (
  spacePath: string | null,
  share: PublicShare,
  page: { readonly id: string; readonly slug: string; readonly title: string }
) => ({
  ...share,
  title: page.title,
  path: spacePath !== null ? `${spacePath}/${page.slug}` : `/share/${page.id}`
})

const noContent: RawReply = { _tag: "RawReply", status: 204, contentType: "text/plain", body: "" }

const sitePathOf = (site: PublicSiteView) => (site.enabled ? site.path : null)

const { operation } = tagGroup("wiki", "Public Wiki Settings", publicWikiSettingsExamples)

export const publicWikiSettingsOperations = [
  operation({
    operationId: "getPublicWikiSettings",
    method: "GET",
    path: "/v1/spaces/{spaceId}/public-wiki",
    summary: "A space's public wiki settings (space admin)",
    description:
      "Whether the space is published as a public wiki, at which path, and how it looks and behaves. A space never published shows the defaults.",
    auth: "both",
    scopes: ["wiki:admin"],
    params: SpaceParams,
    responses: { 200: { description: "Settings", schema: PublicSiteView } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const { access } = yield* spaceAdmin(context, params.spaceId)
        return siteViewOf(access.space, yield* siteRowOf(access.space.id).pipe(Effect.orDie))
      })
  }),
  operation({
    operationId: "updatePublicWikiSettings",
    method: "PATCH",
    path: "/v1/spaces/{spaceId}/public-wiki",
    summary: "Change a space's public wiki settings (space admin)",
    description:
      "Fields left out are unchanged; null clears one. The slug (first segment of public URLs) must be unused by any other public wiki (409).",
    auth: "both",
    scopes: ["wiki:admin"],
    params: SpaceParams,
    body: PublicSitePatch,
    responses: { 200: { description: "Updated settings", schema: PublicSiteView }, 409: { description: "The slug is taken" } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { caller } = yield* spaceAdmin(context, params.spaceId)
        return yield* (yield* ActorSystem).ask(PublicSite, params.spaceId, "configure", { by: caller.userId, patch: body })
      })
  }),
  operation({
    operationId: "publishPublicWiki",
    method: "POST",
    path: "/v1/spaces/{spaceId}/public-wiki/publish",
    summary: "Publish the space as a public wiki (space admin)",
    description:
      "Anyone can then read its pages without an account (Public Wiki Space operations), except archived pages and pages restricted to named readers. " +
      "Refused (403) when the workspace turned public wikis off.",
    auth: "both",
    scopes: ["wiki:admin"],
    params: SpaceParams,
    responses: {
      200: { description: "Settings, now enabled", schema: PublicSiteView },
      403: { description: "Public wikis are turned off for the workspace" }
    },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const { caller, access } = yield* spaceAdmin(context, params.spaceId)
        yield* requireAllowed(access.space.workspaceId)
        return yield* (yield* ActorSystem).ask(PublicSite, params.spaceId, "enable", { by: caller.userId })
      })
  }),
  operation({
    operationId: "unpublishPublicWiki",
    method: "POST",
    path: "/v1/spaces/{spaceId}/public-wiki/unpublish",
    summary: "Take the space's public wiki offline (space admin)",
    description: "Its public pages answer 404 at once; settings (and pages shared one by one) are kept.",
    auth: "both",
    scopes: ["wiki:admin"],
    params: SpaceParams,
    responses: { 200: { description: "Settings, now disabled", schema: PublicSiteView } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const { caller } = yield* spaceAdmin(context, params.spaceId)
        return yield* (yield* ActorSystem).ask(PublicSite, params.spaceId, "disable", { by: caller.userId })
      })
  }),
  operation({
    operationId: "listPublicWikiSharedPages",
    method: "GET",
    path: "/v1/spaces/{spaceId}/public-wiki/shares",
    summary: "Pages of the space shared publicly one by one (space admin)",
    auth: "both",
    scopes: ["wiki:admin"],
    params: SpaceParams,
    responses: {
      200: {
        description: "Shared pages",
        schema: Schema.Struct({ items: Schema.Array(ShareView) }).annotate({ identifier: "PublicWikiSharedPages" })
      }
    },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const { access } = yield* spaceAdmin(context, params.spaceId)
        const site = siteViewOf(access.space, yield* siteRowOf(access.space.id).pipe(Effect.orDie))
        const shares = yield* sharesOf(access.space.id).pipe(Effect.orDie)
        return { items: shares.map(({ share, page }) => shareView(sitePathOf(site), share, page)) }
      })
  }),
  operation({
    operationId: "setPublicWikiPageShare",
    method: "PUT",
    path: "/v1/spaces/{spaceId}/public-wiki/shares/{pageId}",
    summary: "Share one page publicly, or stop sharing it (space admin)",
    description:
      "`shared: true` makes the page readable without an account (Public Wiki operations, path /share/{pageId}), with its whole subtree when `includeSubpages`. " +
      "`shared: false` stops sharing it (204). Archived pages and pages restricted to named readers are never shown publicly.",
    auth: "both",
    scopes: ["wiki:admin"],
    params: Schema.Struct({ spaceId: Id, pageId: Id }),
    body: Schema.Struct({ shared: Schema.Boolean, includeSubpages: Schema.optionalKey(Schema.Boolean) }),
    responses: {
      200: { description: "The share (or 204 when unshared)", schema: ShareView },
      204: { description: "No longer shared" },
      403: { description: "Public wikis are turned off for the workspace" }
    },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { caller, access } = yield* spaceAdmin(context, params.spaceId)
        const page = yield* pageAccess(caller, params.pageId)
        if (page.space.id !== access.space.id) return yield* reject("not_found", "No such page in this space")
        const actors = yield* ActorSystem
        if (!body.shared) {
          yield* actors.ask(PublicSite, params.spaceId, "unshare", { by: caller.userId, pageId: params.pageId })
          // No longer shared: nothing to return.
          return noContent
        }
        yield* requireAllowed(access.space.workspaceId)
        const share = yield* actors.ask(PublicSite, params.spaceId, "share", {
          by: caller.userId,
          pageId: params.pageId,
          includeSubpages: body.includeSubpages ?? false
        })
        const site = siteViewOf(access.space, yield* siteRowOf(access.space.id).pipe(Effect.orDie))
        return shareView(sitePathOf(site), share, page.page)
      })
  }),
  operation({
    operationId: "getPublicWikiAnalytics",
    method: "GET",
    path: "/v1/spaces/{spaceId}/public-wiki/analytics",
    summary: "Traffic of the space's public wiki: views, visitors, trend and top pages (space admin)",
    description:
      "Over [from, to) (default: the last 30 days), bucketed by `interval`. Visitors are distinct visitor ids; views without one are counted as `anonymousViews`.",
    auth: "both",
    scopes: ["wiki:admin"],
    params: SpaceParams,
    query: AnalyticsQuery,
    responses: {
      200: {
        description: "Analytics",
        schema: Schema.Struct({
          range: ReportRange,
          views: Schema.Number,
          visitors: Schema.Number,
          anonymousViews: Schema.Number,
          series: Schema.Array(Schema.Struct({ date: Schema.String, views: Schema.Number, visitors: Schema.Number })),
          topPages: Schema.Array(
            Schema.Struct({
              pageId: Schema.String,
              title: Schema.String,
              slug: Schema.String,
              views: Schema.Number,
              visitors: Schema.Number
            })
          )
        }).annotate({ identifier: "PublicWikiAnalytics" })
      }
    },
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        const { access } = yield* spaceAdmin(context, params.spaceId)
        const range = yield* reportRange(query, query.interval ?? "day")
        const scope = { _tag: "space" as const, spaceId: access.space.id }
        const totals = yield* publicVisitors(access.space.id, range).pipe(Effect.orDie)
        const series = yield* viewsSeries(scope, range, "public").pipe(Effect.orDie)
        const top = yield* topPages(scope, range, "views", query.limit ?? 10, "public").pipe(Effect.orDie)
        return {
          range,
          views: totals.views,
          visitors: totals.visitors,
          anonymousViews: totals.anonymous,
          series: series.map((point) => ({ date: point.date, views: point.views, visitors: point.viewers })),
          topPages: top.map((row) => ({ pageId: row.id, title: row.title, slug: row.slug, views: row.views, visitors: row.viewers }))
        }
      })
  }),
  operation({
    operationId: "listPublicWikiSearchTerms",
    method: "GET",
    path: "/v1/spaces/{spaceId}/public-wiki/analytics/searches",
    summary: "What visitors searched for on the space's public wiki (space admin)",
    description:
      "Per query (lower-cased): how often, how many results on average, and how often it found nothing — the content visitors miss.",
    auth: "both",
    scopes: ["wiki:admin"],
    params: SpaceParams,
    query: Schema.Struct({ from: Schema.optionalKey(DateParam), to: Schema.optionalKey(DateParam), limit: Schema.optionalKey(Limit(100)) }),
    responses: {
      200: {
        description: "Search terms, most searched first",
        schema: Schema.Struct({
          range: ReportRange,
          items: Schema.Array(
            Schema.Struct({
              query: Schema.String,
              searches: Schema.Number,
              averageResults: Schema.Number,
              zeroResultSearches: Schema.Number,
              lastSearchedAt: Schema.String
            })
          )
        }).annotate({ identifier: "PublicWikiSearchTerms" })
      }
    },
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        const { access } = yield* spaceAdmin(context, params.spaceId)
        const range = yield* reportRange(query, "day")
        const rows = yield* publicSearchTerms(access.space.id, range, query.limit ?? 20).pipe(Effect.orDie)
        return {
          range,
          items: rows.map((row) => ({
            query: row.query,
            searches: row.searches,
            averageResults: Number(row.average_results),
            zeroResultSearches: row.zero_results,
            lastSearchedAt: row.last_searched_at
          }))
        }
      })
  })
]
