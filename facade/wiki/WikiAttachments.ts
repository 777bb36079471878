/**
 * wiki tag "Wiki Attachments" (5): files on pages — upload (raw body, size
 * limit, content type checked against the bytes), list, describe, download
 * and delete. Bytes live in the BlobStore; uploading and deleting take edit
 * rights on the page, reading takes read rights.
 */
import { randomUUID } from "node:crypto"
import { Effect, Schema } from "effect"
import { readFile, removeFile, storeThen } from "../../actors/Files.ts"
import { usersByIds } from "../../actors/identity/IdentityQueries.ts"
import { Id, Timestamp } from "../../actors/Fields.ts"
import {
  type AttachmentRecord,
  attachmentById,
  attachmentsOfPage,
  attachmentTypes,
  inlineSafe,
  matchesContentType,
  MAX_ATTACHMENT_BYTES,
  safeFilename
} from "../../actors/wiki/PageAttachments.ts"
import { ensureActive, pageAccess, type WikiCaller } from "../../actors/wiki/WikiAccess.ts"
import { WikiPage } from "../../actors/wiki/WikiPage.ts"

import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { reject } from "../../runtime/Rejection.ts"
import { raw, tagGroup } from "../Operation.ts"
import { PageParams } from "./WikiPages.ts"
import { callerFrom } from "./WikiSpaces.ts"
import { wikiAttachmentsExamples } from "./WikiAttachments.examples.ts"

const AttachmentParams = Schema.Struct({ attachmentId: Id })

export const WikiAttachment = Schema.Struct({
  id: Id,
  pageId: Id,
  spaceId: Id,
  filename: Schema.String,
  contentType: Schema.String,
  size: Schema.Number.annotate({ description: "Bytes" }),
  uploadedBy: Schema.Struct({ userId: Id, name: Schema.String }),
  createdAt: Timestamp,
  url: Schema.String.annotate({ description: "Where to download it (same credentials)" }),
  reference: Schema.String.annotate({ description: "How to use it as a page cover: `attachment:<id>` (images only)" }),
  markdown: Schema.String.annotate({ description: "A Markdown snippet to embed or link it in a page" })
}).annotate({ identifier: "WikiAttachment" })
type WikiAttachment = typeof WikiAttachment.Type

const viewsOf = (records: ReadonlyArray<AttachmentRecord>) =>
  Effect.map(Effect.orDie(usersByIds([...new Set(records.map((r) => r.uploadedBy))])), (users) =>
    records.map((record): WikiAttachment => {
      const url = `/wiki/v1/attachments/${record.id}/content`
      const label = record.filename.replace(/[[\]]/g, "")
      return {
        id: record.id,
        pageId: record.pageId,
        spaceId: record.spaceId,
        filename: record.filename,
        contentType: record.contentType,
        size: record.size,
        uploadedBy: { userId: record.uploadedBy, name: users.get(record.uploadedBy)?.name ?? "" },
        createdAt: record.createdAt,
        url,
        reference: `attachment:${record.id}`,
        markdown: record.contentType.startsWith("image/") ? `![${label}](${url})` : `[${label}](${url})`
      }
    })
  )

/** The attachment and the caller's access to its page (404 when they may not read the page). */
const attachmentFor = (caller: WikiCaller, id: string, need: "read" | "edit" = "read") =>
  Effect.gen(function* () {
    const attachment = yield* Effect.orDie(attachmentById(id))
    if (attachment === undefined) return yield* reject("not_found", "No such attachment")
    const access = yield* pageAccess(caller, attachment.pageId, need).pipe(
      Effect.catchTag("Rejection", (error) => Effect.fail(error.code === "not_found" ? reject("not_found", "No such attachment") : error))
    )
    return { attachment, access }
  })

const { operation } = tagGroup("wiki", "Wiki Attachments", wikiAttachmentsExamples)

export const wikiAttachmentsOperations = [
  operation({
    operationId: "uploadWikiAttachment",
    method: "POST",
    path: "/v1/pages/{pageId}/attachments",
    summary: "Attach a file to a page (the request body is the file)",
    description: `Send the bytes as the body with their Content-Type (${attachmentTypes.join(", ")}); at most ${MAX_ATTACHMENT_BYTES / (1024 * 1024)} MiB. The bytes must match the type (checked). Name it with \`filename\`. Needs edit rights on the page.`,
    auth: "both",
    scopes: ["wiki:write"],
    params: PageParams,
    query: Schema.Struct({ filename: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(255))) }),
    upload: { contentTypes: attachmentTypes, maxBytes: MAX_ATTACHMENT_BYTES },
    responses: {
      201: { description: "Attached", schema: WikiAttachment },
      413: { description: "Too large" },
      415: { description: "Content type not accepted, or the bytes are not of that type" }
    },
    handler: ({ params, query, upload }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        const access = yield* pageAccess(caller, params.pageId, "edit")
        yield* ensureActive(access.space, access.page)
        if (upload === undefined)
          return yield* reject("invalid", "Send the file as the request body", [{ path: "body", message: "missing" }])
        if (!matchesContentType(upload.contentType, upload.bytes)) {
          return yield* reject("unsupported_media_type", `The file is not ${upload.contentType}`, [
            { path: "body", message: `content does not match ${upload.contentType}` }
          ])
        }
        const id = randomUUID()
        const blobKey = `wiki/attachments/${access.page.workspaceId}/${id}`
        const actors = yield* ActorSystem
        const record = yield* storeThen(
          blobKey,
          upload,
          actors.ask(WikiPage, params.pageId, "addAttachment", {
            by: caller.userId,
            attachmentId: id,
            filename: safeFilename(query.filename, upload.contentType),
            contentType: upload.contentType,
            size: upload.bytes.length,
            blobKey
          })
        )
        return (yield* viewsOf([record]))[0]!
      })
  }),
  operation({
    operationId: "listWikiAttachments",
    method: "GET",
    path: "/v1/pages/{pageId}/attachments",
    summary: "A page's attachments, oldest first",
    auth: "both",
    scopes: ["wiki:read"],
    params: PageParams,
    responses: {
      200: {
        description: "Attachments",
        schema: Schema.Struct({ items: Schema.Array(WikiAttachment) }).annotate({ identifier: "WikiAttachmentList" })
      }
    },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        yield* pageAccess(caller, params.pageId)
        return { items: yield* viewsOf(yield* Effect.orDie(attachmentsOfPage(params.pageId))) }
      })
  }),
  operation({
    operationId: "getWikiAttachment",
    method: "GET",
    path: "/v1/attachments/{attachmentId}",
    summary: "Describe an attachment",
    auth: "both",
    scopes: ["wiki:read"],
    params: AttachmentParams,
    responses: { 200: { description: "The attachment", schema: WikiAttachment }, 404: { description: "No such attachment" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        const { attachment } = yield* attachmentFor(caller, params.attachmentId)
        return (yield* viewsOf([attachment]))[0]!
      })
  }),
  operation({
    operationId: "downloadWikiAttachment",
    method: "GET",
    path: "/v1/attachments/{attachmentId}/content",
    summary: "Download an attachment's bytes",
    description: "Images (except SVG) are served inline, everything else as a download; `disposition=attachment` always downloads.",
    auth: "both",
    scopes: ["wiki:read"],
    params: AttachmentParams,
    query: Schema.Struct({ disposition: Schema.optionalKey(Schema.Literals(["inline", "attachment"])) }),
    responses: {
      200: {
        description: "The file, with the type it was uploaded with (a JSON file is any JSON)",
        contentType: attachmentTypes,
        schema: Schema.Unknown
      },
      404: { description: "No such attachment" }
    },
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        const { attachment } = yield* attachmentFor(caller, params.attachmentId)
        const blob = yield* readFile(attachment.blobKey)
        if (blob === undefined) return yield* reject("not_found", "The attachment's file is gone")
        const inline = query.disposition !== "attachment" && inlineSafe(attachment.contentType)
        const encoded = encodeURIComponent(attachment.filename)
        const ascii = attachment.filename.replace(/[^\x20-\x7e]|["\\]/g, "_")
        return raw(attachment.contentType, blob.bytes, {
          "content-disposition": `${inline ? "inline" : "attachment"}; filename="${ascii}"; filename*=UTF-8''${encoded}`,
          "x-content-type-options": "nosniff",
          "content-security-policy": "sandbox; default-src 'none'; style-src 'unsafe-inline'",
          "cache-control": "private, max-age=300",
          etag: `"${attachment.id}"`
        })
      })
  }),
  operation({
    operationId: "deleteWikiAttachment",
    method: "DELETE",
    path: "/v1/attachments/{attachmentId}",
    summary: "Delete an attachment (edit rights on its page)",
    description: "Pages using it as their cover lose the cover; links to it in page content stop working.",
    auth: "both",
    scopes: ["wiki:write"],
    params: AttachmentParams,
    responses: { 204: { description: "Deleted" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        const { attachment, access } = yield* attachmentFor(caller, params.attachmentId, "edit")
        yield* ensureActive(access.space, access.page)
        const blobKey = yield* (yield* ActorSystem).ask(WikiPage, attachment.pageId, "removeAttachment", {
          by: caller.userId,
          attachmentId: attachment.id
        })
        yield* removeFile(blobKey).pipe(
          Effect.catchTag("BlobError", (error) => Effect.logWarning(`wiki attachment blob ${blobKey} left behind: ${error.message}`))
        )
      })
  })
]
