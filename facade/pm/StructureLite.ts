/**
 * pm tag "Structure (Lite)" (10): the hierarchy by names — create spaces,
 * folders, lists, statuses and custom fields (and options) naming where they
 * go, read the structure as a tree of names, resolve a list to its ids,
 * statuses and fields, rename folders and lists. Unknown names answer 404
 * naming them; ambiguous ones 409 listing the candidates. Writes go through
 * the same workspace, space and list actors as the full tags.
 */
import { Effect, Schema } from "effect"
import { Id, Name } from "../../actors/Fields.ts"
import { availableFields } from "../../actors/pm/CustomFields.ts"
import { resolveField, resolveFolder, resolveSpace } from "../../actors/pm/NameResolution.ts"
import type { propertyCommands } from "../../actors/pm/Properties.ts"
import { effectiveStatuses } from "../../actors/pm/Statuses.ts"
import * as Reads from "../../actors/pm/StructureReads.ts"
import { send } from "../../actors/pm/WorkActor.ts"
import { PmList, PmSpace, PmWorkspace } from "../../actors/pm/WorkActors.ts"
import { type CustomField, FieldType, type ScopeType, StatusType } from "../../actors/pm/WorkRecords.ts"
import type { ActorError } from "../../runtime/ActorError.ts"
import type { ActorSystem } from "../../runtime/ActorSystem.ts"
import { reject, type Rejection } from "../../runtime/Rejection.ts"
import { operation, type RequestContext } from "../Operation.ts"
import { chainOfCaller, listByNames, listWhere, NameRef, WorkspaceRef } from "./LiteShared.ts"
import { exampleIds as ids, inWorkspace, onFolder, onList, onSpace, orDieSql } from "./WorkAccess.ts"

const tag = "Structure (Lite)"
const service = "pm"
const write = ["tasks:write"]
const read = ["tasks:read"]
const ws = ids.workspace

const LiteSpace = Schema.Struct({ id: Id, shortId: Schema.String, name: Schema.String, isPrivate: Schema.Boolean }).annotate({
  identifier: "LiteSpace"
})
const LiteFolder = Schema.Struct({ id: Id, shortId: Schema.String, name: Schema.String, space: Schema.String }).annotate({
  identifier: "LiteFolder"
})
const LiteList = Schema.Struct({
  id: Id,
  shortId: Schema.String,
  name: Schema.String,
  space: Schema.String,
  folder: Schema.NullOr(Schema.String)
}).annotate({ identifier: "LiteList" })
const LiteField = Schema.Struct({
  id: Id,
  name: Schema.String,
  type: FieldType,
  required: Schema.Boolean,
  options: Schema.Array(Schema.String),
  definedOn: Schema.String
}).annotate({ identifier: "LiteCustomField" })
const LiteStatus = Schema.Struct({ name: Schema.String, type: StatusType }).annotate({ identifier: "LiteStatus" })

const exampleSpace = { id: ids.space, shortId: "S-1", name: "Engineering", isPrivate: false }
const exampleFolder = { id: ids.folder, shortId: "F-1", name: "Q4 roadmap", space: "Engineering" }
const exampleList = { id: ids.list, shortId: "L-1", name: "Backlog", space: "Engineering", folder: "Q4 roadmap" }
const exampleField = {
  id: ids.field,
  name: "Environment",
  type: "dropdown",
  required: false,
  options: ["production", "staging"],
  definedOn: "space Engineering"
}

const liteField = (field: CustomField, scopeName: string) => ({
  id: field.id,
  name: field.name,
  type: field.type,
  required: field.required,
  options: (field.config.options ?? []).map((o) => o.name),
  definedOn: `${field.scopeType} ${scopeName}`
})

const Where = {
  workspaceId: WorkspaceRef,
  space: NameRef,
  folder: Schema.optionalKey(NameRef),
  list: Schema.optionalKey(NameRef)
}

/** The deepest level a request names (space, then folder, then list), as the caller may touch it. */
const scopeByNames = (
  context: RequestContext,
  where: { workspaceId: string; space: string; folder?: string; list?: string },
  minimum: "viewer" | "member"
) =>
  Effect.gen(function* () {
    const caller = yield* inWorkspace(context, where.workspaceId)
    const space = yield* orDieSql(resolveSpace(where.workspaceId, caller.viewer, where.space, "body.space"))
    const folder = where.folder === undefined ? undefined : yield* orDieSql(resolveFolder(space.id, where.folder, "body.folder"))
    if (where.list !== undefined) {
      const list = yield* listWhere(where.workspaceId, caller.viewer, space.id, folder?.id, { ...where, list: where.list }, "body")
      return {
        scopeType: "list" as ScopeType,
        scopeId: list.id,
        scopeName: list.name,
        spaceName: space.name,
        caller: yield* onList(context, list.id, minimum)
      }
    }
    if (folder !== undefined)
      return {
        scopeType: "folder" as ScopeType,
        scopeId: folder.id,
        scopeName: folder.name,
        spaceName: space.name,
        caller: yield* onFolder(context, folder.id, minimum)
      }
    return {
      scopeType: "space" as ScopeType,
      scopeId: space.id,
      scopeName: space.name,
      spaceName: space.name,
      caller: yield* onSpace(context, space.id, minimum)
    }
  })

type PropertyCommands = ReturnType<typeof propertyCommands>

const sendProperty = <K extends "createField" | "addFieldOption" | "createStatus">(
  scope: { scopeType: ScopeType; caller: { at: { spaceId: string; listId: string | null } } },
  command: K,
  by: string,
  input: PropertyCommands[K]["input"]["Type"]
) =>
  (scope.scopeType === "list"
    ? send(PmList, scope.caller.at.listId!, command as never, by, input as never)
    : send(PmSpace, scope.caller.at.spaceId, command as never, by, input as never)) as Effect.Effect<
    PropertyCommands[K]["success"]["Type"],
    Rejection | ActorError,
    ActorSystem
  >

const listView = (listId: string) =>
  Effect.gen(function* () {
    const list = yield* Reads.getList(listId)
    const space = yield* Reads.getSpace(list.spaceId)
    const folder = list.folderId ? yield* Reads.getFolder(list.folderId) : undefined
    return { id: list.id, shortId: list.shortId, name: list.name, space: space.name, folder: folder?.name ?? null }
  })

export const structureLiteOperations = [
  operation({
    service,
    tag,
    operationId: "createSpaceLite",
    method: "POST",
    path: "/v1/lite/spaces",
    summary: "Create a space by name (names are unique per workspace here)",
    auth: "both",
    scopes: write,
    body: Schema.Struct({ workspaceId: WorkspaceRef, name: Name(), isPrivate: Schema.optionalKey(Schema.Boolean) }),
    responses: { 201: { description: "Created", schema: LiteSpace }, 409: { description: "A space of that name exists" } },
    examples: [
      { name: "create", request: { body: { workspaceId: ws, name: "Engineering" } }, response: { status: 201, body: exampleSpace } }
    ],
    handler: ({ body }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, body.workspaceId, "member")
        const existing = yield* orDieSql(Reads.listSpaces(body.workspaceId, { userId: caller.userId, admin: true }))
        if (existing.some((s) => s.name.toLowerCase() === body.name.trim().toLowerCase())) {
          return yield* reject("conflict", `A space named "${body.name.trim()}" exists; names identify spaces in Lite calls`, [
            { path: "body.name", message: "already exists" }
          ])
        }
        const space = (yield* send(PmWorkspace, body.workspaceId, "createSpace", caller.userId, {
          name: body.name,
          ...(body.isPrivate ? { isPrivate: true } : {})
        })) as { id: string; shortId: string; name: string; isPrivate: boolean }
        return { id: space.id, shortId: space.shortId, name: space.name, isPrivate: space.isPrivate }
      })
  }),
  operation({
    service,
    tag,
    operationId: "createFolderLite",
    method: "POST",
    path: "/v1/lite/folders",
    summary: "Create a folder in a space named by name",
    auth: "both",
    scopes: write,
    body: Schema.Struct({
      workspaceId: WorkspaceRef,
      space: NameRef,
      name: Name(),
      description: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(5000)))
    }),
    responses: {
      201: { description: "Created", schema: LiteFolder },
      404: { description: "No such space" },
      409: { description: "Ambiguous space, or a folder of that name exists" }
    },
    examples: [
      {
        name: "create",
        request: { body: { workspaceId: ws, space: "Engineering", name: "Q4 roadmap" } },
        response: { status: 201, body: exampleFolder }
      }
    ],
    handler: ({ body }, context) =>
      Effect.gen(function* () {
        const scope = yield* scopeByNames(context, { workspaceId: body.workspaceId, space: body.space }, "member")
        const folders = yield* orDieSql(Reads.listFolders(scope.scopeId))
        if (folders.some((f) => f.name.toLowerCase() === body.name.trim().toLowerCase())) {
          return yield* reject("conflict", `A folder named "${body.name.trim()}" exists in ${scope.spaceName}`, [
            { path: "body.name", message: "already exists" }
          ])
        }
        const folder = (yield* send(PmSpace, scope.scopeId, "createFolder", scope.caller.userId, {
          name: body.name,
          ...(body.description ? { description: body.description } : {})
        })) as { id: string; shortId: string; name: string }
        return { id: folder.id, shortId: folder.shortId, name: folder.name, space: scope.spaceName }
      })
  }),
  operation({
    service,
    tag,
    operationId: "createListLite",
    method: "POST",
    path: "/v1/lite/lists",
    summary: "Create a list in a space (and folder) named by name",
    auth: "both",
    scopes: write,
    body: Schema.Struct({
      workspaceId: WorkspaceRef,
      space: NameRef,
      folder: Schema.optionalKey(NameRef),
      name: Name(),
      description: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(5000)))
    }),
    responses: {
      201: { description: "Created", schema: LiteList },
      404: { description: "No such space or folder" },
      409: { description: "Ambiguous name, or a list of that name exists there" }
    },
    examples: [
      {
        name: "create",
        request: { body: { workspaceId: ws, space: "Engineering", folder: "Q4 roadmap", name: "Backlog" } },
        response: { status: 201, body: exampleList }
      }
    ],
    handler: ({ body }, context) =>
      Effect.gen(function* () {
        const scope = yield* scopeByNames(
          context,
          { workspaceId: body.workspaceId, space: body.space, ...(body.folder ? { folder: body.folder } : {}) },
          "member"
        )
        const folderId = scope.scopeType === "folder" ? scope.scopeId : null
        const siblings = yield* orDieSql(Reads.listLists({ spaceId: scope.caller.at.spaceId, folderId }))
        if (siblings.some((l) => l.name.toLowerCase() === body.name.trim().toLowerCase())) {
          return yield* reject("conflict", `A list named "${body.name.trim()}" exists there`, [
            { path: "body.name", message: "already exists" }
          ])
        }
        const list = (yield* send(PmSpace, scope.caller.at.spaceId, "createList", scope.caller.userId, {
          name: body.name,
          folderId,
          ...(body.description ? { description: body.description } : {})
        })) as { id: string }
        return yield* orDieSql(listView(list.id))
      })
  }),
  operation({
    service,
    tag,
    operationId: "createCustomFieldLite",
    method: "POST",
    path: "/v1/lite/custom-fields",
    summary: "Define a custom field on a space, folder or list named by name (options by name)",
    auth: "both",
    scopes: write,
    body: Schema.Struct({
      ...Where,
      name: Name(100),
      type: FieldType,
      required: Schema.optionalKey(Schema.Boolean),
      options: Schema.optionalKey(Schema.Array(Name(100)).check(Schema.isMaxLength(200))),
      currency: Schema.optionalKey(Schema.String.check(Schema.isPattern(/^[A-Z]{3}$/, { expected: "an ISO 4217 code such as USD" })))
    }),
    responses: {
      201: { description: "Created", schema: LiteField },
      409: { description: "A field of that name applies there already, or an ambiguous name" }
    },
    examples: [
      {
        name: "dropdown",
        request: {
          body: { workspaceId: ws, space: "Engineering", name: "Environment", type: "dropdown", options: ["production", "staging"] }
        },
        response: { status: 201, body: exampleField }
      }
    ],
    handler: ({ body }, context) =>
      Effect.gen(function* () {
        const scope = yield* scopeByNames(context, body, "member")
        const field = (yield* sendProperty(scope, "createField", scope.caller.userId, {
          scopeType: scope.scopeType,
          scopeId: scope.scopeId,
          name: body.name,
          type: body.type,
          ...(body.required !== undefined ? { required: body.required } : {}),
          ...(body.options ? { options: body.options.map((name) => ({ name })) } : {}),
          ...(body.currency ? { currency: body.currency } : {})
        })) as CustomField
        return liteField(field, scope.scopeName)
      })
  }),
  operation({
    service,
    tag,
    operationId: "addCustomFieldOptionLite",
    method: "POST",
    path: "/v1/lite/custom-fields/options",
    summary: "Add an option to a dropdown or labels field named by name",
    auth: "both",
    scopes: write,
    body: Schema.Struct({
      ...Where,
      field: NameRef,
      option: Name(100),
      color: Schema.optionalKey(Schema.String.check(Schema.isPattern(/^#[0-9a-fA-F]{6}$/, { expected: "a #rrggbb color" })))
    }),
    responses: { 201: { description: "The field", schema: LiteField } },
    examples: [
      {
        name: "add-option",
        request: { body: { workspaceId: ws, space: "Engineering", field: "Environment", option: "staging" } },
        response: { status: 201, body: exampleField }
      }
    ],
    handler: ({ body }, context) =>
      Effect.gen(function* () {
        const scope = yield* scopeByNames(context, body, "member")
        const field = yield* orDieSql(resolveField(chainOfCaller(scope.caller.at), body.field, "body.field"))
        // The option goes where the field is defined, which may be above the named level (same space).
        const updated = (yield* sendProperty({ scopeType: field.scopeType, caller: scope.caller }, "addFieldOption", scope.caller.userId, {
          scopeType: field.scopeType,
          scopeId: field.scopeId,
          fieldId: field.id,
          name: body.option,
          ...(body.color ? { color: body.color } : {})
        })) as CustomField
        return liteField(updated, field.scopeType === scope.scopeType ? scope.scopeName : field.scopeType)
      })
  }),
  operation({
    service,
    tag,
    operationId: "createStatusLite",
    method: "POST",
    path: "/v1/lite/statuses",
    summary: "Add a status to the workflow of a space, folder or list named by name",
    description: "A folder or list inheriting its statuses gets its own copy first.",
    auth: "both",
    scopes: write,
    body: Schema.Struct({ ...Where, name: Name(64), type: StatusType }),
    responses: { 201: { description: "The workflow there now", schema: Schema.Struct({ items: Schema.Array(LiteStatus) }) } },
    examples: [
      {
        name: "review",
        request: { body: { workspaceId: ws, space: "Engineering", list: "Backlog", name: "in review", type: "active" } },
        response: {
          status: 201,
          body: {
            items: [
              { name: "to do", type: "open" },
              { name: "in review", type: "active" },
              { name: "done", type: "done" }
            ]
          }
        }
      }
    ],
    handler: ({ body }, context) =>
      Effect.gen(function* () {
        const scope = yield* scopeByNames(context, body, "member")
        yield* sendProperty(scope, "createStatus", scope.caller.userId, {
          scopeType: scope.scopeType,
          scopeId: scope.scopeId,
          name: body.name,
          type: body.type
        })
        const chain = chainOfCaller(scope.caller.at)
        return { items: (yield* orDieSql(effectiveStatuses(chain))).items.map((s) => ({ name: s.name, type: s.type })) }
      })
  }),
  operation({
    service,
    tag,
    operationId: "getStructureLite",
    method: "GET",
    path: "/v1/lite/structure",
    summary: "The hierarchy as names and short ids: spaces → folders → lists (one space when named)",
    auth: "both",
    scopes: read,
    query: Schema.Struct({ workspaceId: WorkspaceRef, space: Schema.optionalKey(NameRef) }),
    responses: {
      200: {
        description: "The tree",
        schema: Schema.Struct({
          spaces: Schema.Array(
            Schema.Struct({
              name: Schema.String,
              shortId: Schema.String,
              folders: Schema.Array(
                Schema.Struct({
                  name: Schema.String,
                  shortId: Schema.String,
                  lists: Schema.Array(Schema.Struct({ name: Schema.String, shortId: Schema.String, openTasks: Schema.Number }))
                })
              ),
              lists: Schema.Array(Schema.Struct({ name: Schema.String, shortId: Schema.String, openTasks: Schema.Number }))
            })
          )
        }).annotate({ identifier: "LiteStructure" })
      }
    },
    examples: [
      {
        name: "tree",
        request: { query: { workspaceId: ws } },
        response: {
          status: 200,
          body: {
            spaces: [
              {
                name: "Engineering",
                shortId: "S-1",
                folders: [{ name: "Q4 roadmap", shortId: "F-1", lists: [{ name: "Backlog", shortId: "L-1", openTasks: 8 }] }],
                lists: []
              }
            ]
          }
        }
      }
    ],
    handler: ({ query: q }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, q.workspaceId)
        const spaces =
          q.space === undefined
            ? yield* orDieSql(Reads.listSpaces(q.workspaceId, caller.viewer))
            : [
                yield* orDieSql(
                  Effect.flatMap(resolveSpace(q.workspaceId, caller.viewer, q.space, "query.space"), (s) => Reads.getSpace(s.id))
                )
              ]
        const trees = yield* orDieSql(Effect.forEach(spaces, (space) => Reads.spaceTree(space)))
        const list = (l: { name: string; shortId: string; taskCounts: Reads.TaskCounts }) => ({
          name: l.name,
          shortId: l.shortId,
          openTasks: l.taskCounts.open + l.taskCounts.active
        })
        return {
          spaces: trees.map((t) => ({
            name: t.name,
            shortId: t.shortId,
            folders: t.folders.map((f) => ({ name: f.name, shortId: f.shortId, lists: f.lists.map(list) })),
            lists: t.lists.map(list)
          }))
        }
      })
  }),
  operation({
    service,
    tag,
    operationId: "resolveListLite",
    method: "GET",
    path: "/v1/lite/lists/resolve",
    summary: "Resolve a list by names to its ids, statuses and custom fields (what a task there may use)",
    auth: "both",
    scopes: read,
    query: Schema.Struct({
      workspaceId: WorkspaceRef,
      space: Schema.optionalKey(NameRef),
      folder: Schema.optionalKey(NameRef),
      list: NameRef
    }),
    responses: {
      200: {
        description: "The list",
        schema: Schema.Struct({
          ...LiteList.fields,
          spaceId: Id,
          folderId: Schema.NullOr(Id),
          statuses: Schema.Array(LiteStatus),
          customFields: Schema.Array(LiteField)
        }).annotate({ identifier: "LiteResolvedList" })
      }
    },
    examples: [
      {
        name: "resolve",
        request: { query: { workspaceId: ws, space: "Engineering", list: "Backlog" } },
        response: {
          status: 200,
          body: {
            ...exampleList,
            spaceId: ids.space,
            folderId: ids.folder,
            statuses: [
              { name: "to do", type: "open" },
              { name: "done", type: "done" }
            ],
            customFields: [exampleField]
          }
        }
      }
    ],
    handler: ({ query: q }, context) =>
      Effect.gen(function* () {
        const caller = yield* listByNames(context, q.workspaceId, q, "viewer", "query")
        const chain = chainOfCaller(caller.at)
        const view = yield* orDieSql(listView(caller.at.listId!))
        const statuses = yield* orDieSql(effectiveStatuses(chain))
        const fields = yield* orDieSql(availableFields(chain))
        return {
          ...view,
          spaceId: caller.at.spaceId,
          folderId: caller.at.folderId,
          statuses: statuses.items.map((s) => ({ name: s.name, type: s.type })),
          customFields: fields.map((f) =>
            liteField(f, f.scopeType === "list" ? view.name : f.scopeType === "folder" ? (view.folder ?? "") : view.space)
          )
        }
      })
  }),
  operation({
    service,
    tag,
    operationId: "updateFolderLite",
    method: "PATCH",
    path: "/v1/lite/folders",
    summary: "Rename or describe a folder named by space and folder name",
    auth: "both",
    scopes: write,
    body: Schema.Struct({
      workspaceId: WorkspaceRef,
      space: NameRef,
      folder: NameRef,
      newName: Schema.optionalKey(Name()),
      description: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(5000)))
    }),
    responses: { 200: { description: "Updated", schema: LiteFolder } },
    examples: [
      {
        name: "rename",
        request: { body: { workspaceId: ws, space: "Engineering", folder: "Q4 roadmap", newName: "2027 roadmap" } },
        response: { status: 200, body: { ...exampleFolder, name: "2027 roadmap" } }
      }
    ],
    handler: ({ body }, context) =>
      Effect.gen(function* () {
        const scope = yield* scopeByNames(context, body, "member")
        const folder = (yield* send(PmSpace, scope.caller.at.spaceId, "updateFolder", scope.caller.userId, {
          folderId: scope.scopeId,
          ...(body.newName ? { name: body.newName } : {}),
          ...(body.description !== undefined ? { description: body.description } : {})
        })) as { id: string; shortId: string; name: string }
        return { id: folder.id, shortId: folder.shortId, name: folder.name, space: scope.spaceName }
      })
  }),
  operation({
    service,
    tag,
    operationId: "updateListLite",
    method: "PATCH",
    path: "/v1/lite/lists",
    summary: "Rename or describe a list named by names",
    auth: "both",
    scopes: write,
    body: Schema.Struct({
      workspaceId: WorkspaceRef,
      space: Schema.optionalKey(NameRef),
      folder: Schema.optionalKey(NameRef),
      list: NameRef,
      newName: Schema.optionalKey(Name()),
      description: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(5000)))
    }),
    responses: { 200: { description: "Updated", schema: LiteList } },
    examples: [
      {
        name: "rename",
        request: { body: { workspaceId: ws, space: "Engineering", list: "Backlog", newName: "Icebox" } },
        response: { status: 200, body: { ...exampleList, name: "Icebox" } }
      }
    ],
    handler: ({ body }, context) =>
      Effect.gen(function* () {
        const caller = yield* listByNames(context, body.workspaceId, body, "member")
        yield* send(PmList, caller.at.listId!, "updateList", caller.userId, {
          ...(body.newName ? { name: body.newName } : {}),
          ...(body.description !== undefined ? { description: body.description } : {})
        })
        return yield* orDieSql(listView(caller.at.listId!))
      })
  })
]
