/**
 * Saved filters of a list: named task criteria a user keeps for a list,
 * private to them or shared with everyone who sees the list. Each reads back
 * with the live number of tasks it matches and the query string that applies
 * it to the list's task listing.
 */
import { Effect, Schema } from "effect"
import { Id, Name, Timestamp } from "../Fields.ts"
import { query } from "../../persistence/Sql.ts"
import { change } from "./Changes.ts"
import { locateList } from "./Locate.ts"
import { DeleteByCreatorOrAdmin, InvalidFieldValue, NameTaken, SavedFilterNotFound } from "./PlanningErrors.ts"
import { NotWorkspaceMembers, PlaceNotFound } from "./PmErrors.ts"
import type { Viewer } from "./StructureReads.ts"
import { checkCriteria, criteriaQueryString, filterOfCriteria, TaskCriteria } from "./TaskCriteria.ts"
import { filterSql, taskFrom } from "./TaskReads.ts"
import { command } from "./WorkActor.ts"

export const SavedFilter = Schema.Struct({
  id: Id,
  listId: Id,
  name: Schema.String,
  criteria: TaskCriteria,
  shared: Schema.Boolean.annotate({ description: "Shared with everyone who sees the list; otherwise only its creator sees it" }),
  matchingTasks: Schema.Number.annotate({ description: "Tasks of the list it matches now" }),
  taskQuery: Schema.String.annotate({ description: "Query string applying it: GET /v1/lists/{listId}/tasks?<taskQuery>" }),
  createdBy: Id,
  createdAt: Timestamp
}).annotate({ identifier: "SavedFilter" })
export type SavedFilter = typeof SavedFilter.Type

export const SavedFilterInput = Schema.Struct({ name: Name(100), criteria: TaskCriteria, shared: Schema.optionalKey(Schema.Boolean) })

interface Row {
  readonly id: string
  readonly workspaceId: string
  readonly listId: string
  readonly name: string
  readonly criteria: TaskCriteria
  readonly shared: boolean
  readonly createdBy: string
  readonly createdAt: string
}

const columns = `id, workspace_id AS "workspaceId", list_id AS "listId", name, criteria, is_shared AS shared, created_by AS "createdBy", created_at AS "createdAt"`

const present = (rows: ReadonlyArray<Row>, viewer: Viewer) =>
  Effect.forEach(rows, (row) =>
    Effect.gen(function* () {
      const params: Array<unknown> = []
      const where = filterSql(
        filterOfCriteria(row.criteria, { workspaceId: row.workspaceId, viewer, scopeType: "list", scopeId: row.listId }),
        params
      )
      const counted = yield* query<{ n: number }>(`SELECT count(*)::int AS n ${taskFrom} WHERE ${where}`, params)
      const { workspaceId: _w, ...rest } = row
      return { ...rest, matchingTasks: counted[0]?.n ?? 0, taskQuery: criteriaQueryString(row.criteria) } satisfies SavedFilter
    })
  )

/** The list's filters the viewer sees: shared ones and their own, by name. */
export const savedFiltersOf = (listId: string, viewer: Viewer) =>
  Effect.flatMap(
    query<Row>(
      `SELECT ${columns} FROM pm_saved_filters WHERE list_id = $1 AND (is_shared OR created_by = $2) ORDER BY lower(name), created_at, id`,
      [listId, viewer.userId]
    ),
    (rows) => present(rows, viewer)
  )

const visibleFilter = (listId: string, filterId: string, userId: string) =>
  Effect.flatMap(
    query<Row>(`SELECT ${columns} FROM pm_saved_filters WHERE id = $1 AND list_id = $2 AND (is_shared OR created_by = $3)`, [
      filterId,
      listId,
      userId
    ]),
    (rows) => (rows[0] ? Effect.succeed(rows[0]) : Effect.fail(new SavedFilterNotFound()))
  )

/** The list the filters are on (gone, or in another workspace: `PlaceNotFound`). */
const listIn = (workspaceId: string, listId: string) =>
  locateList(listId).pipe(
    Effect.filterOrFail(
      (list) => list.workspaceId === workspaceId,
      () => new PlaceNotFound({ what: "list" })
    )
  )

/** What a saved-filter command may refuse with. */
const SavedFilterRefused = Schema.Union([
  PlaceNotFound,
  SavedFilterNotFound,
  NameTaken,
  DeleteByCreatorOrAdmin,
  InvalidFieldValue,
  NotWorkspaceMembers
])

export const savedFilterCommands = {
  createSavedFilter: command(
    Schema.Struct({ listId: Id, ...SavedFilterInput.fields, admin: Schema.Boolean }),
    SavedFilter,
    SavedFilterRefused,
    (input, by, workspaceId) =>
      Effect.gen(function* () {
        const list = yield* listIn(workspaceId, input.listId)
        const criteria = yield* checkCriteria(workspaceId, input.criteria, "body.criteria")
        const taken = yield* query(
          `SELECT 1 FROM pm_saved_filters WHERE list_id = $1 AND lower(name) = lower($2) AND (is_shared OR created_by = $3)`,
          [input.listId, input.name.trim(), by]
        )
        if (taken.length > 0) return yield* new NameTaken({ what: "saved filter", name: input.name.trim(), where: "on this list" })
        const id = crypto.randomUUID()
        yield* query(
          `INSERT INTO pm_saved_filters (id, workspace_id, list_id, name, criteria, is_shared, created_by) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
          [id, workspaceId, input.listId, input.name.trim(), criteria, input.shared ?? false, by]
        )
        const row = yield* visibleFilter(input.listId, id, by)
        const [saved] = yield* present([row], { userId: by, admin: input.admin })
        return {
          result: saved!,
          changes: [
            change(
              { workspaceId, spaceId: list.spaceId, listId: input.listId },
              "saved_filter.created",
              id,
              saved!.shared ? { name: saved!.name, shared: true } : { shared: false },
              by
            )
          ]
        }
      })
  ),

  /** Its creator deletes a filter; a shared one may also go by a workspace admin. */
  deleteSavedFilter: command(
    Schema.Struct({ listId: Id, filterId: Id, admin: Schema.Boolean }),
    Schema.Void,
    SavedFilterRefused,
    (input, by, workspaceId) =>
      Effect.gen(function* () {
        const list = yield* listIn(workspaceId, input.listId)
        const row = yield* visibleFilter(input.listId, input.filterId, by)
        if (row.createdBy !== by && !input.admin) return yield* new DeleteByCreatorOrAdmin({ what: "filter" })
        yield* query(`DELETE FROM pm_saved_filters WHERE id = $1`, [row.id])
        return {
          result: undefined,
          changes: [
            change(
              { workspaceId, spaceId: list.spaceId, listId: input.listId },
              "saved_filter.deleted",
              row.id,
              row.shared ? { name: row.name, shared: true } : { shared: false },
              by
            )
          ]
        }
      })
  )
}
