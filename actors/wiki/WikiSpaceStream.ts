/**
 * A wiki space as a scope of the live stream (`{"scope":"wikiSpace","id"}`,
 * its events filed by WikiEvents.ts): who may follow a space is who may see
 * it, anyone else is told it does not exist. The events are filed as private
 * (`privateSpace`), so a workspace subscription carries them only for
 * workspace admins.
 */
import { Effect } from "effect"
import { reject } from "../../runtime/Rejection.ts"
import type { ScopeTarget, Viewer } from "../pm/Viewer.ts"
import { spaceAccess } from "./WikiAccess.ts"

export const wikiSpaceScope = (viewer: Viewer, spaceId: string) =>
  Effect.gen(function* () {
    const notFound = reject("not_found", "No such wiki space in this workspace")
    const access = yield* spaceAccess({ userId: viewer.userId }, spaceId).pipe(Effect.mapError(() => notFound))
    if (access.space.workspaceId !== viewer.workspaceId) return yield* notFound
    return { scope: "wikiSpace", id: spaceId, privateSpace: true } satisfies ScopeTarget
  })
