/** Per-workspace short ids ("S-1", "F-2", "L-3", "T-42"): readable references for people and AI agents. */
import { Effect } from "effect"
import { query } from "../../persistence/Sql.ts"

export type ShortIdPrefix = "S" | "F" | "L" | "T"

/** The next short id of `prefix` in the workspace (atomic: one counter row per workspace and prefix). */
export const nextShortId = (workspaceId: string, prefix: ShortIdPrefix) =>
  Effect.map(
    query<{ value: number }>(
      `INSERT INTO pm_short_id_counters (workspace_id, prefix, next_value) VALUES ($1, $2, 2)
       ON CONFLICT (workspace_id, prefix) DO UPDATE SET next_value = pm_short_id_counters.next_value + 1
       RETURNING next_value - 1 AS value`,
      [workspaceId, prefix]
    ),
    (rows) => `${prefix}-${rows[0]!.value}`
  )

export const normalizeShortId = (value: string): string => value.trim().toUpperCase()
