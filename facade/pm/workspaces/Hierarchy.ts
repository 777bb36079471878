/**
 * Reads across a workspace's hierarchy (tree, folders, short-id resolution,
 * search, archive, statuses, custom fields and tags) and the export and import
 * of its structure.
 */
import { Effect, Schema } from "effect"
import { Id, Timestamp } from "../../../actors/Fields.ts"
import { PmOrganization } from "../../../actors/pm/OrganizationActors.ts"
import { SpaceTemplate } from "../../../actors/pm/SpaceTemplate.ts"
import { spaceTemplate } from "../../../actors/pm/StructureCommands.ts"
import * as Reads from "../../../actors/pm/StructureReads.ts"
import { send } from "../../../actors/pm/WorkActor.ts"
import { PmWorkspace } from "../../../actors/pm/WorkActors.ts"
import * as WorkspaceReads from "../../../actors/pm/WorkspaceReads.ts"
import { DefaultViews, Features as WorkspaceFeatures, General } from "../../../actors/pm/WorkspaceConfig.ts"
import { effectiveAt, fieldsAt, outlineOf } from "../../../actors/pm/WorkspaceOutline.ts"
import { FieldType, ShortId, StatusType } from "../../../actors/pm/WorkRecords.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { raw, tagGroup } from "../../Operation.ts"
import { ArchivedQuery, inWorkspace, onFolder, onList, onSpace, onTask, orDieSql } from "../WorkAccess.ts"
import { tag, service, Items, WorkspaceParams, admin, partial, defined, summaryOf, configOfWorkspace } from "./shared.ts"
import { hierarchyExamples } from "./Hierarchy.examples.ts"

const StructureDocument = Schema.Struct({
  format: Schema.Literal("atrium.pm.workspace-structure"),
  version: Schema.Literal(1),
  exportedAt: Schema.optionalKey(Schema.String),
  workspace: Schema.optionalKey(
    Schema.Struct({
      name: Schema.optionalKey(Schema.String),
      settings: Schema.optionalKey(
        Schema.Struct({
          general: Schema.optionalKey(partial(General)),
          features: Schema.optionalKey(partial(WorkspaceFeatures)),
          defaultViews: Schema.optionalKey(partial(DefaultViews))
        })
      )
    })
  ),
  spaces: Schema.Array(SpaceTemplate).check(Schema.isMaxLength(100))
}).annotate({
  identifier: "WorkspaceStructure",
  description:
    "A workspace's structure without ids or tasks: spaces with their statuses, custom fields, folders and lists, and the workspace settings."
})

const LiteNode = Schema.Struct({ id: Id, shortId: Schema.String, name: Schema.String, archived: Schema.Boolean })
const HierarchyList = Schema.Struct({
  ...LiteNode.fields,
  statusesFrom: Schema.Literals(["space", "folder", "list"]),
  statusCount: Schema.Number,
  customFieldCount: Schema.Number,
  tasks: Schema.Number,
  unfinishedTasks: Schema.Number
})
const Hierarchy = Schema.Struct({
  workspace: Schema.Struct({ id: Id, name: Schema.String }),
  spaces: Schema.Array(
    Schema.Struct({
      ...LiteNode.fields,
      isPrivate: Schema.Boolean,
      folders: Schema.Array(Schema.Struct({ ...LiteNode.fields, lists: Schema.Array(HierarchyList) })),
      lists: Schema.Array(HierarchyList)
    })
  ),
  totals: Schema.Struct({ spaces: Schema.Number, folders: Schema.Number, lists: Schema.Number, tasks: Schema.Number })
}).annotate({ identifier: "WorkspaceHierarchy" })

const SearchHit = Schema.Struct({
  type: Schema.Literals(["space", "folder", "list", "task"]),
  id: Id,
  shortId: Schema.String,
  name: Schema.String,
  path: Schema.String,
  archived: Schema.Boolean
}).annotate({ identifier: "WorkspaceSearchHit" })

const FolderEntry = Schema.Struct({
  id: Id,
  shortId: Schema.String,
  name: Schema.String,
  spaceId: Id,
  space: Schema.String,
  lists: Schema.Number,
  archived: Schema.Boolean
}).annotate({ identifier: "WorkspaceFolderEntry" })
const Resolved = Schema.Struct({
  type: Schema.Literals(["space", "folder", "list", "task"]),
  id: Id,
  shortId: Schema.String,
  name: Schema.String,
  spaceId: Id,
  folderId: Schema.NullOr(Id),
  listId: Schema.NullOr(Id),
  path: Schema.String,
  archived: Schema.Boolean
}).annotate({ identifier: "ResolvedShortId" })

const { operation } = tagGroup(service, tag, hierarchyExamples)

export const workspaceHierarchyOperations = [
  operation({
    operationId: "getWorkspaceHierarchy",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/hierarchy",
    summary: "Everything under a workspace: spaces → folders → lists, where each list's statuses come from, its fields and task counts",
    auth: "both",
    scopes: ["tasks:read"],
    params: WorkspaceParams,
    query: Schema.Struct({ archived: Schema.optionalKey(ArchivedQuery) }),
    responses: { 200: { description: "The hierarchy", schema: Hierarchy } },
    handler: ({ params, query: q }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId)
        const workspace = yield* summaryOf(context, params.workspaceId)
        const onlyArchived = q.archived === "only"
        // "only": archived items, and the unarchived ancestors that hold them.
        const o = yield* orDieSql(
          outlineOf(params.workspaceId, caller.viewer, q.archived === undefined || q.archived === "exclude" ? "exclude" : "include")
        )
        const listNode = (l: (typeof o.lists)[number]) => {
          const chain = { spaceId: l.spaceId, folderId: l.folderId, listId: l.id }
          const statuses = effectiveAt(o, chain)
          return {
            id: l.id,
            shortId: l.shortId,
            name: l.name,
            archived: l.archived,
            statusesFrom: statuses.from,
            statusCount: statuses.items.length,
            customFieldCount: fieldsAt(o, chain).length,
            tasks: o.taskCounts.get(l.id)?.total ?? 0,
            unfinishedTasks: o.taskCounts.get(l.id)?.unfinished ?? 0
          }
        }
        const keepList = (l: (typeof o.lists)[number]) => !onlyArchived || l.archived
        const keepFolder = (f: (typeof o.folders)[number]) =>
          !onlyArchived || f.archived || o.lists.some((l) => l.folderId === f.id && l.archived)
        const keepSpace = (s: (typeof o.spaces)[number]) =>
          !onlyArchived ||
          s.archived ||
          o.folders.some((f) => f.spaceId === s.id && keepFolder(f)) ||
          o.lists.some((l) => l.spaceId === s.id && l.archived)
        const spaces = o.spaces.filter(keepSpace).map((s) => ({
          id: s.id,
          shortId: s.shortId,
          name: s.name,
          archived: s.archived,
          isPrivate: s.isPrivate,
          folders: o.folders
            .filter((f) => f.spaceId === s.id && keepFolder(f))
            .map((f) => ({
              id: f.id,
              shortId: f.shortId,
              name: f.name,
              archived: f.archived,
              lists: o.lists.filter((l) => l.folderId === f.id && keepList(l)).map(listNode)
            })),
          lists: o.lists.filter((l) => l.spaceId === s.id && l.folderId === null && keepList(l)).map(listNode)
        }))
        const lists = spaces.flatMap((s) => [...s.lists, ...s.folders.flatMap((f) => f.lists)])
        return {
          workspace: { id: params.workspaceId, name: workspace.name },
          spaces,
          totals: {
            spaces: spaces.length,
            folders: spaces.reduce((n, s) => n + s.folders.length, 0),
            lists: lists.length,
            tasks: lists.reduce((n, l) => n + l.tasks, 0)
          }
        }
      })
  }),
  operation({
    operationId: "listWorkspaceFolders",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/folders",
    summary: "Every folder of the workspace the caller can see, with its space and number of lists",
    auth: "both",
    scopes: ["tasks:read"],
    params: WorkspaceParams,
    query: Schema.Struct({ archived: Schema.optionalKey(ArchivedQuery) }),
    responses: { 200: { description: "Folders", schema: Items(FolderEntry) } },
    handler: ({ params, query: q }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId)
        const rows = yield* orDieSql(WorkspaceReads.workspaceFolders(params.workspaceId, caller.viewer, q.archived ?? "exclude"))
        return { items: rows }
      })
  }),
  operation({
    operationId: "resolveWorkspaceShortId",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/resolve/{shortId}",
    summary: "What a short id (S-1, F-2, L-3, T-42) names: its kind, id, name and place",
    auth: "both",
    scopes: ["tasks:read"],
    params: Schema.Struct({ workspaceId: Id, shortId: ShortId }),
    responses: { 200: { description: "Resolved", schema: Resolved }, 404: { description: "Nothing the caller can see has it" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* inWorkspace(context, params.workspaceId)
        const shortId = params.shortId.trim().toUpperCase()
        const prefix = shortId.split("-")[0]
        const notFound = reject("not_found", `Nothing has the short id ${shortId}`, [{ path: "path.shortId", message: "not found" }])
        const type =
          prefix === "S"
            ? ("space" as const)
            : prefix === "F"
              ? ("folder" as const)
              : prefix === "L"
                ? ("list" as const)
                : prefix === "T"
                  ? ("task" as const)
                  : undefined
        if (type === undefined) return yield* notFound
        const id = yield* orDieSql(WorkspaceReads.idByShortId(type, params.workspaceId, shortId))
        if (id === undefined) return yield* notFound
        const reach = type === "space" ? onSpace : type === "folder" ? onFolder : type === "list" ? onList : onTask
        const { at } = yield* reach(context, id).pipe(
          Effect.mapError((e) => (e._tag === "Rejection" && e.code === "not_found" ? notFound : e))
        )
        const n = (yield* orDieSql(WorkspaceReads.placeNames(at)))!
        const parts =
          type === "space" ? [] : type === "folder" ? [n.space] : type === "list" ? [n.space, n.folder] : [n.space, n.folder, n.list]
        const path = parts.filter((p): p is string => p !== null).join(" / ")
        return {
          type,
          id,
          shortId,
          name: n.name,
          spaceId: at.spaceId,
          folderId: at.folderId,
          listId: at.listId,
          path,
          archived: at.archived
        }
      })
  }),
  operation({
    operationId: "searchWorkspace",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/search",
    summary: "Find spaces, folders, lists and tasks by name (exact matches first, then prefixes, then the rest)",
    auth: "both",
    scopes: ["tasks:read"],
    params: WorkspaceParams,
    query: Schema.Struct({
      q: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200), Schema.isPattern(/\S/, { expected: "a non-blank text" })),
      types: Schema.optionalKey(
        Schema.String.check(
          Schema.isPattern(/^(space|folder|list|task)(,(space|folder|list|task))*$/, {
            expected: "kinds separated by commas: space,folder,list,task"
          })
        )
      ),
      includeArchived: Schema.optionalKey(Schema.Literals(["true", "false"])),
      limit: Schema.optionalKey(Schema.FiniteFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 100 })))
    }),
    responses: { 200: { description: "Matches", schema: Items(SearchHit) } },
    handler: ({ params, query: q }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId)
        const types = q.types ? q.types.split(",") : ["space", "folder", "list", "task"]
        const archived = q.includeArchived === "true"
        const text = q.q.trim().toLowerCase()
        const rows = yield* orDieSql(
          WorkspaceReads.searchByName(params.workspaceId, caller.viewer, { types, text, includeArchived: archived, limit: q.limit ?? 20 })
        )
        return {
          items: rows.map((r) => ({
            type: r.type,
            id: r.id,
            shortId: r.shortId,
            name: r.name,
            archived: r.archived,
            path: r.type === "space" ? "" : [r.space, r.folder, r.list].filter((p): p is string => p !== null).join(" / ")
          }))
        }
      })
  }),
  operation({
    operationId: "listWorkspaceArchive",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/archived",
    summary: "The workspace's archived spaces, folders and lists (what can be restored), with their places",
    auth: "both",
    scopes: ["tasks:read"],
    params: WorkspaceParams,
    responses: {
      200: {
        description: "Archived items",
        schema: Schema.Struct({
          spaces: Schema.Array(
            Schema.Struct({ id: Id, shortId: Schema.String, name: Schema.String, archivedAt: Schema.NullOr(Timestamp) })
          ),
          folders: Schema.Array(
            Schema.Struct({
              id: Id,
              shortId: Schema.String,
              name: Schema.String,
              space: Schema.String,
              archivedAt: Schema.NullOr(Timestamp)
            })
          ),
          lists: Schema.Array(
            Schema.Struct({
              id: Id,
              shortId: Schema.String,
              name: Schema.String,
              path: Schema.String,
              archivedAt: Schema.NullOr(Timestamp)
            })
          ),
          archivedTasks: Schema.Number
        }).annotate({ identifier: "WorkspaceArchive" })
      }
    },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId)
        const spaces = yield* orDieSql(Reads.listSpaces(params.workspaceId, caller.viewer, "only"))
        const folders = yield* orDieSql(WorkspaceReads.archivedFolders(params.workspaceId, caller.viewer))
        const lists = yield* orDieSql(Reads.listAllLists(params.workspaceId, caller.viewer, "only"))
        const archivedTasks = yield* orDieSql(WorkspaceReads.archivedTaskCount(params.workspaceId, caller.viewer))
        return {
          spaces: spaces.map((s) => ({ id: s.id, shortId: s.shortId, name: s.name, archivedAt: s.archivedAt })),
          folders,
          lists: lists.map((l) => ({
            id: l.id,
            shortId: l.shortId,
            name: l.name,
            path: [l.spaceName, l.folderName].filter((p): p is string => p !== null).join(" / "),
            archivedAt: l.archivedAt
          })),
          archivedTasks
        }
      })
  }),
  operation({
    operationId: "exportWorkspaceStructure",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/export",
    summary:
      "Download the workspace's structure as JSON: settings and every space the caller can see with its statuses, custom fields, folders and lists (no tasks)",
    auth: "both",
    scopes: ["tasks:read"],
    params: WorkspaceParams,
    responses: { 200: { description: "The structure (a JSON file)", schema: StructureDocument, contentType: "application/json" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId)
        const workspace = yield* summaryOf(context, params.workspaceId)
        const config = yield* configOfWorkspace(params.workspaceId)
        const spaces = yield* orDieSql(Reads.listSpaces(params.workspaceId, caller.viewer))
        const templates = yield* orDieSql(Effect.forEach(spaces, (s) => spaceTemplate(s.id)))
        const document = {
          format: "atrium.pm.workspace-structure",
          version: 1,
          exportedAt: new Date().toISOString(),
          workspace: {
            name: workspace.name,
            settings: { general: config.general, features: config.features, defaultViews: config.defaultViews }
          },
          spaces: templates
        }
        const filename = `${workspace.name.replace(/[^\w.-]+/g, "_").slice(0, 60) || "workspace"}-structure.json`
        return raw("application/json; charset=utf-8", JSON.stringify(document, null, 2), {
          "content-disposition": `attachment; filename="${filename}"`
        })
      })
  }),
  operation({
    operationId: "importWorkspaceStructure",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/import",
    summary:
      "Create spaces (with statuses, custom fields, folders and lists) from an exported structure, and optionally take its settings (admin)",
    auth: "both",
    scopes: ["workspaces:write", "tasks:write"],
    params: WorkspaceParams,
    body: Schema.Struct({
      structure: StructureDocument,
      applySettings: Schema.optionalKey(
        Schema.Boolean.annotate({ description: "Also take its preferences, features and default views (default false)" })
      )
    }),
    responses: {
      201: {
        description: "Created",
        schema: Schema.Struct({
          spaces: Schema.Array(Schema.Struct({ id: Id, shortId: Schema.String, name: Schema.String })),
          settingsApplied: Schema.Boolean
        }).annotate({ identifier: "WorkspaceImportResult" })
      }
    },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* admin(context, params.workspaceId)
        for (const [index, space] of body.structure.spaces.entries()) {
          const sets = [
            [`body.structure.spaces.${index}.statuses`, space.statuses] as const,
            ...(space.folders ?? []).map((f, i) => [`body.structure.spaces.${index}.folders.${i}.statuses`, f.statuses] as const)
          ]
          for (const [path, statuses] of sets) {
            if (statuses !== undefined && statuses.length > 0 && !statuses.some((s) => s.type === "open")) {
              return yield* reject("invalid", "A workflow needs an open status", [{ path, message: "no status of type open" }])
            }
          }
        }
        const created: Array<{ id: string; shortId: string; name: string }> = []
        for (const template of body.structure.spaces) {
          const space = (yield* send(PmWorkspace, params.workspaceId, "importSpace", caller.userId, { template })) as {
            id: string
            shortId: string
            name: string
          }
          created.push({ id: space.id, shortId: space.shortId, name: space.name })
        }
        const settings = body.structure.workspace?.settings
        if (body.applySettings && settings) {
          for (const section of ["general", "features", "defaultViews"] as const) {
            const patch = settings[section]
            if (patch && Object.keys(patch).length > 0)
              yield* send(PmOrganization, params.workspaceId, "updateSection", caller.userId, { section, patch: defined(patch) })
          }
        }
        return { spaces: created, settingsApplied: Boolean(body.applySettings && settings) }
      })
  }),
  operation({
    operationId: "listWorkspaceStatuses",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/statuses",
    summary: "Every workflow status used in the workspace, by name: its type, colors, where it is defined and how many tasks are in it",
    auth: "both",
    scopes: ["tasks:read"],
    params: WorkspaceParams,
    responses: {
      200: {
        description: "Statuses",
        schema: Items(
          Schema.Struct({
            name: Schema.String,
            types: Schema.Array(StatusType),
            colors: Schema.Array(Schema.String),
            definedIn: Schema.Array(
              Schema.Struct({ scopeType: Schema.Literals(["space", "folder", "list"]), scopeId: Id, name: Schema.String })
            ),
            tasks: Schema.Number
          }).annotate({ identifier: "WorkspaceStatusUsage" })
        )
      }
    },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId)
        const outline = yield* orDieSql(outlineOf(params.workspaceId, caller.viewer, "include"))
        const scopeName = new Map<string, { type: "space" | "folder" | "list"; name: string }>([
          ...outline.spaces.map((s) => [s.id, { type: "space" as const, name: s.name }] as const),
          ...outline.folders.map((f) => [f.id, { type: "folder" as const, name: f.name }] as const),
          ...outline.lists.map((l) => [l.id, { type: "list" as const, name: l.name }] as const)
        ])
        const taskCount = yield* orDieSql(WorkspaceReads.taskCountsByStatus(params.workspaceId, caller.viewer))
        const byName = new Map<
          string,
          {
            name: string
            types: Set<string>
            colors: Set<string>
            definedIn: Array<{ scopeType: "space" | "folder" | "list"; scopeId: string; name: string }>
          }
        >()
        for (const [scopeId, statuses] of outline.statuses) {
          const scope = scopeName.get(scopeId)
          if (scope === undefined) continue
          for (const status of statuses) {
            const key = status.name.toLowerCase()
            const entry = byName.get(key) ?? { name: status.name, types: new Set(), colors: new Set(), definedIn: [] }
            entry.types.add(status.type)
            entry.colors.add(status.color)
            entry.definedIn.push({ scopeType: scope.type, scopeId, name: scope.name })
            byName.set(key, entry)
          }
        }
        return {
          items: [...byName.entries()]
            .map(([key, e]) => ({
              name: e.name,
              types: [...e.types] as Array<"open">,
              colors: [...e.colors],
              definedIn: e.definedIn,
              tasks: taskCount.get(key) ?? 0
            }))
            .sort((a, b) => b.definedIn.length - a.definedIn.length || a.name.localeCompare(b.name))
        }
      })
  }),
  operation({
    operationId: "listWorkspaceCustomFields",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/custom-fields",
    summary: "Every custom field defined in the workspace: where, its type and options, and how many tasks have a value",
    auth: "both",
    scopes: ["tasks:read"],
    params: WorkspaceParams,
    query: Schema.Struct({ type: Schema.optionalKey(FieldType) }),
    responses: {
      200: {
        description: "Fields",
        schema: Items(
          Schema.Struct({
            id: Id,
            name: Schema.String,
            type: FieldType,
            required: Schema.Boolean,
            options: Schema.Array(Schema.String),
            scopeType: Schema.Literals(["space", "folder", "list"]),
            scopeId: Id,
            scopeName: Schema.String,
            space: Schema.String,
            values: Schema.Number
          }).annotate({ identifier: "WorkspaceCustomField" })
        )
      }
    },
    handler: ({ params, query: q }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId)
        const outline = yield* orDieSql(outlineOf(params.workspaceId, caller.viewer, "include"))
        const spaceOf = new Map<string, { name: string; space: string }>([
          ...outline.spaces.map((s) => [s.id, { name: s.name, space: s.name }] as const),
          ...outline.folders.map(
            (f) => [f.id, { name: f.name, space: outline.spaces.find((s) => s.id === f.spaceId)?.name ?? "" }] as const
          ),
          ...outline.lists.map((l) => [l.id, { name: l.name, space: outline.spaces.find((s) => s.id === l.spaceId)?.name ?? "" }] as const)
        ])
        const fields = [...outline.fields.values()]
          .flat()
          .filter((f) => spaceOf.has(f.scopeId) && (q.type === undefined || f.type === q.type))
        const valueCount = yield* orDieSql(WorkspaceReads.fieldValueCounts(fields.map((f) => f.id)))
        return {
          items: fields.map((f) => ({
            id: f.id,
            name: f.name,
            type: f.type,
            required: f.required,
            options: (f.config.options ?? []).map((o) => o.name),
            scopeType: f.scopeType,
            scopeId: f.scopeId,
            scopeName: spaceOf.get(f.scopeId)!.name,
            space: spaceOf.get(f.scopeId)!.space,
            values: valueCount.get(f.id) ?? 0
          }))
        }
      })
  }),
  operation({
    operationId: "listWorkspaceTags",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/tags",
    summary: "Every tag of the workspace's spaces the caller can see, with how many tasks carry it",
    auth: "both",
    scopes: ["tasks:read"],
    params: WorkspaceParams,
    responses: {
      200: {
        description: "Tags",
        schema: Items(
          Schema.Struct({
            id: Id,
            name: Schema.String,
            color: Schema.String,
            spaceId: Id,
            space: Schema.String,
            tasks: Schema.Number
          }).annotate({ identifier: "WorkspaceTag" })
        )
      }
    },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId)
        const rows = yield* orDieSql(WorkspaceReads.workspaceTags(params.workspaceId, caller.viewer))
        return { items: rows }
      })
  })
]
