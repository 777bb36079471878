/**
 * Enforced SSO: password login is refused for a user whose e-mail domain a
 * workspace signs in through its identity provider and enforces, when the
 * user is a member of that workspace (a workspace can only bind its own
 * members, never the rest of a domain's users).
 */
import { Effect } from "effect"
import { memberRoles, usersByEmails } from "../identity/IdentityQueries.ts"
import { WorkspaceSso } from "../sso/SsoConfig.ts"
import { domainOfEmail, workspaceOfDomain } from "../sso/SsoQueries.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { reject } from "../../runtime/Rejection.ts"

/** The workspace that enforces SSO for this e-mail's user, if any. */
export const ssoEnforcingWorkspace = (email: string) =>
  Effect.gen(function* () {
    const workspaceId = yield* Effect.orDie(workspaceOfDomain(domainOfEmail(email)))
    if (workspaceId === undefined) return undefined
    const settings = yield* (yield* ActorSystem).ask(WorkspaceSso, workspaceId, "settings", {}).pipe(Effect.option)
    if (settings._tag === "None" || !settings.value.enforced || !settings.value.enabled) return undefined
    const user = (yield* Effect.orDie(usersByEmails([email]))).get(email)
    if (user === undefined) return undefined
    return (yield* Effect.orDie(memberRoles(workspaceId))).has(user.id) ? workspaceId : undefined
  })

export const refuseWhenSsoEnforced = (email: string) =>
  Effect.flatMap(ssoEnforcingWorkspace(email), (workspaceId) =>
    workspaceId === undefined
      ? Effect.void
      : Effect.fail(
          reject("forbidden", `Single sign-on is required for ${domainOfEmail(email)}: sign in through /pm/v1/sso/${workspaceId}/start`)
        )
  )
