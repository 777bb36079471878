/**
 * What follows a deletion for good, once the rows are gone: each page's
 * live document is removed (by its page actor) and the attachments' blobs
 * are deleted. A blob that cannot be deleted is logged and left behind.
 */
import { Effect } from "effect"
import { BlobStore } from "../../persistence/BlobStore.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { WikiPage } from "./WikiPage.ts"
import type { Removed } from "./WikiRecords.ts"

export const disposeRemoved = (removed: Removed) =>
  Effect.gen(function* () {
    const actors = yield* ActorSystem
    const blobs = yield* BlobStore
    yield* Effect.forEach(removed.pageIds, (pageId) => actors.ask(WikiPage, pageId, "dispose", {}), { concurrency: 8, discard: true })
    yield* Effect.forEach(
      removed.blobKeys,
      (key) =>
        blobs
          .delete(key)
          .pipe(Effect.catchTag("BlobError", (error) => Effect.logWarning(`wiki attachment blob ${key} left behind: ${error.message}`))),
      { concurrency: 8, discard: true }
    )
  })
