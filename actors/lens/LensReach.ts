/**
 * What one asker may read of a workspace's Lens index, computed from the
 * services' own permission rules at the moment they ask: the pm spaces they
 * may see (private spaces only as a member or a workspace admin), the wiki
 * pages they may see (space visibility, page restrictions and their
 * ancestors', archived pages hidden), and themselves (their own version of
 * each call). Applied as the index's filter, before anything is ranked.
 */
import { Effect } from "effect"
import { type Role, atLeast } from "../identity/Workspace.ts"
import { spacesVisibleTo } from "../pm/WorkspaceReads.ts"
import { pagesVisibleTo } from "../wiki/HomeReads.ts"
import type { Audience, SourceType } from "./Passage.ts"

/** The caller as the index sees them. */
export interface Asker {
  readonly workspaceId: string
  readonly userId: string
  readonly role: Role
}

export interface Reach {
  readonly userId: string
  readonly spaces: ReadonlySet<string>
  readonly pages: ReadonlySet<string>
}

// The services' own read modules apply their permission rules: Lens reads no pm or wiki table itself.
const visibleSpaceIds = (asker: Asker) => spacesVisibleTo(asker.workspaceId, { userId: asker.userId, admin: atLeast(asker.role, "admin") })

const none: ReadonlySet<string> = new Set()

/** The asker's reach over the given sources (only what those sources need is read). */
export const reachOf = (asker: Asker, sources: ReadonlySet<SourceType>) =>
  Effect.gen(function* () {
    const [spaces, pages] = yield* Effect.all(
      [
        sources.has("task") ? visibleSpaceIds(asker) : Effect.succeed(none),
        sources.has("page") ? pagesVisibleTo(asker) : Effect.succeed(none)
      ],
      { concurrency: "unbounded" }
    )
    return { userId: asker.userId, spaces, pages } satisfies Reach
  })

export const reaches = (reach: Reach, audience: Audience): boolean => {
  switch (audience._tag) {
    case "workspace":
      return true
    case "space":
      return reach.spaces.has(audience.spaceId)
    case "page":
      return reach.pages.has(audience.pageId)
    case "user":
      return audience.userId === reach.userId
  }
}
