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
import { type InputOf, send } from "../../actors/pm/WorkActor.ts"
import { PmList, PmSpace, PmWorkspace } from "../../actors/pm/WorkActors.ts"
import { type CustomField, FieldType, type ScopeType, StatusType } from "../../actors/pm/WorkRecords.ts"
import { reject } from "../../runtime/Rejection.ts"
import { type RequestContext, tagGroup } from "../Operation.ts"
import { chainOfCaller, listByNames, listWhere, NameRef, WorkspaceRef } from "./LiteShared.ts"
import { inWorkspace, onFolder, onList, onSpace, orDieSql } from "./WorkAccess.ts"
import { structureLiteExamples } from "./StructureLite.examples.ts"
const write = ["tasks:write"]
const read = ["tasks:read"]

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
  input: InputOf<PropertyCommands[K]>
) =>
  // Both kinds run the property commands; typed by that table alone, the command and its input check.
  send<PropertyCommands, K>(
    scope.scopeType === "list" ? PmList : PmSpace,
    scope.scopeType === "list" ? scope.caller.at.listId! : scope.caller.at.spaceId,
    command,
    by,
    input
  )

const listView = (listId: string) =>
  Effect.gen(function* () {
    const list = yield* Reads.getList(listId)
    const space = yield* Reads.getSpace(list.spaceId)
    const folder = list.folderId ? yield* Reads.getFolder(list.folderId) : undefined
    return { id: list.id, shortId: list.shortId, name: list.name, space: space.name, folder: folder?.name ?? null }
  })

const { operation } = tagGroup("pm", "Structure (Lite)", structureLiteExamples)

export const structureLiteOperations = [
  operation({
    operationId: "createSpaceLite",
    method: "POST",
    path: "/v1/lite/spaces",
    summary: "Create a space by name (names are unique per workspace here)",
    auth: "both",
    scopes: write,
    body: Schema.Struct({ workspaceId: WorkspaceRef, name: Name(), isPrivate: Schema.optionalKey(Schema.Boolean) }),
    responses: { 201: { description: "Created", schema: LiteSpace }, 409: { description: "A space of that name exists" } },
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
    operationId: "createStatusLite",
    method: "POST",
    path: "/v1/lite/statuses",
    summary: "Add a status to the workflow of a space, folder or list named by name",
    description: "A folder or list inheriting its statuses gets its own copy first.",
    auth: "both",
    scopes: write,
    body: Schema.Struct({ ...Where, name: Name(64), type: StatusType }),
    responses: { 201: { description: "The workflow there now", schema: Schema.Struct({ items: Schema.Array(LiteStatus) }) } },
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
