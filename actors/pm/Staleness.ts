/**
 * Which read models a set of committed changes altered. A task actor keeps
 * its task hydrated in memory (status with its list's type and colour, tags,
 * custom field names, assignees, subtask count), a list actor where the list
 * sits, a space actor who may see it: a change made by another actor — a
 * status renamed on the list, a tag recoloured on the space, a field deleted,
 * a subtask created, a list moved to another space — must reach them. Runs
 * inside the change's transaction, so the ids it finds are those the change
 * touched.
 *
 * Conservative by design: a change of a list, space or workspace invalidates
 * everything under it unless its type is known not to alter how tasks, lists
 * and spaces are shown. Invalidation is cheap (a flag on a live actor, none
 * started for it); a miss would be a stale read.
 */
import { Effect } from "effect"
import { query, type Sql, type SqlError } from "../../persistence/Sql.ts"
import type { Change } from "./ChangeLog.ts"

/** Change families that never alter a task, a list's place or a space's access. */
const notShownOnTasks =
  /^(sprint|sprint_group|dashboard|view|saved_filter|share_link|team|task_template|invitation|invite_link|favorite|notification|vote|comment|attachment|checklist|time_entry|relationship|reminder|spaces\.reordered|folders\.reordered|lists\.reordered|workspace\.(settings|seat_limit|logo|renamed))/

/** Task changes after which the parent's subtask count may differ. */
const altersParent = (change: Change) =>
  /^task\.(created|deleted|undeleted|restored|moved|recurred|archived|unarchived|duplicated)$/.test(change.type) ||
  "parentTaskId" in change.data

/** Task changes that carry their subtasks along (trash, archive, moves). */
const cascades = (change: Change) => /^task\.(deleted|undeleted|restored|moved|archived|unarchived)$/.test(change.type)

export interface Stale {
  readonly tasks: ReadonlyArray<string>
  readonly lists: ReadonlyArray<string>
  readonly spaces: ReadonlyArray<string>
}

const none: Stale = { tasks: [], lists: [], spaces: [] }

const idsOf = (text: string, ids: ReadonlyArray<string>) =>
  ids.length === 0
    ? Effect.succeed([] as ReadonlyArray<string>)
    : Effect.map(query<{ id: string }>(text, [ids]), (rows) => rows.map((r) => r.id))

/** The read models whose shown state `changes` altered (deduplicated). */
export const staleReadModels = (changes: ReadonlyArray<Change>): Effect.Effect<Stale, SqlError, Sql> =>
  Effect.gen(function* () {
    if (changes.length === 0) return none
    const tasks = new Set<string>()
    const parentsOf = new Set<string>()
    const ancestors = new Set<string>()
    const lists = new Set<string>()
    const spaces = new Set<string>()
    const workspaces = new Set<string>()
    for (const change of changes) {
      if (notShownOnTasks.test(change.type)) continue
      if (change.scope === "task") {
        const taskId = change.path.taskId ?? change.entityId
        tasks.add(taskId)
        const parentId = change.data.parentTaskId
        // A new task names its parent; other moves and removals look it up.
        if (change.type === "task.created") {
          if (typeof parentId === "string") tasks.add(parentId)
        } else if (altersParent(change)) parentsOf.add(taskId)
        if (cascades(change)) ancestors.add(taskId)
      } else if (change.scope === "list" && change.path.listId) lists.add(change.path.listId)
      else if (change.scope === "space" && change.path.spaceId) spaces.add(change.path.spaceId)
      else workspaces.add(change.workspaceId)
    }
    if (workspaces.size > 0) {
      for (const id of yield* idsOf(`SELECT id FROM pm_spaces WHERE workspace_id = ANY($1::text[])`, [...workspaces])) spaces.add(id)
    }
    if (spaces.size > 0) {
      for (const id of yield* idsOf(`SELECT id FROM pm_lists WHERE space_id = ANY($1::text[])`, [...spaces])) lists.add(id)
      for (const id of yield* idsOf(`SELECT id FROM pm_tasks WHERE space_id = ANY($1::text[])`, [...spaces])) tasks.add(id)
    }
    if (lists.size > 0) {
      const under = yield* idsOf(
        `SELECT id FROM pm_tasks WHERE list_id = ANY($1::text[]) UNION SELECT task_id FROM pm_task_list_links WHERE list_id = ANY($1::text[])`,
        [...lists]
      )
      for (const id of under) tasks.add(id)
    }
    if (ancestors.size > 0) {
      const descendants = yield* idsOf(
        `WITH RECURSIVE below(id) AS (
           SELECT id FROM pm_tasks WHERE parent_task_id = ANY($1::text[])
           UNION SELECT t.id FROM pm_tasks t JOIN below b ON t.parent_task_id = b.id
         ) SELECT id FROM below`,
        [...ancestors]
      )
      for (const id of descendants) tasks.add(id)
    }
    if (parentsOf.size > 0) {
      for (const id of yield* idsOf(`SELECT parent_task_id AS id FROM pm_tasks WHERE id = ANY($1::text[]) AND parent_task_id IS NOT NULL`, [
        ...parentsOf
      ])) {
        tasks.add(id)
      }
    }
    return { tasks: [...tasks], lists: [...lists], spaces: [...spaces] }
  })

/** The tasks that show `userId` (as an assignee): stale once the user's name or e-mail changes. */
export const showingUser = (userId: string): Effect.Effect<Stale, SqlError, Sql> =>
  Effect.map(idsOf(`SELECT DISTINCT task_id AS id FROM pm_task_assignees WHERE user_id = ANY($1::text[])`, [userId]), (tasks) => ({
    ...none,
    tasks
  }))
