/**
 * pm tag "Context (Lite)" (1): in one call, what an AI agent needs to work
 * in a workspace with the Lite operations — the spaces, folders and lists
 * it may see (names, short ids and ids), the statuses and custom fields
 * that apply to each list, space tags, the members (names and e-mails, for
 * assigning and mentioning), the teams, and how to refer to things.
 */
import { Effect, Schema } from "effect"
import { Email, Id } from "../../actors/Fields.ts"
import { workspacesOf } from "../../actors/identity/IdentityQueries.ts"
import { Role } from "../../actors/identity/Workspace.ts"
import { rosterOf, storedWorkspace } from "../../actors/pm/Roster.ts"
import { teamMemberRows, teamRows } from "../../actors/pm/Team.ts"
import { effectiveAt, fieldsAt, type Outline, outlineOf } from "../../actors/pm/WorkspaceOutline.ts"
import { type CustomField, FieldType, priorityRank, StatusType } from "../../actors/pm/WorkRecords.ts"
import { reject } from "../../runtime/Rejection.ts"
import { principalOf } from "../Access.ts"
import { type RequestContext, tagGroup } from "../Operation.ts"
import { inWorkspace, orDieSql } from "./WorkAccess.ts"
import { contextLiteExamples, howTo } from "./ContextLite.examples.ts"

const CtxStatus = Schema.Struct({ name: Schema.String, type: StatusType })
const CtxField = Schema.Struct({
  id: Id,
  name: Schema.String,
  type: FieldType,
  required: Schema.Boolean,
  options: Schema.Array(Schema.String).annotate({ description: "Option names (dropdown and labels fields)" })
})
const CtxList = Schema.Struct({
  id: Id,
  shortId: Schema.String,
  name: Schema.String,
  statuses: Schema.Array(CtxStatus).annotate({
    description: "The workflow of tasks in this list (inherited unless the list has its own); new tasks get the first open one"
  }),
  customFields: Schema.Array(CtxField).annotate({
    description: "Every field a task here may carry (the space's, the folder's, the list's)"
  }),
  openTasks: Schema.Number
})
const CtxFolder = Schema.Struct({ id: Id, shortId: Schema.String, name: Schema.String, lists: Schema.Array(CtxList) })
const CtxSpace = Schema.Struct({
  id: Id,
  shortId: Schema.String,
  name: Schema.String,
  isPrivate: Schema.Boolean,
  statuses: Schema.Array(CtxStatus),
  customFields: Schema.Array(CtxField),
  tags: Schema.Array(Schema.String),
  folders: Schema.Array(CtxFolder),
  lists: Schema.Array(CtxList).annotate({ description: "Lists directly in the space (no folder)" })
})

export const LiteContext = Schema.Struct({
  workspace: Schema.Struct({ id: Id, name: Schema.String, role: Role.annotate({ description: "The caller's role" }) }),
  you: Schema.Struct({ id: Id, name: Schema.String, email: Schema.String }),
  references: Schema.Struct({
    shortIds: Schema.Record(Schema.String, Schema.String),
    howTo: Schema.String
  }),
  priorities: Schema.Array(Schema.String),
  spaces: Schema.Array(CtxSpace),
  members: Schema.Array(Schema.Struct({ name: Schema.String, email: Email, role: Role, guest: Schema.Boolean })),
  teams: Schema.Array(Schema.Struct({ name: Schema.String, members: Schema.Array(Schema.String).annotate({ description: "E-mails" }) })),
  counts: Schema.Struct({
    spaces: Schema.Number,
    folders: Schema.Number,
    lists: Schema.Number,
    openTasks: Schema.Number,
    members: Schema.Number
  })
}).annotate({
  identifier: "LiteContext",
  description: "A workspace as an AI agent discovers it: names, short ids, workflows, fields, people."
})

const ctxField = (field: CustomField) => ({
  id: field.id,
  name: field.name,
  type: field.type,
  required: field.required,
  options: (field.config.options ?? []).map((o) => o.name)
})

const ctxList = (outline: Outline, list: { id: string; shortId: string; name: string; spaceId: string; folderId: string | null }) => ({
  id: list.id,
  shortId: list.shortId,
  name: list.name,
  statuses: effectiveAt(outline, { spaceId: list.spaceId, folderId: list.folderId, listId: list.id }).items.map((s) => ({
    name: s.name,
    type: s.type
  })),
  customFields: fieldsAt(outline, { spaceId: list.spaceId, folderId: list.folderId, listId: list.id }).map(ctxField),
  openTasks: outline.taskCounts.get(list.id)?.unfinished ?? 0
})

/** The workspace a request means: the one named, else the API key's, else the caller's only one. */
const workspaceOfRequest = (context: RequestContext, workspaceId: string | undefined) =>
  Effect.gen(function* () {
    if (workspaceId !== undefined) return workspaceId
    const principal = yield* principalOf(context)
    if (principal.kind === "apiKey") return principal.workspaceId
    const mine = yield* orDieSql(workspacesOf(principal.userId))
    if (mine.length === 1) return mine[0]!.id
    return yield* reject(
      "invalid",
      mine.length === 0 ? "You belong to no workspace yet" : `You belong to ${mine.length} workspaces: name one with workspaceId`,
      [
        {
          path: "query.workspaceId",
          message: mine.length === 0 ? "no workspace" : `one of ${mine.map((w) => `${w.id} (${w.name})`).join(", ")}`
        }
      ]
    )
  })

const { operation } = tagGroup("pm", "Context (Lite)", contextLiteExamples)

export const contextLiteOperations = [
  operation({
    operationId: "getContextLite",
    mcp: { tool: "getContext" },
    method: "GET",
    path: "/v1/lite/context",
    summary: "Discover a workspace in one call: spaces, folders, lists, statuses, custom fields, members and the short ids to use",
    description:
      "Only what the caller may see (private spaces as a member or admin). Without workspaceId: the API key's workspace, or the caller's only workspace. " +
      "Archived spaces, folders and lists are left out.",
    auth: "both",
    scopes: ["tasks:read"],
    query: Schema.Struct({
      workspaceId: Schema.optionalKey(Id.annotate({ description: "The workspace (optional for API keys and one-workspace users)" }))
    }),
    responses: {
      200: { description: "The workspace's context", schema: LiteContext },
      400: { description: "No workspaceId and several workspaces" },
      404: { description: "No such workspace" }
    },
    handler: ({ query: q }, context) =>
      Effect.gen(function* () {
        const workspaceId = yield* workspaceOfRequest(context, q.workspaceId)
        const caller = yield* inWorkspace(context, workspaceId)
        const ws = yield* orDieSql(storedWorkspace(workspaceId))
        if (ws === undefined) return yield* reject("not_found", "No such workspace")
        const outline = yield* orDieSql(outlineOf(workspaceId, caller.viewer))
        const roster = yield* orDieSql(rosterOf(workspaceId))
        const teams = yield* orDieSql(teamRows(workspaceId))
        const teamMembers = teams.length === 0 ? [] : yield* orDieSql(teamMemberRows(teams.map((t) => t.id)))
        const emailOf = new Map(roster.map((m) => [m.userId, m.email] as const))
        const me = roster.find((m) => m.userId === caller.userId)
        const spaces = outline.spaces.map((space) => ({
          id: space.id,
          shortId: space.shortId,
          name: space.name,
          isPrivate: space.isPrivate,
          statuses: effectiveAt(outline, { spaceId: space.id, folderId: null, listId: null }).items.map((s) => ({
            name: s.name,
            type: s.type
          })),
          customFields: (outline.fields.get(space.id) ?? []).map(ctxField),
          tags: (outline.tags.get(space.id) ?? []).map((t) => t.name),
          folders: outline.folders
            .filter((f) => f.spaceId === space.id)
            .map((folder) => ({
              id: folder.id,
              shortId: folder.shortId,
              name: folder.name,
              lists: outline.lists.filter((l) => l.folderId === folder.id).map((l) => ctxList(outline, l))
            })),
          lists: outline.lists.filter((l) => l.spaceId === space.id && l.folderId === null).map((l) => ctxList(outline, l))
        }))
        return {
          workspace: { id: workspaceId, name: ws.name, role: caller.role },
          you: { id: caller.userId, name: me?.name ?? "", email: me?.email ?? "" },
          references: { shortIds: { "S-": "space", "F-": "folder", "L-": "list", "T-": "task" }, howTo },
          priorities: Object.keys(priorityRank),
          spaces,
          members: roster.map((m) => ({ name: m.name, email: m.email, role: m.role, guest: m.guest })),
          teams: teams.map((team) => ({
            name: team.name,
            members: teamMembers
              .filter((m) => m.teamId === team.id)
              .map((m) => emailOf.get(m.userId))
              .filter((e): e is string => e !== undefined)
          })),
          counts: {
            spaces: outline.spaces.length,
            folders: outline.folders.length,
            lists: outline.lists.length,
            openTasks: [...outline.taskCounts.values()].reduce((sum, c) => sum + c.unfinished, 0),
            members: roster.length
          }
        }
      })
  })
]
