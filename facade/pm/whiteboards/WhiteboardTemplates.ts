/**
 * pm tag "Whiteboard Templates" (3): boards saved by a workspace's members as
 * templates (the board's Yjs state at that moment), listed per workspace and
 * instantiated as a new board with that content.
 */
import { Effect, Schema } from "effect"
import { Id, Name } from "../../../actors/Fields.ts"
import { send } from "../../../actors/pm/WorkActor.ts"
import {
  PmWhiteboard,
  PmWhiteboardTemplates,
  positionsOf,
  templateState,
  templatesOf,
  Whiteboard,
  WhiteboardTemplate
} from "../../../actors/pmops/Whiteboards.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { tagGroup } from "../../Operation.ts"
import { inWorkspace, onSpace, orDieSql } from "../WorkAccess.ts"
import { boardState, onWhiteboard, seedBoard } from "./WhiteboardAccess.ts"

import { whiteboardTemplatesExamples } from "./WhiteboardTemplates.examples.ts"
const WorkspaceParams = Schema.Struct({ workspaceId: Id })

const { operation } = tagGroup("pm", "Whiteboard Templates", whiteboardTemplatesExamples)

export const whiteboardTemplatesOperations = [
  operation({
    operationId: "listWhiteboardTemplates",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/whiteboard-templates",
    summary: "The workspace's saved whiteboard templates, newest first",
    auth: "both",
    scopes: ["whiteboards:read"],
    params: WorkspaceParams,
    responses: { 200: { description: "Templates", schema: Schema.Struct({ items: Schema.Array(WhiteboardTemplate) }) } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* inWorkspace(context, params.workspaceId)
        return { items: yield* orDieSql(templatesOf(params.workspaceId)) }
      })
  }),
  operation({
    operationId: "createWhiteboardTemplate",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/whiteboard-templates",
    summary: "Save a board as it is now as a template of the workspace (member)",
    auth: "both",
    scopes: ["whiteboards:write"],
    params: WorkspaceParams,
    body: Schema.Struct({
      whiteboardId: Id.annotate({ description: "The board to save" }),
      name: Name(200),
      description: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(2000)))
    }),
    responses: { 201: { description: "Saved", schema: WhiteboardTemplate }, 404: { description: "No such whiteboard in this workspace" } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId, "member")
        const { board } = yield* onWhiteboard(context, body.whiteboardId)
        if (board.workspaceId !== params.workspaceId)
          return yield* reject("not_found", "No such whiteboard in this workspace", [
            { path: "body.whiteboardId", message: "not in this workspace" }
          ])
        const state = yield* boardState(board.id)
        return yield* send(PmWhiteboardTemplates, params.workspaceId, "createTemplate", caller.userId, {
          name: body.name,
          description: body.description ?? "",
          state: Buffer.from(state).toString("base64"),
          elementCount: positionsOf(state).size
        })
      })
  }),
  operation({
    operationId: "instantiateWhiteboardTemplate",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/whiteboard-templates/{templateId}/instantiate",
    summary: "Start a new board from a template (member)",
    auth: "both",
    scopes: ["whiteboards:write"],
    params: Schema.Struct({ workspaceId: Id, templateId: Id }),
    body: Schema.Struct({ name: Name(200), spaceId: Schema.optionalKey(Id) }),
    responses: { 201: { description: "The new board", schema: Whiteboard }, 404: { description: "No such template" } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId, "member")
        const template = yield* orDieSql(templateState(params.workspaceId, params.templateId))
        if (body.spaceId !== undefined) {
          const space = yield* onSpace(context, body.spaceId, "member")
          if (space.at.workspaceId !== params.workspaceId) return yield* reject("not_found", "No such space")
        }
        const board = yield* send(PmWhiteboard, crypto.randomUUID(), "createBoard", caller.userId, {
          workspaceId: params.workspaceId,
          name: body.name,
          spaceId: body.spaceId ?? null,
          templateId: params.templateId
        })
        yield* seedBoard(board.id, new Uint8Array(template.snapshot))
        return board
      })
  })
]
