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
import { operation } from "../../Operation.ts"
import { at0, exampleIds as ids, inWorkspace, onSpace, orDieSql } from "../WorkAccess.ts"
import { boardState, onWhiteboard, seedBoard } from "./WhiteboardAccess.ts"
import { exampleWhiteboard, exampleWhiteboardId } from "./WhiteboardCollaboration.ts"

const tag = "Whiteboard Templates"
const service = "pm"
const templateId = "b8c9d0e1-f2a3-4b4c-9d5e-7f8a9b0c1d2e"
const WorkspaceParams = Schema.Struct({ workspaceId: Id })
const exampleTemplate = {
  id: templateId,
  workspaceId: ids.workspace,
  name: "Sprint retro",
  description: "Went well / to improve / actions",
  elementCount: 3,
  createdBy: ids.user,
  createdAt: at0
}

export const whiteboardTemplatesOperations = [
  operation({
    service,
    tag,
    operationId: "listWhiteboardTemplates",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/whiteboard-templates",
    summary: "The workspace's saved whiteboard templates, newest first",
    auth: "both",
    scopes: ["whiteboards:read"],
    params: WorkspaceParams,
    responses: { 200: { description: "Templates", schema: Schema.Struct({ items: Schema.Array(WhiteboardTemplate) }) } },
    examples: [
      { name: "list", request: { params: { workspaceId: ids.workspace } }, response: { status: 200, body: { items: [exampleTemplate] } } }
    ],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* inWorkspace(context, params.workspaceId)
        return { items: yield* orDieSql(templatesOf(params.workspaceId)) }
      })
  }),
  operation({
    service,
    tag,
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
    examples: [
      {
        name: "save",
        request: {
          params: { workspaceId: ids.workspace },
          body: { whiteboardId: exampleWhiteboardId, name: exampleTemplate.name, description: exampleTemplate.description }
        },
        response: { status: 201, body: exampleTemplate }
      }
    ],
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
    service,
    tag,
    operationId: "instantiateWhiteboardTemplate",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/whiteboard-templates/{templateId}/instantiate",
    summary: "Start a new board from a template (member)",
    auth: "both",
    scopes: ["whiteboards:write"],
    params: Schema.Struct({ workspaceId: Id, templateId: Id }),
    body: Schema.Struct({ name: Name(200), spaceId: Schema.optionalKey(Id) }),
    responses: { 201: { description: "The new board", schema: Whiteboard }, 404: { description: "No such template" } },
    examples: [
      {
        name: "instantiate",
        request: { params: { workspaceId: ids.workspace, templateId }, body: { name: "Sprint 14 retro", spaceId: ids.space } },
        response: { status: 201, body: { ...exampleWhiteboard, name: "Sprint 14 retro", templateId } }
      }
    ],
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
