/**
 * A user's role in a workspace, from the Workspace actor's memory (the one
 * owner of memberships): `undefined` when they are not a member or the
 * workspace does not exist.
 */
import { Effect } from "effect"
import { type Role, Workspace } from "../identity/Workspace.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"

export const workspaceRoleOf = (workspaceId: string, userId: string): Effect.Effect<Role | undefined, never, ActorSystem> =>
  ActorSystem.use((system) => Workspace.client(system)(workspaceId).roleOf({ userId })).pipe(
    Effect.catchTag("WorkspaceNotFound", () => Effect.succeed(undefined)),
    // Suspended, or the actor could not answer: undecided is a failure of the request, never an answer.
    Effect.orDie
  )
