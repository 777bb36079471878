/**
 * The platform operator: a role from configuration, never a workspace role.
 * A caller is a platform admin when it is a user session (JWT) whose e-mail
 * is listed in ATRIUM_PLATFORM_ADMINS (comma-separated, case-insensitive);
 * API keys are always refused, whoever created them.
 */
import { Effect } from "effect"
import { normalizeEmail } from "../actors/Fields.ts"
import { reject } from "../runtime/Rejection.ts"
import type { RequestContext } from "./Operation.ts"
import type { UserPrincipal } from "../actors/identity/Principal.ts"

/** Read on every check, so an operator list changed in the environment of a test or a restart applies at once. */
export const platformAdmins = (env: NodeJS.ProcessEnv = process.env): ReadonlySet<string> =>
  new Set(
    (env.ATRIUM_PLATFORM_ADMINS ?? "")
      .split(",")
      .map((email) => normalizeEmail(email))
      .filter((email) => email !== "")
  )

export const requirePlatformAdmin = (context: RequestContext): Effect.Effect<UserPrincipal, ReturnType<typeof reject>> => {
  const principal = context.principal
  if (principal === undefined) return Effect.fail(reject("unauthorized", "Credentials required"))
  if (principal.kind !== "user") return Effect.fail(reject("forbidden", "Platform administration is refused to API keys"))
  if (!platformAdmins().has(normalizeEmail(principal.email)))
    return Effect.fail(reject("forbidden", "Requires the platform admin role (ATRIUM_PLATFORM_ADMINS)"))
  return Effect.succeed(principal)
}
