/**
 * wiki tag "Public Wiki" (2): public access to shared pages, by page id,
 * without credentials — a page shared on its own (Public Wiki Settings), a
 * page under one shared with its subpages, or any page of a published public
 * wiki. Everything else answers 404.
 */
import { Effect, Schema } from "effect"
import { Id } from "../../actors/Fields.ts"

import { recordView } from "../../actors/wiki/PageActivity.ts"
import { linkOf, PublicPage, PublicPageLink, publicPageById, publicPageView, PublicTreeNode, treeOf } from "../../actors/wiki/PublicWiki.ts"
import { tagGroup } from "../Operation.ts"
import { publicWikiExamples } from "./PublicWiki.examples.ts"
export { examplePublicPage } from "./PublicWiki.examples.ts"

/** An anonymous id the visitor's browser keeps, so analytics can count visitors without cookies on our side. */
export const VisitorId = Schema.String.check(
  Schema.isPattern(/^[A-Za-z0-9_-]{8,64}$/, { expected: "8-64 letters, digits, - or _" })
).annotate({ description: "Anonymous visitor id kept by the visitor's browser (for unique-visitor counts); optional" })

const { operation } = tagGroup("wiki", "Public Wiki", publicWikiExamples)

export const publicWikiOperations = [
  operation({
    operationId: "getSharedWikiPage",
    method: "GET",
    path: "/v1/public/pages/{pageId}",
    summary: "Read a publicly shared page (no authentication)",
    description:
      "The page's content as HTML, with its public breadcrumbs and children. Works for pages shared on their own, pages under a page shared with its subpages, " +
      "and pages of a published public wiki. Counts a public view (pass `visitorId` to count unique visitors).",
    auth: "public",
    scopes: [],
    params: Schema.Struct({ pageId: Id }),
    query: Schema.Struct({ visitorId: Schema.optionalKey(VisitorId) }),
    responses: { 200: { description: "The page", schema: PublicPage }, 404: { description: "No such page, or not public" } },
    handler: ({ params, query }) =>
      Effect.gen(function* () {
        const { space, site, pub, page } = yield* publicPageById(params.pageId).pipe(Effect.catchTag("SqlError", Effect.die))
        const view = yield* publicPageView(space, site, pub, page).pipe(Effect.catchTag("SqlError", Effect.die))
        yield* recordView({ pageId: page.id, userId: null, visitorId: query.visitorId ?? null, source: "public" })
        return view
      })
  }),
  operation({
    operationId: "getSharedWikiPageTree",
    method: "GET",
    path: "/v1/public/pages/{pageId}/tree",
    summary: "The public pages below a shared page, as a tree (no authentication)",
    description:
      "Navigation for a page shared with its subpages (or a page of a public wiki): the page and every public page below it, nested.",
    auth: "public",
    scopes: [],
    params: Schema.Struct({ pageId: Id }),
    responses: {
      200: {
        description: "The page and its public subtree",
        schema: Schema.Struct({ page: PublicPageLink, children: Schema.Array(PublicTreeNode) }).annotate({
          identifier: "PublicWikiSubtree"
        })
      },
      404: { description: "No such page, or not public" }
    },
    handler: ({ params }) =>
      Effect.gen(function* () {
        const { pub, page } = yield* publicPageById(params.pageId).pipe(Effect.catchTag("SqlError", Effect.die))
        return { page: linkOf(page), children: treeOf(pub, page.id) }
      })
  })
]
