/**
 * Authorization helpers shared by every service's operations: who is acting,
 * and may they touch this workspace? An API key sees only the workspace it
 * was provisioned for (any other answers 404, as if it did not exist) and acts
 * with its creator's role there.
 */
import { Effect } from "effect"
import { type Role, Workspace, atLeast } from "../actors/identity/Workspace.ts"
import { ActorSystem } from "../runtime/ActorSystem.ts"
import { reject } from "../runtime/Rejection.ts"
import { asRejection } from "./HttpError.ts"
import type { RequestContext } from "./Operation.ts"
import type { Principal, UserPrincipal } from "../actors/identity/Principal.ts"

export const principalOf = (context: RequestContext): Effect.Effect<Principal, ReturnType<typeof reject>> =>
  context.principal ? Effect.succeed(context.principal) : Effect.fail(reject("unauthorized", "Credentials required"))

export const userOf = (context: RequestContext): Effect.Effect<UserPrincipal, ReturnType<typeof reject>> =>
  context.principal?.kind === "user"
    ? Effect.succeed(context.principal)
    : Effect.fail(reject("forbidden", "This operation requires a user session"))

/** The caller's role in the workspace, failing 404 when they may not see it and 403 below `minimum`. */
export const workspaceRole = Effect.fnUntraced(function* (context: RequestContext, workspaceId: string, minimum: Role = "viewer") {
  const principal = yield* principalOf(context)
  if (principal.kind === "apiKey" && principal.workspaceId !== workspaceId) {
    return yield* reject("not_found", "No such workspace")
  }
  const role = yield* Workspace.client(yield* ActorSystem)(workspaceId)
    .roleOf({ userId: principal.userId })
    .pipe(Effect.catchTag(["WorkspaceNotFound", "WorkspaceSuspended"], (error) => Effect.fail(asRejection(error))))
  if (!atLeast(role, minimum)) return yield* reject("forbidden", `Requires the ${minimum} role in this workspace`)
  return role
})
