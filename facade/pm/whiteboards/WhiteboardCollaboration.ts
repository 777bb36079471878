/**
 * pm tag "Whiteboard Collaboration" (1): open a whiteboard for live
 * collaboration — a new board, or one that exists — and learn how to join it:
 * the collab WebSocket (the same Hocuspocus server as wiki pages: durable
 * acks, fan-out, cluster sync), the document name and the caller's right.
 */
import { Effect, Schema } from "effect"
import { Id, Name } from "../../../actors/Fields.ts"
import { send } from "../../../actors/pm/WorkActor.ts"
import { whiteboardRight } from "../../../actors/pmops/WhiteboardAccess.ts"
import { PmWhiteboard, Whiteboard } from "../../../actors/pmops/Whiteboards.ts"
import { LiveDocuments } from "../../../actors/LiveDocuments.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { principalOf } from "../../Access.ts"
import { type RequestContext, tagGroup } from "../../Operation.ts"
import { inWorkspace, onSpace } from "../WorkAccess.ts"
import { onWhiteboard } from "./WhiteboardAccess.ts"
import { whiteboardCollaborationExamples } from "./WhiteboardCollaboration.examples.ts"
export { exampleWhiteboard, exampleWhiteboardId } from "./WhiteboardCollaboration.examples.ts"

const Session = Schema.Struct({
  whiteboard: Whiteboard,
  protocol: Schema.Literal("hocuspocus"),
  url: Schema.String,
  documentName: Schema.String,
  right: Schema.Literals(["edit", "read"]),
  authentication: Schema.String,
  model: Schema.String,
  editors: Schema.Array(Schema.Struct({ userId: Schema.String, name: Schema.String, since: Schema.String }))
}).annotate({ identifier: "WhiteboardSession" })

const wsUrl = (context: RequestContext) => `${context.origin.replace(/^http/, "ws")}/wiki/v1/collab`

/** An existing board the caller may see, or a new one (members only) in the workspace. */
const boardFor = (context: RequestContext, workspaceId: string, body: { whiteboardId?: string; name?: string; spaceId?: string }) =>
  Effect.gen(function* () {
    if (body.whiteboardId !== undefined) {
      const { board } = yield* onWhiteboard(context, body.whiteboardId)
      if (board.workspaceId !== workspaceId) return yield* reject("not_found", "No such whiteboard")
      return board
    }
    if (body.name === undefined)
      return yield* reject("invalid", "Name the new board, or give the whiteboardId of one", [
        { path: "body.name", message: "required for a new board" }
      ])
    const caller = yield* inWorkspace(context, workspaceId, "member")
    if (body.spaceId !== undefined) {
      const space = yield* onSpace(context, body.spaceId, "member")
      if (space.at.workspaceId !== workspaceId) return yield* reject("not_found", "No such space")
    }
    return yield* send(PmWhiteboard, crypto.randomUUID(), "createBoard", caller.userId, {
      workspaceId,
      name: body.name,
      spaceId: body.spaceId ?? null,
      templateId: null
    })
  })

const { operation } = tagGroup("pm", "Whiteboard Collaboration", whiteboardCollaborationExamples)

export const whiteboardCollaborationOperations = [
  operation({
    operationId: "openWhiteboardSession",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/whiteboards",
    summary: "Open a whiteboard for live collaboration (a new one when no whiteboardId is given): where and how to connect",
    description:
      "Connect a Hocuspocus (Yjs) provider to `url` with `name` = `documentName` and `token` = an access token or an API key (whiteboards:read to follow, whiteboards:write to edit). Elements live in the Y.Map `elements` (id → map with at least x, y); comments pin to those ids. Every update is stored before it is acknowledged.",
    auth: "both",
    scopes: ["whiteboards:read"],
    params: Schema.Struct({ workspaceId: Id }),
    body: Schema.Struct({
      whiteboardId: Schema.optionalKey(Id.annotate({ description: "An existing board; leave out to create one" })),
      name: Schema.optionalKey(Name(200).annotate({ description: "The new board's name" })),
      spaceId: Schema.optionalKey(Id.annotate({ description: "The new board's space (optional)" }))
    }),
    responses: { 201: { description: "The session", schema: Session }, 404: { description: "No such whiteboard or space" } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const principal = yield* principalOf(context)
        if (body.whiteboardId === undefined && principal.kind === "apiKey" && !principal.scopes.includes("whiteboards:write"))
          return yield* reject("forbidden", "Creating a whiteboard needs the whiteboards:write scope")
        const board = yield* boardFor(context, params.workspaceId, body)
        const right = yield* whiteboardRight(principal, board.id)
        const live = yield* Effect.serviceOption(LiveDocuments)
        const editors = live._tag === "Some" ? yield* live.value.editors(board.documentName) : []
        return {
          whiteboard: board,
          protocol: "hocuspocus" as const,
          url: wsUrl(context),
          documentName: board.documentName,
          right: right === "edit" ? ("edit" as const) : ("read" as const),
          authentication: "Pass an access token (POST /pm/v1/auth/login) or an API key as the provider's token",
          model: "Y.Map elements: element id → Y.Map {x, y, type, …}; comments pin to element ids",
          editors
        }
      })
  })
]
