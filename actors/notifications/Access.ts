/**
 * Checked when a notification is about to be mailed, not when it was
 * written: may the recipient still see what it is about? A former member,
 * someone taken off a private space or board, or an item since deleted:
 * no mail. Each service answers with its own rules (pm's visibility of a
 * scope, the board's visibility and members, a wiki page's space and
 * restrictions, a call's workspace), from their read models.
 */
import { Effect } from "effect"
import { SqlError } from "../../persistence/Sql.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { Board } from "../feedback/Board.ts"
import { HubCall } from "../hub/CallActor.ts"
import { memberRoles } from "../identity/IdentityQueries.ts"
import { atLeast, type Role } from "../identity/Workspace.ts"
import { resolveScope } from "../pm/Visibility.ts"
import { pageAccess } from "../wiki/WikiAccess.ts"

export interface AccessQuestion {
  readonly userId: string
  readonly workspaceId: string
  readonly itemType: string
  readonly itemId: string
  readonly containerId: string | null
}

const pmScopes = new Set(["task", "list", "space", "workspace"])

const maySeeRequest = (question: AccessQuestion, role: Role | undefined) =>
  Effect.gen(function* () {
    if (question.containerId === null) return false
    const board = Board.client(yield* ActorSystem)(question.containerId)
    const view = yield* board.view({})
    if (view.board.workspaceId !== question.workspaceId || view.board.archived) return false
    yield* board.request({ requestId: question.itemId })
    if (view.board.visibility === "public") return true
    if (role === undefined) return false
    if (view.board.visibility === "members") return true
    return atLeast(role, "admin") || view.members.some((m) => m.userId === question.userId)
  })

const transient = new Set(["unavailable", "timeout", "overloaded"])
/** A failure that says nothing about access (the database or a node did not answer): the pass fails and the row is tried again. */
const isTransient = (error: unknown) =>
  error instanceof SqlError ||
  (typeof error === "object" &&
    error !== null &&
    "_tag" in error &&
    error._tag === "Rejection" &&
    "code" in error &&
    transient.has(String(error.code)))

/** Whether the recipient may see the item now; an item gone or refused reads as no. */
export const maySee = (question: AccessQuestion) =>
  Effect.gen(function* () {
    const role = (yield* memberRoles(question.workspaceId)).get(question.userId)
    if (question.itemType === "request") return yield* maySeeRequest(question, role)
    if (role === undefined) return false
    // A page: the wiki's own rules (space membership, every restriction above it); the recipient's rights, not a key's.
    if (question.itemType === "page") {
      const access = yield* pageAccess({ userId: question.userId }, question.itemId)
      return access.page.workspaceId === question.workspaceId
    }
    // A call: any member (viewers included) of its workspace reads it, while it exists.
    if (question.itemType === "recording") {
      const recording = yield* (yield* ActorSystem).ask(HubCall, question.itemId, "recording", {})
      return recording.workspaceId === question.workspaceId
    }
    if (!pmScopes.has(question.itemType)) return false
    yield* resolveScope({ userId: question.userId, workspaceId: question.workspaceId, role }, question.itemType as "task", question.itemId)
    return true
  }).pipe(
    Effect.catchIf(
      (error) => !isTransient(error),
      () => Effect.succeed(false)
    )
  )
