/**
 * pm tag "Search (Lite)" (1): task search with name filters (space, folder,
 * list, status, tag), assignee by e-mail, text and dates, paged by an opaque
 * cursor: keyset pagination on (created_at, id), so inserts while a client
 * pages never cause duplicates or gaps. The cursor is bound to the filters
 * it was issued for.
 */
import { createHash } from "node:crypto"
import { Effect, Schema } from "effect"
import { membersByEmail } from "../../actors/pm/Members.ts"
import { resolveFolder, resolveListInWorkspace, resolveSpace } from "../../actors/pm/NameResolution.ts"
import { effectiveStatuses, statusNamesIn } from "../../actors/pm/Statuses.ts"
import { tagNamesIn } from "../../actors/pm/SpaceTags.ts"
import { findTaskKeysAfter, type Keyset, type TaskFilter } from "../../actors/pm/TaskReads.ts"
import { read } from "../../actors/pm/WorkActor.ts"
import { PmTask } from "../../actors/pm/WorkActors.ts"
import { DateTime, isoDate, type Task } from "../../actors/pm/WorkRecords.ts"
import type { ActorError } from "../../runtime/ActorError.ts"
import type { ActorSystem } from "../../runtime/ActorSystem.ts"
import { reject } from "../../runtime/Rejection.ts"
import { tagGroup } from "../Operation.ts"
import { listWhere, LiteTask, NameRef, toLite, WorkspaceRef } from "./LiteShared.ts"
import { BooleanString, inWorkspace, onFolder, onList, onSpace, orDieSql } from "./WorkAccess.ts"
import { searchLiteExamples } from "./SearchLite.examples.ts"

const SearchQuery = Schema.Struct({
  workspaceId: WorkspaceRef,
  space: Schema.optionalKey(NameRef),
  folder: Schema.optionalKey(NameRef),
  list: Schema.optionalKey(NameRef),
  status: Schema.optionalKey(
    Schema.String.check(Schema.isMaxLength(500)).annotate({ description: "Status names, comma-separated (any of them)" })
  ),
  tag: Schema.optionalKey(
    Schema.String.check(Schema.isMaxLength(500)).annotate({ description: "Tag names, comma-separated (any of them)" })
  ),
  assigneeEmail: Schema.optionalKey(
    Schema.String.check(Schema.isMaxLength(254), Schema.isPattern(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, { expected: "an e-mail address" }))
  ),
  q: Schema.optionalKey(
    Schema.String.check(Schema.isMaxLength(200)).annotate({ description: "Text in the name or description, or a short id" })
  ),
  dueAfter: Schema.optionalKey(DateTime),
  dueBefore: Schema.optionalKey(DateTime),
  createdAfter: Schema.optionalKey(DateTime),
  createdBefore: Schema.optionalKey(DateTime),
  includeClosed: Schema.optionalKey(BooleanString.annotate({ description: "Include done and closed tasks (default true)" })),
  order: Schema.optionalKey(
    Schema.Literals(["oldest", "newest"]).annotate({ description: "By creation: oldest first (default) or newest first" })
  ),
  limit: Schema.optionalKey(
    Schema.FiniteFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 100 })).annotate({
      description: "Page size, 1..100 (default 20)"
    })
  ),
  cursor: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(500)).annotate({ description: "nextCursor of the previous page" }))
})
type SearchQuery = typeof SearchQuery.Type

interface CursorBody extends Keyset {
  readonly v: 1
  readonly o: "asc" | "desc"
  /** Fingerprint of the filters the cursor belongs to. */
  readonly f: string
}

const fingerprint = (q: SearchQuery) => {
  const { cursor: _c, limit: _l, ...filters } = q
  const canonical = JSON.stringify(
    Object.keys(filters)
      .sort()
      .map((key) => [key, filters[key as keyof typeof filters]])
  )
  return createHash("sha256").update(canonical).digest("base64url").slice(0, 16)
}

const encodeCursor = (body: CursorBody) => Buffer.from(JSON.stringify(body)).toString("base64url")

const badCursor = (message: string) => reject("invalid", `Invalid query.cursor: ${message}`, [{ path: "query.cursor", message }])

const decodeCursor = (cursor: string, q: SearchQuery, order: "asc" | "desc") =>
  Effect.gen(function* () {
    let body: CursorBody
    try {
      body = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"))
    } catch {
      return yield* badCursor("not a cursor this search issued")
    }
    if (
      body?.v !== 1 ||
      typeof body.at !== "string" ||
      typeof body.id !== "string" ||
      !/^\d{4}-\d{2}-\d{2} [\d:.]+[+-]\d{2}(:\d{2})?$/.test(body.at)
    ) {
      return yield* badCursor("not a cursor this search issued")
    }
    if (body.f !== fingerprint(q) || body.o !== order) return yield* badCursor("issued for other filters; start again without a cursor")
    return { at: body.at, id: body.id } satisfies Keyset
  })

const csv = (value: string | undefined) =>
  value === undefined
    ? undefined
    : value
        .split(",")
        .map((v) => v.trim())
        .filter((v) => v.length > 0)

/** A found task as its actor holds it; one deleted since the search read its id is left out. */
const shownTask = (taskId: string): Effect.Effect<Task | undefined, ActorError, ActorSystem> =>
  read(PmTask, taskId, "get", {}).pipe(Effect.catchTag("TaskNotFound", () => Effect.succeed(undefined)))

const { operation } = tagGroup("pm", "Search (Lite)", searchLiteExamples)

export const searchLiteOperations = [
  operation({
    operationId: "searchTasksLite",
    mcp: { tool: "searchTasks" },
    method: "GET",
    path: "/v1/lite/search/tasks",
    summary: "Search tasks by names (space, folder, list, status, tag), assignee e-mail, text and dates; paged by cursor",
    description:
      "Names are case-insensitive (short ids and ids work too); an unknown name answers 404 naming it, an ambiguous one 409 listing the candidates. Results are ordered by creation (then id); `nextCursor` continues after the last item and is null on the last page. Tasks created while paging never make a page repeat or skip an item.",
    auth: "both",
    scopes: ["tasks:read"],
    query: SearchQuery,
    responses: {
      200: {
        description: "A page",
        schema: Schema.Struct({ items: Schema.Array(LiteTask), nextCursor: Schema.NullOr(Schema.String) }).annotate({
          identifier: "LiteTaskPage"
        })
      },
      404: { description: "A name or e-mail not found" },
      409: { description: "An ambiguous name" }
    },
    handler: ({ query: q }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, q.workspaceId)
        const filter: { -readonly [K in keyof TaskFilter]: TaskFilter[K] } = { workspaceId: q.workspaceId, viewer: caller.viewer }
        // Where: space → folder → list, each by name.
        let chain: { workspaceId: string; spaceId: string; folderId: string | null; listId: string | null } | undefined
        if (q.space !== undefined) {
          const space = yield* orDieSql(resolveSpace(q.workspaceId, caller.viewer, q.space, "query.space"))
          yield* onSpace(context, space.id)
          filter.spaceIds = [space.id]
          chain = { workspaceId: q.workspaceId, spaceId: space.id, folderId: null, listId: null }
          if (q.folder !== undefined) {
            const folder = yield* orDieSql(resolveFolder(space.id, q.folder, "query.folder"))
            yield* onFolder(context, folder.id)
            filter.folderIds = [folder.id]
            chain = { ...chain, folderId: folder.id }
          }
          if (q.list !== undefined) {
            const list = yield* listWhere(
              q.workspaceId,
              caller.viewer,
              space.id,
              chain.folderId ?? undefined,
              { ...q, list: q.list },
              "query"
            )
            filter.listIds = [list.id]
            chain = { ...chain, folderId: list.folderId, listId: list.id }
          }
        } else if (q.folder !== undefined) {
          return yield* reject("invalid", "Name the space of the folder", [{ path: "query.space", message: "required with folder" }])
        } else if (q.list !== undefined) {
          const list = yield* orDieSql(resolveListInWorkspace(q.workspaceId, caller.viewer, q.list, "query.list"))
          yield* onList(context, list.id)
          filter.listIds = [list.id]
          chain = { workspaceId: q.workspaceId, spaceId: list.spaceId, folderId: list.folderId, listId: list.id }
        }
        // Statuses and tags must exist where the search looks.
        const statuses = csv(q.status)
        if (statuses?.length) {
          const known = chain?.listId
            ? (yield* orDieSql(effectiveStatuses(chain))).items.map((s) => s.name.toLowerCase())
            : yield* orDieSql(statusNamesIn(q.workspaceId, chain?.spaceId ?? null))
          const unknown = statuses.filter((s) => !known.includes(s.toLowerCase()))
          if (unknown.length > 0)
            return yield* reject("not_found", `No status named ${unknown.map((s) => `"${s}"`).join(", ")} here`, [
              { path: "query.status", message: `unknown status ${unknown.join(", ")}` }
            ])
          filter.statuses = statuses
        }
        const tags = csv(q.tag)
        if (tags?.length) {
          const known = yield* orDieSql(tagNamesIn(q.workspaceId, chain?.spaceId ?? null))
          const unknown = tags.filter((t) => !known.includes(t.toLowerCase()))
          if (unknown.length > 0)
            return yield* reject("not_found", `No tag named ${unknown.map((t) => `"${t}"`).join(", ")} here`, [
              { path: "query.tag", message: `unknown tag ${unknown.join(", ")}` }
            ])
          filter.tagNames = tags
        }
        if (q.assigneeEmail !== undefined) {
          const [user] = yield* orDieSql(membersByEmail(q.workspaceId, [q.assigneeEmail], "query.assigneeEmail")).pipe(
            Effect.mapError((e) =>
              e._tag === "Rejection"
                ? reject(e.code, e.message, [{ path: "query.assigneeEmail", message: e.details?.[0]?.message ?? e.message }])
                : e
            )
          )
          filter.assigneeIds = [user!.id]
        }
        for (const key of ["dueAfter", "dueBefore", "createdAfter", "createdBefore"] as const) {
          const value = q[key]
          if (value === undefined) continue
          const iso = isoDate(value)
          if (iso === undefined)
            return yield* reject("invalid", `Invalid query.${key}: not a real date`, [{ path: `query.${key}`, message: "not a real date" }])
          filter[key] = iso
        }
        if (q.q !== undefined && q.q.trim() !== "") filter.q = q.q
        if (q.includeClosed !== undefined) filter.includeClosed = q.includeClosed === "true"
        const order = q.order === "newest" ? "desc" : "asc"
        const after = q.cursor === undefined ? undefined : yield* decodeCursor(q.cursor, q, order)
        const page = yield* orDieSql(findTaskKeysAfter(filter, after, q.limit ?? 20, order))
        const tasks = yield* Effect.forEach(page.ids, shownTask, { concurrency: "unbounded" })
        return {
          items: yield* orDieSql(
            toLite(
              tasks.filter((task) => task !== undefined),
              page.places
            )
          ),
          nextCursor: page.next ? encodeCursor({ v: 1, ...page.next, o: order, f: fingerprint(q) }) : null
        }
      })
  })
]
