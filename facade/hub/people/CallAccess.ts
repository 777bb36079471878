/**
 * Access to a call for tags, shares and views: the call must exist (asked of
 * the calls service through the CallDirectory port) and the caller must
 * belong to its workspace (an API key: be of that workspace); otherwise 404,
 * as if the call did not exist.
 */
import { Effect, Schema } from "effect"
import { callDirectory } from "../../../actors/hub/people/CallDirectory.ts"
import type { Role } from "../../../actors/identity/Workspace.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { principalOf, workspaceRole } from "../../Access.ts"
import type { RequestContext } from "../../Operation.ts"

export const CallIdParam = Schema.FiniteFromString.check(
  Schema.isInt(),
  Schema.isBetween({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER })
).annotate({
  description: "Call id (integer)"
})
export const CallParams = Schema.Struct({ callId: CallIdParam })

const noSuchCall = () => reject("not_found", "No such call")

export const callAccess = (context: RequestContext, callId: number, minimum: Role = "viewer") =>
  Effect.gen(function* () {
    const principal = yield* principalOf(context)
    const call = yield* callDirectory().call(callId)
    if (call === undefined || (principal.kind === "apiKey" && principal.workspaceId !== call.workspaceId)) return yield* noSuchCall()
    yield* workspaceRole(context, call.workspaceId, minimum).pipe(
      Effect.catchIf(
        (error) => error._tag === "Rejection" && error.code === "not_found",
        () => Effect.fail(noSuchCall())
      )
    )
    return { call, userId: principal.userId }
  })
