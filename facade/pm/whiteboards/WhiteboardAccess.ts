/**
 * The whiteboard tags' shared pieces: the caller's standing on a board (its
 * workspace role; a board in a private space is seen only by that space's
 * members and admins) and the board's live state (for pins and templates).
 */
import { Effect } from "effect"
import * as DocumentStore from "../../../collab/DocumentStore.ts"
import { LiveDocuments } from "../../../actors/LiveDocuments.ts"
import { read } from "../../../actors/pm/WorkActor.ts"
import { documentNameOf, PmWhiteboard } from "../../../actors/pmops/Whiteboards.ts"
import { Rejection, reject } from "../../../runtime/Rejection.ts"
import type { RequestContext } from "../../Operation.ts"
import { inWorkspace, onSpace, orDieSql } from "../WorkAccess.ts"

const notFound = <E>(e: E) => (e instanceof Rejection && e.code === "not_found" ? reject("not_found", "No such whiteboard") : e)

export const onWhiteboard = (context: RequestContext, whiteboardId: string, minimum: "viewer" | "member" = "viewer") =>
  Effect.gen(function* () {
    const board = yield* read(PmWhiteboard, whiteboardId, "get", {})
    const caller = yield* inWorkspace(context, board.workspaceId, minimum).pipe(Effect.mapError(notFound))
    if (board.spaceId !== null) yield* onSpace(context, board.spaceId).pipe(Effect.mapError(notFound))
    return { board, caller }
  })

/** The board's whole Yjs state now (empty when the collab server is not running here). */
export const boardState = (whiteboardId: string) =>
  Effect.flatMap(Effect.serviceOption(LiveDocuments), (live) =>
    live._tag === "None" ? Effect.succeed(new Uint8Array()) : Effect.map(live.value.snapshot(documentNameOf(whiteboardId)), (s) => s.state)
  )

/**
 * A template's state as the first update of a board just created (durable
 * before it returns): nobody can have its document open yet, so the collab
 * server loads it from storage like any other update.
 */
export const seedBoard = (whiteboardId: string, state: Uint8Array) =>
  state.length === 0 ? Effect.void : orDieSql(DocumentStore.append([{ name: documentNameOf(whiteboardId), update: state }]))
