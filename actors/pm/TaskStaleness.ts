/**
 * Which tasks a set of committed changes shows differently. A task actor
 * keeps its task hydrated in memory (status with its list's type and colour,
 * tags, custom field names, assignees, subtask count): a change made by
 * another actor — a status renamed on the list, a tag recoloured on the
 * space, a field deleted, a subtask created — must reach it. Runs inside the
 * change's transaction, so the ids it finds are those the change touched.
 *
 * Conservative by design: a change of a list, space or workspace invalidates
 * every task under it unless its type is known not to alter how tasks are
 * shown. Invalidation is cheap (a flag on a live actor); a miss would be a
 * stale read.
 */
import { Effect } from "effect"
import { query, type Sql, type SqlError } from "../../persistence/Sql.ts"
import type { Change } from "./ChangeLog.ts"

/** Change families that never alter a task as the API shows it. */
const notShownOnTasks =
  /^(sprint|sprint_group|dashboard|view|saved_filter|share_link|team|task_template|invitation|invite_link|favorite|notification|vote|comment|attachment|checklist|time_entry|relationship|reminder|spaces\.reordered|folders\.reordered|lists\.reordered|workspace\.(settings|seat_limit|logo|renamed))/

/** Task changes after which the parent's subtask count may differ. */
const altersParent = (change: Change) =>
  /^task\.(created|deleted|restored|moved|recurred|archived|unarchived|duplicated)$/.test(change.type) || "parentTaskId" in change.data

const tasksUnder = (column: "list_id" | "space_id" | "workspace_id", ids: ReadonlyArray<string>) =>
  ids.length === 0
    ? Effect.succeed([] as ReadonlyArray<{ id: string }>)
    : column === "list_id"
    ? query<{ id: string }>(
      `SELECT id FROM pm_tasks WHERE list_id = ANY($1::text[])
        UNION SELECT task_id FROM pm_task_list_links WHERE list_id = ANY($1::text[])`,
      [ids]
    )
    : query<{ id: string }>(`SELECT id FROM pm_tasks WHERE ${column} = ANY($1::text[])`, [ids])

/** Ids of the tasks whose shown state `changes` altered (deduplicated). */
export const staleTasks = (changes: ReadonlyArray<Change>): Effect.Effect<ReadonlyArray<string>, SqlError, Sql> =>
  Effect.gen(function* () {
    if (changes.length === 0) return []
    const tasks = new Set<string>()
    const parentsOf = new Set<string>()
    const lists = new Set<string>()
    const spaces = new Set<string>()
    const workspaces = new Set<string>()
    for (const change of changes) {
      if (notShownOnTasks.test(change.type)) continue
      if (change.scope === "task") {
        const taskId = change.path.taskId ?? change.entityId
        tasks.add(taskId)
        if (altersParent(change)) parentsOf.add(taskId)
      } else if (change.scope === "list" && change.path.listId) lists.add(change.path.listId)
      else if (change.scope === "space" && change.path.spaceId) spaces.add(change.path.spaceId)
      else workspaces.add(change.workspaceId)
    }
    if (parentsOf.size > 0) {
      const rows = yield* query<{ parentId: string }>(
        `SELECT parent_task_id AS "parentId" FROM pm_tasks WHERE id = ANY($1::text[]) AND parent_task_id IS NOT NULL`,
        [[...parentsOf]]
      )
      for (const row of rows) tasks.add(row.parentId)
    }
    for (const row of yield* tasksUnder("list_id", [...lists])) tasks.add(row.id)
    for (const row of yield* tasksUnder("space_id", [...spaces])) tasks.add(row.id)
    for (const row of yield* tasksUnder("workspace_id", [...workspaces])) tasks.add(row.id)
    return [...tasks]
  })
