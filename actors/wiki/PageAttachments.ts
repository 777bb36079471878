/**
 * Files attached to pages: what may be uploaded (content types, size), a
 * check that the bytes are what their content type says, safe file names,
 * and the rows (the bytes live in the BlobStore).
 */
import { Effect, Schema } from "effect"
import { query } from "../../persistence/Sql.ts"
import { iso } from "./WikiQueries.ts"

export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024

export const attachmentTypes: ReadonlyArray<string> = [
  "image/png",
  "image/jpeg",
  "image/gif",
  "image/webp",
  "image/svg+xml",
  "application/pdf",
  "text/plain",
  "text/markdown",
  "text/csv",
  "application/json",
  "application/zip",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  "application/vnd.openxmlformats-officedocument.presentationml.presentation"
]

const startsWith = (bytes: Uint8Array, signature: ReadonlyArray<number>, at = 0) => signature.every((b, i) => bytes[at + i] === b)
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0))

const isUtf8Text = (bytes: Uint8Array) => {
  if (bytes.includes(0)) return false
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes)
    return true
  } catch {
    return false
  }
}

/** Whether the bytes look like the declared content type (magic numbers, or valid text). */
export const matchesContentType = (contentType: string, bytes: Uint8Array): boolean => {
  switch (contentType) {
    case "image/png":
      return startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
    case "image/jpeg":
      return startsWith(bytes, [0xff, 0xd8, 0xff])
    case "image/gif":
      return startsWith(bytes, ascii("GIF87a")) || startsWith(bytes, ascii("GIF89a"))
    case "image/webp":
      return startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)
    case "application/pdf":
      return startsWith(bytes, ascii("%PDF-"))
    case "application/zip":
    case "application/vnd.openxmlformats-officedocument.wordprocessingml.document":
    case "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet":
    case "application/vnd.openxmlformats-officedocument.presentationml.presentation":
      return startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) || startsWith(bytes, [0x50, 0x4b, 0x05, 0x06])
    case "image/svg+xml":
      return isUtf8Text(bytes) && /<svg[\s>]/i.test(new TextDecoder().decode(bytes.subarray(0, 4096)))
    case "application/json":
      if (!isUtf8Text(bytes)) return false
      try {
        JSON.parse(new TextDecoder().decode(bytes))
        return true
      } catch {
        return false
      }
    default:
      return contentType.startsWith("text/") && isUtf8Text(bytes)
  }
}

const extensionOf: Record<string, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/gif": "gif",
  "image/webp": "webp",
  "image/svg+xml": "svg",
  "application/pdf": "pdf",
  "text/plain": "txt",
  "text/markdown": "md",
  "text/csv": "csv",
  "application/json": "json",
  "application/zip": "zip",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "xlsx",
  "application/vnd.openxmlformats-officedocument.presentationml.presentation": "pptx"
}

/** A file name without paths or control characters (at most 255 characters), or one made up from the type. */
export const safeFilename = (name: string | undefined, contentType: string): string => {
  const base = (name ?? "")
    .split(/[\\/]/)
    .pop()!
    .replace(/[\u0000-\u001f\u007f"]/g, "")
    .trim()
    .slice(0, 255)
  return base === "" || base === "." || base === ".." ? `attachment.${extensionOf[contentType] ?? "bin"}` : base
}

/** Images and plain text can be shown in the browser; everything else downloads. */
export const inlineSafe = (contentType: string) => contentType.startsWith("image/") && contentType !== "image/svg+xml"

export const AttachmentRecord = Schema.Struct({
  id: Schema.String,
  pageId: Schema.String,
  spaceId: Schema.String,
  workspaceId: Schema.String,
  filename: Schema.String,
  contentType: Schema.String,
  size: Schema.Number,
  blobKey: Schema.String,
  uploadedBy: Schema.String,
  createdAt: Schema.String
})
export type AttachmentRecord = typeof AttachmentRecord.Type

const toRecord = (row: Record<string, any>): AttachmentRecord => ({
  id: row.id,
  pageId: row.page_id,
  spaceId: row.space_id,
  workspaceId: row.workspace_id,
  filename: row.filename,
  contentType: row.content_type,
  size: Number(row.size),
  blobKey: row.blob_key,
  uploadedBy: row.uploaded_by,
  createdAt: iso(row.created_at)
})

export const attachmentById = (attachmentId: string) =>
  Effect.map(query<Record<string, any>>("SELECT * FROM wiki_attachments WHERE id = $1", [attachmentId]), (rows) =>
    rows[0] ? toRecord(rows[0]) : undefined
  )

export const attachmentsOfPage = (pageId: string) =>
  Effect.map(query<Record<string, any>>("SELECT * FROM wiki_attachments WHERE page_id = $1 ORDER BY created_at, id", [pageId]), (rows) =>
    rows.map(toRecord)
  )

/** Image attachments of a workspace's pages, newest first (the cover gallery's "uploaded" section). */
export const imagesOfWorkspace = (workspaceId: string, limit: number) =>
  Effect.map(
    query<Record<string, any>>(
      "SELECT * FROM wiki_attachments WHERE workspace_id = $1 AND content_type LIKE 'image/%' ORDER BY created_at DESC, id LIMIT $2",
      [workspaceId, limit]
    ),
    (rows) => rows.map(toRecord)
  )
