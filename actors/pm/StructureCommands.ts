/**
 * Writes of the work hierarchy's structure — spaces, folders, lists, their
 * order, archive state, settings and templates — as commands of the actor
 * that owns each: the workspace (spaces, moves across spaces), the space
 * (its folders and lists) and the list (itself).
 */
import { Effect, Schema } from "effect"
import { Id, Name } from "../Fields.ts"
import { query } from "../../persistence/Sql.ts"
import { NotWorkspaceMembers, PlaceNotFound } from "./PmErrors.ts"
import type { Change } from "./ChangeLog.ts"
import { change, notifyUsers } from "./Changes.ts"
import { fieldsOfScope } from "./CustomFields.ts"
import { locateFolder, locateList, locateSpace } from "./Locate.ts"
import { requireMembers } from "./Members.ts"
import { nextShortId } from "./ShortIds.ts"
import { type FieldTemplate, type FolderTemplate, type ListTemplate, SpaceTemplate } from "./SpaceTemplate.ts"
import { checkStatusSet, defaultStatuses, effectiveStatuses, insertStatuses, ownStatuses, remapTasks, StatusInput } from "./Statuses.ts"
import { getFolder, getList, getSpace, listColumns, toList } from "./StructureReads.ts"
import { command } from "./WorkActor.ts"
import {
  AlreadySpaceMember,
  ArchivedAlready,
  DuplicateStatusName,
  FolderInOtherSpace,
  NotAPermutation,
  NotSpaceMember,
  SpaceNotPrivate,
  StartAfterDue,
  WorkflowIncomplete
} from "./WorkErrors.ts"
import { Color, DateTime, Features, FeaturesPatch, Folder, List, Priority, type ScopeType, Space, TaskDefaults } from "./WorkRecords.ts"

const nextPosition = (table: "pm_spaces" | "pm_folders" | "pm_lists", column: string, id: string | null, extra = "") =>
  Effect.map(
    query<{ position: number }>(
      `SELECT COALESCE(MAX(position), 0) + 1 AS position FROM ${table} WHERE ${id === null ? `${column} IS NULL` : `${column} = $1`} AND deleted_at IS NULL ${extra}`,
      id === null ? [] : [id]
    ),
    (rows) => Number(rows[0]!.position)
  )

const changedFields = (patch: object) => Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined))

/** Sets positions 1..n in the given order; `ids` must be exactly the current members of the set. */
const reorder = (
  table: "pm_spaces" | "pm_folders" | "pm_lists",
  current: ReadonlyArray<string>,
  ids: ReadonlyArray<string>,
  path: string
) =>
  Effect.gen(function* () {
    const known = new Set(current)
    if (ids.length !== known.size || new Set(ids).size !== ids.length || ids.some((id) => !known.has(id))) {
      return yield* new NotAPermutation({ field: path, every: "item", of: "the current items" })
    }
    for (const [index, id] of ids.entries()) yield* query(`UPDATE ${table} SET position = $2 WHERE id = $1`, [id, index + 1])
  })

// ---------------------------------------------------------------------------
// Templates (`SpaceTemplate.ts`): a space's structure read back, and created anew.

const statusTemplates = (scopeType: ScopeType, scopeId: string) =>
  Effect.map(ownStatuses(scopeType, scopeId), (items) => items.map((s) => ({ name: s.name, type: s.type, color: s.color })))

const fieldTemplates = (scopeType: ScopeType, scopeId: string) =>
  Effect.map(fieldsOfScope(scopeType, scopeId), (items) =>
    items.map((f) => ({ name: f.name, type: f.type, description: f.description, required: f.required, config: f.config }))
  )

const listTemplate = (listId: string) =>
  Effect.gen(function* () {
    const list = yield* getList(listId)
    const statuses = yield* statusTemplates("list", list.id)
    return {
      name: list.name,
      description: list.description,
      color: list.color,
      ...(statuses.length > 0 ? { statuses } : {}),
      customFields: yield* fieldTemplates("list", list.id)
    } satisfies ListTemplate
  })

const folderTemplate = (folderId: string) =>
  Effect.gen(function* () {
    const folder = yield* getFolder(folderId)
    const statuses = yield* statusTemplates("folder", folder.id)
    const lists = yield* query<{ id: string }>(
      `SELECT id FROM pm_lists WHERE folder_id = $1 AND deleted_at IS NULL AND archived_at IS NULL ORDER BY position`,
      [folder.id]
    )
    return {
      name: folder.name,
      description: folder.description,
      color: folder.color,
      ...(statuses.length > 0 ? { statuses } : {}),
      customFields: yield* fieldTemplates("folder", folder.id),
      lists: yield* Effect.forEach(lists, (l) => listTemplate(l.id))
    } satisfies FolderTemplate
  })

/** The structure of a space as a template (archived folders and lists left out). */
export const spaceTemplate = (spaceId: string) =>
  Effect.gen(function* () {
    const space = yield* getSpace(spaceId)
    const folders = yield* query<{ id: string }>(
      `SELECT id FROM pm_folders WHERE space_id = $1 AND deleted_at IS NULL AND archived_at IS NULL ORDER BY position`,
      [space.id]
    )
    const lists = yield* query<{ id: string }>(
      `SELECT id FROM pm_lists WHERE space_id = $1 AND folder_id IS NULL AND deleted_at IS NULL AND archived_at IS NULL ORDER BY position`,
      [space.id]
    )
    return {
      name: space.name,
      description: space.description,
      color: space.color,
      features: space.features,
      taskDefaults: space.taskDefaults,
      statuses: yield* statusTemplates("space", space.id),
      customFields: yield* fieldTemplates("space", space.id),
      folders: yield* Effect.forEach(folders, (f) => folderTemplate(f.id)),
      lists: yield* Effect.forEach(lists, (l) => listTemplate(l.id))
    } satisfies SpaceTemplate
  })

const insertFields = (workspaceId: string, scopeType: ScopeType, scopeId: string, fields: ReadonlyArray<FieldTemplate>, by: string) =>
  Effect.forEach(
    fields,
    (field, index) => {
      const config = field.config ?? {}
      // Options get fresh ids: values never travel with a template.
      const fresh = config.options
        ? { ...config, options: config.options.map((o) => ({ id: crypto.randomUUID(), name: o.name, color: o.color ?? null })) }
        : config
      return query(
        `INSERT INTO pm_custom_fields (id, workspace_id, scope_type, scope_id, name, type, description, required, config, position, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        [
          crypto.randomUUID(),
          workspaceId,
          scopeType,
          scopeId,
          field.name,
          field.type,
          field.description ?? "",
          field.required ?? false,
          fresh,
          index + 1,
          by
        ]
      )
    },
    { discard: true }
  )

interface NewList {
  readonly workspaceId: string
  readonly spaceId: string
  readonly folderId: string | null
  readonly name: string
  readonly description?: string
  readonly color?: string | null
  readonly priority?: Priority | null
  readonly startDate?: string | null
  readonly dueDate?: string | null
  readonly ownerId?: string | null
  readonly statuses?: ReadonlyArray<StatusInput>
  readonly customFields?: ReadonlyArray<FieldTemplate>
}

export const insertList = (input: NewList, by: string) =>
  Effect.gen(function* () {
    if (input.ownerId) yield* requireMembers(input.workspaceId, [input.ownerId], "body.ownerId")
    if (input.startDate && input.dueDate && input.startDate > input.dueDate) {
      return yield* new StartAfterDue({ field: "body.startDate" })
    }
    const id = crypto.randomUUID()
    const shortId = yield* nextShortId(input.workspaceId, "L")
    const position = yield* nextPosition(
      "pm_lists",
      input.folderId ? "folder_id" : "space_id",
      input.folderId ?? input.spaceId,
      input.folderId ? "" : "AND folder_id IS NULL"
    )
    const [row] = yield* query<any>(
      `INSERT INTO pm_lists AS l (id, workspace_id, space_id, folder_id, short_id, name, description, color, priority, start_date, due_date, owner_id, position, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING ${listColumns}`,
      [
        id,
        input.workspaceId,
        input.spaceId,
        input.folderId,
        shortId,
        input.name.trim(),
        input.description ?? "",
        input.color ?? null,
        input.priority ?? null,
        input.startDate ?? null,
        input.dueDate ?? null,
        input.ownerId ?? null,
        position,
        by
      ]
    )
    const chain = { workspaceId: input.workspaceId, spaceId: input.spaceId, folderId: input.folderId, listId: id }
    if (input.statuses?.length) yield* insertStatuses(chain, "list", id, input.statuses)
    if (input.customFields?.length) yield* insertFields(input.workspaceId, "list", id, input.customFields, by)
    const list = toList({ ...row, ownStatuses: (input.statuses?.length ?? 0) > 0 })
    const changes = [
      change(
        { workspaceId: list.workspaceId, spaceId: list.spaceId, listId: list.id },
        "list.created",
        list.id,
        { name: list.name, folderId: list.folderId, shortId: list.shortId },
        by
      )
    ]
    return { list, changes }
  })

const insertFolder = (
  input: {
    workspaceId: string
    spaceId: string
    name: string
    description?: string
    color?: string | null
    statuses?: ReadonlyArray<StatusInput>
    customFields?: ReadonlyArray<FieldTemplate>
  },
  by: string
) =>
  Effect.gen(function* () {
    const id = crypto.randomUUID()
    const shortId = yield* nextShortId(input.workspaceId, "F")
    const position = yield* nextPosition("pm_folders", "space_id", input.spaceId)
    yield* query(
      `INSERT INTO pm_folders (id, workspace_id, space_id, short_id, name, description, color, position, created_by) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [id, input.workspaceId, input.spaceId, shortId, input.name.trim(), input.description ?? "", input.color ?? null, position, by]
    )
    if (input.statuses?.length)
      yield* insertStatuses(
        { workspaceId: input.workspaceId, spaceId: input.spaceId, folderId: id, listId: null },
        "folder",
        id,
        input.statuses
      )
    if (input.customFields?.length) yield* insertFields(input.workspaceId, "folder", id, input.customFields, by)
    const folder = yield* getFolder(id)
    return {
      folder,
      changes: [
        change({ workspaceId: input.workspaceId, spaceId: input.spaceId }, "folder.created", id, { name: folder.name, shortId }, by)
      ] as Array<Change>
    }
  })

/** Creates a space from a template (the structure only: statuses, fields, folders, lists). */
export const insertSpace = (workspaceId: string, template: SpaceTemplate & { readonly isPrivate?: boolean }, by: string) =>
  Effect.gen(function* () {
    const id = crypto.randomUUID()
    const shortId = yield* nextShortId(workspaceId, "S")
    const position = yield* nextPosition("pm_spaces", "workspace_id", workspaceId)
    yield* query(
      `INSERT INTO pm_spaces (id, workspace_id, short_id, name, description, color, is_private, position, features, task_defaults, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        id,
        workspaceId,
        shortId,
        template.name.trim(),
        template.description ?? "",
        template.color ?? null,
        template.isPrivate ?? false,
        position,
        template.features ?? {},
        template.taskDefaults ?? {},
        by
      ]
    )
    if (template.isPrivate) yield* query(`INSERT INTO pm_space_members (space_id, user_id, added_by) VALUES ($1, $2, $2)`, [id, by])
    const chain = { workspaceId, spaceId: id, folderId: null, listId: null }
    yield* insertStatuses(chain, "space", id, template.statuses?.length ? template.statuses : defaultStatuses)
    yield* insertFields(workspaceId, "space", id, template.customFields ?? [], by)
    const changes: Array<Change> = [
      change(
        { workspaceId, spaceId: id },
        "space.created",
        id,
        { name: template.name.trim(), shortId, isPrivate: template.isPrivate ?? false },
        by
      )
    ]
    for (const folderTemplate of template.folders ?? []) {
      const created = yield* insertFolder({ workspaceId, spaceId: id, ...folderTemplate }, by)
      changes.push(...created.changes)
      for (const list of folderTemplate.lists ?? [])
        changes.push(...(yield* insertList({ workspaceId, spaceId: id, folderId: created.folder.id, ...list }, by)).changes)
    }
    for (const list of template.lists ?? [])
      changes.push(...(yield* insertList({ workspaceId, spaceId: id, folderId: null, ...list }, by)).changes)
    return { space: yield* getSpace(id), changes }
  })

// ---------------------------------------------------------------------------
// Workspace actor: spaces, and moves that cross spaces.

const Description = Schema.String.check(Schema.isMaxLength(5000))

export const SpaceInput = Schema.Struct({
  name: Name(),
  description: Schema.optionalKey(Description),
  color: Schema.optionalKey(Schema.NullOr(Color)),
  isPrivate: Schema.optionalKey(Schema.Boolean),
  statuses: Schema.optionalKey(Schema.Array(StatusInput).check(Schema.isMinLength(2), Schema.isMaxLength(50))),
  features: Schema.optionalKey(FeaturesPatch)
})

export const SpaceImport = Schema.Struct({
  template: SpaceTemplate,
  name: Schema.optionalKey(Name()),
  isPrivate: Schema.optionalKey(Schema.Boolean)
})

const Nothing = Schema.Struct({})
const FolderRef = Schema.Struct({ folderId: Id })
export const MemberInput = Schema.Struct({ userId: Id })
/** A copy's name (default "<name> (copy)"). */
export const CopyInput = Schema.Struct({ name: Schema.optionalKey(Name()) })
/** An order: every id of the set, once each. */
const Order = Schema.Array(Id).check(Schema.isMaxLength(500))
export const SpaceOrder = Schema.Struct({ spaceIds: Order })
export const FolderOrder = Schema.Struct({ folderIds: Order })
export const FolderMove = Schema.Struct({ spaceId: Id })
export const ListMove = Schema.Struct({ spaceId: Schema.optionalKey(Id), folderId: Schema.optionalKey(Schema.NullOr(Id)) })
export const ListCopy = Schema.Struct({ ...CopyInput.fields, folderId: Schema.optionalKey(Schema.NullOr(Id)) })

const ensureStatusSet = (statuses: ReadonlyArray<StatusInput> | undefined) =>
  statuses === undefined ? Effect.void : checkStatusSet(statuses)

/** Re-points every task of `listIds` after they moved: new space, and statuses the new place lacks. */
const afterListsMoved = (listIds: ReadonlyArray<string>, before: Map<string, ReadonlyArray<{ name: string; type: any }>>, by: string) =>
  Effect.gen(function* () {
    let moved = 0
    for (const listId of listIds) {
      const list = yield* getList(listId)
      yield* query(`UPDATE pm_tasks SET space_id = $2 WHERE list_id = $1 AND space_id <> $2`, [listId, list.spaceId])
      // Values of fields no longer defined above the list are dropped.
      yield* query(
        `DELETE FROM pm_task_custom_values v USING pm_custom_fields f, pm_tasks t
          WHERE v.field_id = f.id AND v.task_id = t.id AND t.list_id = $1 AND f.scope_type <> 'list'
            AND NOT ((f.scope_type = 'space' AND f.scope_id = $2) OR (f.scope_type = 'folder' AND f.scope_id = $3))`,
        [listId, list.spaceId, list.folderId ?? ""]
      )
      // Tags belong to spaces: each tag follows under the same name in the new space (created there when missing).
      yield* query(
        `INSERT INTO pm_tags (id, workspace_id, space_id, name, color, created_by)
         SELECT DISTINCT ON (lower(og.name)) gen_random_uuid()::text, og.workspace_id, $2, og.name, og.color, $3
           FROM pm_task_tags tt JOIN pm_tags og ON og.id = tt.tag_id JOIN pm_tasks t ON t.id = tt.task_id
          WHERE t.list_id = $1 AND og.space_id <> $2
          ORDER BY lower(og.name)
         ON CONFLICT DO NOTHING`,
        [listId, list.spaceId, by]
      )
      yield* query(
        `INSERT INTO pm_task_tags (task_id, tag_id)
         SELECT tt.task_id, ng.id FROM pm_task_tags tt JOIN pm_tags og ON og.id = tt.tag_id JOIN pm_tasks t ON t.id = tt.task_id
           JOIN pm_tags ng ON ng.space_id = $2 AND lower(ng.name) = lower(og.name)
          WHERE t.list_id = $1 AND og.space_id <> $2 ON CONFLICT DO NOTHING`,
        [listId, list.spaceId]
      )
      yield* query(
        `DELETE FROM pm_task_tags tt USING pm_tags g, pm_tasks t WHERE tt.tag_id = g.id AND tt.task_id = t.id AND t.list_id = $1 AND g.space_id <> $2`,
        [listId, list.spaceId]
      )
      const after = yield* effectiveStatuses({ workspaceId: list.workspaceId, spaceId: list.spaceId, folderId: list.folderId, listId })
      moved += yield* remapTasks([listId], before.get(listId) ?? [], after.items, by)
    }
    return moved
  })

const statusesBefore = (listIds: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const map = new Map<string, ReadonlyArray<{ name: string; type: any }>>()
    for (const listId of listIds) {
      const list = yield* getList(listId)
      map.set(
        listId,
        (yield* effectiveStatuses({ workspaceId: list.workspaceId, spaceId: list.spaceId, folderId: list.folderId, listId })).items
      )
    }
    return map
  })

const inWorkspace =
  <A extends { workspaceId: string }>(workspaceId: string, what: string) =>
  (located: A) =>
    located.workspaceId === workspaceId ? Effect.succeed(located) : Effect.fail(new PlaceNotFound({ what }))

// What structure commands may be refused with: a place that is not there, and these.
const StatusSetRefused = [DuplicateStatusName, WorkflowIncomplete] as const

export const workspaceStructureCommands = {
  createSpace: command(
    SpaceInput,
    Space,
    Schema.Union([PlaceNotFound, NotWorkspaceMembers, StartAfterDue, ...StatusSetRefused]),
    (input, by, workspaceId) =>
      Effect.gen(function* () {
        yield* ensureStatusSet(input.statuses)
        const { space, changes } = yield* insertSpace(workspaceId, input, by)
        return { result: space, changes }
      })
  ),

  reorderSpaces: command(SpaceOrder, Schema.Struct({ spaceIds: Schema.Array(Id) }), NotAPermutation, (input, by, workspaceId) =>
    Effect.gen(function* () {
      const current = yield* query<{ id: string }>(
        `SELECT id FROM pm_spaces WHERE workspace_id = $1 AND deleted_at IS NULL AND archived_at IS NULL`,
        [workspaceId]
      )
      yield* reorder(
        "pm_spaces",
        current.map((r) => r.id),
        input.spaceIds,
        "body.spaceIds"
      )
      return {
        result: { spaceIds: input.spaceIds },
        changes: [change({ workspaceId }, "spaces.reordered", workspaceId, { order: input.spaceIds }, by)]
      }
    })
  ),

  importSpace: command(
    SpaceImport,
    Space,
    Schema.Union([PlaceNotFound, NotWorkspaceMembers, StartAfterDue, ...StatusSetRefused]),
    (input, by, workspaceId) =>
      Effect.gen(function* () {
        yield* ensureStatusSet(input.template.statuses?.length ? input.template.statuses : undefined)
        const { space, changes } = yield* insertSpace(
          workspaceId,
          { ...input.template, ...(input.name ? { name: input.name } : {}), isPrivate: input.isPrivate ?? false },
          by
        )
        return { result: space, changes }
      })
  ),

  duplicateSpace: command(
    Schema.Struct({ spaceId: Id, ...CopyInput.fields }),
    Space,
    Schema.Union([PlaceNotFound, NotWorkspaceMembers, StartAfterDue]),
    (input, by, workspaceId) =>
      Effect.gen(function* () {
        const source = yield* getSpace(input.spaceId)
        if (source.workspaceId !== workspaceId) return yield* new PlaceNotFound({ what: "space" })
        const template = yield* spaceTemplate(source.id)
        const { space, changes } = yield* insertSpace(
          workspaceId,
          { ...template, name: input.name ?? `${source.name} (copy)`, isPrivate: source.isPrivate },
          by
        )
        return {
          result: space,
          changes: [...changes, change({ workspaceId, spaceId: space.id }, "space.duplicated", space.id, { from: source.id }, by)]
        }
      })
  ),

  moveFolder: command(Schema.Struct({ folderId: Id, ...FolderMove.fields }), Folder, PlaceNotFound, (input, by, workspaceId) =>
    Effect.gen(function* () {
      const folder = yield* Effect.flatMap(locateFolder(input.folderId), inWorkspace(workspaceId, "folder"))
      yield* Effect.flatMap(locateSpace(input.spaceId), inWorkspace(workspaceId, "space"))
      if (folder.spaceId === input.spaceId) return { result: yield* getFolder(input.folderId), changes: [] }
      const lists = (yield* query<{ id: string }>(`SELECT id FROM pm_lists WHERE folder_id = $1 AND deleted_at IS NULL`, [
        input.folderId
      ])).map((r) => r.id)
      const before = yield* statusesBefore(lists)
      const position = yield* nextPosition("pm_folders", "space_id", input.spaceId)
      yield* query(`UPDATE pm_folders SET space_id = $2, position = $3, updated_at = now() WHERE id = $1`, [
        input.folderId,
        input.spaceId,
        position
      ])
      yield* query(`UPDATE pm_lists SET space_id = $2, updated_at = now() WHERE folder_id = $1`, [input.folderId, input.spaceId])
      const moved = yield* afterListsMoved(lists, before, by)
      return {
        result: yield* getFolder(input.folderId),
        changes: [
          change(
            { workspaceId, spaceId: folder.spaceId },
            "folder.moved",
            input.folderId,
            { fromSpaceId: folder.spaceId, toSpaceId: input.spaceId, tasksRemapped: moved },
            by
          ),
          change(
            { workspaceId, spaceId: input.spaceId },
            "folder.moved",
            input.folderId,
            { fromSpaceId: folder.spaceId, toSpaceId: input.spaceId },
            by
          )
        ]
      }
    })
  ),

  moveList: command(
    Schema.Struct({ listId: Id, ...ListMove.fields }),
    List,
    Schema.Union([PlaceNotFound, FolderInOtherSpace]),
    (input, by, workspaceId) =>
      Effect.gen(function* () {
        const list = yield* Effect.flatMap(locateList(input.listId), inWorkspace(workspaceId, "list"))
        let spaceId = input.spaceId ?? list.spaceId
        const folderId: string | null =
          input.folderId === undefined ? (input.spaceId && input.spaceId !== list.spaceId ? null : list.folderId) : input.folderId
        if (folderId !== null) {
          const folder = yield* Effect.flatMap(locateFolder(folderId), inWorkspace(workspaceId, "folder"))
          if (input.spaceId && folder.spaceId !== input.spaceId) {
            return yield* new FolderInOtherSpace({ of: "spaceId" })
          }
          spaceId = folder.spaceId
        } else {
          yield* Effect.flatMap(locateSpace(spaceId), inWorkspace(workspaceId, "space"))
        }
        if (spaceId === list.spaceId && folderId === list.folderId) return { result: yield* getList(input.listId), changes: [] }
        const before = yield* statusesBefore([input.listId])
        const position = yield* nextPosition(
          "pm_lists",
          folderId ? "folder_id" : "space_id",
          folderId ?? spaceId,
          folderId ? "" : "AND folder_id IS NULL"
        )
        yield* query(`UPDATE pm_lists SET space_id = $2, folder_id = $3, position = $4, updated_at = now() WHERE id = $1`, [
          input.listId,
          spaceId,
          folderId,
          position
        ])
        const moved = yield* afterListsMoved([input.listId], before, by)
        const data = { from: { spaceId: list.spaceId, folderId: list.folderId }, to: { spaceId, folderId }, tasksRemapped: moved }
        return {
          result: yield* getList(input.listId),
          changes: [
            change({ workspaceId, spaceId: list.spaceId, listId: list.listId }, "list.moved", input.listId, data, by),
            ...(spaceId !== list.spaceId
              ? [change({ workspaceId, spaceId, listId: input.listId }, "list.moved", input.listId, data, by)]
              : [])
          ]
        }
      })
  )
}

// ---------------------------------------------------------------------------
// Space actor: the space itself, its folders, and creating its lists.

export const SpacePatch = Schema.Struct({
  name: Schema.optionalKey(Name()),
  description: Schema.optionalKey(Description),
  color: Schema.optionalKey(Schema.NullOr(Color)),
  isPrivate: Schema.optionalKey(Schema.Boolean)
})

export const FolderInput = Schema.Struct({
  name: Name(),
  description: Schema.optionalKey(Description),
  color: Schema.optionalKey(Schema.NullOr(Color)),
  statuses: Schema.optionalKey(Schema.Array(StatusInput).check(Schema.isMinLength(2), Schema.isMaxLength(50)))
})

export const FolderPatch = Schema.Struct({
  name: Schema.optionalKey(Name()),
  description: Schema.optionalKey(Description),
  color: Schema.optionalKey(Schema.NullOr(Color))
})

/** What a list has besides its name (dates normalized to ISO by the caller). */
const ListFields = {
  description: Schema.optionalKey(Description),
  color: Schema.optionalKey(Schema.NullOr(Color)),
  priority: Schema.optionalKey(Schema.NullOr(Priority)),
  startDate: Schema.optionalKey(Schema.NullOr(DateTime)),
  dueDate: Schema.optionalKey(Schema.NullOr(DateTime)),
  ownerId: Schema.optionalKey(Schema.NullOr(Id))
}

export const ListInput = Schema.Struct({ name: Name(), ...ListFields })
export const ListPatch = Schema.Struct({ name: Schema.optionalKey(Name()), ...ListFields })

const spaceWhere = (workspaceId: string, spaceId: string) => ({ workspaceId, spaceId })

/** The folder, which must be in this space. */
const folderOf = (spaceId: string, folderId: string) =>
  Effect.flatMap(locateFolder(folderId), (f) =>
    f.spaceId === spaceId ? Effect.succeed(f) : Effect.fail(new PlaceNotFound({ what: "folder" }))
  )

const setArchived = (table: "pm_spaces" | "pm_folders" | "pm_lists", id: string, archived: boolean) =>
  query(`UPDATE ${table} SET archived_at = ${archived ? "now()" : "NULL"}, updated_at = now() WHERE id = $1`, [id])

/** Soft-deletes rows and everything below them (deleted items are never found again). */
const cascadeDelete = (column: "space_id" | "folder_id" | "id", id: string, table: "pm_spaces" | "pm_folders" | "pm_lists", by: string) =>
  Effect.gen(function* () {
    if (table === "pm_spaces") {
      yield* query(`UPDATE pm_spaces SET deleted_at = now() WHERE id = $1`, [id])
      yield* query(`UPDATE pm_folders SET deleted_at = now() WHERE space_id = $1 AND deleted_at IS NULL`, [id])
    }
    if (table === "pm_folders") yield* query(`UPDATE pm_folders SET deleted_at = now() WHERE id = $1`, [id])
    const lists = yield* query<{ id: string }>(
      `UPDATE pm_lists SET deleted_at = now() WHERE ${column === "id" ? "id" : column} = $1 AND deleted_at IS NULL RETURNING id`,
      [id]
    )
    const tasks = yield* query<{ id: string }>(
      `UPDATE pm_tasks SET deleted_at = now(), deleted_by = $2 WHERE list_id = ANY($1::text[]) AND deleted_at IS NULL RETURNING id`,
      [lists.map((l) => l.id), by]
    )
    return { lists: lists.length, tasks: tasks.length }
  })

export const spaceStructureCommands = {
  updateSpace: command(SpacePatch, Space, PlaceNotFound, (patch, by, spaceId) =>
    Effect.gen(function* () {
      const space = yield* getSpace(spaceId)
      yield* query(`UPDATE pm_spaces SET name = $2, description = $3, color = $4, is_private = $5, updated_at = now() WHERE id = $1`, [
        spaceId,
        patch.name?.trim() ?? space.name,
        patch.description ?? space.description,
        patch.color === undefined ? space.color : patch.color,
        patch.isPrivate ?? space.isPrivate
      ])
      // Whoever makes a space private stays in it.
      if (patch.isPrivate && !space.isPrivate)
        yield* query(`INSERT INTO pm_space_members (space_id, user_id, added_by) VALUES ($1, $2, $2) ON CONFLICT DO NOTHING`, [spaceId, by])
      return {
        result: yield* getSpace(spaceId),
        changes: [change(spaceWhere(space.workspaceId, spaceId), "space.updated", spaceId, changedFields(patch), by)]
      }
    })
  ),

  archiveSpace: command(Nothing, Space, Schema.Union([PlaceNotFound, ArchivedAlready]), (_, by, spaceId) =>
    Effect.gen(function* () {
      const space = yield* getSpace(spaceId)
      if (space.archived) return yield* new ArchivedAlready({ what: "space", archived: true })
      yield* setArchived("pm_spaces", spaceId, true)
      return {
        result: yield* getSpace(spaceId),
        changes: [change(spaceWhere(space.workspaceId, spaceId), "space.archived", spaceId, {}, by)]
      }
    })
  ),

  restoreSpace: command(Nothing, Space, Schema.Union([PlaceNotFound, ArchivedAlready]), (_, by, spaceId) =>
    Effect.gen(function* () {
      const space = yield* getSpace(spaceId)
      if (!space.archived) return yield* new ArchivedAlready({ what: "space", archived: false })
      yield* setArchived("pm_spaces", spaceId, false)
      return {
        result: yield* getSpace(spaceId),
        changes: [change(spaceWhere(space.workspaceId, spaceId), "space.restored", spaceId, {}, by)]
      }
    })
  ),

  deleteSpace: command(Nothing, Schema.Void, PlaceNotFound, (_, by, spaceId) =>
    Effect.gen(function* () {
      const space = yield* getSpace(spaceId)
      const counts = yield* cascadeDelete("space_id", spaceId, "pm_spaces", by)
      return {
        result: undefined,
        changes: [change(spaceWhere(space.workspaceId, spaceId), "space.deleted", spaceId, { name: space.name, ...counts }, by)]
      }
    })
  ),

  updateFeatures: command(FeaturesPatch, Features, PlaceNotFound, (patch, by, spaceId) =>
    Effect.gen(function* () {
      const space = yield* getSpace(spaceId)
      const features = { ...space.features, ...changedFields(patch) }
      yield* query(`UPDATE pm_spaces SET features = $2, updated_at = now() WHERE id = $1`, [spaceId, features])
      return {
        result: features,
        changes: [change(spaceWhere(space.workspaceId, spaceId), "space.features_updated", spaceId, changedFields(patch), by)]
      }
    })
  ),

  updateTaskDefaults: command(TaskDefaults, TaskDefaults, Schema.Union([PlaceNotFound, NotWorkspaceMembers]), (patch, by, spaceId) =>
    Effect.gen(function* () {
      const space = yield* getSpace(spaceId)
      if (patch.assigneeIds) yield* requireMembers(space.workspaceId, patch.assigneeIds, "body.assigneeIds")
      const defaults = { ...space.taskDefaults, ...patch }
      yield* query(`UPDATE pm_spaces SET task_defaults = $2, updated_at = now() WHERE id = $1`, [spaceId, defaults])
      return {
        result: defaults,
        changes: [change(spaceWhere(space.workspaceId, spaceId), "space.task_defaults_updated", spaceId, { ...patch }, by)]
      }
    })
  ),

  addMember: command(
    MemberInput,
    MemberInput,
    Schema.Union([PlaceNotFound, NotWorkspaceMembers, SpaceNotPrivate, AlreadySpaceMember]),
    (input, by, spaceId) =>
      Effect.gen(function* () {
        const space = yield* getSpace(spaceId)
        if (!space.isPrivate) return yield* new SpaceNotPrivate()
        yield* requireMembers(space.workspaceId, [input.userId], "body.userId")
        const added = yield* query(
          `INSERT INTO pm_space_members (space_id, user_id, added_by) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING user_id`,
          [spaceId, input.userId, by]
        )
        if (added.length === 0) return yield* new AlreadySpaceMember()
        return {
          result: { userId: input.userId },
          changes: [
            change(
              spaceWhere(space.workspaceId, spaceId),
              "space.member_added",
              spaceId,
              { userId: input.userId },
              by,
              notifyUsers([input.userId], "watching", `You were added to the space ${space.name}`, by)
            )
          ]
        }
      })
  ),

  removeMember: command(MemberInput, Schema.Void, Schema.Union([PlaceNotFound, NotSpaceMember]), (input, by, spaceId) =>
    Effect.gen(function* () {
      const space = yield* getSpace(spaceId)
      const removed = yield* query(`DELETE FROM pm_space_members WHERE space_id = $1 AND user_id = $2 RETURNING user_id`, [
        spaceId,
        input.userId
      ])
      if (removed.length === 0) return yield* new NotSpaceMember()
      return {
        result: undefined,
        changes: [change(spaceWhere(space.workspaceId, spaceId), "space.member_removed", spaceId, { userId: input.userId }, by)]
      }
    })
  ),

  createFolder: command(FolderInput, Folder, Schema.Union([PlaceNotFound, ...StatusSetRefused]), (input, by, spaceId) =>
    Effect.gen(function* () {
      const space = yield* getSpace(spaceId)
      yield* ensureStatusSet(input.statuses)
      const { folder, changes } = yield* insertFolder({ workspaceId: space.workspaceId, spaceId, ...input }, by)
      return { result: folder, changes }
    })
  ),

  updateFolder: command(Schema.Struct({ folderId: Id, ...FolderPatch.fields }), Folder, PlaceNotFound, (input, by, spaceId) =>
    Effect.gen(function* () {
      const { folderId, ...patch } = input
      yield* folderOf(spaceId, folderId)
      const folder = yield* getFolder(folderId)
      yield* query(`UPDATE pm_folders SET name = $2, description = $3, color = $4, updated_at = now() WHERE id = $1`, [
        folderId,
        patch.name?.trim() ?? folder.name,
        patch.description ?? folder.description,
        patch.color === undefined ? folder.color : patch.color
      ])
      return {
        result: yield* getFolder(folderId),
        changes: [change(spaceWhere(folder.workspaceId, spaceId), "folder.updated", folderId, changedFields(patch), by)]
      }
    })
  ),

  archiveFolder: command(
    Schema.Struct({ folderId: Id, archived: Schema.Boolean }),
    Folder,
    Schema.Union([PlaceNotFound, ArchivedAlready]),
    (input, by, spaceId) =>
      Effect.gen(function* () {
        yield* folderOf(spaceId, input.folderId)
        const folder = yield* getFolder(input.folderId)
        if (folder.archived === input.archived) return yield* new ArchivedAlready({ what: "folder", archived: input.archived })
        yield* setArchived("pm_folders", input.folderId, input.archived)
        return {
          result: yield* getFolder(input.folderId),
          changes: [
            change(spaceWhere(folder.workspaceId, spaceId), input.archived ? "folder.archived" : "folder.restored", input.folderId, {}, by)
          ]
        }
      })
  ),

  deleteFolder: command(FolderRef, Schema.Void, PlaceNotFound, (input, by, spaceId) =>
    Effect.gen(function* () {
      const located = yield* folderOf(spaceId, input.folderId)
      const counts = yield* cascadeDelete("folder_id", input.folderId, "pm_folders", by)
      return {
        result: undefined,
        changes: [change(spaceWhere(located.workspaceId, spaceId), "folder.deleted", input.folderId, counts, by)]
      }
    })
  ),

  reorderFolders: command(
    FolderOrder,
    Schema.Struct({ folderIds: Schema.Array(Id) }),
    Schema.Union([PlaceNotFound, NotAPermutation]),
    (input, by, spaceId) =>
      Effect.gen(function* () {
        const space = yield* getSpace(spaceId)
        const current = yield* query<{ id: string }>(
          `SELECT id FROM pm_folders WHERE space_id = $1 AND deleted_at IS NULL AND archived_at IS NULL`,
          [spaceId]
        )
        yield* reorder(
          "pm_folders",
          current.map((r) => r.id),
          input.folderIds,
          "body.folderIds"
        )
        return {
          result: { folderIds: input.folderIds },
          changes: [change(spaceWhere(space.workspaceId, spaceId), "folders.reordered", spaceId, { order: input.folderIds }, by)]
        }
      })
  ),

  duplicateFolder: command(
    Schema.Struct({ folderId: Id, ...CopyInput.fields }),
    Folder,
    Schema.Union([PlaceNotFound, NotWorkspaceMembers, StartAfterDue]),
    (input, by, spaceId) =>
      Effect.gen(function* () {
        const located = yield* folderOf(spaceId, input.folderId)
        const template = yield* folderTemplate(input.folderId)
        const created = yield* insertFolder(
          { workspaceId: located.workspaceId, spaceId, ...template, name: input.name ?? `${template.name} (copy)` },
          by
        )
        const changes = [...created.changes]
        for (const list of template.lists)
          changes.push(
            ...(yield* insertList({ workspaceId: located.workspaceId, spaceId, folderId: created.folder.id, ...list }, by)).changes
          )
        return { result: created.folder, changes }
      })
  ),

  createList: command(
    Schema.Struct({ ...ListInput.fields, folderId: Schema.optionalKey(Schema.NullOr(Id)) }),
    List,
    Schema.Union([PlaceNotFound, NotWorkspaceMembers, StartAfterDue]),
    (input, by, spaceId) =>
      Effect.gen(function* () {
        const space = yield* getSpace(spaceId)
        if (input.folderId) yield* folderOf(spaceId, input.folderId)
        const { list, changes } = yield* insertList(
          { ...input, workspaceId: space.workspaceId, spaceId, folderId: input.folderId ?? null },
          by
        )
        return { result: list, changes }
      })
  ),

  reorderLists: command(
    Schema.Struct({ folderId: Schema.NullOr(Id), listIds: Order }),
    Schema.Struct({ folderId: Schema.NullOr(Id), listIds: Schema.Array(Id) }),
    Schema.Union([PlaceNotFound, NotAPermutation]),
    (input, by, spaceId) =>
      Effect.gen(function* () {
        const space = yield* getSpace(spaceId)
        if (input.folderId) yield* folderOf(spaceId, input.folderId)
        const current = yield* query<{ id: string }>(
          input.folderId
            ? `SELECT id FROM pm_lists WHERE folder_id = $1 AND deleted_at IS NULL AND archived_at IS NULL`
            : `SELECT id FROM pm_lists WHERE space_id = $1 AND folder_id IS NULL AND deleted_at IS NULL AND archived_at IS NULL`,
          [input.folderId ?? spaceId]
        )
        yield* reorder(
          "pm_lists",
          current.map((r) => r.id),
          input.listIds,
          "body.listIds"
        )
        return {
          result: { folderId: input.folderId, listIds: input.listIds },
          changes: [
            change(
              spaceWhere(space.workspaceId, spaceId),
              "lists.reordered",
              input.folderId ?? spaceId,
              { folderId: input.folderId, order: input.listIds },
              by
            )
          ]
        }
      })
  )
}

// ---------------------------------------------------------------------------
// List actor: the list itself.

const listWhere = (list: { workspaceId: string; spaceId: string; id: string }) => ({
  workspaceId: list.workspaceId,
  spaceId: list.spaceId,
  listId: list.id
})

export const listStructureCommands = {
  updateList: command(ListPatch, List, Schema.Union([PlaceNotFound, NotWorkspaceMembers, StartAfterDue]), (patch, by, listId) =>
    Effect.gen(function* () {
      const list = yield* getList(listId)
      if (patch.ownerId) yield* requireMembers(list.workspaceId, [patch.ownerId], "body.ownerId")
      const next = { ...list, ...changedFields(patch) } as typeof list
      if (next.startDate && next.dueDate && Date.parse(next.startDate) > Date.parse(next.dueDate)) {
        return yield* new StartAfterDue({ field: "body.startDate" })
      }
      yield* query(
        `UPDATE pm_lists SET name = $2, description = $3, color = $4, priority = $5, start_date = $6, due_date = $7, owner_id = $8, updated_at = now() WHERE id = $1`,
        [listId, next.name.trim(), next.description, next.color, next.priority, next.startDate, next.dueDate, next.ownerId]
      )
      const notify =
        patch.ownerId && patch.ownerId !== list.ownerId ? notifyUsers([patch.ownerId], "assigned", `You own the list ${next.name}`, by) : []
      return {
        result: yield* getList(listId),
        changes: [change(listWhere(list), "list.updated", listId, changedFields(patch), by, notify)]
      }
    })
  ),

  archiveList: command(
    Schema.Struct({ archived: Schema.Boolean }),
    List,
    Schema.Union([PlaceNotFound, ArchivedAlready]),
    (input, by, listId) =>
      Effect.gen(function* () {
        const list = yield* getList(listId)
        if (list.archived === input.archived) return yield* new ArchivedAlready({ what: "list", archived: input.archived })
        yield* setArchived("pm_lists", listId, input.archived)
        return {
          result: yield* getList(listId),
          changes: [change(listWhere(list), input.archived ? "list.archived" : "list.restored", listId, {}, by)]
        }
      })
  ),

  deleteList: command(Nothing, Schema.Void, PlaceNotFound, (_, by, listId) =>
    Effect.gen(function* () {
      const list = yield* getList(listId)
      const counts = yield* cascadeDelete("id", listId, "pm_lists", by)
      return { result: undefined, changes: [change(listWhere(list), "list.deleted", listId, { name: list.name, tasks: counts.tasks }, by)] }
    })
  ),

  updateListTaskDefaults: command(TaskDefaults, TaskDefaults, Schema.Union([PlaceNotFound, NotWorkspaceMembers]), (patch, by, listId) =>
    Effect.gen(function* () {
      const list = yield* getList(listId)
      if (patch.assigneeIds) yield* requireMembers(list.workspaceId, patch.assigneeIds, "body.assigneeIds")
      const defaults = { ...list.taskDefaults, ...patch }
      yield* query(`UPDATE pm_lists SET task_defaults = $2, updated_at = now() WHERE id = $1`, [listId, defaults])
      return { result: defaults, changes: [change(listWhere(list), "list.task_defaults_updated", listId, { ...patch }, by)] }
    })
  ),

  duplicateList: command(
    ListCopy,
    List,
    Schema.Union([PlaceNotFound, NotWorkspaceMembers, StartAfterDue, FolderInOtherSpace]),
    (input, by, listId) =>
      Effect.gen(function* () {
        const list = yield* getList(listId)
        const folderId = input.folderId === undefined ? list.folderId : input.folderId
        if (folderId) {
          const folder = yield* locateFolder(folderId)
          if (folder.spaceId !== list.spaceId) return yield* new FolderInOtherSpace({ of: "list" })
        }
        const template = yield* listTemplate(listId)
        const { list: copy, changes } = yield* insertList(
          {
            ...template,
            workspaceId: list.workspaceId,
            spaceId: list.spaceId,
            folderId,
            name: input.name ?? `${list.name} (copy)`,
            priority: list.priority,
            startDate: list.startDate,
            dueDate: list.dueDate,
            ownerId: list.ownerId
          },
          by
        )
        yield* query(`UPDATE pm_lists SET task_defaults = $2 WHERE id = $1`, [copy.id, list.taskDefaults])
        return { result: yield* getList(copy.id), changes }
      })
  ),

  /** Archives every finished (done or closed) task of the list. */
  archiveClosedTasks: command(
    Nothing,
    Schema.Struct({ archived: Schema.Number, taskIds: Schema.Array(Id) }),
    PlaceNotFound,
    (_, by, listId) =>
      Effect.gen(function* () {
        const list = yield* getList(listId)
        const archived = yield* query<{ id: string }>(
          `UPDATE pm_tasks SET archived_at = now(), updated_at = now(), version = version + 1
          WHERE list_id = $1 AND closed_at IS NOT NULL AND archived_at IS NULL AND deleted_at IS NULL RETURNING id`,
          [listId]
        )
        return {
          result: { archived: archived.length, taskIds: archived.map((r) => r.id) },
          changes: archived.map((r) => change({ ...listWhere(list), taskId: r.id }, "task.archived", r.id, {}, by))
        }
      })
  )
}
