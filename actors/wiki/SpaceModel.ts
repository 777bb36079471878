/**
 * A wiki space as its actor keeps it in memory: the space's row and its
 * permission entries, which is all an access check needs besides the
 * caller's workspace role (the Workspace actor's). Rebuilt from the rows on
 * activation and whenever a write makes it stale.
 */
import { Effect, Schema } from "effect"
import { spaceById, spacePermissions } from "./WikiQueries.ts"
import { SpacePermissionRecord, SpaceRecord } from "./WikiRecords.ts"

export const SpaceModel = Schema.Struct({
  space: SpaceRecord,
  /** Ordered as created. */
  entries: Schema.Array(SpacePermissionRecord)
})
export type SpaceModel = typeof SpaceModel.Type

/** `null`: no such space (yet, or any more). */
export const rebuildSpace = (spaceId: string) =>
  Effect.gen(function* () {
    const space = yield* spaceById(spaceId)
    if (space === undefined) return null
    return { space, entries: yield* spacePermissions(spaceId) } satisfies SpaceModel
  })
