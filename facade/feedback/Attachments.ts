/**
 * feedback tag "Attachment Resource" (4): files on a feature request —
 * upload (raw body, size limit, content type checked against the bytes, the
 * bytes in the blob store), list, download, delete (the uploader or a board
 * admin). Anyone who may see the request may read its files and, unless it is
 * locked or merged, add one.
 */
import { randomUUID } from "node:crypto"
import { Effect, Schema } from "effect"
import { Id, Timestamp } from "../../actors/Fields.ts"
import type { AttachmentRecord } from "../../actors/feedback/Discussion.ts"
import { attachmentById, attachmentsOf } from "../../actors/feedback/RequestQueries.ts"
import { attachmentTypes, inlineSafe, MAX_ATTACHMENT_BYTES, matchesContentType, safeFilename } from "../../actors/wiki/PageAttachments.ts"
import { attachmentKey, dropFiles, readFile, storeFile } from "../../actors/feedback/AttachmentFiles.ts"
import { reject } from "../../runtime/Rejection.ts"
import { refusalCode } from "../HttpError.ts"
import { raw, type RequestContext, tagGroup } from "../Operation.ts"
import { board, FeatureRequestParams } from "./BoardAsk.ts"
import { requestAccess } from "./FeedbackAccess.ts"
import { names, Person, service } from "./FeedbackViews.ts"
import { attachmentsExamples } from "./Attachments.examples.ts"
const AttachmentParams = Schema.Struct({ attachmentId: Id })

const Attachment = Schema.Struct({
  id: Id,
  featureRequestId: Id,
  filename: Schema.String,
  contentType: Schema.String,
  size: Schema.Number,
  uploadedBy: Person,
  createdAt: Timestamp,
  url: Schema.String.annotate({ description: "Where to download it (same credentials)" })
}).annotate({ identifier: "FeedbackAttachment" })
type Attachment = typeof Attachment.Type

const viewsOf = (records: ReadonlyArray<AttachmentRecord>) =>
  Effect.map(names(records.map((r) => r.uploadedBy)), (person) =>
    records.map(
      (r): Attachment => ({
        id: r.id,
        featureRequestId: r.requestId,
        filename: r.filename,
        contentType: r.contentType,
        size: r.size,
        uploadedBy: person(r.uploadedBy)!,
        createdAt: r.createdAt,
        url: `/feedback/v1/attachments/${r.id}/content`
      })
    )
  )

/** The attachment and the caller's access to its request (404 when they may not see it). */
const attachmentAccess = (context: RequestContext, attachmentId: string) =>
  Effect.gen(function* () {
    const attachment = yield* Effect.orDie(attachmentById(attachmentId))
    if (attachment === undefined) return yield* reject("not_found", "No such attachment")
    const access = yield* requestAccess(context, attachment.requestId).pipe(
      Effect.catchIf(
        (e) => refusalCode(e) === "not_found",
        () => Effect.fail(reject("not_found", "No such attachment"))
      )
    )
    return { attachment, ...access }
  })

const { operation } = tagGroup(service, "Attachment Resource", attachmentsExamples)

export const attachmentOperations = [
  operation({
    operationId: "uploadFeatureRequestAttachment",
    method: "POST",
    path: "/v1/feature-requests/{featureRequestId}/attachments",
    summary: "Attach a file to a feature request (the request body is the file)",
    description: `Send the bytes with their Content-Type (${attachmentTypes.join(", ")}); at most ${MAX_ATTACHMENT_BYTES / (1024 * 1024)} MiB; the bytes must match the type. Name it with \`filename\`.`,
    auth: "both",
    scopes: ["feedback:write"],
    params: FeatureRequestParams,
    query: Schema.Struct({ filename: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(255))) }),
    upload: { contentTypes: attachmentTypes, maxBytes: MAX_ATTACHMENT_BYTES },
    responses: {
      201: { description: "Attached", schema: Attachment },
      413: { description: "Too large" },
      415: { description: "Content type not accepted, or the bytes are not of that type" }
    },
    handler: ({ params, query, upload }, context) =>
      Effect.gen(function* () {
        const { caller, boardId } = yield* requestAccess(context, params.featureRequestId)
        if (upload === undefined)
          return yield* reject("invalid", "Send the file as the request body", [{ path: "body", message: "missing" }])
        if (!matchesContentType(upload.contentType, upload.bytes)) {
          return yield* reject("unsupported_media_type", `The file is not ${upload.contentType}`, [
            { path: "body", message: `content does not match ${upload.contentType}` }
          ])
        }
        const id = randomUUID()
        const blobKey = attachmentKey(caller.view.board.workspaceId, id)
        yield* storeFile(blobKey, upload.bytes, upload.contentType)
        const record = yield* board(boardId)
          .addAttachment({
            by: caller.userId,
            id,
            requestId: params.featureRequestId,
            filename: safeFilename(query.filename, upload.contentType),
            contentType: upload.contentType,
            size: upload.bytes.length,
            blobKey
          })
          .pipe(Effect.tapError(() => dropFiles([blobKey])))
        return (yield* viewsOf([record]))[0]!
      })
  }),
  operation({
    operationId: "listFeatureRequestAttachments",
    method: "GET",
    path: "/v1/feature-requests/{featureRequestId}/attachments",
    summary: "A feature request's files, oldest first",
    auth: "both",
    scopes: ["feedback:read"],
    params: FeatureRequestParams,
    responses: {
      200: {
        description: "Files",
        schema: Schema.Struct({ items: Schema.Array(Attachment) }).annotate({ identifier: "FeedbackAttachmentList" })
      }
    },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* requestAccess(context, params.featureRequestId)
        return { items: yield* viewsOf(yield* Effect.orDie(attachmentsOf(params.featureRequestId))) }
      })
  }),
  operation({
    operationId: "downloadFeedbackAttachment",
    method: "GET",
    path: "/v1/attachments/{attachmentId}/content",
    summary: "Download a file attached to a feature request",
    description: "Images (except SVG) are served inline, everything else as a download.",
    auth: "both",
    scopes: ["feedback:read"],
    params: AttachmentParams,
    responses: {
      200: { description: "The file, with the type it was uploaded with", contentType: attachmentTypes, schema: Schema.Unknown },
      404: { description: "No such attachment" }
    },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const { attachment } = yield* attachmentAccess(context, params.attachmentId)
        const blob = yield* readFile(attachment.blobKey)
        if (blob === undefined) return yield* reject("not_found", "The attachment's file is gone")
        const ascii = attachment.filename.replace(/[^\x20-\x7e]|["\\]/g, "_")
        return raw(attachment.contentType, blob.bytes, {
          "content-disposition": `${inlineSafe(attachment.contentType) ? "inline" : "attachment"}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(attachment.filename)}`,
          "x-content-type-options": "nosniff",
          "content-security-policy": "sandbox; default-src 'none'; style-src 'unsafe-inline'",
          "cache-control": "private, max-age=300"
        })
      })
  }),
  operation({
    operationId: "deleteFeedbackAttachment",
    method: "DELETE",
    path: "/v1/attachments/{attachmentId}",
    summary: "Delete a file (its uploader or a board admin)",
    auth: "both",
    scopes: ["feedback:write"],
    params: AttachmentParams,
    responses: { 204: { description: "Deleted" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const { attachment, caller, boardId } = yield* attachmentAccess(context, params.attachmentId)
        if (attachment.uploadedBy !== caller.userId && !caller.admin)
          return yield* reject("forbidden", "Only the uploader or a board admin may delete a file")
        const removed = yield* board(boardId).removeAttachment({ by: caller.userId, attachmentId: attachment.id })
        yield* dropFiles([removed.blobKey])
      })
  })
]
