/**
 * The platform-admin (operator) role: from configuration, never a workspace
 * role. A JWT user whose e-mail is listed in ATRIUM_PLATFORM_ADMINS
 * (comma-separated) may call operator operations; API keys never may.
 */
import { Effect } from "effect"
import { normalizeEmail } from "../actors/Fields.ts"
import { reject } from "../runtime/Rejection.ts"
import type { RequestContext } from "./Operation.ts"
import type { UserPrincipal } from "./Principal.ts"

const platformAdmins = (): ReadonlySet<string> =>
  new Set(
    (process.env.ATRIUM_PLATFORM_ADMINS ?? "")
      .split(",")
      .map((email) => normalizeEmail(email))
      .filter((email) => email.length > 0)
  )

/** The operator calling, or 403. */
export const requirePlatformAdmin = (context: RequestContext): Effect.Effect<UserPrincipal, ReturnType<typeof reject>> => {
  const principal = context.principal
  if (principal === undefined) return Effect.fail(reject("unauthorized", "Credentials required"))
  if (principal.kind !== "user") return Effect.fail(reject("forbidden", "Operator operations are not open to API keys"))
  if (!platformAdmins().has(normalizeEmail(principal.email))) return Effect.fail(reject("forbidden", "Requires the platform-admin role"))
  return Effect.succeed(principal)
}
