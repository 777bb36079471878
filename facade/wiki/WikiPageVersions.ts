/**
 * wiki tag "Wiki Page Versions" (4): a page's version history, one
 * version's content, a version compared with the page as it is now, and
 * restoring a version — itself a new version, applied to the live document
 * so connected editors converge on it at once.
 */
import { Effect, Schema } from "effect"
import { LiveDocuments } from "../../actors/LiveDocuments.ts"
import { Id, Timestamp } from "../../actors/Fields.ts"
import { readPage } from "../../actors/wiki/PageContent.ts"
import { versionContent, versionsOf, WikiPageVersionView } from "../../actors/wiki/PageVersions.ts"
import { diffLines } from "../../actors/wiki/TextDiff.ts"
import { ensureActive, pageAccess } from "../../actors/wiki/WikiAccess.ts"
import { WikiPage } from "../../actors/wiki/WikiPage.ts"
import { ProseMirrorNode, WikiPageView } from "../../actors/wiki/WikiViews.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { reject } from "../../runtime/Rejection.ts"
import { tagGroup } from "../Operation.ts"
import { PageParams } from "./WikiPages.ts"
import { callerFrom } from "./WikiSpaces.ts"
import { wikiPageVersionsExamples } from "./WikiPageVersions.examples.ts"

const VersionParams = Schema.Struct({ pageId: Id, versionId: Id })

const VersionWithContent = Schema.Struct({
  ...WikiPageVersionView.fields,
  content: ProseMirrorNode,
  text: Schema.String,
  markdown: Schema.String
}).annotate({ identifier: "WikiPageVersionContent" })

const DiffBlock = Schema.Struct({
  type: Schema.Literals(["equal", "removed", "added"]),
  lines: Schema.Array(Schema.String),
  skipped: Schema.optionalKey(Schema.Number.annotate({ description: "Unchanged lines left out of an equal block (beyond the context)" }))
}).annotate({ identifier: "WikiDiffBlock" })

const VersionDiff = Schema.Struct({
  pageId: Id,
  from: Schema.Struct({ versionId: Id, number: Schema.Number, createdAt: Timestamp }),
  to: Schema.Literal("current"),
  title: Schema.NullOr(Schema.Struct({ from: Schema.String, to: Schema.String })).annotate({ description: "Set when the title changed" }),
  added: Schema.Number.annotate({ description: "Lines added since the version" }),
  removed: Schema.Number.annotate({ description: "Lines removed since the version" }),
  blocks: Schema.Array(DiffBlock)
}).annotate({ identifier: "WikiPageVersionDiff", description: "Line diff of the Markdown of a version against the page now" })

const versionOf = (pageId: string, id: string) =>
  Effect.flatMap(Effect.orDie(versionContent(pageId, id)), (version) =>
    version === undefined ? Effect.fail(reject("not_found", "No such version of this page")) : Effect.succeed(version)
  )

const { operation } = tagGroup("wiki", "Wiki Page Versions", wikiPageVersionsExamples)

export const wikiPageVersionsOperations = [
  operation({
    operationId: "listWikiPageVersions",
    method: "GET",
    path: "/v1/pages/{pageId}/versions",
    summary: "A page's version history, newest first",
    description:
      "Versions are kept when a page is created with content, when its content changes through the API, when someone saves, when a version is restored, and every few minutes while people edit live. Page back with `before` (a version number).",
    auth: "both",
    scopes: ["wiki:read"],
    params: PageParams,
    query: Schema.Struct({
      limit: Schema.optionalKey(Schema.FiniteFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 200 }))),
      before: Schema.optionalKey(Schema.FiniteFromString.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(1)))
    }),
    responses: {
      200: {
        description: "Versions",
        schema: Schema.Struct({ items: Schema.Array(WikiPageVersionView) }).annotate({ identifier: "WikiPageVersionList" })
      }
    },
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        yield* pageAccess(caller, params.pageId)
        return { items: yield* Effect.orDie(versionsOf(params.pageId, query.limit ?? 50, query.before ?? null)) }
      })
  }),
  operation({
    operationId: "getWikiPageVersion",
    method: "GET",
    path: "/v1/pages/{pageId}/versions/{versionId}",
    summary: "One version of a page with its content (ProseMirror JSON, text and Markdown)",
    auth: "both",
    scopes: ["wiki:read"],
    params: VersionParams,
    responses: { 200: { description: "The version", schema: VersionWithContent }, 404: { description: "No such version" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        yield* pageAccess(caller, params.pageId)
        const version = yield* versionOf(params.pageId, params.versionId)
        return { ...version.record, content: version.content, text: version.text, markdown: version.markdown }
      })
  }),
  operation({
    operationId: "diffWikiPageVersion",
    method: "GET",
    path: "/v1/pages/{pageId}/versions/{versionId}/diff",
    summary: "Compare a version with the page as it is now (line diff of the Markdown)",
    description: "`context` sets how many unchanged lines are kept around each change (default 3).",
    auth: "both",
    scopes: ["wiki:read"],
    params: VersionParams,
    query: Schema.Struct({
      context: Schema.optionalKey(Schema.FiniteFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 0, maximum: 10000 })))
    }),
    responses: { 200: { description: "The differences", schema: VersionDiff } },
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        const access = yield* pageAccess(caller, params.pageId)
        const version = yield* versionOf(params.pageId, params.versionId)
        const now = yield* (yield* LiveDocuments).snapshot(params.pageId)
        const diff = diffLines(version.markdown, now.markdown, query.context ?? 3)
        return {
          pageId: params.pageId,
          from: { versionId: version.record.id, number: version.record.number, createdAt: version.record.createdAt },
          to: "current" as const,
          title: version.record.title === access.page.title ? null : { from: version.record.title, to: access.page.title },
          ...diff
        }
      })
  }),
  operation({
    operationId: "restoreWikiPageVersion",
    method: "POST",
    path: "/v1/pages/{pageId}/versions/{versionId}/restore",
    summary: "Bring a page back to a version (content and title)",
    description:
      'The restore is applied to the live document as one change, so connected editors see it at once, and is kept as a new version (reason "restored"); the history stays intact.',
    auth: "both",
    scopes: ["wiki:write"],
    params: VersionParams,
    responses: {
      200: {
        description: "The new version and the page as restored",
        schema: Schema.Struct({ version: WikiPageVersionView, page: WikiPageView }).annotate({ identifier: "WikiPageRestore" })
      },
      409: { description: "The page or its space is archived" }
    },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        const access = yield* pageAccess(caller, params.pageId, "edit")
        yield* ensureActive(access.space, access.page)
        const version = yield* (yield* ActorSystem).ask(WikiPage, params.pageId, "restoreVersion", {
          by: caller.userId,
          versionId: params.versionId
        })
        return { version, page: yield* readPage(yield* pageAccess(caller, params.pageId)) }
      })
  })
]
