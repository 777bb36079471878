/**
 * The files of feature-request attachments in the BlobStore: stored before
 * the Board actor records the attachment, read back for downloads, dropped
 * once their rows are gone.
 */
import { Effect } from "effect"
import { BlobStore } from "../../persistence/BlobStore.ts"

/** Where an attachment's file is kept. */
export const attachmentKey = (workspaceId: string, attachmentId: string) => `feedback/attachments/${workspaceId}/${attachmentId}`

/** Stores the file; a storage failure is a defect here (answered 500 and logged). */
export const storeFile = (key: string, bytes: Uint8Array, contentType: string) =>
  Effect.flatMap(BlobStore, (blobs) => Effect.orDie(blobs.put(key, bytes, contentType)))

/** The file's bytes, or `undefined` when it is gone. */
export const readFile = (key: string) => Effect.flatMap(BlobStore, (blobs) => Effect.orDie(blobs.get(key)))

/** Deletes files whose rows are gone; a failure leaves an orphan file, not a broken request. */
export const dropFiles = (keys: ReadonlyArray<string>) =>
  Effect.flatMap(BlobStore, (blobs) => Effect.forEach(keys, (key) => Effect.ignore(blobs.delete(key)), { discard: true }))
