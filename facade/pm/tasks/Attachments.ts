/**
 * Files attached to a task (bytes in the BlobStore).
 */
import { Effect, Schema } from "effect"
import { readFile, removeFile, storeThen } from "../../../actors/Files.ts"
import { Id, Name } from "../../../actors/Fields.ts"
import { Attachment, getAttachment, listAttachments } from "../../../actors/pm/TaskDiscussion.ts"
import { send } from "../../../actors/pm/WorkActor.ts"
import { PmTask } from "../../../actors/pm/WorkActors.ts"
import { Items } from "../../../actors/pm/WorkRecords.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { raw, tagGroup } from "../../Operation.ts"
import { onTask, orDieSql } from "../WorkAccess.ts"

import { taskCommand, tag, service, read, write, TaskParams } from "./shared.ts"
import { attachmentsExamples } from "./Attachments.examples.ts"

const AttachmentParams = Schema.Struct({ taskId: Id, attachmentId: Id })

/** What may be attached; a download is served with the type it was uploaded with. */
const ATTACHMENT_TYPES = ["image/*", "application/*", "text/*", "audio/*", "video/*", "font/*"]

const { operation } = tagGroup(service, tag, attachmentsExamples)

export const taskAttachmentsOperations = [
  operation({
    operationId: "listTaskAttachments",
    method: "GET",
    path: "/v1/tasks/{taskId}/attachments",
    summary: "A task's attachments",
    auth: "both",
    scopes: read,
    params: TaskParams,
    responses: { 200: { description: "Attachments", schema: Items(Attachment) } },
    handler: ({ params }, context) =>
      Effect.andThen(
        onTask(context, params.taskId),
        Effect.map(orDieSql(listAttachments(params.taskId)), (items) => ({ items }))
      )
  }),
  operation({
    operationId: "uploadTaskAttachment",
    method: "POST",
    path: "/v1/tasks/{taskId}/attachments",
    summary: "Attach a file to a task (the raw bytes are the request body; its Content-Type is kept)",
    auth: "both",
    scopes: write,
    params: TaskParams,
    query: Schema.Struct({
      filename: Schema.optionalKey(Name(255).check(Schema.isPattern(/^[^/\\]+$/, { expected: "a file name without slashes" })))
    }),
    upload: { contentTypes: ATTACHMENT_TYPES, maxBytes: 25 * 1024 * 1024 },
    responses: {
      201: { description: "Attached", schema: Attachment },
      413: { description: "Larger than 25 MiB" },
      415: { description: "Unsupported content type" }
    },
    handler: ({ params, query: q, upload }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTask(context, params.taskId, "member")
        if (upload === undefined) return yield* reject("invalid", "The file is the request body", [{ path: "body", message: "missing" }])
        const attachmentId = crypto.randomUUID()
        const blobKey = `pm/attachments/${attachmentId}`
        return yield* storeThen(
          blobKey,
          upload,
          send(PmTask, params.taskId, "addAttachment", caller.userId, {
            attachmentId,
            blobKey,
            filename: q.filename ?? upload.filename ?? "attachment",
            contentType: upload.contentType,
            size: upload.bytes.length
          })
        )
      })
  }),
  operation({
    operationId: "getTaskAttachment",
    method: "GET",
    path: "/v1/tasks/{taskId}/attachments/{attachmentId}",
    summary: "An attachment's metadata",
    auth: "both",
    scopes: read,
    params: AttachmentParams,
    responses: { 200: { description: "The attachment", schema: Attachment } },
    handler: ({ params }, context) =>
      Effect.andThen(
        onTask(context, params.taskId),
        Effect.map(orDieSql(getAttachment(params.taskId, params.attachmentId)), ({ blobKey: _k, ...a }) => a)
      )
  }),
  operation({
    operationId: "downloadTaskAttachment",
    method: "GET",
    path: "/v1/tasks/{taskId}/attachments/{attachmentId}/content",
    summary: "Download an attachment's bytes",
    auth: "both",
    scopes: read,
    params: AttachmentParams,
    responses: { 200: { description: "The file, with the type it was uploaded with", contentType: ATTACHMENT_TYPES } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* onTask(context, params.taskId)
        const attachment = yield* orDieSql(getAttachment(params.taskId, params.attachmentId))
        const blob = yield* readFile(attachment.blobKey)
        if (blob === undefined) return yield* reject("not_found", "The attachment's file is gone")
        return raw(attachment.contentType, blob.bytes, {
          "content-disposition": `attachment; filename="${attachment.filename.replace(/["\\\r\n]/g, "_")}"`
        })
      })
  }),
  operation({
    operationId: "renameTaskAttachment",
    method: "PATCH",
    path: "/v1/tasks/{taskId}/attachments/{attachmentId}",
    summary: "Rename an attachment",
    auth: "both",
    scopes: write,
    params: AttachmentParams,
    body: Schema.Struct({ filename: Name(255).check(Schema.isPattern(/^[^/\\]+$/, { expected: "a file name without slashes" })) }),
    responses: { 200: { description: "Renamed", schema: Attachment } },
    handler: ({ params, body }, context) =>
      taskCommand(context, params.taskId, "renameAttachment", { attachmentId: params.attachmentId, filename: body.filename })
  }),
  operation({
    operationId: "deleteTaskAttachment",
    method: "DELETE",
    path: "/v1/tasks/{taskId}/attachments/{attachmentId}",
    summary: "Delete an attachment and its file (uploader or admin)",
    auth: "both",
    scopes: write,
    params: AttachmentParams,
    responses: { 204: { description: "Deleted" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTask(context, params.taskId, "member")
        const { blobKey } = yield* send(PmTask, params.taskId, "deleteAttachment", caller.userId, {
          attachmentId: params.attachmentId,
          admin: caller.admin
        })
        yield* removeFile(blobKey).pipe(Effect.ignore)
      })
  })
]
