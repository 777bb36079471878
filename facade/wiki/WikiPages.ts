/**
 * wiki tag "Wiki Pages" (17): pages within a space — create, read, change
 * (title, icon, cover, content as Markdown/HTML/ProseMirror JSON), delete;
 * the tree, children, breadcrumbs; move, duplicate, archive/restore; the
 * content in a chosen format, who is editing now, page info, an explicit
 * save (a named version) and backlinks.
 *
 * Content goes through the page's live document: REST edits reach connected
 * editors at once, and reads include what they typed.
 */
import { randomUUID } from "node:crypto"
import { Effect, Schema } from "effect"
import { LiveDocuments } from "../../actors/LiveDocuments.ts"
import { docToHtml } from "../../richtext/RichText.ts"
import { usersByIds } from "../../actors/identity/IdentityQueries.ts"
import { Id, Timestamp } from "../../actors/Fields.ts"
import { checkCover } from "../../actors/wiki/CoverGallery.ts"
import { recordPageView } from "../../actors/wiki/PageActivity.ts"
import { disposeRemoved } from "../../actors/wiki/PageDisposal.ts"
import { contentFrom, readPage } from "../../actors/wiki/PageContent.ts"
import { versionCount, WikiPageVersionView } from "../../actors/wiki/PageVersions.ts"
import { ensureActive, pageAccess, pagesVisibleIn, spaceAccess, type WikiCaller } from "../../actors/wiki/WikiAccess.ts"
import { WikiPage } from "../../actors/wiki/WikiPage.ts"
import { linkSources, pageCounts, versionAuthors } from "../../actors/wiki/WikiQueries.ts"
import type { PageRow } from "../../actors/wiki/WikiRecords.ts"
import { PageRestriction } from "../../actors/wiki/WikiRoles.ts"
import { WikiSpace } from "../../actors/wiki/WikiSpace.ts"
import {
  CoverImage,
  Icon,
  Markdown,
  pageSummary,
  PageTitle,
  ProseMirrorNode,
  WikiPageSummary,
  WikiPageView
} from "../../actors/wiki/WikiViews.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { reject } from "../../runtime/Rejection.ts"
import { raw, tagGroup } from "../Operation.ts"
import { callerFrom, SpaceParams } from "./WikiSpaces.ts"
import { wikiPagesExamples } from "./WikiPages.examples.ts"

export const PageParams = Schema.Struct({ pageId: Id })

const Html = Schema.String.check(Schema.isMaxLength(1024 * 1024)).annotate({ description: "HTML, at most 1 MiB" })
const Index = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)).annotate({
  description: "Position among the siblings, 0 = first; omitted = last"
})

/** Content fields accepted wherever a page's content is written (give at most one). */
export const contentFields = {
  markdown: Schema.optionalKey(Markdown),
  html: Schema.optionalKey(Html),
  content: Schema.optionalKey(ProseMirrorNode)
}

const PageList = Schema.Struct({ items: Schema.Array(WikiPageSummary) }).annotate({ identifier: "WikiPageList" })

interface TreeNode {
  readonly id: string
  readonly title: string
  readonly slug: string
  readonly icon: string | null
  readonly parentPageId: string | null
  readonly position: number
  readonly restriction: typeof PageRestriction.Type
  readonly updatedAt: string
  readonly children: ReadonlyArray<TreeNode>
}
const WikiPageTreeNode: Schema.Codec<TreeNode> = Schema.Struct({
  id: Id,
  title: Schema.String,
  slug: Schema.String,
  icon: Schema.NullOr(Schema.String),
  parentPageId: Schema.NullOr(Id),
  position: Schema.Number,
  restriction: PageRestriction,
  updatedAt: Timestamp,
  children: Schema.Array(Schema.suspend((): Schema.Codec<TreeNode> => WikiPageTreeNode))
}).annotate({ identifier: "WikiPageTreeNode" })

const Crumb = Schema.Struct({ id: Id, title: Schema.String, slug: Schema.String, icon: Schema.NullOr(Schema.String) }).annotate({
  identifier: "WikiBreadcrumb"
})

const Editor = Schema.Struct({ userId: Id, name: Schema.String, since: Timestamp }).annotate({ identifier: "WikiPageEditor" })

const PageInfo = Schema.Struct({
  pageId: Id,
  words: Schema.Number,
  characters: Schema.Number,
  readingMinutes: Schema.Number.annotate({ description: "At 200 words a minute" }),
  headings: Schema.Array(Schema.Struct({ level: Schema.Number, text: Schema.String })),
  childCount: Schema.Number,
  descendantCount: Schema.Number,
  versionCount: Schema.Number,
  commentCount: Schema.Number,
  openThreadCount: Schema.Number,
  attachmentCount: Schema.Number,
  backlinkCount: Schema.Number,
  contributors: Schema.Array(Schema.Struct({ userId: Id, name: Schema.String })),
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotate({ identifier: "WikiPageInfo" })

/** Pages of the caller's view of a space, each with its right. */
const visibleLive = (caller: WikiCaller, spaceId: string) =>
  Effect.gen(function* () {
    const access = yield* spaceAccess(caller, spaceId)
    const pages = (yield* pagesVisibleIn(caller, access)).filter(({ page }) => page.archivedAt === null)
    return { access, pages }
  })

const byOrder = (a: PageRow, b: PageRow) => a.position - b.position || a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id)

const treeOf = (pages: ReadonlyArray<PageRow>, rootParent: string | null, depth: number): Array<TreeNode> => {
  const byParent = new Map<string | null, Array<PageRow>>()
  for (const page of pages) byParent.set(page.parentId, [...(byParent.get(page.parentId) ?? []), page])
  const build = (parent: string | null, level: number): Array<TreeNode> =>
    (byParent.get(parent) ?? []).sort(byOrder).map((page) => ({
      id: page.id,
      title: page.title,
      slug: page.slug,
      icon: page.icon,
      parentPageId: page.parentId,
      position: page.position,
      restriction: page.restriction,
      updatedAt: page.updatedAt,
      children: level >= depth ? [] : build(page.id, level + 1)
    }))
  return build(rootParent, 1)
}

/** Descendants of `rootId` among `pages` (not the root itself). */
const descendantsOf = (pages: ReadonlyArray<PageRow>, rootId: string): Array<PageRow> => {
  const result: Array<PageRow> = []
  const frontier = [rootId]
  while (frontier.length > 0) {
    const parent = frontier.pop()!
    for (const page of pages)
      if (page.parentId === parent) {
        result.push(page)
        frontier.push(page.id)
      }
  }
  return result
}

const headingsOf = (node: {
  type: string
  attrs?: Record<string, unknown>
  content?: ReadonlyArray<any>
  text?: string
}): Array<{ level: number; text: string }> => {
  const textOf = (n: any): string => (n.type === "text" ? (n.text ?? "") : (n.content ?? []).map(textOf).join(""))
  if (node.type === "heading") return [{ level: Number(node.attrs?.level ?? 1), text: textOf(node) }]
  return (node.content ?? []).flatMap(headingsOf)
}

/** Writes the content of the request (if any) through the page actor. */
export const writeContent = (
  pageId: string,
  by: string,
  input: { markdown?: string; html?: string; content?: any },
  reason: "created" | "edited"
) =>
  Effect.gen(function* () {
    const doc = yield* contentFrom(input)
    if (doc !== undefined) yield* (yield* ActorSystem).ask(WikiPage, pageId, "setContent", { by, content: doc, mode: "replace", reason })
  })

const { operation } = tagGroup("wiki", "Wiki Pages", wikiPagesExamples)

export const wikiPagesOperations = [
  operation({
    operationId: "createWikiPage",
    method: "POST",
    path: "/v1/spaces/{spaceId}/pages",
    summary: "Create a page in a space, optionally under a parent page, with content",
    description:
      "Give the content as `markdown`, `html` or ProseMirror JSON `content` (one of them), or none for an empty page. Needs the editor role in the space (and edit rights on the parent page). The page goes last among its siblings unless `index` says otherwise; it inherits its ancestors' restrictions.",
    auth: "both",
    scopes: ["wiki:write"],
    params: SpaceParams,
    body: Schema.Struct({
      title: PageTitle,
      parentPageId: Schema.optionalKey(Schema.NullOr(Id)),
      icon: Schema.optionalKey(Icon),
      coverImage: Schema.optionalKey(CoverImage),
      index: Schema.optionalKey(Index),
      ...contentFields
    }),
    responses: { 201: { description: "Created", schema: WikiPageView }, 404: { description: "No such space or parent page" } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        const access = yield* spaceAccess(caller, params.spaceId, "editor")
        yield* ensureActive(access.space)
        const parentId = body.parentPageId ?? null
        if (parentId !== null) {
          const parent = yield* pageAccess(caller, parentId, "edit").pipe(
            Effect.catchTag("Rejection", (error) =>
              Effect.fail(reject(error.code, `Parent page: ${error.message}`, [{ path: "body.parentPageId", message: error.message }]))
            )
          )
          if (parent.page.spaceId !== params.spaceId) {
            return yield* reject("not_found", "The parent page is in another space", [
              { path: "body.parentPageId", message: "not in this space" }
            ])
          }
        }
        yield* checkCover(access.space.workspaceId, body.coverImage, "body.coverImage")
        const doc = yield* contentFrom(body)
        const actors = yield* ActorSystem
        const page = yield* actors.ask(WikiSpace, params.spaceId, "createPage", {
          by: caller.userId,
          pageId: randomUUID(),
          parentId,
          title: body.title,
          icon: body.icon ?? null,
          coverImage: body.coverImage ?? null,
          index: body.index ?? null
        })
        if (doc !== undefined)
          yield* actors.ask(WikiPage, page.id, "setContent", { by: caller.userId, content: doc, mode: "replace", reason: "created" })
        return yield* readPage(yield* pageAccess(caller, page.id))
      })
  }),
  operation({
    operationId: "getWikiPage",
    method: "GET",
    path: "/v1/pages/{pageId}",
    summary: "Get a page with its content (ProseMirror JSON, plain text and Markdown)",
    description: "The content is the live document's: it includes what connected editors typed a moment ago.",
    auth: "both",
    scopes: ["wiki:read"],
    params: PageParams,
    responses: {
      200: { description: "The page", schema: WikiPageView },
      404: { description: "No such page (or not visible to the caller)" }
    },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        const access = yield* pageAccess(caller, params.pageId)
        // Reads in the app count as views (dashboards); an agent's key reading is not someone viewing.
        if (context.principal?.kind === "user") yield* recordPageView(params.pageId, caller.userId)
        return yield* readPage(access)
      })
  }),
  operation({
    operationId: "updateWikiPage",
    method: "PATCH",
    path: "/v1/pages/{pageId}",
    summary: "Change a page's title, icon, cover image and/or replace its content",
    description:
      "Fields left out are unchanged; `icon`/`coverImage: null` remove them. New content (`markdown`, `html` or `content`) replaces the whole document in one change that connected editors see at once, and is kept as a version. The slug follows the title.",
    auth: "both",
    scopes: ["wiki:write"],
    params: PageParams,
    body: Schema.Struct({
      title: Schema.optionalKey(PageTitle),
      icon: Schema.optionalKey(Schema.NullOr(Icon)),
      coverImage: Schema.optionalKey(Schema.NullOr(CoverImage)),
      ...contentFields
    }),
    responses: {
      200: { description: "The updated page", schema: WikiPageView },
      409: { description: "The page or its space is archived" }
    },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        const access = yield* pageAccess(caller, params.pageId, "edit")
        yield* ensureActive(access.space, access.page)
        yield* checkCover(access.space.workspaceId, body.coverImage, "body.coverImage")
        const doc = yield* contentFrom(body)
        const actors = yield* ActorSystem
        const { markdown: _m, html: _h, content: _c, ...meta } = body
        if (Object.keys(meta).length > 0) yield* actors.ask(WikiPage, params.pageId, "update", { by: caller.userId, ...meta })
        if (doc !== undefined)
          yield* actors.ask(WikiPage, params.pageId, "setContent", { by: caller.userId, content: doc, mode: "replace", reason: "edited" })
        return yield* readPage(yield* pageAccess(caller, params.pageId))
      })
  }),
  operation({
    operationId: "deleteWikiPage",
    method: "DELETE",
    path: "/v1/pages/{pageId}",
    summary: "Delete a page and its subpages for good",
    description: "Versions, comments, attachments and the live document go too. Archive a page instead to keep it restorable.",
    auth: "both",
    scopes: ["wiki:write"],
    params: PageParams,
    responses: { 204: { description: "Deleted" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        const access = yield* pageAccess(caller, params.pageId, "edit")
        // Subpages the caller could not see would go too: that takes a space admin.
        const visible = new Set(
          (yield* pagesVisibleIn(caller, { space: access.space, role: access.spaceRole, workspaceRole: access.workspaceRole })).map(
            ({ page }) => page.id
          )
        )
        const all = (yield* pagesVisibleIn(caller, { space: access.space, role: "admin", workspaceRole: access.workspaceRole })).map(
          ({ page }) => page
        )
        if (descendantsOf(all, access.page.id).some((page) => !visible.has(page.id))) {
          return yield* reject("forbidden", "Some subpages are restricted from you; a space admin must delete this page")
        }
        const removed = yield* (yield* ActorSystem).ask(WikiSpace, access.space.id, "deletePage", {
          by: caller.userId,
          pageId: params.pageId
        })
        yield* disposeRemoved(removed)
      })
  }),
  operation({
    operationId: "listWikiPages",
    method: "GET",
    path: "/v1/spaces/{spaceId}/pages",
    summary: "List a space's pages (flat), filtered by parent or title",
    description:
      "`parentPageId` lists one page's children, `topLevel=true` the top-level pages; `q` matches titles (case-insensitive). Sorted by tree position (default), title or last update.",
    auth: "both",
    scopes: ["wiki:read"],
    params: SpaceParams,
    query: Schema.Struct({
      parentPageId: Schema.optionalKey(Id),
      topLevel: Schema.optionalKey(Schema.Literals(["true", "false"])),
      q: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(200))),
      sort: Schema.optionalKey(Schema.Literals(["position", "title", "updated"])),
      limit: Schema.optionalKey(Schema.FiniteFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 200 }))),
      offset: Schema.optionalKey(Schema.FiniteFromString.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(0)))
    }),
    responses: {
      200: {
        description: "Pages",
        schema: Schema.Struct({ items: Schema.Array(WikiPageSummary), total: Schema.Number }).annotate({ identifier: "WikiPagePage" })
      }
    },
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        const { pages } = yield* visibleLive(caller, params.spaceId)
        const needle = query.q?.trim().toLowerCase()
        const matching = pages
          .map(({ page }) => page)
          .filter(
            (page) =>
              (query.parentPageId === undefined || page.parentId === query.parentPageId) &&
              (query.topLevel !== "true" || page.parentId === null) &&
              (needle === undefined || needle === "" || page.title.toLowerCase().includes(needle))
          )
        const sort = query.sort ?? "position"
        matching.sort(
          sort === "title"
            ? (a, b) => a.title.localeCompare(b.title) || a.id.localeCompare(b.id)
            : sort === "updated"
              ? (a, b) => b.updatedAt.localeCompare(a.updatedAt) || a.id.localeCompare(b.id)
              : byOrder
        )
        const offset = query.offset ?? 0
        return { items: matching.slice(offset, offset + (query.limit ?? 50)).map(pageSummary), total: matching.length }
      })
  }),
  operation({
    operationId: "getWikiPageTree",
    method: "GET",
    path: "/v1/spaces/{spaceId}/tree",
    summary: "The space's page tree (titles only), or the subtree under one page",
    auth: "both",
    scopes: ["wiki:read"],
    params: SpaceParams,
    query: Schema.Struct({
      rootPageId: Schema.optionalKey(Id),
      depth: Schema.optionalKey(Schema.FiniteFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 50 })))
    }),
    responses: {
      200: {
        description: "Tree",
        schema: Schema.Struct({ items: Schema.Array(WikiPageTreeNode) }).annotate({ identifier: "WikiPageTree" })
      }
    },
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        const { pages } = yield* visibleLive(caller, params.spaceId)
        const rows = pages.map(({ page }) => page)
        if (query.rootPageId !== undefined && !rows.some((page) => page.id === query.rootPageId)) {
          return yield* reject("not_found", "No such page in this space", [
            { path: "query.rootPageId", message: "no such page in this space" }
          ])
        }
        return { items: treeOf(rows, query.rootPageId ?? null, query.depth ?? 50) }
      })
  }),
  operation({
    operationId: "listWikiPageChildren",
    method: "GET",
    path: "/v1/pages/{pageId}/children",
    summary: "The direct subpages of a page, in order",
    auth: "both",
    scopes: ["wiki:read"],
    params: PageParams,
    responses: { 200: { description: "Children", schema: PageList } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        const access = yield* pageAccess(caller, params.pageId)
        const { pages } = yield* visibleLive(caller, access.space.id)
        return {
          items: pages
            .map(({ page }) => page)
            .filter((page) => page.parentId === params.pageId)
            .sort(byOrder)
            .map(pageSummary)
        }
      })
  }),
  operation({
    operationId: "getWikiPageBreadcrumbs",
    method: "GET",
    path: "/v1/pages/{pageId}/breadcrumbs",
    summary: "The path from the space's top level down to the page (the page last)",
    auth: "both",
    scopes: ["wiki:read"],
    params: PageParams,
    responses: {
      200: {
        description: "Breadcrumbs",
        schema: Schema.Struct({
          space: Schema.Struct({ id: Id, key: Schema.String, name: Schema.String }),
          items: Schema.Array(Crumb)
        }).annotate({ identifier: "WikiBreadcrumbs" })
      }
    },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        const access = yield* pageAccess(caller, params.pageId)
        const crumb = (page: { id: string; title: string; slug: string; icon: string | null }) => ({
          id: page.id,
          title: page.title,
          slug: page.slug,
          icon: page.icon
        })
        return {
          space: { id: access.space.id, key: access.space.key, name: access.space.name },
          items: [...[...access.ancestors].reverse().map(crumb), crumb(access.page)]
        }
      })
  }),
  operation({
    operationId: "moveWikiPage",
    method: "POST",
    path: "/v1/pages/{pageId}/move",
    summary: "Move a page (with its subpages) under another parent, to another position, or to another space",
    description:
      "`parentPageId: null` moves it to the top level. `index` is its place among the new siblings (0 = first; omitted = last). `spaceId` moves it to another space of the workspace (editor role needed there). A page cannot move under itself.",
    auth: "both",
    scopes: ["wiki:write"],
    params: PageParams,
    body: Schema.Struct({ parentPageId: Schema.NullOr(Id), index: Schema.optionalKey(Index), spaceId: Schema.optionalKey(Id) }),
    responses: { 200: { description: "The moved page", schema: WikiPageSummary }, 400: { description: "Moving under itself" } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        const access = yield* pageAccess(caller, params.pageId, "edit")
        yield* ensureActive(access.space, access.page)
        const targetSpaceId = body.spaceId ?? access.space.id
        if (targetSpaceId !== access.space.id) {
          yield* spaceAccess(caller, targetSpaceId, "editor").pipe(
            Effect.catchTag("Rejection", (error) =>
              Effect.fail(reject(error.code, `Target space: ${error.message}`, [{ path: "body.spaceId", message: error.message }]))
            )
          )
        }
        if (body.parentPageId !== null) {
          yield* pageAccess(caller, body.parentPageId, "edit").pipe(
            Effect.catchTag("Rejection", (error) =>
              Effect.fail(reject(error.code, `Parent page: ${error.message}`, [{ path: "body.parentPageId", message: error.message }]))
            )
          )
        }
        const moved = yield* (yield* ActorSystem).ask(WikiSpace, access.space.id, "movePage", {
          by: caller.userId,
          pageId: params.pageId,
          parentId: body.parentPageId,
          index: body.index ?? null,
          targetSpaceId: targetSpaceId === access.space.id ? null : targetSpaceId
        })
        return pageSummary(moved)
      })
  }),
  operation({
    operationId: "duplicateWikiPage",
    method: "POST",
    path: "/v1/pages/{pageId}/duplicate",
    summary: "Copy a page (optionally with its subpages) beside itself, under another parent, or into another space",
    description:
      'The copy gets the content, icon, cover and restrictions of the original; `title` defaults to "Copy of …". Subpages the caller cannot see are not copied. Comments, versions and attachments are not copied.',
    auth: "both",
    scopes: ["wiki:write"],
    params: PageParams,
    body: Schema.Struct({
      title: Schema.optionalKey(PageTitle),
      includeChildren: Schema.optionalKey(Schema.Boolean),
      parentPageId: Schema.optionalKey(Schema.NullOr(Id)),
      spaceId: Schema.optionalKey(Id)
    }),
    responses: {
      201: {
        description: "The copy",
        schema: Schema.Struct({ page: WikiPageSummary, copiedPageIds: Schema.Array(Id) }).annotate({ identifier: "WikiPageCopy" })
      }
    },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        const access = yield* pageAccess(caller, params.pageId)
        const targetSpaceId = body.spaceId ?? access.space.id
        const target = yield* spaceAccess(caller, targetSpaceId, "editor").pipe(
          Effect.catchTag("Rejection", (error) =>
            Effect.fail(
              body.spaceId === undefined
                ? error
                : reject(error.code, `Target space: ${error.message}`, [{ path: "body.spaceId", message: error.message }])
            )
          )
        )
        yield* ensureActive(target.space)
        const parentId =
          body.parentPageId !== undefined ? body.parentPageId : targetSpaceId === access.space.id ? access.page.parentId : null
        if (parentId !== null) {
          yield* pageAccess(caller, parentId, "edit").pipe(
            Effect.catchTag("Rejection", (error) =>
              Effect.fail(reject(error.code, `Parent page: ${error.message}`, [{ path: "body.parentPageId", message: error.message }]))
            )
          )
        }
        const visible = new Set(
          (yield* pagesVisibleIn(caller, { space: access.space, role: access.spaceRole, workspaceRole: access.workspaceRole })).map(
            ({ page }) => page.id
          )
        )
        const all = (yield* pagesVisibleIn(caller, { space: access.space, role: "admin", workspaceRole: access.workspaceRole })).map(
          ({ page }) => page
        )
        const hidden = descendantsOf(all, access.page.id)
          .filter((page) => !visible.has(page.id))
          .map((page) => page.id)
        const actors = yield* ActorSystem
        const { copies } = yield* actors.ask(WikiSpace, access.space.id, "duplicatePage", {
          by: caller.userId,
          pageId: params.pageId,
          title: body.title ?? null,
          ...(body.parentPageId !== undefined ? { parentId: body.parentPageId } : {}),
          targetSpaceId: targetSpaceId === access.space.id ? null : targetSpaceId,
          includeChildren: body.includeChildren ?? false,
          exclude: hidden
        })
        const live = yield* LiveDocuments
        yield* Effect.forEach(
          copies,
          ({ sourceId, page }) =>
            Effect.flatMap(live.snapshot(sourceId), (snapshot) =>
              snapshot.content.content === undefined || snapshot.content.content.length === 0
                ? Effect.void
                : actors.ask(WikiPage, page.id, "setContent", {
                    by: caller.userId,
                    content: snapshot.content,
                    mode: "replace",
                    reason: "created"
                  })
            ),
          { concurrency: 4, discard: true }
        )
        return { page: pageSummary(copies[0]!.page), copiedPageIds: copies.map(({ page }) => page.id) }
      })
  }),
  operation({
    operationId: "archiveWikiPage",
    method: "POST",
    path: "/v1/pages/{pageId}/archive",
    summary: "Archive a page with its subpages (to the space's trash)",
    description: "Archived pages leave the tree and become read-only; restore them from the trash, or delete them for good.",
    auth: "both",
    scopes: ["wiki:write"],
    params: PageParams,
    responses: {
      200: {
        description: "The archived pages",
        schema: Schema.Struct({ archivedPageIds: Schema.Array(Id) }).annotate({ identifier: "WikiArchivedPages" })
      },
      409: { description: "Already archived" }
    },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        const access = yield* pageAccess(caller, params.pageId, "edit")
        const archivedPageIds = yield* (yield* ActorSystem).ask(WikiSpace, access.space.id, "archivePage", {
          by: caller.userId,
          pageId: params.pageId
        })
        return { archivedPageIds }
      })
  }),
  operation({
    operationId: "restoreWikiPage",
    method: "POST",
    path: "/v1/pages/{pageId}/restore",
    summary: "Restore an archived page with the subpages archived along with it",
    description: "It returns to its parent, or to the top level when the parent is gone or still archived.",
    auth: "both",
    scopes: ["wiki:write"],
    params: PageParams,
    responses: { 200: { description: "The restored page", schema: WikiPageSummary }, 409: { description: "Not archived" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        const access = yield* pageAccess(caller, params.pageId, "edit")
        return pageSummary(
          yield* (yield* ActorSystem).ask(WikiSpace, access.space.id, "restorePage", { by: caller.userId, pageId: params.pageId })
        )
      })
  }),
  operation({
    operationId: "getWikiPageContent",
    method: "GET",
    path: "/v1/pages/{pageId}/content",
    summary: "Download the page's content as Markdown, HTML, ProseMirror JSON or plain text",
    auth: "both",
    scopes: ["wiki:read"],
    params: PageParams,
    query: Schema.Struct({ format: Schema.optionalKey(Schema.Literals(["markdown", "html", "json", "text"])) }),
    responses: {
      200: {
        description: "The content in the format asked for (Markdown by default; json: the ProseMirror document)",
        contentType: ["text/markdown; charset=utf-8", "text/html; charset=utf-8", "application/json", "text/plain; charset=utf-8"],
        schema: ProseMirrorNode
      }
    },
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        const access = yield* pageAccess(caller, params.pageId)
        const snapshot = yield* (yield* LiveDocuments).snapshot(params.pageId)
        const format = query.format ?? "markdown"
        const name = `${access.page.slug}.${{ markdown: "md", html: "html", json: "json", text: "txt" }[format]}`
        const headers = { "content-disposition": `inline; filename="${name}"`, "x-content-type-options": "nosniff" }
        switch (format) {
          case "markdown":
            return raw("text/markdown; charset=utf-8", snapshot.markdown, headers)
          case "html":
            // Served as a document of its own: sandboxed, so nothing in it runs with the API's origin.
            return raw(
              "text/html; charset=utf-8",
              `<!doctype html>\n<html><head><meta charset="utf-8"><title>${escape(access.page.title)}</title></head><body>\n${docToHtml(snapshot.content)}\n</body></html>\n`,
              {
                ...headers,
                "content-security-policy": "sandbox; default-src 'none'; img-src * data:; style-src 'unsafe-inline'"
              }
            )
          case "json":
            return raw("application/json; charset=utf-8", JSON.stringify(snapshot.content), headers)
          case "text":
            return raw("text/plain; charset=utf-8", snapshot.text, headers)
        }
      })
  }),
  operation({
    operationId: "listWikiPageEditors",
    method: "GET",
    path: "/v1/pages/{pageId}/editors",
    summary: "Who has the page open in the editor right now",
    auth: "both",
    scopes: ["wiki:read"],
    params: PageParams,
    responses: {
      200: { description: "Editors", schema: Schema.Struct({ items: Schema.Array(Editor) }).annotate({ identifier: "WikiPageEditors" }) }
    },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        yield* pageAccess(caller, params.pageId)
        const editors = yield* (yield* LiveDocuments).editors(params.pageId)
        return { items: editors.map((editor) => ({ userId: editor.userId, name: editor.name, since: editor.since })) }
      })
  }),
  operation({
    operationId: "getWikiPageInfo",
    method: "GET",
    path: "/v1/pages/{pageId}/info",
    summary: "Facts about a page: size, reading time, outline, subpages, versions, comments, attachments, backlinks, contributors",
    auth: "both",
    scopes: ["wiki:read"],
    params: PageParams,
    responses: { 200: { description: "Page info", schema: PageInfo } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        const access = yield* pageAccess(caller, params.pageId)
        const snapshot = yield* (yield* LiveDocuments).snapshot(params.pageId)
        const { pages } = yield* visibleLive(caller, access.space.id)
        const rows = pages.map(({ page }) => page)
        const counts = yield* Effect.orDie(pageCounts(params.pageId))
        const authors = yield* Effect.orDie(versionAuthors(params.pageId))
        const contributorIds = [...new Set([access.page.createdBy, access.page.updatedBy, ...authors])]
        const users = yield* Effect.orDie(usersByIds(contributorIds))
        const backlinks = yield* backlinksOf(caller, params.pageId)
        const words = snapshot.text.split(/\s+/).filter((word) => word.length > 0).length
        return {
          pageId: params.pageId,
          words,
          characters: snapshot.text.length,
          readingMinutes: words === 0 ? 0 : Math.max(1, Math.ceil(words / 200)),
          headings: headingsOf(snapshot.content),
          childCount: rows.filter((page) => page.parentId === params.pageId).length,
          descendantCount: descendantsOf(rows, params.pageId).length,
          versionCount: yield* Effect.orDie(versionCount(params.pageId)),
          commentCount: counts.comments,
          openThreadCount: counts.openThreads,
          attachmentCount: counts.attachments,
          backlinkCount: backlinks.length,
          contributors: contributorIds.filter((id) => users.has(id)).map((id) => ({ userId: id, name: users.get(id)!.name })),
          createdAt: access.page.createdAt,
          updatedAt: access.page.updatedAt
        }
      })
  }),
  operation({
    operationId: "saveWikiPage",
    method: "POST",
    path: "/v1/pages/{pageId}/save",
    summary: "Save the page as it is now as a named version",
    description:
      'Live editing keeps versions on its own every few minutes; this keeps one now, with an optional label (e.g. "Approved"). Restore it later from the page\'s versions.',
    auth: "both",
    scopes: ["wiki:write"],
    params: PageParams,
    body: Schema.Struct({
      label: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(200), Schema.isPattern(/\S/, { expected: "a non-blank label" })))
    }),
    responses: { 201: { description: "The new version", schema: WikiPageVersionView } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        const access = yield* pageAccess(caller, params.pageId, "edit")
        yield* ensureActive(access.space, access.page)
        return yield* (yield* ActorSystem).ask(WikiPage, params.pageId, "saveVersion", {
          by: caller.userId,
          label: body.label?.trim() ?? null
        })
      })
  }),
  operation({
    operationId: "listWikiPageBacklinks",
    method: "GET",
    path: "/v1/pages/{pageId}/backlinks",
    summary: "Pages whose content links to this page (that the caller can see)",
    auth: "both",
    scopes: ["wiki:read"],
    params: PageParams,
    responses: { 200: { description: "Linking pages", schema: PageList } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        yield* pageAccess(caller, params.pageId)
        return { items: (yield* backlinksOf(caller, params.pageId)).map(pageSummary) }
      })
  })
]

/** Live pages linking to `pageId` that the caller may see, most recently changed first. */
const backlinksOf = (caller: WikiCaller, pageId: string) =>
  Effect.gen(function* () {
    const sources = yield* Effect.orDie(linkSources(pageId))
    const found = yield* Effect.forEach(sources, (id) => Effect.option(pageAccess(caller, id)), { concurrency: 4 })
    return found
      .flatMap((access) =>
        access._tag === "Some" && access.value.page.archivedAt === null && access.value.space.archivedAt === null ? [access.value.page] : []
      )
      .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))
  })

const escape = (text: string) => text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!)
