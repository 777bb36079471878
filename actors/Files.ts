/**
 * File bytes (attachments, logos, avatars, recordings) as the services handle
 * them: stored before the owning actor records them and removed again when it
 * refuses, so a refused upload leaves no file behind. The bytes live in the
 * BlobStore (persistence/); a store that fails to put or get is a defect
 * (answered 500), never the caller's fault.
 */
import { Effect } from "effect"
import { BlobStore } from "../persistence/BlobStore.ts"

export interface FileBytes {
  readonly bytes: Uint8Array
  readonly contentType: string
}

/** Stores the file under `key`. */
export const storeFile = (key: string, file: FileBytes) =>
  BlobStore.use((blobs) => Effect.orDie(blobs.put(key, file.bytes, file.contentType)))

/** Stores the file under `key`, then runs `record`; when `record` fails, the file is removed again. */
export const storeThen = <A, E, R>(key: string, file: FileBytes, record: Effect.Effect<A, E, R>) =>
  Effect.andThen(storeFile(key, file), record.pipe(Effect.tapError(() => Effect.ignore(removeFile(key)))))

/** The file under `key` with its size and content type, or `undefined` when there is none. */
export const readFile = (key: string) => BlobStore.use((blobs) => Effect.orDie(blobs.get(key)))

/** Removes the file under `key`; the caller decides what a failure (a `BlobError`) means, usually a file left behind. */
export const removeFile = (key: string) => BlobStore.use((blobs) => blobs.delete(key))
