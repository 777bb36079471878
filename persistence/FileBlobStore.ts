/**
 * `BlobStore` on local files: bytes in `<dataDir>/blobs/<key>`, metadata in
 * the `blobs` table through `Sql`.
 *
 * - Keys are one or more `/`-separated segments of `[A-Za-z0-9._-]` (at most
 *   128 characters each, 512 in all) that do not start with a dot: anything
 *   else (`..`, absolute paths, backslashes, empty segments) is refused with
 *   a `BlobError`, and the resolved path is checked to stay under the root.
 * - A put writes a temporary file, fsyncs it, renames it over the key, fsyncs
 *   the directory, then upserts the metadata row; a delete removes the row,
 *   then the file. The row decides whether a blob exists.
 * - Operations on one key are serialized within the process. Two processes
 *   sharing one blob directory are not coordinated.
 */
import { randomUUID } from "node:crypto"
import { mkdir, open, readFile, rename, rm } from "node:fs/promises"
import * as path from "node:path"
import { Effect, Layer, Semaphore } from "effect"
import { BlobError, type BlobInfo, BlobStore, type BlobStoreShape } from "./BlobStore.ts"
import { Sql, type SqlError } from "./Sql.ts"

/** `<dataDir>/blobs`. */
export const directoryOf = (dataDir: string): string => path.resolve(dataDir, "blobs")

const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/

/** Whether `key` is a safe blob key (see the module documentation). */
export const isValidKey = (key: string): boolean =>
  key.length > 0 && key.length <= 512 && key.split("/").every((segment) => SEGMENT.test(segment))

const blobError = (message: string) => new BlobError({ message })

const fromSql = (operation: string, key: string) => (error: SqlError) => blobError(`${operation} ${JSON.stringify(key)}: ${error.message}`)

const fromIo = (operation: string, key: string) => (cause: unknown) =>
  blobError(`${operation} ${JSON.stringify(key)}: ${cause instanceof Error ? cause.message : String(cause)}`)

const syncDirectory = async (directory: string): Promise<void> => {
  const handle = await open(directory, "r")
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}

/** Writes `bytes` to `file` so that after it resolves the file has either its old or its new content, durably. */
const writeDurably = async (root: string, file: string, bytes: Uint8Array): Promise<void> => {
  const directory = path.dirname(file)
  const created = await mkdir(directory, { recursive: true })
  const temporary = path.join(directory, `.tmp-${randomUUID()}`)
  try {
    const handle = await open(temporary, "wx", 0o644)
    try {
      await handle.writeFile(bytes)
      await handle.sync()
    } finally {
      await handle.close()
    }
    await rename(temporary, file)
  } catch (cause) {
    await rm(temporary, { force: true })
    throw cause
  }
  await syncDirectory(directory)
  if (created !== undefined) {
    // new directories: make their entries durable too, up to the root
    for (let dir = path.dirname(directory); dir.length >= root.length; dir = path.dirname(dir)) {
      await syncDirectory(dir)
      if (dir === root) break
    }
  }
}

/** The store of `<dataDir>/blobs`, creating the directory at start. */
export const make = (dataDir: string): Effect.Effect<BlobStoreShape, BlobError, Sql> =>
  Effect.gen(function* () {
    const sql = yield* Sql
    const root = directoryOf(dataDir)
    yield* Effect.tryPromise({
      try: () => mkdir(root, { recursive: true }),
      catch: (cause) => blobError(`cannot create ${root}: ${String(cause)}`)
    })

    const locks = new Map<string, { readonly semaphore: Semaphore.Semaphore; users: number }>()
    const locked =
      (key: string) =>
      <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
        Effect.acquireUseRelease(
          Effect.sync(() => {
            let lock = locks.get(key)
            if (lock === undefined) {
              lock = { semaphore: Semaphore.makeUnsafe(1), users: 0 }
              locks.set(key, lock)
            }
            lock.users++
            return lock
          }),
          (lock) => lock.semaphore.withPermits(1)(effect),
          (lock) =>
            Effect.sync(() => {
              if (--lock.users === 0) locks.delete(key)
            })
        )

    const fileOf = (key: string): Effect.Effect<string, BlobError> => {
      if (!isValidKey(key)) return Effect.fail(blobError(`Invalid blob key ${JSON.stringify(key)}`))
      const file = path.resolve(root, key)
      return file.startsWith(root + path.sep) ? Effect.succeed(file) : Effect.fail(blobError(`Invalid blob key ${JSON.stringify(key)}`))
    }

    const put = (key: string, bytes: Uint8Array, contentType: string): Effect.Effect<BlobInfo, BlobError> =>
      Effect.flatMap(fileOf(key), (file) =>
        locked(key)(
          Effect.gen(function* () {
            yield* Effect.tryPromise({ try: () => writeDurably(root, file, bytes), catch: fromIo("put", key) })
            yield* sql
              .query(
                `insert into blobs (key, content_type, size) values ($1, $2, $3)
             on conflict (key) do update
               set content_type = excluded.content_type, size = excluded.size, created_at = now()`,
                [key, contentType, bytes.byteLength]
              )
              .pipe(Effect.mapError(fromSql("put", key)))
            return { key, size: bytes.byteLength, contentType }
          })
        )
      )

    const get = (key: string) =>
      Effect.flatMap(fileOf(key), (file) =>
        locked(key)(
          Effect.gen(function* () {
            const rows = yield* sql
              .query<{ content_type: string; size: number }>("select content_type, size from blobs where key = $1", [key])
              .pipe(Effect.mapError(fromSql("get", key)))
            if (rows.length === 0) return undefined
            const buffer = yield* Effect.tryPromise({ try: () => readFile(file), catch: fromIo("get", key) })
            const info: BlobInfo = { key, size: Number(rows[0].size), contentType: rows[0].content_type }
            return { info, bytes: new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength) }
          })
        )
      )

    const remove = (key: string): Effect.Effect<void, BlobError> =>
      Effect.flatMap(fileOf(key), (file) =>
        locked(key)(
          Effect.gen(function* () {
            yield* sql.query("delete from blobs where key = $1", [key]).pipe(Effect.mapError(fromSql("delete", key)))
            yield* Effect.tryPromise({ try: () => rm(file, { force: true }), catch: fromIo("delete", key) })
          })
        )
      )

    return { put, get, delete: remove }
  })

/** `BlobStore` under `<dataDir>/blobs` (use `Database.dataDir()` for `DATA_DIR`). */
export const layer = (dataDir: string): Layer.Layer<BlobStore, BlobError, Sql> => Layer.effect(BlobStore, make(dataDir))
