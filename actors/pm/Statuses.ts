/**
 * Workflow statuses. A space always has its own; a folder or list may define
 * its own, otherwise it inherits (list → folder → space). Editing an
 * inherited set first copies it to the level being edited (copy-on-write),
 * and every edit keeps the tasks consistent: renamed statuses follow, tasks
 * in a removed status move to the first remaining status of the same type
 * (or an explicit mapping), and `closed_at` tracks done/closed types.
 */
import { Effect, Schema } from "effect"
import { Name } from "../Fields.ts"
import { query, type Sql, type SqlError } from "../../persistence/Sql.ts"
import * as SqlSchema from "../../persistence/SqlSchema.ts"
import type { Change } from "./ChangeLog.ts"
import { change } from "./Changes.ts"
import {
  AlreadyInheritsStatuses,
  DuplicateStatusName,
  NoStatusToMoveTo,
  NotAPermutation,
  StatusNameTaken,
  StatusNotFound,
  UnknownMappingTarget,
  WorkflowIncomplete
} from "./WorkErrors.ts"
import { Color, type ScopeType, type Status, StatusType } from "./WorkRecords.ts"

export interface Chain {
  readonly workspaceId: string
  readonly spaceId: string
  readonly folderId: string | null
  readonly listId: string | null
}

export const StatusInput = Schema.Struct({ name: Name(64), type: StatusType, color: Schema.optionalKey(Color) })
export type StatusInput = typeof StatusInput.Type

export const defaultColors: Record<StatusType, string> = { open: "#87909e", active: "#5f55ee", done: "#30a46c", closed: "#008844" }

export const defaultStatuses: ReadonlyArray<StatusInput> = [
  { name: "to do", type: "open" },
  { name: "in progress", type: "active" },
  { name: "done", type: "done" },
  { name: "closed", type: "closed" }
]

const columns = `id, name, type, color, position`

export const levelOf = (chain: Chain): { readonly type: ScopeType; readonly id: string } =>
  chain.listId
    ? { type: "list", id: chain.listId }
    : chain.folderId
      ? { type: "folder", id: chain.folderId }
      : { type: "space", id: chain.spaceId }

export const ownStatuses = (scopeType: ScopeType, scopeId: string) =>
  query<Status>(`SELECT ${columns} FROM pm_statuses WHERE scope_type = $1 AND scope_id = $2 ORDER BY position, lower(name)`, [
    scopeType,
    scopeId
  ])

export interface Effective {
  readonly inheritedFrom: ScopeType
  readonly sourceId: string
  readonly own: boolean
  readonly items: ReadonlyArray<Status>
}

type ScopedStatus = Status & { scopeType: ScopeType; scopeId: string }

const pick = (chain: Chain, all: ReadonlyArray<ScopedStatus>): Effective => {
  const level = levelOf(chain)
  const of = (type: ScopeType, id: string | null) => (id ? all.filter((s) => s.scopeType === type && s.scopeId === id) : [])
  const candidates: Array<[ScopeType, string | null]> = [
    ["list", chain.listId],
    ["folder", chain.folderId],
    ["space", chain.spaceId]
  ]
  for (const [type, id] of candidates) {
    const items = of(type, id)
    if (items.length > 0) {
      return {
        inheritedFrom: type,
        sourceId: id!,
        own: type === level.type,
        items: items
          .map(({ scopeType: _t, scopeId: _i, ...status }) => status)
          .sort((a, b) => a.position - b.position || a.name.localeCompare(b.name))
      }
    }
  }
  return { inheritedFrom: "space", sourceId: chain.spaceId, own: level.type === "space", items: [] }
}

/** The statuses that apply at `chain`'s deepest level, and where they come from. */
export const effectiveStatuses = (chain: Chain): Effect.Effect<Effective, SqlError, Sql> =>
  Effect.map(
    query<ScopedStatus>(
      `SELECT ${columns}, scope_type AS "scopeType", scope_id AS "scopeId" FROM pm_statuses
        WHERE (scope_type = 'space' AND scope_id = $1) OR (scope_type = 'folder' AND scope_id = $2) OR (scope_type = 'list' AND scope_id = $3)`,
      [chain.spaceId, chain.folderId ?? "", chain.listId ?? ""]
    ),
    (rows) => pick(chain, rows)
  )

/** Effective statuses of many lists at once (task listings). */
export const statusesOfLists = (listIds: ReadonlyArray<string>): Effect.Effect<Map<string, ReadonlyArray<Status>>, SqlError, Sql> =>
  Effect.gen(function* () {
    if (listIds.length === 0) return new Map()
    const lists = yield* query<{ id: string; spaceId: string; folderId: string | null; workspaceId: string }>(
      `SELECT id, space_id AS "spaceId", folder_id AS "folderId", workspace_id AS "workspaceId" FROM pm_lists WHERE id = ANY($1::text[])`,
      [[...new Set(listIds)]]
    )
    const scopeIds = [...new Set(lists.flatMap((l) => [l.id, l.spaceId, ...(l.folderId ? [l.folderId] : [])]))]
    const all = yield* query<ScopedStatus>(
      `SELECT ${columns}, scope_type AS "scopeType", scope_id AS "scopeId" FROM pm_statuses WHERE scope_id = ANY($1::text[])`,
      [scopeIds]
    )
    return new Map(
      lists.map(
        (l) => [l.id, pick({ workspaceId: l.workspaceId, spaceId: l.spaceId, folderId: l.folderId, listId: l.id }, all).items] as const
      )
    )
  })

/**
 * SQL joins giving `${alias}`, the pm_statuses row named by the SQL expression
 * `status` in the effective workflow of list `list` (a pm_lists alias): the
 * first of list → folder → space with statuses of its own, as
 * `effectiveStatuses` picks it, matched case-insensitively; null columns when
 * the workflow has no such status. For reads that present or count statuses
 * in the same statement as their tasks.
 */
export const effectiveStatusJoin = (list: string, status: string, alias = "st") => `LEFT JOIN LATERAL (
    SELECT w.scope_type, w.scope_id FROM pm_statuses w
     WHERE (w.scope_type = 'list' AND w.scope_id = ${list}.id) OR (w.scope_type = 'folder' AND w.scope_id = ${list}.folder_id)
        OR (w.scope_type = 'space' AND w.scope_id = ${list}.space_id)
     ORDER BY CASE w.scope_type WHEN 'list' THEN 0 WHEN 'folder' THEN 1 ELSE 2 END LIMIT 1
  ) ${alias}_workflow ON true
  LEFT JOIN pm_statuses ${alias} ON ${alias}.scope_type = ${alias}_workflow.scope_type AND ${alias}.scope_id = ${alias}_workflow.scope_id
    AND lower(${alias}.name) = lower(${status})`

export const findStatus = (statuses: ReadonlyArray<Status>, name: string) =>
  statuses.find((s) => s.name.toLowerCase() === name.trim().toLowerCase())

const kinship: Record<StatusType, ReadonlyArray<StatusType>> = {
  open: ["open", "active"],
  active: ["active", "open"],
  done: ["done", "closed"],
  closed: ["closed", "done"]
}

/** Where a task in a status of `type` lands in another workflow: the same type, else its kin (a finished task stays finished), else the first open. */
export const closestStatus = <S extends Pick<Status, "name" | "type">>(statuses: ReadonlyArray<S>, type: StatusType): S | undefined => {
  for (const candidate of kinship[type]) {
    const found = statuses.find((s) => s.type === candidate)
    if (found) return found
  }
  return statuses.find((s) => s.type === "open") ?? statuses[0]
}

/** The status new tasks get: the first of type open. */
export const initialStatus = (statuses: ReadonlyArray<Status>): Status | undefined => statuses.find((s) => s.type === "open") ?? statuses[0]

/** A set must start somewhere and finish somewhere; names are unique (case-insensitive). */
export const checkStatusSet = (
  statuses: ReadonlyArray<Pick<Status, "name" | "type">>,
  path = "body.statuses"
): Effect.Effect<void, DuplicateStatusName | WorkflowIncomplete> => {
  const names = new Set<string>()
  for (const [index, status] of statuses.entries()) {
    const key = status.name.trim().toLowerCase()
    if (names.has(key)) return Effect.fail(new DuplicateStatusName({ name: status.name, field: `${path}.${index}.name` }))
    names.add(key)
  }
  if (!statuses.some((s) => s.type === "open")) {
    return Effect.fail(new WorkflowIncomplete({ needs: "open", field: path }))
  }
  if (!statuses.some((s) => s.type === "done" || s.type === "closed")) {
    return Effect.fail(new WorkflowIncomplete({ needs: "done or closed", field: path }))
  }
  return Effect.void
}

export const insertStatuses = (chain: Chain, scopeType: ScopeType, scopeId: string, statuses: ReadonlyArray<StatusInput>) =>
  Effect.forEach(statuses, (status, index) =>
    Effect.map(
      query<Status>(
        `INSERT INTO pm_statuses (id, workspace_id, scope_type, scope_id, name, type, color, position)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${columns}`,
        [
          crypto.randomUUID(),
          chain.workspaceId,
          scopeType,
          scopeId,
          status.name.trim(),
          status.type,
          status.color ?? defaultColors[status.type],
          index + 1
        ]
      ),
      (rows) => rows[0]!
    )
  )

/** Lists whose effective statuses come from this scope. */
export const listsUsing = (scopeType: ScopeType, scopeId: string) => {
  const noOwn = `NOT EXISTS (SELECT 1 FROM pm_statuses st WHERE st.scope_type = 'list' AND st.scope_id = l.id)`
  const text =
    scopeType === "list"
      ? `SELECT l.id FROM pm_lists l WHERE l.id = $1`
      : scopeType === "folder"
        ? `SELECT l.id FROM pm_lists l WHERE l.folder_id = $1 AND l.deleted_at IS NULL AND ${noOwn}`
        : `SELECT l.id FROM pm_lists l WHERE l.space_id = $1 AND l.deleted_at IS NULL AND ${noOwn}
         AND (l.folder_id IS NULL OR NOT EXISTS (SELECT 1 FROM pm_statuses st WHERE st.scope_type = 'folder' AND st.scope_id = l.folder_id))`
  return Effect.map(query<{ id: string }>(text, [scopeId]), (rows) => rows.map((r) => r.id))
}

const findListsIn = SqlSchema.findAll({
  Request: Schema.Struct({ scopeType: Schema.Literals(["folder", "list"]), scopeId: Schema.String }),
  Result: Schema.Struct({ id: Schema.String }),
  execute: (r) => [
    r.scopeType === "folder" ? "SELECT id FROM pm_lists WHERE folder_id = $1" : "SELECT id FROM pm_lists WHERE id = $1",
    [r.scopeId]
  ]
})

/** The lists in a folder (deleted ones too), or the list itself. */
export const listIdsIn = (scopeType: "folder" | "list", scopeId: string) =>
  Effect.map(findListsIn({ scopeType, scopeId }), (rows) => rows.map((r) => r.id))

const countByStatus = SqlSchema.findAll({
  Request: Schema.Array(Schema.String),
  Result: Schema.Struct({ status: Schema.String, count: Schema.Number }),
  execute: (listIds) => [
    "SELECT lower(status) AS status, count(*)::int AS count FROM pm_tasks WHERE list_id = ANY($1::text[]) AND deleted_at IS NULL GROUP BY lower(status)",
    [listIds]
  ]
})

/** The (not deleted) tasks of these lists counted by status name (lower case). */
export const taskCountsByStatus = (listIds: ReadonlyArray<string>) => countByStatus(listIds)

/**
 * Moves the tasks of `listIds` from statuses of `before` that `after` lacks:
 * to `mapping[old name]` when given, else to the first status of the same
 * type, else to the first open one. Then aligns `closed_at` with the types.
 * Returns how many tasks changed status.
 */
export const remapTasks = (
  listIds: ReadonlyArray<string>,
  before: ReadonlyArray<Pick<Status, "name" | "type">>,
  after: ReadonlyArray<Pick<Status, "name" | "type">>,
  by: string,
  mapping: Readonly<Record<string, string>> = {}
) =>
  Effect.gen(function* () {
    if (listIds.length === 0 || after.length === 0) return 0
    let moved = 0
    for (const old of before) {
      if (findStatus(after as Array<Status>, old.name)) continue
      const explicit = Object.entries(mapping).find(([from]) => from.trim().toLowerCase() === old.name.toLowerCase())?.[1]
      const target = (explicit ? findStatus(after as Array<Status>, explicit) : undefined) ?? closestStatus(after, old.type)!
      const rows = yield* query<{ id: string }>(
        `UPDATE pm_tasks SET status = $1, version = version + 1, updated_at = now()
          WHERE list_id = ANY($2::text[]) AND lower(status) = lower($3) RETURNING id`,
        [target.name, listIds, old.name]
      )
      if (rows.length > 0) {
        moved += rows.length
        yield* query(
          `INSERT INTO pm_task_status_history (id, task_id, status, status_type, entered_by)
           SELECT gen_random_uuid()::text, id, $2, $3, $4 FROM pm_tasks WHERE id = ANY($1::text[])`,
          [rows.map((r) => r.id), target.name, target.type, by]
        )
      }
    }
    // Names survive, types may not: keep closed_at in step with done/closed.
    const finished = after.filter((s) => s.type === "done" || s.type === "closed").map((s) => s.name.toLowerCase())
    yield* query(
      `UPDATE pm_tasks SET closed_at = CASE WHEN lower(status) = ANY($2::text[]) THEN COALESCE(closed_at, now()) ELSE NULL END
        WHERE list_id = ANY($1::text[]) AND (closed_at IS NULL) = (lower(status) = ANY($2::text[]))`,
      [listIds, finished]
    )
    return moved
  })

/** Renames a status on the tasks of `listIds` (case-insensitive match). */
export const renameOnTasks = (listIds: ReadonlyArray<string>, from: string, to: string) =>
  listIds.length === 0
    ? Effect.succeed(0)
    : Effect.map(
        query<{ id: string }>(
          `UPDATE pm_tasks SET status = $3, updated_at = now() WHERE list_id = ANY($1::text[]) AND lower(status) = lower($2) RETURNING id`,
          [listIds, from, to]
        ),
        (rows) => rows.length
      )

// ---------------------------------------------------------------------------
// Commands on a scope's statuses (the owning actor runs them).

export interface ScopeRef {
  readonly chain: Chain
  readonly scopeType: ScopeType
  readonly scopeId: string
}

const whereOf = (ref: ScopeRef) => ({ workspaceId: ref.chain.workspaceId, spaceId: ref.chain.spaceId, listId: ref.chain.listId })

/** The scope's own statuses, copying the inherited ones first if it has none. */
const materialize = (ref: ScopeRef) =>
  Effect.gen(function* () {
    const own = yield* ownStatuses(ref.scopeType, ref.scopeId)
    if (own.length > 0) return { own, copied: false }
    const inherited = yield* effectiveStatuses(ref.chain)
    const copied = yield* insertStatuses(ref.chain, ref.scopeType, ref.scopeId, inherited.items)
    return { own: copied, copied: true }
  })

/** Finds a status of the scope's effective set by id, as it is after materializing (copies get new ids). */
const resolveInScope = (ref: ScopeRef, statusId: string) =>
  Effect.gen(function* () {
    const effective = yield* effectiveStatuses(ref.chain)
    const target = effective.items.find((s) => s.id === statusId)
    if (target === undefined) return yield* new StatusNotFound()
    const { own, copied } = yield* materialize(ref)
    return { status: findStatus(own, target.name)!, own, copied, before: effective.items }
  })

const remapped = (ref: ScopeRef, listIds: ReadonlyArray<string>, count: number, by: string): ReadonlyArray<Change> =>
  count > 0 ? [change(whereOf(ref), "tasks.statuses_remapped", ref.scopeId, { listIds, tasks: count }, by)] : []

export const createStatus = (ref: ScopeRef, input: StatusInput & { readonly position?: number }, by: string) =>
  Effect.gen(function* () {
    const { own } = yield* materialize(ref)
    if (findStatus(own, input.name)) return yield* new StatusNameTaken({ name: input.name.trim() })
    const position = input.position ?? (own.length > 0 ? Math.max(...own.map((s) => s.position)) + 1 : 1)
    const [status] = yield* query<Status>(
      `INSERT INTO pm_statuses (id, workspace_id, scope_type, scope_id, name, type, color, position) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${columns}`,
      [
        crypto.randomUUID(),
        ref.chain.workspaceId,
        ref.scopeType,
        ref.scopeId,
        input.name.trim(),
        input.type,
        input.color ?? defaultColors[input.type],
        position
      ]
    )
    return {
      result: status!,
      changes: [change(whereOf(ref), "status.created", status!.id, { scopeType: ref.scopeType, scopeId: ref.scopeId, ...status! }, by)]
    }
  })

export const updateStatus = (
  ref: ScopeRef,
  statusId: string,
  patch: { readonly name?: string; readonly type?: StatusType; readonly color?: string },
  by: string
) =>
  Effect.gen(function* () {
    const { status, own, before } = yield* resolveInScope(ref, statusId)
    const name = patch.name?.trim() ?? status.name
    if (patch.name !== undefined && name.toLowerCase() !== status.name.toLowerCase() && findStatus(own, name)) {
      return yield* new StatusNameTaken({ name })
    }
    const next = own.map((s) => (s.id === status.id ? { ...s, name, type: patch.type ?? s.type } : s))
    yield* checkStatusSet(next, "body.type")
    const [updated] = yield* query<Status>(`UPDATE pm_statuses SET name = $2, type = $3, color = $4 WHERE id = $1 RETURNING ${columns}`, [
      status.id,
      name,
      patch.type ?? status.type,
      patch.color ?? status.color
    ])
    const lists = yield* listsUsing(ref.scopeType, ref.scopeId)
    if (name !== status.name) yield* renameOnTasks(lists, status.name, name)
    const moved = yield* remapTasks(lists, before, next, by)
    const changed = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined))
    return {
      result: updated!,
      changes: [
        change(
          whereOf(ref),
          "status.updated",
          updated!.id,
          { scopeType: ref.scopeType, scopeId: ref.scopeId, previousName: status.name, ...changed },
          by
        ),
        ...remapped(ref, lists, moved, by)
      ]
    }
  })

export const deleteStatus = (ref: ScopeRef, statusId: string, moveTo: string | undefined, by: string) =>
  Effect.gen(function* () {
    const { status, own, before } = yield* resolveInScope(ref, statusId)
    const next = own.filter((s) => s.id !== status.id)
    yield* checkStatusSet(next, "path.statusId")
    if (moveTo !== undefined && !findStatus(next, moveTo)) {
      return yield* new NoStatusToMoveTo({ name: moveTo })
    }
    yield* query(`DELETE FROM pm_statuses WHERE id = $1`, [status.id])
    const lists = yield* listsUsing(ref.scopeType, ref.scopeId)
    const moved = yield* remapTasks(lists, before, next, by, moveTo ? { [status.name]: moveTo } : {})
    return {
      result: { deleted: status.id, tasksMoved: moved },
      changes: [
        change(whereOf(ref), "status.deleted", status.id, { scopeType: ref.scopeType, scopeId: ref.scopeId, name: status.name }, by),
        ...remapped(ref, lists, moved, by)
      ]
    }
  })

export const reorderStatuses = (ref: ScopeRef, statusIds: ReadonlyArray<string>, by: string) =>
  Effect.gen(function* () {
    const effective = yield* effectiveStatuses(ref.chain)
    const known = new Set(effective.items.map((s) => s.id))
    if (statusIds.length !== known.size || new Set(statusIds).size !== statusIds.length || statusIds.some((id) => !known.has(id))) {
      return yield* new NotAPermutation({ field: "body.statusIds", every: "status of this workflow", of: "the statuses" })
    }
    const { own } = yield* materialize(ref)
    const names = statusIds.map((id) => effective.items.find((s) => s.id === id)!.name)
    for (const [index, name] of names.entries()) {
      yield* query(`UPDATE pm_statuses SET position = $2 WHERE id = $1`, [findStatus(own, name)!.id, index + 1])
    }
    const items = yield* ownStatuses(ref.scopeType, ref.scopeId)
    return {
      result: { items },
      changes: [change(whereOf(ref), "statuses.reordered", ref.scopeId, { scopeType: ref.scopeType, order: items.map((s) => s.name) }, by)]
    }
  })

export const replaceStatuses = (
  ref: ScopeRef,
  statuses: ReadonlyArray<StatusInput>,
  mapping: Readonly<Record<string, string>> | undefined,
  by: string
) =>
  Effect.gen(function* () {
    yield* checkStatusSet(statuses)
    const before = (yield* effectiveStatuses(ref.chain)).items
    if (mapping) {
      for (const [from, to] of Object.entries(mapping)) {
        if (!findStatus(statuses as Array<Status>, to)) return yield* new UnknownMappingTarget({ from, to })
      }
    }
    yield* query(`DELETE FROM pm_statuses WHERE scope_type = $1 AND scope_id = $2`, [ref.scopeType, ref.scopeId])
    const items = yield* insertStatuses(ref.chain, ref.scopeType, ref.scopeId, statuses)
    const lists = yield* listsUsing(ref.scopeType, ref.scopeId)
    const moved = yield* remapTasks(lists, before, items, by, mapping)
    return {
      result: { items, tasksMoved: moved },
      changes: [
        change(
          whereOf(ref),
          "statuses.replaced",
          ref.scopeId,
          { scopeType: ref.scopeType, statuses: items.map((s) => ({ name: s.name, type: s.type })) },
          by
        ),
        ...remapped(ref, lists, moved, by)
      ]
    }
  })

/** A folder or list goes back to inheriting its parent's statuses. */
export const resetStatuses = (ref: ScopeRef, by: string) =>
  Effect.gen(function* () {
    const own = yield* ownStatuses(ref.scopeType, ref.scopeId)
    if (own.length === 0) return yield* new AlreadyInheritsStatuses({ what: ref.scopeType })
    const lists = yield* listsUsing(ref.scopeType, ref.scopeId)
    yield* query(`DELETE FROM pm_statuses WHERE scope_type = $1 AND scope_id = $2`, [ref.scopeType, ref.scopeId])
    const after = yield* effectiveStatuses(ref.chain)
    const moved = yield* remapTasks(lists, own, after.items, by)
    return {
      result: { inheritedFrom: after.inheritedFrom, sourceId: after.sourceId, own: false, items: after.items, tasksMoved: moved },
      changes: [
        change(whereOf(ref), "statuses.reset", ref.scopeId, { scopeType: ref.scopeType, inheritedFrom: after.inheritedFrom }, by),
        ...remapped(ref, lists, moved, by)
      ]
    }
  })

const findStatusNames = SqlSchema.findAll({
  Request: Schema.Struct({ workspaceId: Schema.String, spaceId: Schema.NullOr(Schema.String) }),
  Result: Schema.Struct({ name: Schema.String }),
  execute: (r) => [
    `SELECT DISTINCT lower(st.name) AS name FROM pm_statuses st WHERE st.workspace_id = $1
       AND ($2::text IS NULL OR st.scope_id = $2 OR st.scope_id IN (SELECT id FROM pm_folders WHERE space_id = $2) OR st.scope_id IN (SELECT id FROM pm_lists WHERE space_id = $2))`,
    [r.workspaceId, r.spaceId]
  ]
})

/** Every status name (lower case) defined in the workspace, or in one space and its folders and lists. */
export const statusNamesIn = (workspaceId: string, spaceId: string | null) =>
  Effect.map(findStatusNames({ workspaceId, spaceId }), (rows) => rows.map((r) => r.name))

const countListByStatus = SqlSchema.findAll({
  Request: Schema.String,
  Result: Schema.Struct({ status: Schema.String, count: Schema.Number }),
  execute: (listId) => [
    "SELECT lower(status) AS status, count(*)::int AS count FROM pm_tasks WHERE list_id = $1 AND deleted_at IS NULL AND archived_at IS NULL GROUP BY lower(status)",
    [listId]
  ]
})

/** A list's unarchived (not deleted) tasks counted by status name (lower case). */
export const listTaskCountsByStatus = (listId: string) => countListByStatus(listId)
