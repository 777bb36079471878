/**
 * Sprints and sprint groups as the API shows them, and their reads. A sprint
 * belongs to a space (it plans that space's tasks) and optionally to a sprint
 * group, the series it is part of. Its tasks are the membership rows not
 * removed; only tasks still in the space (not deleted) count.
 */
import { Effect, Schema } from "effect"
import { Id, Timestamp } from "../Fields.ts"
import { query, type Sql, type SqlError } from "../../persistence/Sql.ts"
import * as SqlSchema from "../../persistence/SqlSchema.ts"
import { SprintGroupNotFound, SprintNotFound } from "./PlanningErrors.ts"
import { hydrate, taskColumns, taskFrom, type TaskRow } from "./TaskReads.ts"
import { visibleSpace, type Viewer } from "./StructureReads.ts"
import { Task } from "./WorkRecords.ts"

export const SprintStatus = Schema.Literals(["planned", "active", "completed"]).annotate({
  description: "planned: not started yet; active: running (one per series); completed: closed, with its report"
})
export type SprintStatus = typeof SprintStatus.Type

export const SprintSummary = Schema.Struct({
  committedTasks: Schema.Number.annotate({ description: "Tasks in the sprint when it started" }),
  committedMinutes: Schema.Number,
  completedTasks: Schema.Number.annotate({ description: "Tasks finished when the sprint completed" }),
  completedMinutes: Schema.Number,
  addedDuringSprint: Schema.Number,
  removedDuringSprint: Schema.Number,
  rolledOver: Schema.Number.annotate({ description: "Unfinished tasks moved to the next sprint" }),
  returnedToBacklog: Schema.Number.annotate({ description: "Unfinished tasks sent back to the backlog" }),
  nextSprintId: Schema.NullOr(Id)
}).annotate({ identifier: "SprintSummary" })
export type SprintSummary = typeof SprintSummary.Type

export const SprintProgress = Schema.Struct({
  tasks: Schema.Number,
  finished: Schema.Number,
  unfinished: Schema.Number,
  estimateMinutes: Schema.Number,
  finishedMinutes: Schema.Number,
  percent: Schema.Number.annotate({ description: "Finished tasks in percent (0 when empty)" })
}).annotate({ identifier: "SprintProgress" })
export type SprintProgress = typeof SprintProgress.Type

export const Sprint = Schema.Struct({
  id: Id,
  workspaceId: Id,
  spaceId: Id,
  sprintGroupId: Schema.NullOr(Id),
  name: Schema.String,
  goal: Schema.String,
  status: SprintStatus,
  startDate: Timestamp,
  endDate: Timestamp,
  startedAt: Schema.NullOr(Timestamp),
  completedAt: Schema.NullOr(Timestamp),
  progress: SprintProgress,
  summary: Schema.NullOr(SprintSummary),
  createdBy: Id,
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotate({ identifier: "Sprint" })
export type Sprint = typeof Sprint.Type

export const SprintGroup = Schema.Struct({
  id: Id,
  workspaceId: Id,
  spaceId: Id,
  teamId: Schema.NullOr(Id),
  name: Schema.String,
  description: Schema.String,
  defaultLengthDays: Schema.Number,
  autoCreateNext: Schema.Boolean.annotate({ description: "Completing a sprint with no planned successor creates the next one" }),
  sprints: Schema.Struct({ planned: Schema.Number, active: Schema.Number, completed: Schema.Number }),
  activeSprintId: Schema.NullOr(Id),
  createdBy: Id,
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotate({ identifier: "SprintGroup" })
export type SprintGroup = typeof SprintGroup.Type

export const SprintTask = Schema.Struct({
  addedAt: Timestamp,
  carriedFromSprintId: Schema.NullOr(Id),
  outcome: Schema.NullOr(Schema.Literals(["completed", "rolled_over", "backlog"])),
  task: Task
}).annotate({ identifier: "SprintTask" })

type Step<A, E> = Effect.Effect<A, E | SqlError, Sql>

export interface SprintRow {
  readonly id: string
  readonly workspaceId: string
  readonly spaceId: string
  readonly sprintGroupId: string | null
  readonly name: string
  readonly goal: string
  readonly status: SprintStatus
  readonly startDate: string
  readonly endDate: string
  readonly startedAt: string | null
  readonly completedAt: string | null
  readonly committedTasks: number | null
  readonly committedMinutes: number | null
  readonly summary: SprintSummary | null
  readonly createdBy: string
  readonly createdAt: string
  readonly updatedAt: string
}

const sprintColumns = `sp.id, sp.workspace_id AS "workspaceId", sp.space_id AS "spaceId", sp.group_id AS "sprintGroupId", sp.name, sp.goal, sp.status,
  sp.start_date AS "startDate", sp.end_date AS "endDate", sp.started_at AS "startedAt", sp.completed_at AS "completedAt",
  sp.committed_tasks AS "committedTasks", sp.committed_minutes AS "committedMinutes", sp.summary,
  sp.created_by AS "createdBy", sp.created_at AS "createdAt", sp.updated_at AS "updatedAt"`

/** Membership rows that count: not removed, the task alive and still in the sprint's space. */
export const currentMembers = `pm_sprint_tasks st JOIN pm_tasks t ON t.id = st.task_id AND t.deleted_at IS NULL
  JOIN pm_sprints sp ON sp.id = st.sprint_id AND t.space_id = sp.space_id`

export const sprintRow = (sprintId: string): Step<SprintRow, SprintNotFound> =>
  Effect.flatMap(query<SprintRow>(`SELECT ${sprintColumns} FROM pm_sprints sp WHERE sp.id = $1`, [sprintId]), (rows) =>
    rows[0] ? Effect.succeed(rows[0]) : Effect.fail(new SprintNotFound())
  )

/** Progress of sprints: for completed ones, as it stood when they completed. */
const progressOf = (sprintIds: ReadonlyArray<string>) =>
  Effect.map(
    query<{ sprintId: string; tasks: number; finished: number; minutes: number; finishedMinutes: number }>(
      `SELECT st.sprint_id AS "sprintId", count(*)::int AS tasks,
              count(*) FILTER (WHERE CASE WHEN sp.status = 'completed' THEN st.outcome = 'completed' ELSE t.closed_at IS NOT NULL END)::int AS finished,
              COALESCE(sum(t.time_estimate_minutes), 0)::int AS minutes,
              COALESCE(sum(t.time_estimate_minutes) FILTER (WHERE CASE WHEN sp.status = 'completed' THEN st.outcome = 'completed' ELSE t.closed_at IS NOT NULL END), 0)::int AS "finishedMinutes"
         FROM ${currentMembers}
        WHERE st.sprint_id = ANY($1::text[]) AND st.removed_at IS NULL AND t.archived_at IS NULL
        GROUP BY st.sprint_id`,
      [sprintIds]
    ),
    (rows) =>
      new Map(
        rows.map(
          (r) =>
            [
              r.sprintId,
              {
                tasks: r.tasks,
                finished: r.finished,
                unfinished: r.tasks - r.finished,
                estimateMinutes: r.minutes,
                finishedMinutes: r.finishedMinutes,
                percent: r.tasks === 0 ? 0 : Math.round((r.finished / r.tasks) * 1000) / 10
              } satisfies SprintProgress
            ] as const
        )
      )
  )

const emptyProgress: SprintProgress = { tasks: 0, finished: 0, unfinished: 0, estimateMinutes: 0, finishedMinutes: 0, percent: 0 }

const present = (rows: ReadonlyArray<SprintRow>) =>
  Effect.gen(function* () {
    const progress = yield* progressOf(rows.map((r) => r.id))
    return rows.map(
      ({ committedTasks: _c, committedMinutes: _m, ...row }): Sprint => ({
        ...row,
        summary: row.summary ?? null,
        progress: progress.get(row.id) ?? emptyProgress
      })
    )
  })

export const getSprint = (sprintId: string): Step<Sprint, SprintNotFound> =>
  Effect.flatMap(sprintRow(sprintId), (row) => Effect.map(present([row]), (items) => items[0]!))

export const listSprints = (spaceId: string, filter: { readonly status?: SprintStatus; readonly sprintGroupId?: string }) =>
  Effect.flatMap(
    query<SprintRow>(
      `SELECT ${sprintColumns} FROM pm_sprints sp
        WHERE sp.space_id = $1 AND ($2::text IS NULL OR sp.status = $2) AND ($3::text IS NULL OR sp.group_id = $3)
        ORDER BY sp.start_date, sp.created_at, sp.id`,
      [spaceId, filter.status ?? null, filter.sprintGroupId ?? null]
    ),
    present
  )

/** The active sprints of a workspace in spaces the viewer may see, ending soonest first (with their progress: two statements). */
export const activeSprintsOf = (workspaceId: string, viewer: Viewer) =>
  Effect.flatMap(
    query<SprintRow>(
      `SELECT ${sprintColumns} FROM pm_sprints sp JOIN pm_spaces s ON s.id = sp.space_id
        WHERE sp.workspace_id = $1 AND sp.status = 'active' AND s.deleted_at IS NULL AND ${visibleSpace("s", 2, 3)} ORDER BY sp.end_date, sp.id`,
      [workspaceId, viewer.userId, viewer.admin]
    ),
    present
  )

/** The tasks currently planned into a sprint, unfinished first, then by position. */
export const sprintTasks = (sprintId: string, page: { readonly offset: number; readonly limit: number }) =>
  Effect.gen(function* () {
    const where = `st.sprint_id = $1 AND st.removed_at IS NULL AND t.archived_at IS NULL`
    const [{ total }] = (yield* query<{ total: number }>(`SELECT count(*)::int AS total FROM ${currentMembers} WHERE ${where}`, [
      sprintId
    ])) as Array<{ total: number }>
    const rows = yield* query<
      TaskRow & { addedAt: string; carriedFrom: string | null; outcome: "completed" | "rolled_over" | "backlog" | null }
    >(
      `SELECT ${taskColumns}, st.added_at AS "addedAt", st.carried_from AS "carriedFrom", st.outcome
         FROM pm_sprint_tasks st JOIN pm_sprints sp ON sp.id = st.sprint_id
         JOIN pm_tasks t ON t.id = st.task_id AND t.deleted_at IS NULL AND t.space_id = sp.space_id
         JOIN pm_lists l ON l.id = t.list_id JOIN pm_spaces s ON s.id = t.space_id
        WHERE ${where}
        ORDER BY (t.closed_at IS NOT NULL), t.position, t.created_at, t.id
        LIMIT ${page.limit} OFFSET ${page.offset}`,
      [sprintId]
    )
    const tasks = yield* hydrate(rows.map(({ addedAt: _a, carriedFrom: _c, outcome: _o, ...row }) => row))
    return {
      items: rows.map((row, i) => ({ addedAt: row.addedAt, carriedFromSprintId: row.carriedFrom, outcome: row.outcome, task: tasks[i]! })),
      total,
      offset: page.offset,
      limit: page.limit
    }
  })

/** Unfinished tasks of a space not planned into any planned or active sprint. */
export const backlog = (spaceId: string, viewer: Viewer, page: { readonly offset: number; readonly limit: number }) =>
  Effect.gen(function* () {
    const where = `t.space_id = $1 AND t.deleted_at IS NULL AND t.archived_at IS NULL AND t.closed_at IS NULL AND l.deleted_at IS NULL
      AND s.deleted_at IS NULL AND ${visibleSpace("s", 2, 3)}
      AND NOT EXISTS (SELECT 1 FROM pm_sprint_tasks st JOIN pm_sprints sp ON sp.id = st.sprint_id
                       WHERE st.task_id = t.id AND st.removed_at IS NULL AND sp.status <> 'completed')`
    const params = [spaceId, viewer.userId, viewer.admin]
    const [{ total }] = (yield* query<{ total: number }>(`SELECT count(*)::int AS total ${taskFrom} WHERE ${where}`, params)) as Array<{
      total: number
    }>
    const rows = yield* query<TaskRow>(
      `SELECT ${taskColumns} ${taskFrom} WHERE ${where}
        ORDER BY CASE t.priority WHEN 'urgent' THEN 1 WHEN 'high' THEN 2 WHEN 'normal' THEN 3 WHEN 'low' THEN 4 ELSE 5 END, t.due_date NULLS LAST, t.created_at, t.id
        LIMIT ${page.limit} OFFSET ${page.offset}`,
      params
    )
    return { items: yield* hydrate(rows), total, offset: page.offset, limit: page.limit }
  })

const groupColumns = `g.id, g.workspace_id AS "workspaceId", g.space_id AS "spaceId", g.team_id AS "teamId", g.name, g.description,
  g.default_length_days AS "defaultLengthDays", g.auto_create_next AS "autoCreateNext",
  g.created_by AS "createdBy", g.created_at AS "createdAt", g.updated_at AS "updatedAt"`

type GroupRow = Omit<SprintGroup, "sprints" | "activeSprintId">

const presentGroups = (rows: ReadonlyArray<GroupRow>) =>
  Effect.gen(function* () {
    const counts = yield* query<{ groupId: string; status: SprintStatus; count: number; activeId: string | null }>(
      `SELECT group_id AS "groupId", status, count(*)::int AS count, max(id) FILTER (WHERE status = 'active') AS "activeId"
         FROM pm_sprints WHERE group_id = ANY($1::text[]) GROUP BY group_id, status`,
      [rows.map((r) => r.id)]
    )
    return rows.map((row): SprintGroup => {
      const mine = counts.filter((c) => c.groupId === row.id)
      const count = (status: SprintStatus) => mine.find((c) => c.status === status)?.count ?? 0
      return {
        ...row,
        sprints: { planned: count("planned"), active: count("active"), completed: count("completed") },
        activeSprintId: mine.find((c) => c.status === "active")?.activeId ?? null
      }
    })
  })

export const groupRow = (groupId: string): Step<GroupRow, SprintGroupNotFound> =>
  Effect.flatMap(query<GroupRow>(`SELECT ${groupColumns} FROM pm_sprint_groups g WHERE g.id = $1`, [groupId]), (rows) =>
    rows[0] ? Effect.succeed(rows[0]) : Effect.fail(new SprintGroupNotFound())
  )

export const getSprintGroup = (groupId: string): Step<SprintGroup, SprintGroupNotFound> =>
  Effect.flatMap(groupRow(groupId), (row) => Effect.map(presentGroups([row]), (items) => items[0]!))

export const listSprintGroups = (spaceId: string) =>
  Effect.flatMap(
    query<GroupRow>(`SELECT ${groupColumns} FROM pm_sprint_groups g WHERE g.space_id = $1 ORDER BY lower(g.name), g.id`, [spaceId]),
    presentGroups
  )

const findSprintsNamed = SqlSchema.findAll({
  Request: Schema.Struct({
    workspaceId: Schema.String,
    userId: Schema.String,
    admin: Schema.Boolean,
    spaceId: Schema.NullOr(Schema.String),
    ref: Schema.String
  }),
  Result: Schema.Struct({ id: Schema.String, name: Schema.String, space: Schema.String }),
  execute: (r) => [
    `SELECT sp.id, sp.name, s.name AS space FROM pm_sprints sp JOIN pm_spaces s ON s.id = sp.space_id
      WHERE sp.workspace_id = $1 AND s.deleted_at IS NULL AND ${visibleSpace("s", 2, 3)} AND ($4::text IS NULL OR sp.space_id = $4)
        AND (lower(sp.name) = lower($5) OR sp.id = lower($5))`,
    [r.workspaceId, r.userId, r.admin, r.spaceId, r.ref]
  ]
})

/** Sprints the viewer may see named `ref` (any case) or with that id, in one space or the whole workspace. */
export const sprintsNamed = (workspaceId: string, viewer: Viewer, spaceId: string | null, ref: string) =>
  findSprintsNamed({ workspaceId, userId: viewer.userId, admin: viewer.admin, spaceId, ref })
