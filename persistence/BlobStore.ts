/**
 * Attachments and media. Local files under DATA_DIR by default; the interface
 * stays this small so an S3-compatible store can be added beside it.
 */
import { Context, type Effect, Schema } from "effect"

export class BlobError extends Schema.TaggedError<BlobError>()("BlobError", {
  message: Schema.String
}) {}

export interface BlobInfo {
  readonly key: string
  readonly size: number
  readonly contentType: string
}

export interface BlobStoreShape {
  readonly put: (key: string, bytes: Uint8Array, contentType: string) => Effect.Effect<BlobInfo, BlobError>
  /** `undefined` when no blob has that key. */
  readonly get: (key: string) => Effect.Effect<{ readonly info: BlobInfo; readonly bytes: Uint8Array } | undefined, BlobError>
  readonly delete: (key: string) => Effect.Effect<void, BlobError>
}

export class BlobStore extends Context.Service<BlobStore, BlobStoreShape>()("atrium/persistence/BlobStore") {}
