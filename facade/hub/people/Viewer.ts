/** The caller as the hub's personal resources need them: their user id and e-mail (an API key acts as its creator). */
import { Effect } from "effect"
import { userById } from "../../../actors/identity/IdentityQueries.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { principalOf } from "../../Access.ts"
import type { RequestContext } from "../../Operation.ts"

export interface Viewer {
  readonly userId: string
  readonly email: string
  readonly name: string
}

export const viewerOf = (context: RequestContext) =>
  Effect.gen(function* () {
    const principal = yield* principalOf(context)
    if (principal.kind === "user") return { userId: principal.userId, email: principal.email, name: principal.name } satisfies Viewer
    const user = yield* Effect.orDie(userById(principal.userId))
    if (user === undefined) return yield* reject("unauthorized", "The key's owner no longer exists")
    return { userId: user.id, email: user.email, name: user.name } satisfies Viewer
  })
