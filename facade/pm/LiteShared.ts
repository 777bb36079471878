/**
 * What the Lite tags share: tasks shown with names instead of ids (space,
 * folder, list, assignee e-mails, tag names, custom fields by name), and
 * resolving "where" (space, folder, list names) for the caller.
 */
import { Effect, Schema } from "effect"
import { Id } from "../../actors/Fields.ts"
import { type NamedList, resolveFolder, resolveList, resolveListInWorkspace, resolveSpace } from "../../actors/pm/NameResolution.ts"
import { listNames } from "../../actors/pm/PlaceNames.ts"
import type { Chain } from "../../actors/pm/Statuses.ts"
import type { Viewer } from "../../actors/pm/StructureReads.ts"
import type { FoundTask, Place } from "../../actors/pm/TaskReads.ts"
import { Priority, StatusType, type Task } from "../../actors/pm/WorkRecords.ts"
import { reject } from "../../runtime/Rejection.ts"
import type { RequestContext } from "../Operation.ts"
import { at0, exampleIds as ids, inWorkspace, onList, orDieSql } from "./WorkAccess.ts"

export const LiteTask = Schema.Struct({
  id: Id,
  shortId: Schema.String,
  name: Schema.String,
  description: Schema.String,
  status: Schema.String,
  statusType: StatusType,
  priority: Schema.NullOr(Priority),
  startDate: Schema.NullOr(Schema.String),
  dueDate: Schema.NullOr(Schema.String),
  timeEstimateMinutes: Schema.NullOr(Schema.Number),
  space: Schema.String,
  folder: Schema.NullOr(Schema.String),
  list: Schema.String,
  listId: Id,
  parentTaskId: Schema.NullOr(Id),
  assignees: Schema.Array(Schema.String).annotate({ description: "E-mail addresses" }),
  tags: Schema.Array(Schema.String),
  customFields: Schema.Record(Schema.String, Schema.Unknown).annotate({ description: "Values by field name (options by name)" }),
  createdAt: Schema.String,
  updatedAt: Schema.String,
  closedAt: Schema.NullOr(Schema.String),
  version: Schema.Number
}).annotate({ identifier: "LiteTask", description: "A task with names instead of ids" })
export type LiteTask = typeof LiteTask.Type

export const exampleLiteTask: LiteTask = {
  id: ids.task,
  shortId: "T-42",
  name: "Ship the login page",
  description: "",
  status: "in progress",
  statusType: "active",
  priority: "high",
  startDate: null,
  dueDate: "2026-12-01T17:00:00.000Z",
  timeEstimateMinutes: null,
  space: "Engineering",
  folder: null,
  list: "Backlog",
  listId: ids.list,
  parentTaskId: null,
  assignees: ["bob@example.com"],
  tags: ["frontend"],
  customFields: { "Story points": 5 },
  createdAt: at0,
  updatedAt: at0,
  closedAt: null,
  version: 1
}

const display = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(display)
    : value && typeof value === "object" && "name" in value
      ? (value as { name: string }).name
      : value

interface ListNames {
  readonly space: string
  readonly folder: string | null
  readonly list: string
}

/** A list whose names could not be read (deleted meanwhile). */
const unnamedList: ListNames = { space: "", folder: null, list: "" }

const liteOf = (t: FoundTask, names: ListNames): LiteTask => ({
  id: t.id,
  shortId: t.shortId,
  name: t.name,
  description: t.description,
  status: t.status.name,
  statusType: t.status.type,
  priority: t.priority,
  startDate: t.startDate,
  dueDate: t.dueDate,
  timeEstimateMinutes: t.timeEstimateMinutes,
  space: names.space,
  folder: names.folder,
  list: names.list,
  listId: t.listId,
  parentTaskId: t.parentTaskId,
  assignees: t.assignees.map((a) => a.email),
  tags: t.tags.map((g) => g.name),
  customFields: Object.fromEntries(t.customFields.map((f) => [f.name, display(f.value)])),
  createdAt: t.createdAt,
  updatedAt: t.updatedAt,
  closedAt: t.closedAt,
  version: t.version
})

/**
 * The Lite form of each task object (an actor's state is immutable: a
 * changed task is a new object), kept while its names are the same: a task
 * shown again is the same object, so its reply's JSON is reused (`Reply`).
 */
const shown = new WeakMap<FoundTask, LiteTask>()

const liteOnce = (t: FoundTask, names: ListNames): LiteTask => {
  const known = shown.get(t)
  if (known !== undefined && known.space === names.space && known.folder === names.folder && known.list === names.list) return known
  const lite = liteOf(t, names)
  shown.set(t, lite)
  return lite
}

/**
 * Tasks with names: the names of their spaces, folders and lists by list id
 * when the read brought them (`places`), else one query for them.
 */
export const toLite = Effect.fnUntraced(function* (tasks: ReadonlyArray<FoundTask>, places?: ReadonlyMap<string, Place>) {
  const byList = new Map<string, ListNames>(
    [...(places ?? [])].map(([id, place]) => [id, { list: place.listName, folder: place.folderName, space: place.spaceName }] as const)
  )
  // Lists not among `places` (none given, or a task moved since they were read) by one more read.
  const unnamed = [...new Set(tasks.map((t) => t.listId))].filter((id) => !byList.has(id))
  if (unnamed.length > 0)
    for (const { id, name, folder, space } of (yield* listNames(unnamed)).values()) byList.set(id, { list: name, folder, space })
  return tasks.map((t) => liteOnce(t, byList.get(t.listId) ?? unnamedList))
})

export const toLiteOne = (task: Task) => Effect.map(toLite([task]), (items) => items[0]!)

export interface Where {
  readonly space?: string
  readonly folder?: string
  readonly list?: string
}

/** A list found, but not where the request's other references say: 409 naming all of them. */
const misplaced = (list: NamedList & { readonly spaceName?: string }, where: Where & { readonly list: string }, prefix: string) => {
  const at = `${list.spaceName ?? "its space"}${list.folderName ? ` / ${list.folderName}` : ", not in a folder"}`
  const named = [
    where.space !== undefined ? `space "${where.space}"` : undefined,
    where.folder !== undefined ? `folder "${where.folder}"` : undefined
  ]
    .filter((text) => text !== undefined)
    .join(" and ")
  const paths = [...(where.space !== undefined ? ["space"] : []), ...(where.folder !== undefined ? ["folder"] : []), "list"]
  return reject(
    "conflict",
    `The list "${where.list}" (${list.name}, ${list.shortId}) is in ${at}, not in the ${named} the request names`,
    paths.map((field) => ({
      path: `${prefix}.${field}`,
      message: field === "list" ? `is in ${at}` : `does not hold the list "${where.list}"`
    }))
  )
}

/**
 * The list a Lite request names: `list` within `space` (and `folder` when
 * given), or anywhere in the workspace when no space is named. A `space` or
 * `folder` that contradicts the list (a list given by id that lives
 * elsewhere, a folder of another space or workspace) is refused, never
 * ignored. The caller needs `minimum` there.
 */
export const listByNames = Effect.fnUntraced(function* (
  context: RequestContext,
  workspaceId: string,
  where: Where & { readonly list: string },
  minimum: "viewer" | "member",
  prefix = "body"
) {
  const caller = yield* inWorkspace(context, workspaceId, "viewer")
  let list: NamedList
  if (where.space === undefined) {
    list = yield* orDieSql(resolveListInWorkspace(workspaceId, caller.viewer, where.list, `${prefix}.list`))
    if (where.folder !== undefined) {
      const folder = yield* orDieSql(resolveFolder(list.spaceId, where.folder, `${prefix}.folder`)).pipe(
        Effect.catchIf(
          (error) => error.code === "not_found",
          () => Effect.succeed(undefined)
        )
      )
      if (folder?.id !== list.folderId) return yield* misplaced(list, where, prefix)
    }
  } else {
    const space = yield* orDieSql(resolveSpace(workspaceId, caller.viewer, where.space, `${prefix}.space`))
    const folder = where.folder === undefined ? undefined : yield* orDieSql(resolveFolder(space.id, where.folder, `${prefix}.folder`))
    list = yield* listWhere(workspaceId, caller.viewer, space.id, folder?.id, where, prefix)
  }
  return yield* onList(context, list.id, minimum)
})

/**
 * `where.list` in the space (and folder) already resolved from `where`; when
 * it is not there but the workspace has exactly that list elsewhere, 409
 * saying where it is and naming both references, instead of "no such list".
 */
export const listWhere = (
  workspaceId: string,
  viewer: Viewer,
  spaceId: string,
  folderId: string | undefined,
  where: Where & { readonly list: string },
  prefix: string
) =>
  orDieSql(resolveList(spaceId, folderId, where.list, `${prefix}.list`)).pipe(
    Effect.catchIf(
      (error) => error.code === "not_found",
      (notHere) =>
        Effect.flatMap(
          Effect.catchIf(
            orDieSql(resolveListInWorkspace(workspaceId, viewer, where.list, `${prefix}.list`)),
            () => true,
            () => Effect.fail(notHere)
          ),
          (elsewhere) => Effect.fail(misplaced(elsewhere, where, prefix))
        )
    )
  )

export const chainOfCaller = (at: { workspaceId: string; spaceId: string; folderId: string | null; listId: string | null }): Chain => ({
  workspaceId: at.workspaceId,
  spaceId: at.spaceId,
  folderId: at.folderId,
  listId: at.listId
})

export const WorkspaceRef = Id.annotate({ description: "The workspace" })
export const NameRef = Schema.String.check(Schema.isMaxLength(200), Schema.isPattern(/\S/, { expected: "a non-blank name" })).annotate({
  description: "A name (case-insensitive), short id or id"
})
