/**
 * After a write commits, before it replies: the live page and space actors
 * whose in-memory model it changed are told to rebuild, wherever they live,
 * so a read that follows an acknowledged write never shows the old rows.
 * Invalidating an actor that is not live costs nothing.
 */
import { Effect } from "effect"
import type { ActorKind } from "../../runtime/Actor.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"

// The kinds are declared in WikiPage.ts / WikiSpace.ts, whose handlers call these: invalidation needs only their names.
const pageKind = { kind: "wikiPage" } as ActorKind
const spaceKind = { kind: "wikiSpace" } as ActorKind

const invalidateAll = (kind: ActorKind, ids: Iterable<string>) => {
  const unique = [...new Set(ids)]
  return unique.length === 0
    ? Effect.void
    : ActorSystem.use((system) => Effect.forEach(unique, (id) => system.invalidate(kind, id), { concurrency: 16, discard: true }))
}

export const invalidatePages = (pageIds: Iterable<string>) => invalidateAll(pageKind, pageIds)

export const invalidateSpaces = (spaceIds: Iterable<string>) => invalidateAll(spaceKind, spaceIds)

/** What a write changed besides its own actor: collected while it runs, invalidated once it committed. */
export interface Touched {
  readonly pages: Set<string>
  readonly spaces: Set<string>
}

/** Runs a write (which commits its own transaction), then invalidates what it touched, before the reply. */
export const invalidatingAfter = <A, E, R>(write: (touched: Touched) => Effect.Effect<A, E, R>) =>
  Effect.suspend(() => {
    const touched: Touched = { pages: new Set(), spaces: new Set() }
    return Effect.tap(write(touched), () => Effect.andThen(invalidatePages(touched.pages), invalidateSpaces(touched.spaces)))
  })
