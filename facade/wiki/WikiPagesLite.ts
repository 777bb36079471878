/**
 * wiki tag "Wiki Pages (Lite)" (5): pages addressed by space key + slug or
 * title instead of UUIDs, content read and written as Markdown — the
 * AI-friendly way to outline, read, create, rewrite and append to pages.
 */
import { randomUUID } from "node:crypto"
import { Effect, Schema } from "effect"
import { LiveDocuments } from "../../actors/LiveDocuments.ts"
import { markdownToDoc } from "../../richtext/RichText.ts"
import { Id, Timestamp } from "../../actors/Fields.ts"
import { type LivePages, livePages, pageByRef, spaceByRef } from "../../actors/wiki/LiteRefs.ts"
import { ensureActive, type WikiCaller } from "../../actors/wiki/WikiAccess.ts"
import { WikiPage } from "../../actors/wiki/WikiPage.ts"
import type { PageRow } from "../../actors/wiki/WikiRecords.ts"
import { WikiSpace } from "../../actors/wiki/WikiSpace.ts"
import { Markdown, PageTitle } from "../../actors/wiki/WikiViews.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { reject } from "../../runtime/Rejection.ts"
import { tagGroup } from "../Operation.ts"
import { callerFrom } from "./WikiSpaces.ts"
import { wikiPagesLiteExamples } from "./WikiPagesLite.examples.ts"

const PageRef = Schema.String.check(Schema.isMaxLength(255), Schema.isPattern(/\S/, { expected: "a slug or a title" })).annotate({
  description: "The page's slug (e.g. laptop-setup) or its exact title (case-insensitive)",
  examples: ["laptop-setup"]
})

// A key that cannot exist is simply not found (404), like any other unknown key.
const SpaceKeyRef = Schema.String.check(Schema.isMaxLength(64), Schema.isPattern(/\S/, { expected: "a space key" })).annotate({
  description: "The space's key (case-insensitive), e.g. ENG",
  examples: ["ENG"]
})
const SpaceRefParams = Schema.Struct({ spaceKey: SpaceKeyRef })
const PageRefParams = Schema.Struct({ spaceKey: SpaceKeyRef, pageRef: PageRef })
const WorkspaceQuery = Schema.Struct({
  workspaceId: Schema.optionalKey(
    Id.annotate({ description: "Needed only when several of your workspaces have a space with this key (API keys never need it)" })
  )
})

const LitePage = Schema.Struct({
  id: Id,
  spaceKey: Schema.String,
  slug: Schema.String,
  title: Schema.String,
  parentSlug: Schema.NullOr(Schema.String),
  path: Schema.Array(Schema.String).annotate({ description: "Titles from the top level down to the page" }),
  childSlugs: Schema.Array(Schema.String),
  markdown: Schema.String,
  access: Schema.Literals(["edit", "read"]),
  updatedAt: Timestamp
}).annotate({ identifier: "WikiLitePage" })

const OutlineItem = Schema.Struct({
  slug: Schema.String,
  title: Schema.String,
  parentSlug: Schema.NullOr(Schema.String),
  depth: Schema.Number.annotate({ description: "0 for top-level pages" }),
  updatedAt: Timestamp
}).annotate({ identifier: "WikiLiteOutlineItem" })

const liteOf = (live: LivePages, page: PageRow, right: string) =>
  Effect.gen(function* () {
    const byId = new Map(live.pages.map(({ page: p }) => [p.id, p] as const))
    const path: Array<string> = []
    for (
      let at: PageRow | undefined = page;
      at !== undefined && path.length < 1000;
      at = at.parentId === null ? undefined : byId.get(at.parentId)
    )
      path.unshift(at.title)
    const snapshot = yield* (yield* LiveDocuments).snapshot(page.id)
    return {
      id: page.id,
      spaceKey: live.access.space.key,
      slug: page.slug,
      title: page.title,
      parentSlug: page.parentId === null ? null : (byId.get(page.parentId)?.slug ?? null),
      path,
      childSlugs: live.pages
        .filter(({ page: p }) => p.parentId === page.id)
        .sort((a, b) => a.page.position - b.page.position)
        .map(({ page: p }) => p.slug),
      markdown: snapshot.markdown,
      access: right === "edit" ? ("edit" as const) : ("read" as const),
      updatedAt: page.updatedAt
    }
  })

/** The space's live pages and the one `ref` names, editable by the caller. */
const editable = (caller: WikiCaller, spaceKey: string, pageRef: string, workspaceId: string | undefined) =>
  Effect.gen(function* () {
    const access = yield* spaceByRef(caller, spaceKey, workspaceId)
    const live = yield* livePages(caller, access)
    const found = yield* pageByRef(live, pageRef, "path.pageRef")
    if (found.right !== "edit") return yield* reject("forbidden", "You may read this page but not change it")
    yield* ensureActive(access.space)
    return { live, page: found.page }
  })

/** Re-reads the page after a write and answers it in Lite form. */
const reread = (caller: WikiCaller, spaceKey: string, pageId: string, workspaceId: string) =>
  Effect.gen(function* () {
    const live = yield* livePages(caller, yield* spaceByRef(caller, spaceKey, workspaceId))
    const found = live.pages.find(({ page }) => page.id === pageId)
    if (found === undefined) return yield* reject("not_found", "The page is no longer visible")
    return yield* liteOf(live, found.page, found.right)
  })

const convert = (markdown: string, field: string) =>
  Effect.try({
    try: () => markdownToDoc(markdown),
    catch: (error) =>
      reject("invalid", `Invalid ${field}: ${(error as Error).message}`, [{ path: field, message: (error as Error).message }])
  })

const { operation } = tagGroup("wiki", "Wiki Pages (Lite)", wikiPagesLiteExamples)

export const wikiPagesLiteOperations = [
  operation({
    operationId: "listWikiPagesLite",
    mcp: { tool: "listWikiPages" },
    method: "GET",
    path: "/v1/lite/spaces/{spaceKey}/pages",
    summary: "Outline of a space by key: every page's slug, title, parent and depth, in tree order",
    auth: "both",
    scopes: ["wiki:read"],
    params: SpaceRefParams,
    query: WorkspaceQuery,
    responses: {
      200: {
        description: "Outline",
        schema: Schema.Struct({
          space: Schema.Struct({ key: Schema.String, name: Schema.String, workspaceId: Id }),
          items: Schema.Array(OutlineItem)
        }).annotate({ identifier: "WikiLiteOutline" })
      }
    },
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        const access = yield* spaceByRef(caller, params.spaceKey, query.workspaceId)
        const live = yield* livePages(caller, access)
        const rows = live.pages.map(({ page }) => page)
        const slugOf = new Map(rows.map((page) => [page.id, page.slug] as const))
        const items: Array<typeof OutlineItem.Type> = []
        const walk = (parentId: string | null, depth: number) => {
          for (const page of rows
            .filter((p) => p.parentId === parentId)
            .sort((a, b) => a.position - b.position || a.createdAt.localeCompare(b.createdAt))) {
            items.push({
              slug: page.slug,
              title: page.title,
              parentSlug: parentId === null ? null : (slugOf.get(parentId) ?? null),
              depth,
              updatedAt: page.updatedAt
            })
            if (depth < 100) walk(page.id, depth + 1)
          }
        }
        walk(null, 0)
        return { space: { key: access.space.key, name: access.space.name, workspaceId: access.space.workspaceId }, items }
      })
  }),
  operation({
    operationId: "getWikiPageLite",
    mcp: { tool: "readWikiPage" },
    method: "GET",
    path: "/v1/lite/spaces/{spaceKey}/pages/{pageRef}",
    summary: "Read a page by space key and slug or title, as Markdown",
    auth: "both",
    scopes: ["wiki:read"],
    params: PageRefParams,
    query: WorkspaceQuery,
    responses: {
      200: { description: "The page", schema: LitePage },
      404: { description: "No such space or page" },
      409: { description: "The title names several pages: use the slug" }
    },
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        const live = yield* livePages(caller, yield* spaceByRef(caller, params.spaceKey, query.workspaceId))
        const found = yield* pageByRef(live, params.pageRef, "path.pageRef")
        return yield* liteOf(live, found.page, found.right)
      })
  }),
  operation({
    operationId: "createWikiPageLite",
    mcp: { tool: "createWikiPage" },
    method: "POST",
    path: "/v1/lite/spaces/{spaceKey}/pages",
    summary: "Create a page from Markdown in a space given by key, under a parent given by slug or title",
    auth: "both",
    scopes: ["wiki:write"],
    params: SpaceRefParams,
    query: WorkspaceQuery,
    body: Schema.Struct({
      title: PageTitle,
      markdown: Schema.optionalKey(Markdown),
      parent: Schema.optionalKey(PageRef.annotate({ description: "Slug or title of the parent page; omitted = top level" }))
    }),
    responses: { 201: { description: "Created", schema: LitePage } },
    handler: ({ params, query, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        const access = yield* spaceByRef(caller, params.spaceKey, query.workspaceId)
        if (access.role === "viewer") return yield* reject("forbidden", "Requires the editor role in this space")
        yield* ensureActive(access.space)
        const live = yield* livePages(caller, access)
        let parentId: string | null = null
        if (body.parent !== undefined) {
          const parent = yield* pageByRef(live, body.parent, "body.parent")
          if (parent.right !== "edit")
            return yield* reject("forbidden", "You may not add pages under this parent", [
              { path: "body.parent", message: "read-only for you" }
            ])
          parentId = parent.page.id
        }
        const doc = body.markdown === undefined ? undefined : yield* convert(body.markdown, "body.markdown")
        const actors = yield* ActorSystem
        const page = yield* actors.ask(WikiSpace, access.space.id, "createPage", {
          by: caller.userId,
          pageId: randomUUID(),
          parentId,
          title: body.title,
          icon: null,
          coverImage: null,
          index: null
        })
        if (doc !== undefined)
          yield* actors.ask(WikiPage, page.id, "setContent", { by: caller.userId, content: doc, mode: "replace", reason: "created" })
        return yield* reread(caller, access.space.key, page.id, access.space.workspaceId)
      })
  }),
  operation({
    operationId: "updateWikiPageLite",
    mcp: { tool: "updateWikiPage" },
    method: "PATCH",
    path: "/v1/lite/spaces/{spaceKey}/pages/{pageRef}",
    summary: "Rename a page and/or replace its content with Markdown",
    description: "Connected editors see the new content at once; the change is kept as a version. The slug follows a new title.",
    auth: "both",
    scopes: ["wiki:write"],
    params: PageRefParams,
    query: WorkspaceQuery,
    body: Schema.Struct({ title: Schema.optionalKey(PageTitle), markdown: Schema.optionalKey(Markdown) }),
    responses: { 200: { description: "The page", schema: LitePage } },
    handler: ({ params, query, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        const { live, page } = yield* editable(caller, params.spaceKey, params.pageRef, query.workspaceId)
        const doc = body.markdown === undefined ? undefined : yield* convert(body.markdown, "body.markdown")
        const actors = yield* ActorSystem
        if (body.title !== undefined) yield* actors.ask(WikiPage, page.id, "update", { by: caller.userId, title: body.title })
        if (doc !== undefined)
          yield* actors.ask(WikiPage, page.id, "setContent", { by: caller.userId, content: doc, mode: "replace", reason: "edited" })
        return yield* reread(caller, live.access.space.key, page.id, live.access.space.workspaceId)
      })
  }),
  operation({
    operationId: "appendWikiPageLite",
    mcp: { tool: "appendToWikiPage" },
    method: "POST",
    path: "/v1/lite/spaces/{spaceKey}/pages/{pageRef}/append",
    summary: "Append Markdown at the end of a page",
    description: "The blocks are added after what is there (including what editors are typing right now), without rewriting it.",
    auth: "both",
    scopes: ["wiki:write"],
    params: PageRefParams,
    query: WorkspaceQuery,
    body: Schema.Struct({ markdown: Markdown.check(Schema.isPattern(/\S/, { expected: "some Markdown" })) }),
    responses: { 200: { description: "The page", schema: LitePage } },
    handler: ({ params, query, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        const { live, page } = yield* editable(caller, params.spaceKey, params.pageRef, query.workspaceId)
        const doc = yield* convert(body.markdown, "body.markdown")
        yield* (yield* ActorSystem).ask(WikiPage, page.id, "setContent", {
          by: caller.userId,
          content: doc,
          mode: "append",
          reason: "edited"
        })
        return yield* reread(caller, live.access.space.key, page.id, live.access.space.workspaceId)
      })
  })
]
