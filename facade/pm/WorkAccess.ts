/**
 * Access to the work hierarchy, shared by its tags: the caller must be a
 * member of the entity's workspace (else 404, as for anything of another
 * workspace), may see a private space only as its member or a workspace
 * admin (else 404), and needs `member` to write (else 403).
 */
import { Effect, Schema } from "effect"
import { type Role, atLeast } from "../../actors/identity/Workspace.ts"
import { type Located, locateFolder, locateTask, locateTaskRef } from "../../actors/pm/Locate.ts"
import { PlaceNotFound } from "../../actors/pm/PmErrors.ts"
import { read } from "../../actors/pm/WorkActor.ts"
import { PmList, PmSpace, PmTask, type SpaceAccess } from "../../actors/pm/WorkActors.ts"
import type { Viewer } from "../../actors/pm/StructureReads.ts"
import { isoDate } from "../../actors/pm/WorkRecords.ts"
import { orDieStore } from "../../runtime/ActorStore.ts"
import { asRejection } from "../HttpError.ts"
import { reject } from "../../runtime/Rejection.ts"
import { principalOf, workspaceRole } from "../Access.ts"
import type { RequestContext } from "../Operation.ts"

export interface Caller {
  readonly userId: string
  readonly role: Role
  /** Workspace admins and owners manage structure deletions and see private spaces. */
  readonly admin: boolean
  readonly viewer: Viewer
}

export interface CallerAt extends Caller {
  readonly at: Located
}

/** SQL failures are defects here (answered 500 and logged), never the caller's fault. */
export const orDieSql = orDieStore

/** The caller's standing in a workspace, requiring `minimum`. */
export const inWorkspace = Effect.fnUntraced(function* (context: RequestContext, workspaceId: string, minimum: Role = "viewer") {
  const role = yield* workspaceRole(context, workspaceId, "viewer")
  if (!atLeast(role, minimum)) return yield* reject("forbidden", `Requires the ${minimum} role in this workspace`)
  const principal = yield* principalOf(context)
  const admin = atLeast(role, "admin")
  return { userId: principal.userId, role, admin, viewer: { userId: principal.userId, admin } }
})

/**
 * A place the actors do not know, as the not-found these helpers answer for `what` (the thing asked about), so
 * the operations that rename it after their own resource (by its code) keep doing so.
 */
const unknownPlace = (what: string) => Effect.fail(reject("not_found", `No such ${what}`))

/** Who may see what is in a space, from the space actor's memory. */
const spaceAccess = (spaceId: string, what: string) =>
  read(PmSpace, spaceId, "access", {}).pipe(Effect.catchTag("SpaceNotFound", () => unknownPlace(what)))

/** `at` as the caller may touch it: 404 when they may not see it, 403 below `minimum`. Nothing here runs SQL. */
export const at = Effect.fnUntraced(function* (context: RequestContext, located: Located, minimum: Role, what: string) {
  const role = yield* workspaceRole(context, located.workspaceId, "viewer").pipe(
    Effect.mapError((e) => (e._tag === "Rejection" && e.code === "not_found" ? reject("not_found", `No such ${what}`) : e))
  )
  const principal = yield* principalOf(context)
  const admin = atLeast(role, "admin")
  if (located.isPrivate && !admin) {
    const space = yield* spaceAccess(located.spaceId, what)
    if (!space.memberIds.includes(principal.userId)) return yield* reject("not_found", `No such ${what}`)
  }
  if (!atLeast(role, minimum)) return yield* reject("forbidden", `Requires the ${minimum} role in this workspace`)
  return { userId: principal.userId, role, admin, viewer: { userId: principal.userId, admin }, at: located }
})

// Callers refine these refusals by code, so the located place's tagged errors are answered as their `Rejection`s here.
const via =
  <E, R>(locate: (id: string) => Effect.Effect<Located, E, R>, what: string) =>
  (context: RequestContext, id: string, minimum: Role = "viewer") =>
    Effect.flatMap(
      Effect.mapError(orDieSql(locate(id)), (e) => (e instanceof PlaceNotFound ? asRejection(e) : e)),
      (located) => at(context, located, minimum, what)
    )

const inSpace = (spaceId: string, access: SpaceAccess, place: Omit<Located, "workspaceId" | "spaceId" | "isPrivate">): Located => ({
  workspaceId: access.workspaceId,
  spaceId,
  isPrivate: access.isPrivate,
  ...place
})

/** A space, from its actor's memory. */
export const onSpace = (context: RequestContext, spaceId: string, minimum: Role = "viewer") =>
  Effect.flatMap(spaceAccess(spaceId, "space"), (access) =>
    at(context, inSpace(spaceId, access, { folderId: null, listId: null, taskId: null, archived: access.archived }), minimum, "space")
  )

/** A list, from its actor's memory (and its space's). */
export const onList = Effect.fnUntraced(function* (context: RequestContext, listId: string, minimum: Role = "viewer") {
  const place = yield* read(PmList, listId, "locate", {}).pipe(Effect.catchTag("ListNotFound", () => unknownPlace("list")))
  const access = yield* spaceAccess(place.spaceId, "list")
  return yield* at(
    context,
    inSpace(place.spaceId, access, { folderId: place.folderId, listId, taskId: null, archived: place.archived }),
    minimum,
    "list"
  )
})

/** A task, from its actor's memory (and its space's); the caller gets the task too. */
export const onTask = Effect.fnUntraced(function* (context: RequestContext, taskId: string, minimum: Role = "viewer") {
  const task = yield* read(PmTask, taskId, "get", {}).pipe(Effect.catchTag("TaskNotFound", () => unknownPlace("task")))
  const access = yield* spaceAccess(task.spaceId, "task")
  const caller = yield* at(
    context,
    inSpace(task.spaceId, access, { folderId: task.folderId, listId: task.listId, taskId, archived: task.archived }),
    minimum,
    "task"
  )
  return { ...caller, task }
})

// Folders have no actor of their own (their space owns them): located by SQL.
export const onFolder = via(locateFolder, "folder")
export const onDeletedTask = via((id) => locateTask(id, { deleted: true }), "task")

/** A task by id or short id inside a workspace the caller belongs to. */
export const onTaskRef = Effect.fnUntraced(function* (context: RequestContext, workspaceId: string, ref: string, minimum: Role = "viewer") {
  yield* inWorkspace(context, workspaceId, "viewer")
  const located = yield* orDieSql(locateTaskRef(workspaceId, ref)).pipe(
    Effect.catchTag(["PlaceNotFound", "TaskRefNotFound"], (e) => Effect.fail(asRejection(e)))
  )
  return yield* at(context, located, minimum, "task")
})

export const onScope = (context: RequestContext, scopeType: "space" | "folder" | "list", id: string, minimum: Role = "viewer") =>
  scopeType === "space"
    ? onSpace(context, id, minimum)
    : scopeType === "folder"
      ? onFolder(context, id, minimum)
      : onList(context, id, minimum)

// ---------------------------------------------------------------------------
// Request pieces shared by the work tags.

const intFromString = (minimum: number, maximum: number) =>
  Schema.FiniteFromString.check(Schema.isInt(), Schema.isBetween({ minimum, maximum }))

export const Offset = intFromString(0, 1_000_000).annotate({ description: "Items to skip (default 0)" })
export const Limit = intFromString(1, 200).annotate({ description: "Page size, 1..200 (default 50)" })
export const BooleanString = Schema.Literals(["true", "false"])
export const ArchivedQuery = Schema.Literals(["exclude", "include", "only"]).annotate({
  description: "Archived items: leave out (default), include, or only them"
})

export const pageOf = (query: { readonly offset?: number; readonly limit?: number }) => ({
  offset: query.offset ?? 0,
  limit: query.limit ?? 50
})

/** Checks dates that pass the pattern but name no real day (2026-02-31). */
export const realDates = Effect.fnUntraced(function* (
  body: { readonly startDate?: string | null; readonly dueDate?: string | null },
  prefix = "body"
) {
  for (const key of ["startDate", "dueDate"] as const) {
    const value = body[key]
    if (typeof value === "string" && isoDate(value) === undefined)
      return yield* reject("invalid", `Invalid ${prefix}.${key}: not a real date`, [
        { path: `${prefix}.${key}`, message: "not a real date" }
      ])
  }
})

/** Comma-separated values of a query parameter. */
export const csv = (value: string | undefined): Array<string> | undefined =>
  value === undefined
    ? undefined
    : value
        .split(",")
        .map((v) => v.trim())
        .filter((v) => v.length > 0)

export const exampleIds = {
  workspace: "0b9e4c1a-6f0e-4d5f-9a77-3f7c2f1e8a10",
  space: "1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f",
  folder: "2d3e4f5a-6b7c-4d8e-9f0a-1b2c3d4e5f6a",
  list: "3e4f5a6b-7c8d-4e9f-8a1b-2c3d4e5f6a7b",
  task: "4f5a6b7c-8d9e-4f0a-9b2c-3d4e5f6a7b8c",
  task2: "5a6b7c8d-9e0f-4a1b-8c3d-4e5f6a7b8c9d",
  status: "6b7c8d9e-0f1a-4b2c-9d4e-5f6a7b8c9d0e",
  field: "7c8d9e0f-1a2b-4c3d-8e5f-6a7b8c9d0e1f",
  option: "8d9e0f1a-2b3c-4d4e-9f6a-7b8c9d0e1f2a",
  user: "6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f",
  user2: "7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d",
  comment: "9e0f1a2b-3c4d-4e5f-8a7b-8c9d0e1f2a3b",
  tag: "0f1a2b3c-4d5e-4f6a-9b8c-9d0e1f2a3b4c",
  checklist: "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
  item: "2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e",
  attachment: "3c4d5e6f-7a8b-4c9d-8e1f-2a3b4c5d6e7f",
  relationship: "4d5e6f7a-8b9c-4d0e-9f2a-3b4c5d6e7f8a",
  entry: "5e6f7a8b-9c0d-4e1f-8a3b-4c5d6e7f8a9b",
  template: "6f7a8b9c-0d1e-4f2a-9b4c-5d6e7f8a9b0c"
} as const

export const at0 = "2026-11-21T12:00:00.000Z"
