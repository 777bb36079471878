/**
 * A user's role in a workspace, from the Workspace actor's memory (the one
 * owner of memberships): `undefined` when they are not a member or the
 * workspace does not exist.
 */
import { Effect } from "effect"
import { type Role, Workspace } from "../identity/Workspace.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"

export const workspaceRoleOf = (workspaceId: string, userId: string): Effect.Effect<Role | undefined, never, ActorSystem> =>
  ActorSystem.use((system) => system.ask(Workspace, workspaceId, "roleOf", { userId })).pipe(
    Effect.catchTag("Rejection", (rejection) => (rejection.code === "not_found" ? Effect.succeed(undefined) : Effect.die(rejection))),
    // The actor could not answer: undecided is a failure of the request, never an answer.
    Effect.orDie
  )
