/**
 * pm tag "Folders" (35): folder CRUD, move between spaces, order, archive,
 * duplicate, hierarchy reads, and property management (statuses inherited
 * from the space unless the folder defines its own, custom fields, watchers).
 * Folder writes go through the space actor (moves across spaces through the
 * workspace actor).
 */
import { Effect, Schema } from "effect"
import { Id } from "../../actors/Fields.ts"
import { folderListNames } from "../../actors/pm/SpaceReads.ts"
import { checkStatusSet } from "../../actors/pm/Statuses.ts"
import { CopyInput, FolderInput, FolderMove, FolderOrder, FolderPatch } from "../../actors/pm/StructureCommands.ts"
import * as Reads from "../../actors/pm/StructureReads.ts"
import { send } from "../../actors/pm/WorkActor.ts"
import { PmSpace, PmWorkspace } from "../../actors/pm/WorkActors.ts"
import { Folder, Items, ShortId } from "../../actors/pm/WorkRecords.ts"
import { reject } from "../../runtime/Rejection.ts"
import { tagGroup } from "../Operation.ts"
import { Counts, levelOperations } from "./LevelOperations.ts"
import { customFieldOperations, folderScope, statusOperations, watcherOperations } from "./ScopeProperties.ts"
import { ArchivedQuery, inWorkspace, onFolder, onSpace, orDieSql } from "./WorkAccess.ts"

import { foldersExamples } from "./Folders.examples.ts"
const read = ["tasks:read"]
const write = ["tasks:write"]

const SpaceParams = Schema.Struct({ spaceId: Id })
const FolderParams = Schema.Struct({ folderId: Id })

const notFoundSpace = reject("not_found", "No such space", [{ path: "body.spaceId", message: "not found" }])

const { operation } = tagGroup("pm", "Folders", foldersExamples)

const level = levelOperations({
  scope: folderScope,
  schema: Folder,
  examples: foldersExamples,
  summaries: { delete: "Delete a folder with its lists and their tasks (admin)", archive: "Archive a folder" },
  read: (id) => orDieSql(Reads.getFolder(id)),
  remove: (caller, folderId) => send(PmSpace, caller.at.spaceId, "deleteFolder", caller.userId, { folderId }),
  archive: (caller, folderId, archived) => send(PmSpace, caller.at.spaceId, "archiveFolder", caller.userId, { folderId, archived })
})

export const foldersOperations = [
  operation({
    operationId: "createFolder",
    method: "POST",
    path: "/v1/spaces/{spaceId}/folders",
    summary: "Create a folder in a space",
    description: "Without `statuses` the folder inherits its space's workflow.",
    auth: "both",
    scopes: write,
    params: SpaceParams,
    body: FolderInput,
    responses: { 201: { description: "Created", schema: Folder } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onSpace(context, params.spaceId, "member")
        if (body.statuses) yield* checkStatusSet(body.statuses)
        return yield* send(PmSpace, params.spaceId, "createFolder", caller.userId, body)
      })
  }),
  operation({
    operationId: "listFolders",
    method: "GET",
    path: "/v1/spaces/{spaceId}/folders",
    summary: "List a space's folders in order",
    auth: "both",
    scopes: read,
    params: SpaceParams,
    query: Schema.Struct({ archived: Schema.optionalKey(ArchivedQuery) }),
    responses: { 200: { description: "Folders", schema: Items(Folder) } },
    handler: ({ params, query: q }, context) =>
      Effect.andThen(
        onSpace(context, params.spaceId),
        Effect.map(orDieSql(Reads.listFolders(params.spaceId, q.archived)), (items) => ({ items }))
      )
  }),
  level.get,
  operation({
    operationId: "updateFolder",
    method: "PATCH",
    path: "/v1/folders/{folderId}",
    summary: "Rename, describe or recolor a folder",
    auth: "both",
    scopes: write,
    params: FolderParams,
    body: FolderPatch,
    responses: { 200: { description: "Updated", schema: Folder } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onFolder(context, params.folderId, "member")
        return yield* send(PmSpace, caller.at.spaceId, "updateFolder", caller.userId, { folderId: params.folderId, ...body })
      })
  }),
  level.delete,
  level.archive,
  level.restore,
  operation({
    operationId: "moveFolder",
    method: "POST",
    path: "/v1/folders/{folderId}/move",
    summary: "Move a folder (with its lists and tasks) to another space of the workspace",
    description:
      "Tasks keep their status when the new place has it, else get the first status of the same type; values of fields no longer defined above a list are dropped; tags are matched by name.",
    auth: "both",
    scopes: write,
    params: FolderParams,
    body: FolderMove,
    responses: { 200: { description: "Moved", schema: Folder } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onFolder(context, params.folderId, "member")
        yield* onSpace(context, body.spaceId, "member").pipe(
          Effect.filterOrFail(
            (target) => target.at.workspaceId === caller.at.workspaceId,
            () => notFoundSpace
          )
        )
        return yield* send(PmWorkspace, caller.at.workspaceId, "moveFolder", caller.userId, {
          folderId: params.folderId,
          spaceId: body.spaceId
        })
      })
  }),
  operation({
    operationId: "reorderFolders",
    method: "PUT",
    path: "/v1/spaces/{spaceId}/folders/order",
    summary: "Set the order of a space's (unarchived) folders",
    auth: "both",
    scopes: write,
    params: SpaceParams,
    body: FolderOrder,
    responses: { 200: { description: "The new order", schema: Schema.Struct({ folderIds: Schema.Array(Id) }) } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onSpace(context, params.spaceId, "member")
        return yield* send(PmSpace, params.spaceId, "reorderFolders", caller.userId, body)
      })
  }),
  operation({
    operationId: "duplicateFolder",
    method: "POST",
    path: "/v1/folders/{folderId}/duplicate",
    summary: "Copy a folder's structure (its statuses, fields and lists; no tasks) in the same space",
    auth: "both",
    scopes: write,
    params: FolderParams,
    body: CopyInput,
    responses: { 201: { description: "The copy", schema: Folder } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onFolder(context, params.folderId, "member")
        return yield* send(PmSpace, caller.at.spaceId, "duplicateFolder", caller.userId, { folderId: params.folderId, ...body })
      })
  }),
  operation({
    operationId: "getFolderByShortId",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/folders/by-short-id/{shortId}",
    summary: "Find a folder by its short id (F-2)",
    auth: "both",
    scopes: read,
    params: Schema.Struct({ workspaceId: Id, shortId: ShortId }),
    responses: { 200: { description: "The folder", schema: Folder } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* inWorkspace(context, params.workspaceId)
        const folder = yield* orDieSql(Reads.getFolderByShortId(params.workspaceId, params.shortId))
        yield* onFolder(context, folder.id)
        return folder
      })
  }),
  level.tasks("Tasks in every list of a folder, filtered and paged"),
  operation({
    operationId: "getFolderStats",
    method: "GET",
    path: "/v1/folders/{folderId}/stats",
    summary: "Task counts of a folder by status type, overall and per list",
    auth: "both",
    scopes: read,
    params: FolderParams,
    responses: {
      200: {
        description: "Counts",
        schema: Schema.Struct({
          taskCounts: Counts,
          listCount: Schema.Number,
          byList: Schema.Array(Schema.Struct({ listId: Id, name: Schema.String, taskCounts: Counts }))
        })
      }
    },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* onFolder(context, params.folderId)
        const counts = yield* orDieSql(Reads.taskCountsByList("folder_id", params.folderId))
        const lists = yield* orDieSql(folderListNames(params.folderId))
        return {
          taskCounts: Reads.sumCounts(lists.map((l) => Reads.countsOf(counts, l.id))),
          listCount: lists.length,
          byList: lists.map((l) => ({ listId: l.id, name: l.name, taskCounts: Reads.countsOf(counts, l.id) }))
        }
      })
  }),
  ...statusOperations(folderScope, true),
  ...customFieldOperations(folderScope),
  ...watcherOperations(folderScope)
]
