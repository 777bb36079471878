/**
 * A board's key (MOBILE): upper-case letters and digits, 2–10, starting with
 * a letter, unique in the workspace. It prefixes references that name one
 * request or bug report in the whole workspace — MOBILE-12 for the request
 * numbered FR-12 on that board, MOBILE-B3 for its bug report B-3 — where
 * FR-12 alone may be on several boards. "FR" is reserved: FR-12 stays the
 * per-board short id.
 */
import { Effect } from "effect"
import { query, Sql } from "../../persistence/Sql.ts"
import { BoardKeyTaken } from "./FeedbackErrors.ts"

export const KEY_PATTERN = /^[A-Z][A-Z0-9]{1,9}$/
const RESERVED = new Set(["FR"])
const FALLBACK = "BOARD"

/** Letters and digits of the slug, upper-cased, at most 10, not starting with a digit; "BOARD" when that is too short or reserved. */
export const keyFromSlug = (slug: string) => {
  const base = slug
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, "")
    .replace(/^[0-9]+/, "")
    .slice(0, 10)
  return base.length < 2 || RESERVED.has(base) ? FALLBACK : base
}

/** The first of `base`, `base2`, `base3`, … (cut to 10) that `taken` does not hold. */
export const firstFree = (base: string, taken: ReadonlySet<string>) => {
  if (!taken.has(base)) return base
  for (let n = 2; ; n++) {
    const candidate = `${base.slice(0, 10 - String(n).length)}${n}`
    if (!taken.has(candidate)) return candidate
  }
}

const keysOfWorkspace = (workspaceId: string, exceptBoardId: string) =>
  Effect.map(
    query<{ key: string }>("SELECT key FROM feedback_boards WHERE workspace_id = $1 AND id <> $2", [workspaceId, exceptBoardId]),
    (rows) => new Set(rows.map((r) => r.key))
  )

/**
 * Keys of one workspace are chosen or checked one transaction at a time (until its
 * COMMIT): boards created at once, on one node or two, would otherwise all see
 * the same free key and all but one fail on the unique index. PGlite runs one
 * transaction at a time anyway.
 */
const lockWorkspaceKeys = (workspaceId: string) =>
  Sql.use((sql) =>
    sql.backend === "postgres"
      ? Effect.asVoid(sql.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`atrium/feedback_board_keys/${workspaceId}`]))
      : Effect.void
  )

/** A key for a new board: derived from its slug, numbered past the keys its workspace already has. */
export const newBoardKey = (workspaceId: string, boardId: string, slug: string) =>
  Effect.andThen(
    lockWorkspaceKeys(workspaceId),
    Effect.map(keysOfWorkspace(workspaceId, boardId), (taken) => firstFree(keyFromSlug(slug), taken))
  )

/** Whether a board admin may choose the key (its form is checked where the request is read). */
export const isReservedKey = (key: string) => RESERVED.has(key)

/** 409 naming body.key when another board of the workspace has the key. */
export const checkKeyFree = (workspaceId: string, boardId: string, key: string) =>
  Effect.flatMap(Effect.andThen(lockWorkspaceKeys(workspaceId), keysOfWorkspace(workspaceId, boardId)), (taken) =>
    taken.has(key) ? Effect.fail(new BoardKeyTaken()) : Effect.void
  )

/** The reference that names a request in the whole workspace: MOBILE-12. */
export const requestReference = (key: string, number: number) => `${key}-${number}`
/** The reference that names a bug report in the whole workspace: MOBILE-B3. */
export const bugReference = (key: string, number: number) => `${key}-B${number}`
/** The reference of the bug report with the per-board short id B-3. */
export const bugReferenceOf = (key: string, shortId: string) => bugReference(key, Number(shortId.slice("B-".length)))

/** A reference split into its board key and number, or undefined when it is not one. */
export const parseReference = (ref: string, kind: "request" | "bug") => {
  const match = (kind === "request" ? /^([A-Z][A-Z0-9]{1,9})-(\d{1,9})$/ : /^([A-Z][A-Z0-9]{1,9})-B(\d{1,9})$/).exec(
    ref.trim().toUpperCase()
  )
  if (match === null || RESERVED.has(match[1]!)) return undefined
  return { key: match[1]!, number: Number(match[2]) }
}
