/**
 * wiki tag "Wiki Import" (2): pages from files — one Markdown or HTML file
 * becomes one page; a zip of Markdown/HTML files becomes a page tree (a
 * space export zip imports back as it was). Needs the editor role in the
 * space (and edit rights on the parent page); the workspace may turn imports off.
 */
import { Effect, Schema } from "effect"
import { Id } from "../../actors/Fields.ts"

import {
  formatOfContentType,
  HTML_TYPES,
  importFile,
  importZip,
  MARKDOWN_TYPES,
  MAX_FILE_BYTES,
  MAX_ZIP_BYTES,
  ZIP_TYPES
} from "../../actors/wiki/PageImport.ts"
import { callerOf, ensureActive, pageAccess, spaceAccess } from "../../actors/wiki/WikiAccess.ts"
import { wikiSettingsOf } from "../../actors/wiki/WikiSettings.ts"
import { PageTitle } from "../../actors/wiki/WikiViews.ts"
import { reject } from "../../runtime/Rejection.ts"
import { principalOf } from "../Access.ts"
import { type RequestContext, tagGroup } from "../Operation.ts"
import { wikiImportExamples } from "./WikiImport.examples.ts"

const ImportedPage = Schema.Struct({
  id: Schema.String,
  title: Schema.String,
  parentId: Schema.NullOr(Schema.String),
  source: Schema.String.annotate({ description: "The file (or folder) it came from" })
}).annotate({ identifier: "WikiImportedPage" })

const ParentQuery = Schema.optionalKey(Id.annotate({ description: "Create the page(s) under this page (default: the space's top level)" }))

/** The space and parent the caller may import into. */
const importTarget = (context: RequestContext, spaceId: string, parentPageId: string | undefined) =>
  Effect.gen(function* () {
    const caller = callerOf(yield* principalOf(context))
    const access = yield* spaceAccess(caller, spaceId, "editor")
    yield* ensureActive(access.space)
    const settings = yield* wikiSettingsOf(access.space.workspaceId).pipe(Effect.orDie)
    if (!settings.allowImports) return yield* reject("forbidden", "Imports are turned off for this workspace (see Wiki Settings)")
    if (parentPageId !== undefined) {
      const parent = yield* pageAccess(caller, parentPageId, "edit").pipe(
        Effect.mapError((error) =>
          reject(error.code, `Parent page: ${error.message}`, [{ path: "query.parentPageId", message: error.message }])
        )
      )
      if (parent.space.id !== spaceId) {
        return yield* reject("not_found", "The parent page is in another space", [
          { path: "query.parentPageId", message: "not in this space" }
        ])
      }
      yield* ensureActive(parent.space, parent.page)
    }
    return { caller, space: access.space }
  })

const { operation } = tagGroup("wiki", "Wiki Import", wikiImportExamples)

export const wikiImportOperations = [
  operation({
    operationId: "importWikiPage",
    method: "POST",
    path: "/v1/spaces/{spaceId}/import",
    summary: "Import a Markdown or HTML file as a new page",
    description:
      "Send the file as the request body with its Content-Type (text/markdown, text/plain or text/html; UTF-8). " +
      "The title is `title` if given, else the file's leading level-1 heading (or HTML <title>), else `filename` without its extension.",
    auth: "both",
    scopes: ["wiki:write"],
    params: Schema.Struct({ spaceId: Id }),
    query: Schema.Struct({
      parentPageId: ParentQuery,
      title: Schema.optionalKey(PageTitle),
      filename: Schema.optionalKey(
        Schema.String.check(Schema.isMaxLength(255)).annotate({ description: "The original file name (for the title)" })
      )
    }),
    upload: { contentTypes: [...MARKDOWN_TYPES, ...HTML_TYPES], maxBytes: MAX_FILE_BYTES },
    responses: {
      201: { description: "The new page", schema: Schema.Struct({ page: ImportedPage }).annotate({ identifier: "WikiImportedFile" }) },
      415: { description: "Not Markdown or HTML" }
    },
    handler: ({ params, query, upload }, context) =>
      Effect.gen(function* () {
        const { caller, space } = yield* importTarget(context, params.spaceId, query.parentPageId)
        const page = yield* importFile({
          by: caller.userId,
          spaceId: space.id,
          parentId: query.parentPageId ?? null,
          format: formatOfContentType(upload!.contentType),
          bytes: upload!.bytes,
          title: query.title,
          fileName: query.filename
        })
        return { page }
      })
  }),
  operation({
    operationId: "importWikiZip",
    method: "POST",
    path: "/v1/spaces/{spaceId}/import/zip",
    summary: "Import a zip of Markdown/HTML files as a page tree",
    description:
      "Send the zip as the request body (application/zip). Each .md/.markdown/.txt/.html file becomes a page; a folder beside a file of the same name " +
      `holds its subpages; a folder without one becomes an empty page. Other files are listed as skipped. At most ${MAX_ZIP_BYTES / 1024 / 1024} MB, 500 pages.`,
    auth: "both",
    scopes: ["wiki:write"],
    params: Schema.Struct({ spaceId: Id }),
    query: Schema.Struct({ parentPageId: ParentQuery }),
    upload: { contentTypes: [...ZIP_TYPES], maxBytes: MAX_ZIP_BYTES },
    responses: {
      201: {
        description: "The pages created (parents before children) and the files skipped",
        schema: Schema.Struct({
          pages: Schema.Array(ImportedPage),
          skipped: Schema.Array(Schema.Struct({ file: Schema.String, reason: Schema.String }))
        }).annotate({ identifier: "WikiImportedZip" })
      },
      400: { description: "Not a readable zip, or no Markdown/HTML file in it" }
    },
    handler: ({ params, query, upload }, context) =>
      Effect.gen(function* () {
        const { caller, space } = yield* importTarget(context, params.spaceId, query.parentPageId)
        return yield* importZip({ by: caller.userId, spaceId: space.id, parentId: query.parentPageId ?? null, bytes: upload!.bytes })
      })
  })
]
