/**
 * pm tag "Spaces" (48): space CRUD, order, archive/restore, duplicate and
 * templates, hierarchy reads, private-space members, features and task
 * defaults, and property management (statuses, custom fields, watchers).
 * Writes go through the workspace actor (creating, ordering, importing
 * spaces) or the space's own actor.
 */
import { Effect, Schema } from "effect"
import { Id, Name } from "../../actors/Fields.ts"
import { atLeast } from "../../actors/identity/Workspace.ts"
import { membersOf, requireMembers, userRefs } from "../../actors/pm/Members.ts"
import { checkStatusSet } from "../../actors/pm/Statuses.ts"
import { SpaceTemplate } from "../../actors/pm/SpaceTemplate.ts"
import {
  CopyInput,
  MemberInput,
  SpaceImport,
  SpaceInput,
  SpaceOrder,
  SpacePatch,
  spaceTemplate
} from "../../actors/pm/StructureCommands.ts"
import * as SpaceReads from "../../actors/pm/SpaceReads.ts"
import * as Reads from "../../actors/pm/StructureReads.ts"
import { findTasks } from "../../actors/pm/TaskReads.ts"
import { send } from "../../actors/pm/WorkActor.ts"
import { PmSpace, PmWorkspace } from "../../actors/pm/WorkActors.ts"
import { Features, FeaturesPatch, Folder, Items, List, ShortId, Space, Task, TaskDefaults, UserRef } from "../../actors/pm/WorkRecords.ts"
import { reject } from "../../runtime/Rejection.ts"
import { tagGroup } from "../Operation.ts"
import { Counts as SharedCounts, levelOperations } from "./LevelOperations.ts"
import { customFieldOperations, spaceScope, statusOperations, watcherOperations } from "./ScopeProperties.ts"
import { ArchivedQuery, inWorkspace, onSpace, orDieSql } from "./WorkAccess.ts"

import { spacesExamples } from "./Spaces.examples.ts"
const read = ["tasks:read"]
const write = ["tasks:write"]

const WorkspaceParams = Schema.Struct({ workspaceId: Id })
const SpaceParams = Schema.Struct({ spaceId: Id })

const Counts = SharedCounts.annotate({ identifier: "TaskCounts" })
const ListNode = Schema.Struct({ id: Id, shortId: Schema.String, name: Schema.String, archived: Schema.Boolean, taskCounts: Counts })
const SpaceTree = Schema.Struct({
  id: Id,
  shortId: Schema.String,
  name: Schema.String,
  isPrivate: Schema.Boolean,
  archived: Schema.Boolean,
  folders: Schema.Array(
    Schema.Struct({ id: Id, shortId: Schema.String, name: Schema.String, archived: Schema.Boolean, lists: Schema.Array(ListNode) })
  ),
  lists: Schema.Array(ListNode)
}).annotate({ identifier: "SpaceTree" })

const MemberView = Schema.Struct({ user: UserRef, addedAt: Schema.NullOr(Schema.String) }).annotate({ identifier: "SpaceMember" })

const { operation } = tagGroup("pm", "Spaces", spacesExamples)

const level = levelOperations({
  scope: spaceScope,
  schema: Space,
  examples: spacesExamples,
  summaries: {
    delete: "Delete a space with its folders, lists and tasks (admin)",
    archive: "Archive a space (hidden from listings, still readable)"
  },
  read: (id) => orDieSql(Reads.getSpace(id)),
  remove: (caller, spaceId) => send(PmSpace, spaceId, "deleteSpace", caller.userId, {}),
  archive: (caller, spaceId, archived) => send(PmSpace, spaceId, archived ? "archiveSpace" : "restoreSpace", caller.userId, {})
})

export const spacesOperations = [
  operation({
    operationId: "createSpace",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/spaces",
    summary: "Create a space in a workspace",
    description:
      "A new space gets the default workflow (to do, in progress, done, closed) unless `statuses` is given. A private space is visible to its members and workspace admins only; its creator is its first member.",
    auth: "both",
    scopes: write,
    params: WorkspaceParams,
    body: SpaceInput,
    responses: { 201: { description: "Created", schema: Space } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId, "member")
        if (body.statuses) yield* checkStatusSet(body.statuses)
        return yield* send(PmWorkspace, params.workspaceId, "createSpace", caller.userId, body)
      })
  }),
  operation({
    operationId: "listSpaces",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/spaces",
    summary: "List the spaces of a workspace the caller can see, in order",
    auth: "both",
    scopes: read,
    params: WorkspaceParams,
    query: Schema.Struct({ archived: Schema.optionalKey(ArchivedQuery) }),
    responses: { 200: { description: "Spaces", schema: Items(Space) } },
    handler: ({ params, query: q }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId)
        return { items: yield* orDieSql(Reads.listSpaces(params.workspaceId, caller.viewer, q.archived)) }
      })
  }),
  level.get,
  operation({
    operationId: "updateSpace",
    method: "PATCH",
    path: "/v1/spaces/{spaceId}",
    summary: "Rename, describe, recolor a space or change its privacy",
    description: "Changing privacy takes an admin.",
    auth: "both",
    scopes: write,
    params: SpaceParams,
    body: SpacePatch,
    responses: { 200: { description: "Updated", schema: Space } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onSpace(context, params.spaceId, body.isPrivate === undefined ? "member" : "admin")
        return yield* send(PmSpace, params.spaceId, "updateSpace", caller.userId, body)
      })
  }),
  level.delete,
  level.archive,
  level.restore,
  operation({
    operationId: "reorderSpaces",
    method: "PUT",
    path: "/v1/workspaces/{workspaceId}/spaces/order",
    summary: "Set the order of the workspace's (unarchived) spaces",
    auth: "both",
    scopes: write,
    params: WorkspaceParams,
    body: SpaceOrder,
    responses: { 200: { description: "The new order", schema: Schema.Struct({ spaceIds: Schema.Array(Id) }) } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId, "member")
        return yield* send(PmWorkspace, params.workspaceId, "reorderSpaces", caller.userId, body)
      })
  }),
  operation({
    operationId: "duplicateSpace",
    method: "POST",
    path: "/v1/spaces/{spaceId}/duplicate",
    summary: "Copy a space's structure (statuses, fields, folders, lists; no tasks) into a new space",
    auth: "both",
    scopes: write,
    params: SpaceParams,
    body: CopyInput,
    responses: { 201: { description: "The copy", schema: Space } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onSpace(context, params.spaceId, "member")
        return yield* send(PmWorkspace, caller.at.workspaceId, "duplicateSpace", caller.userId, { spaceId: params.spaceId, ...body })
      })
  }),
  operation({
    operationId: "getSpaceByShortId",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/spaces/by-short-id/{shortId}",
    summary: "Find a space by its short id (S-3)",
    auth: "both",
    scopes: read,
    params: Schema.Struct({ workspaceId: Id, shortId: ShortId }),
    responses: { 200: { description: "The space", schema: Space } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId)
        return yield* orDieSql(Reads.getSpaceByShortId(params.workspaceId, params.shortId, caller.viewer))
      })
  }),
  operation({
    operationId: "getSpacesTree",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/spaces/tree",
    summary: "The workspace's hierarchy: spaces → folders → lists, with task counts",
    auth: "both",
    scopes: read,
    params: WorkspaceParams,
    query: Schema.Struct({ archived: Schema.optionalKey(ArchivedQuery) }),
    responses: { 200: { description: "The tree", schema: Items(SpaceTree) } },
    handler: ({ params, query: q }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId)
        const spaces = yield* orDieSql(Reads.listSpaces(params.workspaceId, caller.viewer, q.archived))
        return { items: yield* orDieSql(Effect.forEach(spaces, (space) => Reads.spaceTree(space, q.archived))) }
      })
  }),
  operation({
    operationId: "getSpaceHierarchy",
    method: "GET",
    path: "/v1/spaces/{spaceId}/hierarchy",
    summary: "A space's folders and lists as a tree, with task counts",
    auth: "both",
    scopes: read,
    params: SpaceParams,
    query: Schema.Struct({ archived: Schema.optionalKey(ArchivedQuery) }),
    responses: { 200: { description: "The tree", schema: SpaceTree } },
    handler: ({ params, query: q }, context) =>
      Effect.gen(function* () {
        yield* onSpace(context, params.spaceId)
        return yield* orDieSql(Effect.flatMap(Reads.getSpace(params.spaceId), (space) => Reads.spaceTree(space, q.archived)))
      })
  }),
  level.tasks("Tasks anywhere in a space, filtered and paged"),
  operation({
    operationId: "getSpaceStats",
    method: "GET",
    path: "/v1/spaces/{spaceId}/stats",
    summary: "Task counts of a space by status type, overall and per list",
    auth: "both",
    scopes: read,
    params: SpaceParams,
    responses: {
      200: {
        description: "Counts",
        schema: Schema.Struct({
          taskCounts: Counts,
          folderCount: Schema.Number,
          listCount: Schema.Number,
          byList: Schema.Array(Schema.Struct({ listId: Id, name: Schema.String, taskCounts: Counts }))
        })
      }
    },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* onSpace(context, params.spaceId)
        const counts = yield* orDieSql(Reads.taskCountsByList("space_id", params.spaceId))
        const lists = yield* orDieSql(SpaceReads.listNames(params.spaceId))
        const folderCount = yield* orDieSql(SpaceReads.folderCount(params.spaceId))
        return {
          taskCounts: Reads.sumCounts(counts.values()),
          folderCount,
          listCount: lists.length,
          byList: lists.map((l) => ({ listId: l.id, name: l.name, taskCounts: Reads.countsOf(counts, l.id) }))
        }
      })
  }),
  ...statusOperations(spaceScope, false),
  ...customFieldOperations(spaceScope),
  operation({
    operationId: "listSpaceMembers",
    method: "GET",
    path: "/v1/spaces/{spaceId}/members",
    summary: "Who can see a space: its members when private, every workspace member otherwise",
    auth: "both",
    scopes: read,
    params: SpaceParams,
    responses: { 200: { description: "Members", schema: Schema.Struct({ isPrivate: Schema.Boolean, items: Schema.Array(MemberView) }) } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* onSpace(context, params.spaceId)
        if (caller.at.isPrivate) {
          const rows = yield* orDieSql(SpaceReads.spaceMembers(params.spaceId))
          const users = yield* orDieSql(userRefs(rows.map((r) => r.userId)))
          return {
            isPrivate: true,
            items: rows.map((r) => ({ user: users.get(r.userId) ?? { id: r.userId, email: "", name: "" }, addedAt: r.addedAt }))
          }
        }
        const members = yield* orDieSql(membersOf(caller.at.workspaceId))
        const users = yield* orDieSql(userRefs([...members.keys()]))
        return {
          isPrivate: false,
          items: [...members.keys()].map((id) => ({ user: users.get(id) ?? { id, email: "", name: "" }, addedAt: null }))
        }
      })
  }),
  operation({
    operationId: "addSpaceMember",
    method: "POST",
    path: "/v1/spaces/{spaceId}/members",
    summary: "Let a workspace member into a private space (admin)",
    auth: "both",
    scopes: write,
    params: SpaceParams,
    body: MemberInput,
    responses: {
      201: { description: "Added", schema: Schema.Struct({ userId: Id }) },
      409: { description: "Already a member, or the space is not private" }
    },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onSpace(context, params.spaceId, "admin")
        return yield* send(PmSpace, params.spaceId, "addMember", caller.userId, body)
      })
  }),
  operation({
    operationId: "removeSpaceMember",
    method: "DELETE",
    path: "/v1/spaces/{spaceId}/members/{userId}",
    summary: "Remove someone from a private space (admin; anyone may leave)",
    auth: "both",
    scopes: write,
    params: Schema.Struct({ spaceId: Id, userId: Id }),
    responses: { 204: { description: "Removed" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* onSpace(context, params.spaceId, "viewer")
        if (params.userId !== caller.userId && !caller.admin)
          return yield* reject("forbidden", "Only an admin removes someone else from a space")
        yield* send(PmSpace, params.spaceId, "removeMember", caller.userId, { userId: params.userId })
      })
  }),
  operation({
    operationId: "getSpaceFeatures",
    method: "GET",
    path: "/v1/spaces/{spaceId}/features",
    summary: "Which task features the space uses",
    auth: "both",
    scopes: read,
    params: SpaceParams,
    responses: { 200: { description: "Features", schema: Features } },
    handler: ({ params }, context) =>
      Effect.andThen(
        onSpace(context, params.spaceId),
        Effect.map(orDieSql(Reads.getSpace(params.spaceId)), (s) => s.features)
      )
  }),
  operation({
    operationId: "updateSpaceFeatures",
    method: "PATCH",
    path: "/v1/spaces/{spaceId}/features",
    summary: "Turn task features of a space on or off",
    description: "A feature turned off is refused on the space's tasks (existing values stay).",
    auth: "both",
    scopes: write,
    params: SpaceParams,
    body: FeaturesPatch,
    responses: { 200: { description: "Features", schema: Features } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onSpace(context, params.spaceId, "member")
        return yield* send(PmSpace, params.spaceId, "updateFeatures", caller.userId, body)
      })
  }),
  ...watcherOperations(spaceScope),
  operation({
    operationId: "getSpaceTaskDefaults",
    method: "GET",
    path: "/v1/spaces/{spaceId}/task-defaults",
    summary: "What new tasks of the space get when created without it (lists may override)",
    auth: "both",
    scopes: read,
    params: SpaceParams,
    responses: { 200: { description: "Defaults", schema: TaskDefaults } },
    handler: ({ params }, context) =>
      Effect.andThen(
        onSpace(context, params.spaceId),
        Effect.map(orDieSql(Reads.getSpace(params.spaceId)), (s) => s.taskDefaults)
      )
  }),
  operation({
    operationId: "updateSpaceTaskDefaults",
    method: "PATCH",
    path: "/v1/spaces/{spaceId}/task-defaults",
    summary: "Change the defaults of new tasks in the space",
    description: "Keys left out are unchanged; null clears one.",
    auth: "both",
    scopes: write,
    params: SpaceParams,
    body: TaskDefaults,
    responses: { 200: { description: "Defaults", schema: TaskDefaults } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onSpace(context, params.spaceId, "member")
        if (body.assigneeIds) yield* orDieSql(requireMembers(caller.at.workspaceId, body.assigneeIds, "body.assigneeIds"))
        return yield* send(PmSpace, params.spaceId, "updateTaskDefaults", caller.userId, body)
      })
  }),
  operation({
    operationId: "listSpaceAssignees",
    method: "GET",
    path: "/v1/spaces/{spaceId}/assignees",
    summary: "Who has tasks in a space: open and total tasks and estimated minutes per person",
    auth: "both",
    scopes: read,
    params: SpaceParams,
    responses: {
      200: {
        description: "Workload",
        schema: Items(
          Schema.Struct({
            user: UserRef,
            openTasks: Schema.Number,
            totalTasks: Schema.Number,
            openEstimateMinutes: Schema.Number,
            overdueTasks: Schema.Number
          })
        )
      }
    },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* onSpace(context, params.spaceId)
        const rows = yield* orDieSql(SpaceReads.workload(params.spaceId))
        const users = yield* orDieSql(userRefs(rows.map((r) => r.userId)))
        return {
          items: rows.map(({ userId, ...counts }) => ({ user: users.get(userId) ?? { id: userId, email: "", name: "" }, ...counts }))
        }
      })
  }),
  operation({
    operationId: "listSpaceArchive",
    method: "GET",
    path: "/v1/spaces/{spaceId}/archive",
    summary: "What is archived in a space: folders, lists and (the latest 100) tasks",
    auth: "both",
    scopes: read,
    params: SpaceParams,
    responses: {
      200: {
        description: "Archived items",
        schema: Schema.Struct({
          folders: Schema.Array(Folder),
          lists: Schema.Array(List),
          tasks: Schema.Array(Task),
          archivedTaskCount: Schema.Number
        })
      }
    },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* onSpace(context, params.spaceId)
        const folders = yield* orDieSql(Reads.listFolders(params.spaceId, "only"))
        const lists = yield* orDieSql(SpaceReads.archivedLists(params.spaceId))
        const tasks = yield* orDieSql(
          findTasks(
            { workspaceId: caller.at.workspaceId, viewer: caller.viewer, spaceIds: [params.spaceId], archived: "only" },
            { offset: 0, limit: 100, order: "updated", direction: "desc" }
          )
        )
        return { folders, lists, tasks: tasks.items, archivedTaskCount: tasks.total }
      })
  }),
  operation({
    operationId: "searchSpace",
    method: "GET",
    path: "/v1/spaces/{spaceId}/search",
    summary: "Find folders, lists and tasks of a space by name",
    auth: "both",
    scopes: read,
    params: SpaceParams,
    query: Schema.Struct({
      q: Name(200),
      limit: Schema.optionalKey(Schema.FiniteFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 50 })))
    }),
    responses: {
      200: {
        description: "Matches",
        schema: Schema.Struct({ folders: Schema.Array(Folder), lists: Schema.Array(List), tasks: Schema.Array(Task) })
      }
    },
    handler: ({ params, query: q }, context) =>
      Effect.gen(function* () {
        const caller = yield* onSpace(context, params.spaceId)
        const limit = q.limit ?? 20
        const { folders, lists } = yield* orDieSql(SpaceReads.searchFoldersAndLists(params.spaceId, q.q, limit))
        const tasks = yield* orDieSql(
          findTasks(
            { workspaceId: caller.at.workspaceId, viewer: caller.viewer, spaceIds: [params.spaceId], q: q.q },
            { offset: 0, limit, order: "updated", direction: "desc" }
          )
        )
        return { folders, lists, tasks: tasks.items }
      })
  }),
  operation({
    operationId: "exportSpaceTemplate",
    method: "GET",
    path: "/v1/spaces/{spaceId}/template",
    summary: "A space's structure as a template (statuses, fields, folders, lists; no ids, no tasks)",
    auth: "both",
    scopes: read,
    params: SpaceParams,
    responses: { 200: { description: "Template", schema: SpaceTemplate } },
    handler: ({ params }, context) => Effect.andThen(onSpace(context, params.spaceId), orDieSql(spaceTemplate(params.spaceId)))
  }),
  operation({
    operationId: "importSpaceTemplate",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/spaces/import",
    summary: "Create a space from a template",
    auth: "both",
    scopes: write,
    params: WorkspaceParams,
    body: SpaceImport,
    responses: { 201: { description: "Created", schema: Space } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId, "member")
        if (body.template.statuses?.length) yield* checkStatusSet(body.template.statuses, "body.template.statuses")
        for (const [index, folder] of (body.template.folders ?? []).entries()) {
          if (folder.statuses?.length) yield* checkStatusSet(folder.statuses, `body.template.folders.${index}.statuses`)
        }
        return yield* send(PmWorkspace, params.workspaceId, "importSpace", caller.userId, body)
      })
  }),
  operation({
    operationId: "getMySpacePermissions",
    method: "GET",
    path: "/v1/spaces/{spaceId}/permissions",
    summary: "What the caller may do in a space",
    auth: "both",
    scopes: read,
    params: SpaceParams,
    responses: {
      200: {
        description: "Permissions",
        schema: Schema.Struct({
          role: Schema.String,
          canRead: Schema.Boolean,
          canWrite: Schema.Boolean,
          canManage: Schema.Boolean,
          isPrivate: Schema.Boolean
        })
      }
    },
    handler: ({ params }, context) =>
      Effect.map(onSpace(context, params.spaceId), (caller) => ({
        role: caller.role,
        canRead: true,
        canWrite: atLeast(caller.role, "member"),
        canManage: caller.admin,
        isPrivate: caller.at.isPrivate
      }))
  })
]
