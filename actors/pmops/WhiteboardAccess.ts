/**
 * Who may open a whiteboard's live document, and how: workspace members who
 * can see its space edit it, viewers follow it read-only, everyone else is
 * refused; an API key needs whiteboards:write to edit, whiteboards:read to
 * follow. The collab server asks this for `whiteboard:<id>` documents and
 * the wiki's access for every other name.
 */
import { Effect, Layer, Option } from "effect"
import { DocumentAccess, type DocumentRight } from "../DocumentAccess.ts"
import type { Principal } from "../identity/Principal.ts"
import { atLeast, Workspace } from "../identity/Workspace.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { read } from "../pm/WorkActor.ts"
import { PmSpace } from "../pm/WorkActors.ts"
import { PmWhiteboard, WHITEBOARD_DOCUMENT } from "./Whiteboards.ts"

export const whiteboardRight = (principal: Principal, whiteboardId: string) =>
  Effect.gen(function* () {
    const board = yield* read(PmWhiteboard, whiteboardId, "get", {}).pipe(Effect.option)
    if (Option.isNone(board)) return "none" as DocumentRight
    const { workspaceId, spaceId } = board.value
    if (principal.kind === "apiKey" && principal.workspaceId !== workspaceId) return "none"
    const role = yield* Workspace.client(yield* ActorSystem)(workspaceId).roleOf({ userId: principal.userId })
    if (spaceId !== null && !atLeast(role, "admin")) {
      const space = yield* read(PmSpace, spaceId, "access", {})
      if (space.isPrivate && !space.memberIds.includes(principal.userId)) return "none"
    }
    const right: DocumentRight = atLeast(role, "member") ? "edit" : "read"
    if (principal.kind === "apiKey") {
      if (right === "edit" && principal.scopes.includes("whiteboards:write")) return "edit"
      return principal.scopes.includes("whiteboards:read") || principal.scopes.includes("whiteboards:write") ? "read" : "none"
    }
    return right
  }).pipe(Effect.catch(() => Effect.succeed<DocumentRight>("none")))

/** The DocumentAccess below (the wiki's) for other names; whiteboards for `whiteboard:<id>`. */
export const whiteboardDocumentAccess = Layer.effect(
  DocumentAccess,
  Effect.gen(function* () {
    const below = yield* Effect.serviceOption(DocumentAccess)
    return DocumentAccess.of({
      rightOf: (principal, documentName) => {
        const board = WHITEBOARD_DOCUMENT.exec(documentName)
        if (board === null) return Option.isSome(below) ? below.value.rightOf(principal, documentName) : Effect.succeed("none")
        return Effect.serviceOption(ActorSystem).pipe(
          Effect.flatMap((actors) =>
            Option.isNone(actors)
              ? Effect.succeed<DocumentRight>("none")
              : whiteboardRight(principal, board[1]!.toLowerCase()).pipe(Effect.provideService(ActorSystem, actors.value))
          ),
          Effect.catchCause((cause) =>
            Effect.as(Effect.logError(`whiteboards: access to ${documentName} undecided`, cause), "none" as const)
          )
        ) as Effect.Effect<DocumentRight>
      }
    })
  })
)
