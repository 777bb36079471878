/**
 * The retrievers: Lens asks its workspace's standing index (`LensIndex.ts`)
 * for what the caller may read of the sources a question needs. The index
 * applies the caller's permissions before anything is ranked: calls are the
 * caller's own version, tasks only in spaces they may see, wiki pages under
 * their restrictions, chat documents of their workspace.
 */
import { Effect } from "effect"
import { ActorSystem, type ActorSystemShape } from "../../runtime/ActorSystem.ts"
import { LensIndex } from "./LensIndex.ts"
import type { MeetingFilter } from "./MeetingScope.ts"
import type { Asker } from "./LensReach.ts"
import type { SourceType } from "./Passage.ts"

export type { Asker } from "./LensReach.ts"

/** A workspace's first question builds its index (every transcript and call version read once): it may take seconds. */
const ASK = { timeoutMillis: 60_000 }

// The index failing to answer is a defect, not something the asker could fix.
const askIndex = <A>(body: (actors: ActorSystemShape) => Effect.Effect<A, unknown>) => Effect.orDie(ActorSystem.use(body))

/** The passages of the given sources the asker may read (of the named meeting only, when one is), in source order. */
export const retrieve = (asker: Asker, sources: ReadonlyArray<SourceType>, meeting?: MeetingFilter) =>
  askIndex((actors) =>
    LensIndex.client(actors)(asker.workspaceId).passages(
      { userId: asker.userId, role: asker.role, sources: [...sources], ...(meeting ? { meeting } : {}) },
      ASK
    )
  )

/** BM25 over what the asker may read of the sources, best `limit` first for each query; and how many passages that was. */
export const search = (
  asker: Asker,
  sources: ReadonlyArray<SourceType>,
  queries: ReadonlyArray<string>,
  limit: number,
  meeting?: MeetingFilter
) =>
  askIndex((actors) =>
    LensIndex.client(actors)(asker.workspaceId).search(
      {
        userId: asker.userId,
        role: asker.role,
        sources: [...sources],
        queries: [...queries],
        limit,
        ...(meeting ? { meeting } : {})
      },
      ASK
    )
  )
