/**
 * The sprint commands of a space (run by the space's planning actor, so
 * starting, completing and planning never race within a space):
 *
 * - A series is a sprint group, or the space's sprints outside any group;
 *   a series has at most one active sprint.
 * - A task is planned into at most one open (planned or active) sprint:
 *   adding it to another moves it there.
 * - Completing a sprint records its report; its unfinished tasks roll over
 *   to the next sprint (the one named, else the series' next planned one,
 *   else — when the group asks for it — a new one of the group's length) or
 *   go back to the backlog.
 */
import { Effect, Schema } from "effect"
import { Id, Name } from "../Fields.ts"
import { query } from "../../persistence/Sql.ts"
import type { Change } from "./ChangeLog.ts"
import { change } from "./Changes.ts"
import {
  ActiveSprintUndeletable,
  CompletedSprintFixed,
  CompletedSprintTasksFixed,
  InvalidFieldValue,
  NameTaken,
  NextSprintCompleted,
  NextSprintIsItself,
  PlanIntoCompletedSprint,
  SeriesBusy,
  SeriesHasActiveSprint,
  SprintEnded,
  SprintGroupBusy,
  SprintGroupNotFound,
  SprintNotActive,
  SprintNotFound,
  SprintNotPlanned,
  SprintStartFixed,
  SprintTeamNotFound,
  TaskNotInSprint,
  TasksOutsideSprintSpace
} from "./PlanningErrors.ts"
import { PlaceNotFound } from "./PmErrors.ts"
import { getSprint, getSprintGroup, groupRow, Sprint, SprintGroup, type SprintRow, sprintRow, type SprintSummary } from "./SprintRecords.ts"
import { getSpace } from "./StructureReads.ts"
import { teamWorkspace } from "./Team.ts"
import { command } from "./WorkActor.ts"
import { DateTime, isoDate } from "./WorkRecords.ts"

const DAY = 86_400_000
export const DEFAULT_SPRINT_DAYS = 14
const MAX_SPRINT_DAYS = 365

const invalid = (field: string, problem: string) => new InvalidFieldValue({ field, problem })

/** What a sprint command may refuse with. */
const SprintRefused = Schema.Union([
  InvalidFieldValue,
  NameTaken,
  PlaceNotFound,
  SprintNotFound,
  SprintGroupNotFound,
  SprintTeamNotFound,
  SprintGroupBusy,
  CompletedSprintFixed,
  SprintStartFixed,
  SeriesHasActiveSprint,
  SeriesBusy,
  ActiveSprintUndeletable,
  PlanIntoCompletedSprint,
  CompletedSprintTasksFixed,
  TasksOutsideSprintSpace,
  TaskNotInSprint,
  SprintNotPlanned,
  SprintNotActive,
  SprintEnded,
  NextSprintIsItself,
  NextSprintCompleted
])

const startOfToday = () => {
  const now = new Date()
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())).toISOString()
}

const plusDays = (iso: string, days: number) => new Date(Date.parse(iso) + days * DAY).toISOString()

const where = (sprint: { workspaceId: string; spaceId: string }) => ({ workspaceId: sprint.workspaceId, spaceId: sprint.spaceId })

const sprintInSpace = (spaceId: string, sprintId: string, path?: string) =>
  Effect.flatMap(sprintRow(sprintId), (sprint) =>
    sprint.spaceId === spaceId ? Effect.succeed(sprint) : Effect.fail(new SprintNotFound(path ? { field: path } : {}))
  )

const groupInSpace = (spaceId: string, groupId: string, path?: string) =>
  Effect.flatMap(
    Effect.mapError(groupRow(groupId), (e) => (e._tag === "SprintGroupNotFound" && path ? new SprintGroupNotFound({ field: path }) : e)),
    (group) => (group.spaceId === spaceId ? Effect.succeed(group) : Effect.fail(new SprintGroupNotFound(path ? { field: path } : {})))
  )

/** The space whose sprints these are (gone: `PlaceNotFound`). */
const spaceOf = (spaceId: string) => getSpace(spaceId)

const checkTeam = (workspaceId: string, teamId: string | null | undefined) =>
  Effect.gen(function* () {
    if (teamId === undefined || teamId === null) return
    if ((yield* teamWorkspace(teamId)) !== workspaceId) return yield* new SprintTeamNotFound()
  })

const groupNameTaken = (spaceId: string, name: string, except = "") =>
  Effect.flatMap(
    query(`SELECT 1 FROM pm_sprint_groups WHERE space_id = $1 AND lower(name) = lower($2) AND id <> $3`, [spaceId, name.trim(), except]),
    (rows) =>
      rows.length > 0 ? Effect.fail(new NameTaken({ what: "sprint group", name: name.trim(), where: "in this space" })) : Effect.void
  )

/** The active sprint of a series (a group, or the space's ungrouped sprints), if any. */
const activeInSeries = (spaceId: string, groupId: string | null, except = "") =>
  Effect.map(
    query<{ id: string; name: string }>(
      `SELECT id, name FROM pm_sprints WHERE space_id = $1 AND status = 'active' AND group_id IS NOT DISTINCT FROM $2 AND id <> $3`,
      [spaceId, groupId, except]
    ),
    (rows) => rows[0]
  )

const seriesCount = (spaceId: string, groupId: string | null) =>
  Effect.map(
    query<{ n: number }>(`SELECT count(*)::int AS n FROM pm_sprints WHERE space_id = $1 AND group_id IS NOT DISTINCT FROM $2`, [
      spaceId,
      groupId
    ]),
    (rows) => rows[0]!.n
  )

const latestEnd = (spaceId: string, groupId: string | null) =>
  Effect.map(
    query<{ end: string | null }>(`SELECT max(end_date) AS end FROM pm_sprints WHERE space_id = $1 AND group_id IS NOT DISTINCT FROM $2`, [
      spaceId,
      groupId
    ]),
    (rows) => rows[0]?.end ?? null
  )

const checkRange = (start: string, end: string, prefix: string) =>
  Date.parse(end) <= Date.parse(start)
    ? Effect.fail(invalid(`${prefix}.endDate`, "must be after the start date"))
    : Date.parse(end) - Date.parse(start) > MAX_SPRINT_DAYS * DAY
      ? Effect.fail(invalid(`${prefix}.endDate`, `a sprint lasts at most ${MAX_SPRINT_DAYS} days`))
      : Effect.void

const realDate = (value: string | undefined, path: string) =>
  value === undefined
    ? Effect.succeed(undefined)
    : isoDate(value)
      ? Effect.succeed(isoDate(value)!)
      : Effect.fail(invalid(path, "not a real date"))

/** Inserts a planned sprint; dates and name default from its series. */
const insertSprint = (
  space: { workspaceId: string; id: string },
  group: { id: string; name: string; defaultLengthDays: number } | undefined,
  input: { readonly name?: string; readonly goal?: string; readonly startDate?: string; readonly endDate?: string },
  by: string
) =>
  Effect.gen(function* () {
    const groupId = group?.id ?? null
    const length = group?.defaultLengthDays ?? DEFAULT_SPRINT_DAYS
    const previousEnd = yield* latestEnd(space.id, groupId)
    const today = startOfToday()
    const start = input.startDate ?? (previousEnd !== null && Date.parse(previousEnd) > Date.parse(today) ? previousEnd : today)
    const end = input.endDate ?? plusDays(start, length)
    yield* checkRange(start, end, "body")
    const number = (yield* seriesCount(space.id, groupId)) + 1
    const name = input.name?.trim() ?? `${group ? group.name : "Sprint"} ${number}`
    const id = crypto.randomUUID()
    yield* query(
      `INSERT INTO pm_sprints (id, workspace_id, space_id, group_id, name, goal, status, start_date, end_date, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, 'planned', $7, $8, $9)`,
      [id, space.workspaceId, space.id, groupId, name, input.goal ?? "", start, end, by]
    )
    return { id, name, start, end }
  })

const LengthDays = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 90 })).annotate({
  description: "Days a new sprint of the series lasts (default 14)"
})
const Description = Schema.String.check(Schema.isMaxLength(5000))
const Goal = Schema.String.check(Schema.isMaxLength(5000))

export const SprintGroupInput = Schema.Struct({
  name: Name(100),
  description: Schema.optionalKey(Description),
  defaultLengthDays: Schema.optionalKey(LengthDays),
  autoCreateNext: Schema.optionalKey(
    Schema.Boolean.annotate({ description: "Completing the last planned sprint creates the next one (default true)" })
  ),
  teamId: Schema.optionalKey(Schema.NullOr(Id).annotate({ description: "The team whose cadence this is" }))
})

export const SprintGroupPatch = Schema.Struct({
  name: Schema.optionalKey(Name(100)),
  description: Schema.optionalKey(Description),
  defaultLengthDays: Schema.optionalKey(LengthDays),
  autoCreateNext: Schema.optionalKey(Schema.Boolean),
  teamId: Schema.optionalKey(Schema.NullOr(Id))
})

export const SprintInput = Schema.Struct({
  name: Schema.optionalKey(Name()),
  goal: Schema.optionalKey(Goal),
  startDate: Schema.optionalKey(DateTime),
  endDate: Schema.optionalKey(DateTime),
  sprintGroupId: Schema.optionalKey(Id)
})

export const SprintPatch = Schema.Struct({
  ...SprintInput.fields,
  sprintGroupId: Schema.optionalKey(Schema.NullOr(Id).annotate({ description: "null takes the sprint out of its group" }))
})

export const SprintCompletionInput = Schema.Struct({
  unfinished: Schema.optionalKey(
    Schema.Literals(["next_sprint", "backlog"]).annotate({ description: "Where unfinished tasks go (default next_sprint)" })
  ),
  nextSprintId: Schema.optionalKey(Id)
})

export const SprintPlanning = Schema.Struct({
  added: Schema.Array(Id),
  moved: Schema.Array(Schema.Struct({ taskId: Id, fromSprintId: Id })).annotate({ description: "Tasks taken out of another open sprint" }),
  alreadyPlanned: Schema.Array(Id),
  sprint: Sprint
}).annotate({ identifier: "SprintPlanningResult" })

export const SprintCompletion = Schema.Struct({ sprint: Sprint, nextSprint: Schema.NullOr(Sprint) }).annotate({
  identifier: "SprintCompletion"
})

export const SprintTaskIds = Schema.Struct({ taskIds: Schema.Array(Id).check(Schema.isMinLength(1), Schema.isMaxLength(200)) })

const SprintRef = Schema.Struct({ sprintId: Id })
const GroupRef = Schema.Struct({ sprintGroupId: Id })

const members = (sprintId: string) =>
  query<{ rowId: string; taskId: string; closed: boolean; archived: boolean; minutes: number }>(
    `SELECT st.id AS "rowId", t.id AS "taskId", t.closed_at IS NOT NULL AS closed, t.archived_at IS NOT NULL AS archived,
            COALESCE(t.time_estimate_minutes, 0) AS minutes
       FROM pm_sprint_tasks st JOIN pm_sprints sp ON sp.id = st.sprint_id
       JOIN pm_tasks t ON t.id = st.task_id AND t.deleted_at IS NULL AND t.space_id = sp.space_id
      WHERE st.sprint_id = $1 AND st.removed_at IS NULL`,
    [sprintId]
  )

export const sprintCommands = {
  createSprintGroup: command(SprintGroupInput, SprintGroup, SprintRefused, (input, by, spaceId) =>
    Effect.gen(function* () {
      const space = yield* spaceOf(spaceId)
      yield* groupNameTaken(spaceId, input.name)
      yield* checkTeam(space.workspaceId, input.teamId)
      const id = crypto.randomUUID()
      yield* query(
        `INSERT INTO pm_sprint_groups (id, workspace_id, space_id, team_id, name, description, default_length_days, auto_create_next, created_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          id,
          space.workspaceId,
          spaceId,
          input.teamId ?? null,
          input.name.trim(),
          input.description ?? "",
          input.defaultLengthDays ?? DEFAULT_SPRINT_DAYS,
          input.autoCreateNext ?? true,
          by
        ]
      )
      const group = yield* getSprintGroup(id)
      return {
        result: group,
        changes: [
          change(
            { workspaceId: space.workspaceId, spaceId },
            "sprint_group.created",
            id,
            { name: group.name, defaultLengthDays: group.defaultLengthDays },
            by
          )
        ]
      }
    })
  ),

  updateSprintGroup: command(
    Schema.Struct({ sprintGroupId: Id, ...SprintGroupPatch.fields }),
    SprintGroup,
    SprintRefused,
    (input, by, spaceId) =>
      Effect.gen(function* () {
        const group = yield* groupInSpace(spaceId, input.sprintGroupId)
        if (input.name !== undefined) yield* groupNameTaken(spaceId, input.name, group.id)
        yield* checkTeam(group.workspaceId, input.teamId)
        yield* query(
          `UPDATE pm_sprint_groups SET name = $2, description = $3, default_length_days = $4, auto_create_next = $5, team_id = $6, updated_at = now() WHERE id = $1`,
          [
            group.id,
            input.name?.trim() ?? group.name,
            input.description ?? group.description,
            input.defaultLengthDays ?? group.defaultLengthDays,
            input.autoCreateNext ?? group.autoCreateNext,
            input.teamId !== undefined ? input.teamId : group.teamId
          ]
        )
        const { sprintGroupId: _g, ...changed } = input
        return { result: yield* getSprintGroup(group.id), changes: [change(where(group), "sprint_group.updated", group.id, changed, by)] }
      })
  ),

  /** Deletes the group; its sprints stay, outside any group. Refused while one of them runs. */
  deleteSprintGroup: command(GroupRef, Schema.Void, SprintRefused, (input, by, spaceId) =>
    Effect.gen(function* () {
      const group = yield* groupInSpace(spaceId, input.sprintGroupId)
      const active = yield* activeInSeries(spaceId, group.id)
      if (active) return yield* new SprintGroupBusy({ sprint: active.name })
      const detached = yield* query(`UPDATE pm_sprints SET group_id = NULL, updated_at = now() WHERE group_id = $1 RETURNING id`, [
        group.id
      ])
      yield* query(`DELETE FROM pm_sprint_groups WHERE id = $1`, [group.id])
      return {
        result: undefined,
        changes: [change(where(group), "sprint_group.deleted", group.id, { name: group.name, sprints: detached.length }, by)]
      }
    })
  ),

  createSprint: command(SprintInput, Sprint, SprintRefused, (input, by, spaceId) =>
    Effect.gen(function* () {
      const space = yield* spaceOf(spaceId)
      const group = input.sprintGroupId ? yield* groupInSpace(spaceId, input.sprintGroupId, "body.sprintGroupId") : undefined
      const startDate = yield* realDate(input.startDate, "body.startDate")
      const endDate = yield* realDate(input.endDate, "body.endDate")
      const created = yield* insertSprint({ workspaceId: space.workspaceId, id: spaceId }, group, { ...input, startDate, endDate }, by)
      return {
        result: yield* getSprint(created.id),
        changes: [
          change(
            { workspaceId: space.workspaceId, spaceId },
            "sprint.created",
            created.id,
            { name: created.name, startDate: created.start, endDate: created.end, sprintGroupId: group?.id ?? null },
            by
          )
        ]
      }
    })
  ),

  updateSprint: command(Schema.Struct({ sprintId: Id, ...SprintPatch.fields }), Sprint, SprintRefused, (input, by, spaceId) =>
    Effect.gen(function* () {
      const sprint = yield* sprintInSpace(spaceId, input.sprintId)
      const startDate = yield* realDate(input.startDate, "body.startDate")
      const endDate = yield* realDate(input.endDate, "body.endDate")
      if (sprint.status === "completed") {
        for (const key of ["startDate", "endDate", "sprintGroupId"] as const) {
          if (input[key] !== undefined) return yield* new CompletedSprintFixed({ field: `body.${key}` })
        }
      }
      if (sprint.status === "active" && startDate !== undefined && startDate !== sprint.startDate) {
        return yield* new SprintStartFixed()
      }
      let groupId = sprint.sprintGroupId
      if (input.sprintGroupId !== undefined && input.sprintGroupId !== sprint.sprintGroupId) {
        if (input.sprintGroupId !== null) yield* groupInSpace(spaceId, input.sprintGroupId, "body.sprintGroupId")
        groupId = input.sprintGroupId
        if (sprint.status === "active") {
          const other = yield* activeInSeries(spaceId, groupId, sprint.id)
          if (other) return yield* new SeriesHasActiveSprint({ sprint: other.name })
        }
      }
      const start = startDate ?? sprint.startDate
      const end = endDate ?? sprint.endDate
      if (startDate !== undefined || endDate !== undefined) yield* checkRange(start, end, "body")
      yield* query(
        `UPDATE pm_sprints SET name = $2, goal = $3, start_date = $4, end_date = $5, group_id = $6, updated_at = now() WHERE id = $1`,
        [sprint.id, input.name?.trim() ?? sprint.name, input.goal ?? sprint.goal, start, end, groupId]
      )
      const { sprintId: _s, ...changed } = input
      return {
        result: yield* getSprint(sprint.id),
        changes: [
          change(
            where(sprint),
            "sprint.updated",
            sprint.id,
            { ...changed, ...(startDate ? { startDate } : {}), ...(endDate ? { endDate } : {}) },
            by
          )
        ]
      }
    })
  ),

  /** Deletes a planned or completed sprint; its tasks go back to the backlog. An active sprint is completed, not deleted. */
  deleteSprint: command(SprintRef, Schema.Void, SprintRefused, (input, by, spaceId) =>
    Effect.gen(function* () {
      const sprint = yield* sprintInSpace(spaceId, input.sprintId)
      if (sprint.status === "active") return yield* new ActiveSprintUndeletable()
      const removed = yield* query(`DELETE FROM pm_sprint_tasks WHERE sprint_id = $1 AND removed_at IS NULL RETURNING task_id`, [sprint.id])
      yield* query(`DELETE FROM pm_sprints WHERE id = $1`, [sprint.id])
      return {
        result: undefined,
        changes: [
          change(where(sprint), "sprint.deleted", sprint.id, { name: sprint.name, status: sprint.status, tasks: removed.length }, by)
        ]
      }
    })
  ),

  /** Plans tasks of the space into the sprint; a task planned into another open sprint moves here. */
  addSprintTasks: command(Schema.Struct({ sprintId: Id, ...SprintTaskIds.fields }), SprintPlanning, SprintRefused, (input, by, spaceId) =>
    Effect.gen(function* () {
      const sprint = yield* sprintInSpace(spaceId, input.sprintId)
      if (sprint.status === "completed") return yield* new PlanIntoCompletedSprint()
      const taskIds = [...new Set(input.taskIds)]
      const found = yield* query<{ id: string }>(
        `SELECT id FROM pm_tasks WHERE id = ANY($1::text[]) AND space_id = $2 AND deleted_at IS NULL`,
        [taskIds, spaceId]
      )
      const known = new Set(found.map((r) => r.id))
      const missing = input.taskIds.map((id, index) => ({ id, index })).filter(({ id }) => !known.has(id))
      if (missing.length > 0) {
        return yield* new TasksOutsideSprintSpace({
          taskIds: missing.map((m) => m.id),
          fields: missing.map((m) => `body.taskIds.${m.index}`)
        })
      }
      const planned = yield* query<{ rowId: string; taskId: string; sprintId: string }>(
        `SELECT st.id AS "rowId", st.task_id AS "taskId", st.sprint_id AS "sprintId" FROM pm_sprint_tasks st JOIN pm_sprints sp ON sp.id = st.sprint_id
          WHERE st.task_id = ANY($1::text[]) AND st.removed_at IS NULL AND sp.status <> 'completed'`,
        [taskIds]
      )
      const alreadyPlanned = planned.filter((p) => p.sprintId === sprint.id).map((p) => p.taskId)
      const moved = planned.filter((p) => p.sprintId !== sprint.id)
      if (moved.length > 0) {
        yield* query(`UPDATE pm_sprint_tasks SET removed_at = now(), removed_by = $2 WHERE id = ANY($1::text[])`, [
          moved.map((m) => m.rowId),
          by
        ])
      }
      const added = taskIds.filter((id) => !alreadyPlanned.includes(id))
      for (const taskId of added) {
        yield* query(`INSERT INTO pm_sprint_tasks (id, sprint_id, task_id, added_by) VALUES ($1, $2, $3, $4)`, [
          crypto.randomUUID(),
          sprint.id,
          taskId,
          by
        ])
      }
      const movedOut = moved.map((m) => ({ taskId: m.taskId, fromSprintId: m.sprintId }))
      return {
        result: { added, moved: movedOut, alreadyPlanned, sprint: yield* getSprint(sprint.id) },
        changes: added.length === 0 ? [] : [change(where(sprint), "sprint.tasks_added", sprint.id, { taskIds: added, moved: movedOut }, by)]
      }
    })
  ),

  removeSprintTask: command(Schema.Struct({ sprintId: Id, taskId: Id }), Schema.Void, SprintRefused, (input, by, spaceId) =>
    Effect.gen(function* () {
      const sprint = yield* sprintInSpace(spaceId, input.sprintId)
      if (sprint.status === "completed") return yield* new CompletedSprintTasksFixed()
      const removed = yield* query(
        `UPDATE pm_sprint_tasks SET removed_at = now(), removed_by = $3 WHERE sprint_id = $1 AND task_id = $2 AND removed_at IS NULL RETURNING id`,
        [sprint.id, input.taskId, by]
      )
      if (removed.length === 0) return yield* new TaskNotInSprint()
      return { result: undefined, changes: [change(where(sprint), "sprint.task_removed", sprint.id, { taskId: input.taskId }, by)] }
    })
  ),

  startSprint: command(SprintRef, Sprint, SprintRefused, (input, by, spaceId) =>
    Effect.gen(function* () {
      const sprint = yield* sprintInSpace(spaceId, input.sprintId)
      if (sprint.status !== "planned") return yield* new SprintNotPlanned({ status: sprint.status })
      const other = yield* activeInSeries(spaceId, sprint.sprintGroupId)
      if (other) return yield* new SeriesBusy({ sprint: other.name })
      if (Date.parse(sprint.endDate) <= Date.now()) return yield* new SprintEnded()
      const rows = (yield* members(sprint.id)).filter((m) => !m.archived)
      const minutes = rows.reduce((sum, m) => sum + Number(m.minutes), 0)
      // Starting early moves the start to now, so the burndown begins on the real first day.
      yield* query(
        `UPDATE pm_sprints SET status = 'active', started_at = now(), started_by = $2, start_date = LEAST(start_date, now()),
                committed_tasks = $3, committed_minutes = $4, updated_at = now() WHERE id = $1`,
        [sprint.id, by, rows.length, minutes]
      )
      return {
        result: yield* getSprint(sprint.id),
        changes: [
          change(
            where(sprint),
            "sprint.started",
            sprint.id,
            { name: sprint.name, committedTasks: rows.length, committedMinutes: minutes },
            by
          )
        ]
      }
    })
  ),

  completeSprint: command(
    Schema.Struct({ sprintId: Id, ...SprintCompletionInput.fields }),
    SprintCompletion,
    SprintRefused,
    (input, by, spaceId) =>
      Effect.gen(function* () {
        const sprint = yield* sprintInSpace(spaceId, input.sprintId)
        if (sprint.status !== "active") return yield* new SprintNotActive({ status: sprint.status })
        const changes: Array<Change> = []
        const rows = (yield* members(sprint.id)).filter((m) => !m.archived)
        const finished = rows.filter((m) => m.closed)
        const unfinished = rows.filter((m) => !m.closed)
        let target: SprintRow | undefined
        if (input.unfinished !== "backlog") {
          if (input.nextSprintId !== undefined) {
            if (input.nextSprintId === sprint.id) return yield* new NextSprintIsItself()
            target = yield* sprintInSpace(spaceId, input.nextSprintId, "body.nextSprintId")
            if (target.status === "completed") return yield* new NextSprintCompleted()
          } else {
            const next = yield* query<{ id: string }>(
              `SELECT id FROM pm_sprints WHERE space_id = $1 AND group_id IS NOT DISTINCT FROM $2 AND status = 'planned' AND id <> $3
              ORDER BY start_date, created_at, id LIMIT 1`,
              [spaceId, sprint.sprintGroupId, sprint.id]
            )
            if (next[0]) target = yield* sprintRow(next[0].id)
            else if (sprint.sprintGroupId !== null) {
              const group = yield* groupRow(sprint.sprintGroupId)
              if (group.autoCreateNext) {
                const later = Math.max(Date.parse(sprint.endDate), Date.now())
                const start = new Date(later).toISOString()
                const created = yield* insertSprint(
                  { workspaceId: sprint.workspaceId, id: spaceId },
                  group,
                  { startDate: start, endDate: plusDays(start, group.defaultLengthDays) },
                  by
                )
                changes.push(
                  change(
                    where(sprint),
                    "sprint.created",
                    created.id,
                    { name: created.name, startDate: created.start, endDate: created.end, sprintGroupId: group.id, autoCreated: true },
                    by
                  )
                )
                target = yield* sprintRow(created.id)
              }
            }
          }
        }
        if (finished.length > 0)
          yield* query(`UPDATE pm_sprint_tasks SET outcome = 'completed' WHERE id = ANY($1::text[])`, [finished.map((m) => m.rowId)])
        if (unfinished.length > 0) {
          yield* query(`UPDATE pm_sprint_tasks SET outcome = $2 WHERE id = ANY($1::text[])`, [
            unfinished.map((m) => m.rowId),
            target ? "rolled_over" : "backlog"
          ])
        }
        let carried: Array<string> = []
        if (target && unfinished.length > 0) {
          const there = new Set(
            (yield* query<{ taskId: string }>(
              `SELECT task_id AS "taskId" FROM pm_sprint_tasks WHERE sprint_id = $1 AND removed_at IS NULL`,
              [target.id]
            )).map((r) => r.taskId)
          )
          carried = unfinished.map((m) => m.taskId).filter((id) => !there.has(id))
          for (const taskId of carried) {
            yield* query(`INSERT INTO pm_sprint_tasks (id, sprint_id, task_id, added_by, carried_from) VALUES ($1, $2, $3, $4, $5)`, [
              crypto.randomUUID(),
              target.id,
              taskId,
              by,
              sprint.id
            ])
          }
          if (carried.length > 0)
            changes.push(change(where(sprint), "sprint.tasks_added", target.id, { taskIds: carried, carriedFromSprintId: sprint.id }, by))
        }
        const churn = yield* query<{ added: number; removed: number }>(
          `SELECT count(*) FILTER (WHERE added_at > $2::timestamptz)::int AS added,
                count(*) FILTER (WHERE removed_at IS NOT NULL AND removed_at > $2::timestamptz)::int AS removed
           FROM pm_sprint_tasks WHERE sprint_id = $1`,
          [sprint.id, sprint.startedAt ?? sprint.startDate]
        )
        const committed = yield* query<{ tasks: number | null; minutes: number | null }>(
          `SELECT committed_tasks AS tasks, committed_minutes AS minutes FROM pm_sprints WHERE id = $1`,
          [sprint.id]
        )
        const summary: SprintSummary = {
          committedTasks: committed[0]?.tasks ?? 0,
          committedMinutes: committed[0]?.minutes ?? 0,
          completedTasks: finished.length,
          completedMinutes: finished.reduce((sum, m) => sum + Number(m.minutes), 0),
          addedDuringSprint: churn[0]?.added ?? 0,
          removedDuringSprint: churn[0]?.removed ?? 0,
          rolledOver: target ? unfinished.length : 0,
          returnedToBacklog: target ? 0 : unfinished.length,
          nextSprintId: target?.id ?? null
        }
        yield* query(
          `UPDATE pm_sprints SET status = 'completed', completed_at = now(), completed_by = $2, summary = $3, updated_at = now() WHERE id = $1`,
          [sprint.id, by, summary]
        )
        changes.unshift(change(where(sprint), "sprint.completed", sprint.id, { name: sprint.name, ...summary }, by))
        return { result: { sprint: yield* getSprint(sprint.id), nextSprint: target ? yield* getSprint(target.id) : null }, changes }
      })
  )
}
