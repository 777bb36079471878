/**
 * Everything under a workspace that a viewer may see, read in a handful of
 * queries: spaces, folders, lists, the statuses and custom fields defined at
 * each level (and those that apply to each list, inherited list → folder →
 * space), space tags and open task counts. The agent context, the hierarchy
 * reads and the structure export are views of it.
 */
import { Effect } from "effect"
import { query } from "../../persistence/Sql.ts"
import { fieldColumns } from "./CustomFields.ts"
import { type ArchivedFilter, listAllLists, listSpaces, type Viewer, visibleSpace } from "./StructureReads.ts"
import type { CustomField, Folder, List, ScopeType, Space, Status } from "./WorkRecords.ts"
import { folderColumns, toFolder } from "./StructureReads.ts"

export interface Outline {
  readonly spaces: ReadonlyArray<Space>
  readonly folders: ReadonlyArray<Folder>
  readonly lists: ReadonlyArray<List>
  /** Statuses defined at a level, by level id (ordered). */
  readonly statuses: ReadonlyMap<string, ReadonlyArray<Status>>
  /** Custom fields defined at a level, by level id (ordered). */
  readonly fields: ReadonlyMap<string, ReadonlyArray<CustomField>>
  readonly tags: ReadonlyMap<string, ReadonlyArray<{ id: string; name: string; color: string }>>
  /** Tasks not deleted, not archived, by list: all, and those not finished. */
  readonly taskCounts: ReadonlyMap<string, { total: number; unfinished: number }>
}

const group = <T>(items: ReadonlyArray<T>, key: (item: T) => string) => {
  const map = new Map<string, Array<T>>()
  for (const item of items) {
    const k = key(item)
    const list = map.get(k)
    if (list === undefined) map.set(k, [item])
    else list.push(item)
  }
  return map
}

export const outlineOf = (workspaceId: string, viewer: Viewer, archived: ArchivedFilter = "exclude") =>
  Effect.gen(function* () {
    const spaces = yield* listSpaces(workspaceId, viewer, archived)
    const spaceIds = spaces.map((s) => s.id)
    const folders =
      spaceIds.length === 0
        ? []
        : (yield* query<any>(
            `SELECT ${folderColumns} FROM pm_folders f WHERE f.space_id = ANY($1::text[]) AND f.deleted_at IS NULL
          AND ${archived === "include" ? "TRUE" : archived === "only" ? "f.archived_at IS NOT NULL" : "f.archived_at IS NULL"}
        ORDER BY f.position, f.created_at`,
            [spaceIds]
          )).map(toFolder)
    const folderIds = new Set(folders.map((f) => f.id))
    const lists = (yield* listAllLists(workspaceId, viewer, archived)).filter(
      (l) => spaceIds.includes(l.spaceId) && (l.folderId === null || folderIds.has(l.folderId) || archived === "only")
    )
    const statuses = yield* query<Status & { scopeId: string }>(
      `SELECT id, name, type, color, position, scope_id AS "scopeId" FROM pm_statuses WHERE workspace_id = $1 ORDER BY position, lower(name)`,
      [workspaceId]
    )
    const fields = yield* query<CustomField>(
      `SELECT ${fieldColumns} FROM pm_custom_fields WHERE workspace_id = $1 ORDER BY position, created_at`,
      [workspaceId]
    )
    const tags =
      spaceIds.length === 0
        ? []
        : yield* query<{ id: string; name: string; color: string; spaceId: string }>(
            `SELECT id, name, color, space_id AS "spaceId" FROM pm_tags WHERE space_id = ANY($1::text[]) ORDER BY lower(name)`,
            [spaceIds]
          )
    const counts = yield* query<{ listId: string; total: number; unfinished: number }>(
      `SELECT t.list_id AS "listId", count(*)::int AS total, count(*) FILTER (WHERE t.closed_at IS NULL)::int AS unfinished
         FROM pm_tasks t JOIN pm_spaces s ON s.id = t.space_id
        WHERE t.workspace_id = $1 AND t.deleted_at IS NULL AND t.archived_at IS NULL AND ${visibleSpace("s", 2, 3)}
        GROUP BY t.list_id`,
      [workspaceId, viewer.userId, viewer.admin]
    )
    return {
      spaces,
      folders,
      lists,
      statuses: group(statuses, (s) => s.scopeId) as ReadonlyMap<string, ReadonlyArray<Status>>,
      fields: group(fields, (f) => f.scopeId),
      tags: group(tags, (t) => t.spaceId),
      taskCounts: new Map(counts.map((c) => [c.listId, { total: c.total, unfinished: c.unfinished }] as const))
    } satisfies Outline
  })

/** The statuses that apply at a level (list → folder → space), and where they are defined. */
export const effectiveAt = (
  outline: Outline,
  chain: { spaceId: string; folderId: string | null; listId: string | null }
): { from: ScopeType; items: ReadonlyArray<Status> } => {
  const candidates: Array<[ScopeType, string | null]> = [
    ["list", chain.listId],
    ["folder", chain.folderId],
    ["space", chain.spaceId]
  ]
  for (const [from, id] of candidates) {
    const items = id === null ? undefined : outline.statuses.get(id)
    if (items !== undefined && items.length > 0) return { from, items }
  }
  return { from: "space", items: [] }
}

/** Custom fields a task at the level may carry: the space's, the folder's, the list's. */
export const fieldsAt = (outline: Outline, chain: { spaceId: string; folderId: string | null; listId: string | null }) => [
  ...(outline.fields.get(chain.spaceId) ?? []),
  ...(chain.folderId ? (outline.fields.get(chain.folderId) ?? []) : []),
  ...(chain.listId ? (outline.fields.get(chain.listId) ?? []) : [])
]
