/**
 * pm tag "Lists" (44): list CRUD (in a space or a folder), move, order,
 * archive, duplicate, hierarchy reads, tasks appearing in several lists,
 * task defaults and effective settings, CSV export, and property management
 * (statuses inherited from folder then space unless the list defines its
 * own, custom fields, watchers). Writes go through the list actor (creating,
 * ordering lists through the space actor; moves through the workspace actor).
 */
import { Effect, Schema } from "effect"
import { Id } from "../../actors/Fields.ts"
import { availableFields } from "../../actors/pm/CustomFields.ts"
import { requireMembers } from "../../actors/pm/Members.ts"
import { effectiveStatuses, listTaskCountsByStatus } from "../../actors/pm/Statuses.ts"
import { ListCopy, ListInput, ListMove, ListPatch } from "../../actors/pm/StructureCommands.ts"
import * as Reads from "../../actors/pm/StructureReads.ts"
import { featuresOfSpace, findTasks } from "../../actors/pm/TaskReads.ts"
import { defaultsFor } from "../../actors/pm/TaskWrites.ts"
import { send } from "../../actors/pm/WorkActor.ts"
import { PmList, PmSpace, PmWorkspace } from "../../actors/pm/WorkActors.ts"
import { CustomField, EffectiveStatuses, Features, isoDate, Items, List, ShortId, TaskDefaults } from "../../actors/pm/WorkRecords.ts"
import { reject } from "../../runtime/Rejection.ts"
import { raw, tagGroup } from "../Operation.ts"
import { Counts, levelOperations } from "./LevelOperations.ts"
import { chainOf, customFieldOperations, listScope, statusOperations, watcherOperations } from "./ScopeProperties.ts"
import { ArchivedQuery, inWorkspace, onFolder, onList, onSpace, onTask, orDieSql, realDates } from "./WorkAccess.ts"

import { listsExamples } from "./Lists.examples.ts"
const read = ["tasks:read"]
const write = ["tasks:write"]

const SpaceParams = Schema.Struct({ spaceId: Id })
const FolderParams = Schema.Struct({ folderId: Id })
const ListParams = Schema.Struct({ listId: Id })

const date = (value: string | null | undefined) => (value === undefined || value === null ? value : (isoDate(value) ?? null))

type NewListBody = typeof ListInput.Type

const normalized = <T extends { startDate?: string | null; dueDate?: string | null }>(body: T): T => ({
  ...body,
  ...(body.startDate !== undefined ? { startDate: date(body.startDate) } : {}),
  ...(body.dueDate !== undefined ? { dueDate: date(body.dueDate) } : {})
})

const createIn = (context: Parameters<typeof onSpace>[0], spaceId: string, folderId: string | null, body: NewListBody) =>
  Effect.gen(function* () {
    const caller = folderId ? yield* onFolder(context, folderId, "member") : yield* onSpace(context, spaceId, "member")
    yield* realDates(body)
    if (body.ownerId) yield* orDieSql(requireMembers(caller.at.workspaceId, [body.ownerId], "body.ownerId"))
    return yield* send(PmSpace, caller.at.spaceId, "createList", caller.userId, { ...normalized(body), folderId })
  })

const csvCell = (value: unknown): string => {
  const text =
    value === null || value === undefined
      ? ""
      : Array.isArray(value)
        ? value.join("; ")
        : typeof value === "object"
          ? JSON.stringify(value)
          : String(value)
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

const { operation } = tagGroup("pm", "Lists", listsExamples)

const level = levelOperations({
  scope: listScope,
  schema: List,
  examples: listsExamples,
  summaries: { delete: "Delete a list and its tasks (admin)", archive: "Archive a list" },
  read: (id) => orDieSql(Reads.getList(id)),
  remove: (caller, listId) => send(PmList, listId, "deleteList", caller.userId, {}),
  archive: (caller, listId, archived) => send(PmList, listId, "archiveList", caller.userId, { archived })
})

export const listsOperations = [
  operation({
    operationId: "createList",
    method: "POST",
    path: "/v1/spaces/{spaceId}/lists",
    summary: "Create a list directly in a space (no folder)",
    description: "The list inherits its space's statuses and custom fields.",
    auth: "both",
    scopes: write,
    params: SpaceParams,
    body: ListInput,
    responses: { 201: { description: "Created", schema: List } },
    handler: ({ params, body }, context) => createIn(context, params.spaceId, null, body)
  }),
  operation({
    operationId: "createFolderList",
    method: "POST",
    path: "/v1/folders/{folderId}/lists",
    summary: "Create a list in a folder",
    description: "The list inherits its folder's statuses (or its space's) and the custom fields of both.",
    auth: "both",
    scopes: write,
    params: FolderParams,
    body: ListInput,
    responses: { 201: { description: "Created", schema: List } },
    handler: ({ params, body }, context) => createIn(context, "", params.folderId, body)
  }),
  operation({
    operationId: "listFolderlessLists",
    method: "GET",
    path: "/v1/spaces/{spaceId}/lists",
    summary: "Lists directly in a space (not in a folder), in order",
    auth: "both",
    scopes: read,
    params: SpaceParams,
    query: Schema.Struct({ archived: Schema.optionalKey(ArchivedQuery) }),
    responses: { 200: { description: "Lists", schema: Items(List) } },
    handler: ({ params, query: q }, context) =>
      Effect.andThen(
        onSpace(context, params.spaceId),
        Effect.map(orDieSql(Reads.listLists({ spaceId: params.spaceId, folderId: null }, q.archived)), (items) => ({ items }))
      )
  }),
  operation({
    operationId: "listFolderLists",
    method: "GET",
    path: "/v1/folders/{folderId}/lists",
    summary: "Lists of a folder, in order",
    auth: "both",
    scopes: read,
    params: FolderParams,
    query: Schema.Struct({ archived: Schema.optionalKey(ArchivedQuery) }),
    responses: { 200: { description: "Lists", schema: Items(List) } },
    handler: ({ params, query: q }, context) =>
      Effect.gen(function* () {
        const caller = yield* onFolder(context, params.folderId)
        return { items: yield* orDieSql(Reads.listLists({ spaceId: caller.at.spaceId, folderId: params.folderId }, q.archived)) }
      })
  }),
  operation({
    operationId: "listAllLists",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/lists",
    summary: "Every list of the workspace the caller can see, with its space and folder names",
    auth: "both",
    scopes: read,
    params: Schema.Struct({ workspaceId: Id }),
    query: Schema.Struct({ archived: Schema.optionalKey(ArchivedQuery) }),
    responses: {
      200: {
        description: "Lists",
        schema: Items(Schema.Struct({ ...List.fields, spaceName: Schema.String, folderName: Schema.NullOr(Schema.String) }))
      }
    },
    handler: ({ params, query: q }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId)
        return { items: yield* orDieSql(Reads.listAllLists(params.workspaceId, caller.viewer, q.archived)) }
      })
  }),
  level.get,
  operation({
    operationId: "updateList",
    method: "PATCH",
    path: "/v1/lists/{listId}",
    summary: "Change a list's name, description, color, priority, dates or owner",
    description: "null clears an optional value.",
    auth: "both",
    scopes: write,
    params: ListParams,
    body: ListPatch,
    responses: { 200: { description: "Updated", schema: List } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onList(context, params.listId, "member")
        yield* realDates(body)
        return yield* send(PmList, params.listId, "updateList", caller.userId, normalized(body))
      })
  }),
  level.delete,
  level.archive,
  level.restore,
  operation({
    operationId: "moveList",
    method: "POST",
    path: "/v1/lists/{listId}/move",
    summary: "Move a list into a folder, out of it (folderId null), or to another space",
    description:
      "Tasks keep their status when the new place has it, else get the first status of the same type; values of fields no longer available are dropped; tags are matched by name across spaces.",
    auth: "both",
    scopes: write,
    params: ListParams,
    body: ListMove,
    responses: { 200: { description: "Moved", schema: List } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onList(context, params.listId, "member")
        if (body.spaceId === undefined && body.folderId === undefined) {
          return yield* reject("invalid", "Give spaceId, folderId, or both", [{ path: "body.folderId", message: "missing" }])
        }
        const sameWorkspace = (target: { at: { workspaceId: string } }, path: string) =>
          target.at.workspaceId === caller.at.workspaceId
            ? Effect.void
            : Effect.fail(reject("not_found", "Not found", [{ path, message: "not found" }]))
        if (body.spaceId) yield* Effect.flatMap(onSpace(context, body.spaceId, "member"), (t) => sameWorkspace(t, "body.spaceId"))
        if (body.folderId) yield* Effect.flatMap(onFolder(context, body.folderId, "member"), (t) => sameWorkspace(t, "body.folderId"))
        return yield* send(PmWorkspace, caller.at.workspaceId, "moveList", caller.userId, { listId: params.listId, ...body })
      })
  }),
  operation({
    operationId: "reorderLists",
    method: "PUT",
    path: "/v1/spaces/{spaceId}/lists/order",
    summary: "Set the order of the lists directly in a space (folderId null) or in one of its folders",
    auth: "both",
    scopes: write,
    params: SpaceParams,
    body: Schema.Struct({ folderId: Schema.optionalKey(Schema.NullOr(Id)), listIds: Schema.Array(Id).check(Schema.isMaxLength(500)) }),
    responses: { 200: { description: "The new order", schema: Schema.Struct({ folderId: Schema.NullOr(Id), listIds: Schema.Array(Id) }) } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onSpace(context, params.spaceId, "member")
        return yield* send(PmSpace, params.spaceId, "reorderLists", caller.userId, {
          folderId: body.folderId ?? null,
          listIds: body.listIds
        })
      })
  }),
  operation({
    operationId: "duplicateList",
    method: "POST",
    path: "/v1/lists/{listId}/duplicate",
    summary: "Copy a list's settings, statuses and fields (no tasks) in its space",
    auth: "both",
    scopes: write,
    params: ListParams,
    body: ListCopy,
    responses: { 201: { description: "The copy", schema: List } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onList(context, params.listId, "member")
        return yield* send(PmList, params.listId, "duplicateList", caller.userId, body)
      })
  }),
  operation({
    operationId: "getListByShortId",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/lists/by-short-id/{shortId}",
    summary: "Find a list by its short id (L-7)",
    auth: "both",
    scopes: read,
    params: Schema.Struct({ workspaceId: Id, shortId: ShortId }),
    responses: { 200: { description: "The list", schema: List } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* inWorkspace(context, params.workspaceId)
        const list = yield* orDieSql(Reads.getListByShortId(params.workspaceId, params.shortId))
        yield* onList(context, list.id)
        return list
      })
  }),
  ...statusOperations(listScope, true),
  ...customFieldOperations(listScope),
  ...watcherOperations(listScope),
  operation({
    operationId: "addTaskToList",
    method: "POST",
    path: "/v1/lists/{listId}/linked-tasks",
    summary: "Show a task of another list in this list too (its home list stays)",
    auth: "both",
    scopes: write,
    params: ListParams,
    body: Schema.Struct({ taskId: Id }),
    responses: {
      201: { description: "Added", schema: Schema.Struct({ taskId: Id, listId: Id }) },
      409: { description: "Already there, or its home list" }
    },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onList(context, params.listId, "member")
        const task = yield* onTask(context, body.taskId).pipe(
          Effect.mapError((e) =>
            e._tag === "Rejection" && e.code === "not_found"
              ? reject("not_found", "No such task", [{ path: "body.taskId", message: "not found" }])
              : e
          )
        )
        if (task.at.workspaceId !== caller.at.workspaceId)
          return yield* reject("not_found", "No such task", [{ path: "body.taskId", message: "not found" }])
        return yield* send(PmList, params.listId, "addTaskLink", caller.userId, body)
      })
  }),
  operation({
    operationId: "removeTaskFromList",
    method: "DELETE",
    path: "/v1/lists/{listId}/linked-tasks/{taskId}",
    summary: "Stop showing a task in a list that is not its home",
    auth: "both",
    scopes: write,
    params: Schema.Struct({ listId: Id, taskId: Id }),
    responses: { 204: { description: "Removed" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* onList(context, params.listId, "member")
        yield* send(PmList, params.listId, "removeTaskLink", caller.userId, { taskId: params.taskId })
      })
  }),
  operation({
    operationId: "getListStats",
    method: "GET",
    path: "/v1/lists/{listId}/stats",
    summary: "Task counts of a list by status type and by status, with its completion rate",
    auth: "both",
    scopes: read,
    params: ListParams,
    responses: {
      200: {
        description: "Counts",
        schema: Schema.Struct({
          taskCounts: Counts,
          byStatus: Schema.Array(Schema.Struct({ name: Schema.String, type: Schema.String, count: Schema.Number })),
          completion: Schema.Number
        })
      }
    },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* onList(context, params.listId)
        const counts = Reads.countsOf(yield* orDieSql(Reads.taskCountsByList("list_id", params.listId)), params.listId)
        const statuses = yield* orDieSql(effectiveStatuses(chainOf(caller.at)))
        const byName = yield* orDieSql(listTaskCountsByStatus(params.listId))
        return {
          taskCounts: counts,
          byStatus: statuses.items.map((s) => ({
            name: s.name,
            type: s.type,
            count: byName.find((b) => b.status === s.name.toLowerCase())?.count ?? 0
          })),
          completion: counts.total === 0 ? 0 : Math.round(((counts.done + counts.closed) / counts.total) * 100) / 100
        }
      })
  }),
  operation({
    operationId: "getListTaskDefaults",
    method: "GET",
    path: "/v1/lists/{listId}/task-defaults",
    summary: "Defaults of new tasks in a list: its own and the effective ones (over its space's)",
    auth: "both",
    scopes: read,
    params: ListParams,
    responses: { 200: { description: "Defaults", schema: Schema.Struct({ own: TaskDefaults, effective: TaskDefaults }) } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* onList(context, params.listId)
        const list = yield* orDieSql(Reads.getList(params.listId))
        const effective = yield* orDieSql(
          defaultsFor({
            workspaceId: caller.at.workspaceId,
            spaceId: caller.at.spaceId,
            folderId: caller.at.folderId,
            listId: params.listId
          })
        )
        return { own: list.taskDefaults, effective }
      })
  }),
  operation({
    operationId: "updateListTaskDefaults",
    method: "PATCH",
    path: "/v1/lists/{listId}/task-defaults",
    summary: "Change a list's own defaults for new tasks (they override the space's)",
    description: "Keys left out are unchanged; null clears one.",
    auth: "both",
    scopes: write,
    params: ListParams,
    body: TaskDefaults,
    responses: { 200: { description: "The list's own defaults", schema: TaskDefaults } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onList(context, params.listId, "member")
        return yield* send(PmList, params.listId, "updateListTaskDefaults", caller.userId, body)
      })
  }),
  operation({
    operationId: "getListSettings",
    method: "GET",
    path: "/v1/lists/{listId}/settings",
    summary: "Everything that applies to a list's tasks after inheritance: statuses, custom fields, space features, task defaults",
    auth: "both",
    scopes: read,
    params: ListParams,
    responses: {
      200: {
        description: "Effective settings",
        schema: Schema.Struct({
          statuses: EffectiveStatuses,
          customFields: Schema.Array(CustomField),
          features: Features,
          taskDefaults: TaskDefaults
        })
      }
    },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* onList(context, params.listId)
        const chain = chainOf(caller.at)
        return yield* orDieSql(
          Effect.all({
            statuses: effectiveStatuses(chain),
            customFields: availableFields(chain),
            features: featuresOfSpace(caller.at.spaceId),
            taskDefaults: defaultsFor({
              workspaceId: chain.workspaceId,
              spaceId: chain.spaceId,
              folderId: chain.folderId,
              listId: params.listId
            })
          })
        )
      })
  }),
  operation({
    operationId: "exportListCsv",
    method: "GET",
    path: "/v1/lists/{listId}/export.csv",
    summary: "A list's tasks as CSV (one column per custom field)",
    auth: "both",
    scopes: read,
    params: ListParams,
    query: Schema.Struct({ archived: Schema.optionalKey(ArchivedQuery) }),
    responses: { 200: { description: "CSV", contentType: "text/csv" } },
    handler: ({ params, query: q }, context) =>
      Effect.gen(function* () {
        const caller = yield* onList(context, params.listId)
        const list = yield* orDieSql(Reads.getList(params.listId))
        const fields = yield* orDieSql(availableFields(chainOf(caller.at)))
        const header = [
          "shortId",
          "name",
          "status",
          "priority",
          "assignees",
          "startDate",
          "dueDate",
          "timeEstimateMinutes",
          "tags",
          "createdAt",
          ...fields.map((f) => f.name)
        ]
        const lines = [header.map(csvCell).join(",")]
        for (let offset = 0; ; offset += 200) {
          const page = yield* orDieSql(
            findTasks(
              { workspaceId: caller.at.workspaceId, viewer: caller.viewer, listIds: [params.listId], archived: q.archived ?? "exclude" },
              { offset, limit: 200, order: "position" }
            )
          )
          for (const task of page.items) {
            const values = new Map(task.customFields.map((v) => [v.fieldId, v.value]))
            const shown = (value: unknown) =>
              Array.isArray(value)
                ? value.map((v) => (typeof v === "object" && v && "name" in v ? v.name : v))
                : typeof value === "object" && value && "name" in value
                  ? (value as { name: string }).name
                  : value
            lines.push(
              [
                task.shortId,
                task.name,
                task.status.name,
                task.priority,
                task.assignees.map((a) => a.email),
                task.startDate,
                task.dueDate,
                task.timeEstimateMinutes,
                task.tags.map((t) => t.name),
                task.createdAt,
                ...fields.map((f) => shown(values.get(f.id)))
              ]
                .map(csvCell)
                .join(",")
            )
          }
          if (offset + 200 >= page.total) break
        }
        const filename = `${list.name.replace(/[^\w.-]+/g, "_") || "list"}.csv`
        return raw("text/csv; charset=utf-8", lines.join("\r\n") + "\r\n", { "content-disposition": `attachment; filename="${filename}"` })
      })
  }),
  operation({
    operationId: "archiveListClosedTasks",
    method: "POST",
    path: "/v1/lists/{listId}/archive-closed-tasks",
    summary: "Archive every done or closed task of a list",
    auth: "both",
    scopes: write,
    params: ListParams,
    responses: {
      200: { description: "How many were archived", schema: Schema.Struct({ archived: Schema.Number, taskIds: Schema.Array(Id) }) }
    },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* onList(context, params.listId, "member")
        return yield* send(PmList, params.listId, "archiveClosedTasks", caller.userId, {})
      })
  })
]
