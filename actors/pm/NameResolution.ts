/**
 * Names instead of UUIDs, for the Lite operations: spaces, folders, lists,
 * custom fields and statuses are found by name (case-insensitive, trimmed),
 * or by short id or UUID. A name matching nothing answers 404 naming what
 * was not found; a name matching several answers 409 listing the candidates.
 */
import { Effect } from "effect"
import { query, type Sql, type SqlError } from "../../persistence/Sql.ts"
import { reject, type Rejection } from "../../runtime/Rejection.ts"
import { availableFields } from "./CustomFields.ts"
import { effectiveStatuses, findStatus } from "./Statuses.ts"
import { visibleSpace, type Viewer } from "./StructureReads.ts"
import type { CustomField, Status } from "./WorkRecords.ts"

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const SHORT = /^[A-Za-z]{1,2}-\d{1,9}$/

type Step<A> = Effect.Effect<A, Rejection | SqlError, Sql>

export interface Named {
  readonly id: string
  readonly name: string
  readonly shortId: string
}

/** Exactly one match, or 404 / 409 naming the field and the candidates. */
const exactlyOne = <T extends Named>(
  rows: ReadonlyArray<T>,
  what: string,
  name: string,
  path: string,
  describe: (row: T) => string = (r) => `${r.name} (${r.shortId})`
): Step<T> => {
  if (rows.length === 1) return Effect.succeed(rows[0]!)
  if (rows.length === 0)
    return Effect.fail(reject("not_found", `No ${what} named "${name}"`, [{ path, message: `no ${what} named "${name}"` }]))
  return Effect.fail(
    reject(
      "conflict",
      `"${name}" names ${rows.length} ${what}s: ${rows.map(describe).join("; ")}. Use a short id or the id instead.`,
      rows.map((row) => ({ path, message: `candidate: ${describe(row)} [${row.id}]` }))
    )
  )
}

/** Matches `$2` as a name (unarchived items), and also as an id or short id when it looks like one. */
const refCondition = (alias: string, ref: string) => {
  const byName = `(lower(${alias}.name) = lower(trim($2)) AND ${alias}.archived_at IS NULL)`
  return UUID.test(ref)
    ? `(${alias}.id = lower($2) OR ${byName})`
    : SHORT.test(ref)
      ? `(${alias}.short_id = upper($2) OR ${byName})`
      : byName
}

export const resolveSpace = (workspaceId: string, viewer: Viewer, ref: string, path: string): Step<Named & { isPrivate: boolean }> =>
  Effect.flatMap(
    query<Named & { isPrivate: boolean }>(
      `SELECT s.id, s.name, s.short_id AS "shortId", s.is_private AS "isPrivate" FROM pm_spaces s
        WHERE s.workspace_id = $1 AND s.deleted_at IS NULL AND ${visibleSpace("s", 3, 4)}
          AND ${refCondition("s", ref)}
        ORDER BY s.position`,
      [workspaceId, ref, viewer.userId, viewer.admin]
    ),
    (rows) => exactlyOne(rows, "space", ref, path)
  )

export const resolveFolder = (spaceId: string, ref: string, path: string): Step<Named> =>
  Effect.flatMap(
    query<Named>(
      `SELECT f.id, f.name, f.short_id AS "shortId" FROM pm_folders f WHERE f.space_id = $1 AND f.deleted_at IS NULL
          AND ${refCondition("f", ref)}
        ORDER BY f.position`,
      [spaceId, ref]
    ),
    (rows) => exactlyOne(rows, "folder", ref, path)
  )

export interface NamedList extends Named {
  readonly spaceId: string
  readonly folderId: string | null
  readonly folderName: string | null
}

/**
 * A list of a space by name: within `folderId` when given (null: directly in
 * the space), else anywhere in the space — where two folders holding lists
 * of that name make it ambiguous.
 */
export const resolveList = (spaceId: string, folderId: string | null | undefined, ref: string, path: string): Step<NamedList> =>
  Effect.flatMap(
    query<NamedList>(
      `SELECT l.id, l.name, l.short_id AS "shortId", l.space_id AS "spaceId", l.folder_id AS "folderId", f.name AS "folderName"
         FROM pm_lists l LEFT JOIN pm_folders f ON f.id = l.folder_id
        WHERE l.space_id = $1 AND l.deleted_at IS NULL
          AND ${folderId === undefined ? "TRUE" : folderId === null ? "l.folder_id IS NULL" : "l.folder_id = $3"}
          AND ${refCondition("l", ref)}
        ORDER BY f.position NULLS FIRST, l.position`,
      folderId ? [spaceId, ref, folderId] : [spaceId, ref]
    ),
    (rows) =>
      exactlyOne(
        rows,
        "list",
        ref,
        path,
        (r) => `${r.name} (${r.shortId}${r.folderName ? `, in folder ${r.folderName}` : ", not in a folder"})`
      )
  )

/** A list anywhere in the workspace's visible spaces, by name, short id or id. */
export const resolveListInWorkspace = (workspaceId: string, viewer: Viewer, ref: string, path: string): Step<NamedList> =>
  Effect.flatMap(
    query<NamedList & { spaceName: string }>(
      `SELECT l.id, l.name, l.short_id AS "shortId", l.space_id AS "spaceId", l.folder_id AS "folderId", f.name AS "folderName", s.name AS "spaceName"
         FROM pm_lists l JOIN pm_spaces s ON s.id = l.space_id LEFT JOIN pm_folders f ON f.id = l.folder_id
        WHERE l.workspace_id = $1 AND l.deleted_at IS NULL AND s.deleted_at IS NULL AND ${visibleSpace("s", 3, 4)} AND ${refCondition("l", ref)}
        ORDER BY s.position, f.position NULLS FIRST, l.position`,
      [workspaceId, ref, viewer.userId, viewer.admin]
    ),
    (rows) =>
      exactlyOne(rows, "list", ref, path, (r) => `${r.name} (${r.shortId}, in ${r.spaceName}${r.folderName ? ` / ${r.folderName}` : ""})`)
  )

/** A custom field that applies at `chain`, by name or id. */
export const resolveField = (
  chain: { spaceId: string; folderId: string | null; listId: string | null },
  ref: string,
  path: string
): Step<CustomField> =>
  Effect.flatMap(availableFields(chain), (fields) => {
    const matches = fields.filter((f) => f.id === ref || f.name.toLowerCase() === ref.trim().toLowerCase())
    if (matches.length === 1) return Effect.succeed(matches[0]!)
    if (matches.length === 0) {
      return Effect.fail(
        reject(
          "not_found",
          `No custom field named "${ref}" applies here${fields.length ? `; fields: ${fields.map((f) => f.name).join(", ")}` : ""}`,
          [{ path, message: `no custom field named "${ref}"` }]
        )
      )
    }
    return Effect.fail(
      reject(
        "conflict",
        `"${ref}" names ${matches.length} custom fields`,
        matches.map((f) => ({ path, message: `candidate: ${f.name} (${f.scopeType}) [${f.id}]` }))
      )
    )
  })

/** A status of the list's workflow by name (404 naming it and the list's statuses otherwise). */
export const resolveStatus = (
  chain: { workspaceId: string; spaceId: string; folderId: string | null; listId: string | null },
  name: string,
  path: string
): Step<Status> =>
  Effect.flatMap(effectiveStatuses(chain), (effective) => {
    const status = findStatus(effective.items, name)
    return status
      ? Effect.succeed(status)
      : Effect.fail(
          reject("not_found", `No status named "${name}" here; statuses: ${effective.items.map((s) => s.name).join(", ")}`, [
            { path, message: `no status named "${name}"` }
          ])
        )
  })
