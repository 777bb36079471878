/**
 * wiki tag "Wiki Export" (5): a page as Markdown, HTML or JSON (downloads),
 * and a whole space as a zip of Markdown or HTML files, built by a background
 * export job whose status (and, once done, the zip) the requester fetches.
 * Exports contain only what the caller may read; the workspace may turn
 * exports off (Wiki Settings).
 */
import { Effect, Schema } from "effect"
import { Id } from "../../actors/Fields.ts"
import { BooleanParam } from "../../actors/wiki/DiscoveryViews.ts"
import {
  ExportFormat,
  ExportJob,
  exportJobById,
  exportZip,
  htmlDocument,
  jobView,
  markdownDocument,
  startSpaceExport
} from "../../actors/wiki/SpaceExport.ts"
import { readerOf } from "../../actors/wiki/VisiblePages.ts"
import { callerOf, pageAccess, spaceAccess } from "../../actors/wiki/WikiAccess.ts"
import { wikiSettingsOf } from "../../actors/wiki/WikiSettings.ts"
import { ProseMirrorNode } from "../../actors/wiki/WikiViews.ts"
import { LiveDocuments } from "../../actors/LiveDocuments.ts"
import { reject } from "../../runtime/Rejection.ts"
import { principalOf } from "../Access.ts"
import { raw, type RequestContext, tagGroup } from "../Operation.ts"
import { wikiExportExamples } from "./WikiExport.examples.ts"

const PageParams = Schema.Struct({ pageId: Id })

const exportsAllowed = (workspaceId: string) =>
  Effect.flatMap(wikiSettingsOf(workspaceId).pipe(Effect.orDie), (settings) =>
    settings.allowExports ? Effect.void : Effect.fail(reject("forbidden", "Exports are turned off for this workspace (see Wiki Settings)"))
  )

/** A page the caller may read, in a workspace that allows exports, with its current content. */
const exportedPage = (context: RequestContext, pageId: string) =>
  Effect.gen(function* () {
    const caller = callerOf(yield* principalOf(context))
    const access = yield* pageAccess(caller, pageId)
    yield* exportsAllowed(access.page.workspaceId)
    const snapshot = yield* (yield* LiveDocuments).snapshot(pageId)
    return { ...access, snapshot }
  })

/** `Content-Disposition` naming the download after the page (ASCII fallback, UTF-8 name). */
const attachment = (name: string, extension: string) => {
  const file = `${name.replace(/[\\/:*?"<>|\u0000-\u001f]+/g, "-").slice(0, 100) || "page"}.${extension}`
  return `attachment; filename="${file.replace(/[^\x20-\x7e]/g, "_").replace(/"/g, "'")}"; filename*=UTF-8''${encodeURIComponent(file)}`
}

const PageExport = Schema.Struct({
  format: Schema.Literal("atrium.wiki.page"),
  version: Schema.Literal(1),
  exportedAt: Schema.String,
  page: Schema.Struct({
    id: Schema.String,
    spaceId: Schema.String,
    spaceKey: Schema.String,
    parentId: Schema.NullOr(Schema.String),
    title: Schema.String,
    slug: Schema.String,
    icon: Schema.NullOr(Schema.String),
    coverImage: Schema.NullOr(Schema.String),
    createdBy: Schema.String,
    createdAt: Schema.String,
    updatedBy: Schema.String,
    updatedAt: Schema.String
  }),
  content: ProseMirrorNode,
  markdown: Schema.String,
  text: Schema.String
}).annotate({ identifier: "WikiPageExport" })

const { operation } = tagGroup("wiki", "Wiki Export", wikiExportExamples)

export const wikiExportOperations = [
  operation({
    operationId: "exportWikiPageMarkdown",
    method: "GET",
    path: "/v1/pages/{pageId}/export/markdown",
    summary: "Download a page as Markdown",
    description: "GitHub-flavoured Markdown, the title as a level-1 heading first (importing the file gives the page back).",
    auth: "both",
    scopes: ["wiki:read"],
    params: PageParams,
    responses: { 200: { description: "The page as a .md file", contentType: "text/markdown; charset=utf-8" } },
    handler: ({ params }, context) =>
      Effect.map(exportedPage(context, params.pageId), ({ page, snapshot }) =>
        raw("text/markdown; charset=utf-8", markdownDocument(page.title, snapshot.markdown), {
          "content-disposition": attachment(page.slug, "md")
        })
      )
  }),
  operation({
    operationId: "exportWikiPageHtml",
    method: "GET",
    path: "/v1/pages/{pageId}/export/html",
    summary: "Download a page as a standalone HTML document",
    auth: "both",
    scopes: ["wiki:read"],
    params: PageParams,
    responses: { 200: { description: "The page as an .html file", contentType: "text/html; charset=utf-8" } },
    handler: ({ params }, context) =>
      Effect.map(exportedPage(context, params.pageId), ({ page, snapshot }) =>
        raw("text/html; charset=utf-8", htmlDocument(page.title, snapshot.html), { "content-disposition": attachment(page.slug, "html") })
      )
  }),
  operation({
    operationId: "exportWikiPageJson",
    method: "GET",
    path: "/v1/pages/{pageId}/export/json",
    summary: "Export a page as JSON: its metadata and ProseMirror content",
    description: "Lossless: the ProseMirror JSON of the editor, with Markdown and plain text beside it.",
    auth: "both",
    scopes: ["wiki:read"],
    params: PageParams,
    responses: { 200: { description: "The page", schema: PageExport } },
    handler: ({ params }, context) =>
      Effect.map(exportedPage(context, params.pageId), ({ page, space, snapshot }) => ({
        format: "atrium.wiki.page" as const,
        version: 1 as const,
        exportedAt: new Date().toISOString(),
        page: {
          id: page.id,
          spaceId: page.spaceId,
          spaceKey: space.key,
          parentId: page.parentId,
          title: page.title,
          slug: page.slug,
          icon: page.icon,
          coverImage: page.coverImage,
          createdBy: page.createdBy,
          createdAt: page.createdAt,
          updatedBy: page.updatedBy,
          updatedAt: page.updatedAt
        },
        content: snapshot.content,
        markdown: snapshot.markdown,
        text: snapshot.text
      }))
  }),
  operation({
    operationId: "exportWikiSpace",
    method: "POST",
    path: "/v1/spaces/{spaceId}/export",
    summary: "Start exporting a whole space as a zip (background job)",
    description:
      "Answers 202 with the job at once; poll getWikiExport until it succeeded, then download the zip from its downloadUrl. " +
      "The zip holds one Markdown or HTML file per page the caller may read, in folders following the page tree, an index and a space.json manifest.",
    auth: "both",
    scopes: ["wiki:read"],
    params: Schema.Struct({ spaceId: Id }),
    body: Schema.Struct({ format: ExportFormat }),
    responses: { 202: { description: "The export job, queued", schema: ExportJob }, 409: { description: "The space is archived" } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = callerOf(yield* principalOf(context))
        const access = yield* spaceAccess(caller, params.spaceId)
        if (access.space.archivedAt !== null) return yield* reject("conflict", "The space is archived; restore it first")
        yield* exportsAllowed(access.space.workspaceId)
        const reader = yield* readerOf(caller, access.space.workspaceId)
        const row = yield* startSpaceExport(reader, access.space, body.format).pipe(Effect.orDie)
        return jobView(row, context.origin)
      })
  }),
  operation({
    operationId: "getWikiExport",
    method: "GET",
    path: "/v1/exports/{exportId}",
    summary: "An export job's status, or its zip with download=true",
    description:
      "Only the member who started the export sees it. With `download=true` the finished zip is sent (application/zip); 409 while the job is not finished.",
    auth: "both",
    scopes: ["wiki:read"],
    params: Schema.Struct({ exportId: Id }),
    query: Schema.Struct({ download: Schema.optionalKey(BooleanParam) }),
    responses: {
      200: {
        description: "The job (or, with download=true, the zip as application/zip)",
        contentType: ["application/json", "application/zip"],
        schema: ExportJob
      },
      409: { description: "download=true before the job succeeded" }
    },
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        const caller = callerOf(yield* principalOf(context))
        const row = yield* exportJobById(params.exportId).pipe(Effect.orDie)
        if (row === undefined || row.requested_by !== caller.userId) return yield* reject("not_found", "No such export")
        yield* readerOf(caller, row.workspace_id).pipe(Effect.mapError(() => reject("not_found", "No such export")))
        if (query.download !== "true") return jobView(row, context.origin)
        const zip = yield* exportZip(row)
        const space = yield* spaceAccess(caller, row.space_id).pipe(Effect.mapError(() => reject("not_found", "No such export")))
        return raw("application/zip", zip, {
          "content-disposition": attachment(`${space.space.key.toLowerCase()}-${row.format}-export`, "zip")
        })
      })
  })
]
