/**
 * Relationships between tasks of one workspace: `blocks` (and its reading
 * from the other side, `blocked_by`), `relates_to` (symmetric) and
 * `duplicates`. The workspace actor owns them, so the cycle check of
 * "blocks" and the insert are serialized: two concurrent requests can never
 * close a cycle between them.
 */
import { Effect, Schema } from "effect"
import { Id, Timestamp } from "../Fields.ts"
import { query } from "../../persistence/Sql.ts"
import { PlaceNotFound } from "./PmErrors.ts"
import type { Change } from "./ChangeLog.ts"
import { change } from "./Changes.ts"
import { locateTask } from "./Locate.ts"
import { command } from "./WorkActor.ts"
import { BlockingCycle, RelatesToItself, RelationshipExists, RelationshipNotFound } from "./WorkErrors.ts"
import { Items } from "./WorkRecords.ts"

export const RelationshipType = Schema.Literals(["blocks", "blocked_by", "relates_to", "duplicates", "duplicated_by"]).annotate({
  description: "blocks / blocked_by and duplicates / duplicated_by are the two readings of one relationship; relates_to is symmetric"
})
export type RelationshipType = typeof RelationshipType.Type
type Stored = "blocks" | "relates_to" | "duplicates"

const TaskSummary = Schema.Struct({ id: Id, shortId: Schema.String, name: Schema.String, status: Schema.String, listId: Id }).annotate({
  identifier: "TaskSummary"
})

export const Relationship = Schema.Struct({
  id: Id,
  type: Schema.Literals(["blocks", "relates_to", "duplicates"]),
  sourceTaskId: Id,
  targetTaskId: Id,
  source: TaskSummary,
  target: TaskSummary,
  createdBy: Id,
  createdAt: Timestamp
}).annotate({ identifier: "Relationship" })
export type Relationship = typeof Relationship.Type

/** One relationship as seen from one of its tasks. */
export const TaskRelationship = Schema.Struct({
  id: Id,
  type: RelationshipType,
  task: TaskSummary,
  createdAt: Timestamp
}).annotate({ identifier: "TaskRelationship" })

/** Normalizes a type as typed by people or agents: "Blocked by", "relates-to", "DUPLICATES"… */
export const parseTypeName = (name: string): RelationshipType | undefined => {
  const key = name
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_")
  const aliases: Record<string, RelationshipType> = {
    blocks: "blocks",
    blocking: "blocks",
    blocked_by: "blocked_by",
    is_blocked_by: "blocked_by",
    depends_on: "blocked_by",
    waiting_on: "blocked_by",
    relates_to: "relates_to",
    related_to: "relates_to",
    relates: "relates_to",
    links_to: "relates_to",
    duplicates: "duplicates",
    duplicate_of: "duplicates",
    is_duplicate_of: "duplicates",
    duplicated_by: "duplicated_by"
  }
  return aliases[key]
}

const stored = (type: RelationshipType, from: string, to: string): { type: Stored; source: string; target: string } =>
  type === "blocked_by"
    ? { type: "blocks", source: to, target: from }
    : type === "duplicated_by"
      ? { type: "duplicates", source: to, target: from }
      : { type, source: from, target: to }

const columns = `r.id, r.type, r.source_task_id AS "sourceTaskId", r.target_task_id AS "targetTaskId", r.created_by AS "createdBy", r.created_at AS "createdAt",
  jsonb_build_object('id', s.id, 'shortId', s.short_id, 'name', s.name, 'status', s.status, 'listId', s.list_id) AS source,
  jsonb_build_object('id', t.id, 'shortId', t.short_id, 'name', t.name, 'status', t.status, 'listId', t.list_id) AS target`
const from = `FROM pm_relationships r JOIN pm_tasks s ON s.id = r.source_task_id JOIN pm_tasks t ON t.id = r.target_task_id`
const alive = `s.deleted_at IS NULL AND t.deleted_at IS NULL`

export const getRelationship = (relationshipId: string) =>
  Effect.flatMap(
    query<Relationship & { workspaceId: string }>(
      `SELECT ${columns}, r.workspace_id AS "workspaceId" ${from} WHERE r.id = $1 AND ${alive}`,
      [relationshipId]
    ),
    (rows) => (rows[0] ? Effect.succeed(rows[0]) : Effect.fail(new RelationshipNotFound({})))
  )

/** The relationships of a task, each read from its side. */
export const relationshipsOf = (taskId: string) =>
  Effect.map(
    query<Relationship>(
      `SELECT ${columns} ${from} WHERE (r.source_task_id = $1 OR r.target_task_id = $1) AND ${alive} ORDER BY r.created_at, r.id`,
      [taskId]
    ),
    (rows) =>
      rows.map((r) => {
        const outgoing = r.sourceTaskId === taskId
        const type: RelationshipType =
          r.type === "relates_to"
            ? "relates_to"
            : r.type === "blocks"
              ? outgoing
                ? "blocks"
                : "blocked_by"
              : outgoing
                ? "duplicates"
                : "duplicated_by"
        return { id: r.id, type, task: outgoing ? r.target : r.source, createdAt: r.createdAt }
      })
  )

/** Every task `taskId` transitively blocks (downstream) and is blocked by (upstream), with the edges. */
export const dependencyGraph = (taskId: string) =>
  Effect.gen(function* () {
    const walk = (direction: "down" | "up") =>
      query<{ sourceTaskId: string; targetTaskId: string; depth: number }>(
        `WITH RECURSIVE walk(source, target, depth) AS (
           SELECT source_task_id, target_task_id, 1 FROM pm_relationships WHERE type = 'blocks' AND ${direction === "down" ? "source_task_id" : "target_task_id"} = $1
           UNION
           SELECT r.source_task_id, r.target_task_id, w.depth + 1 FROM pm_relationships r JOIN walk w
             ON ${direction === "down" ? "r.source_task_id = w.target" : "r.target_task_id = w.source"}
           WHERE r.type = 'blocks' AND w.depth < 50)
         SELECT DISTINCT w.source AS "sourceTaskId", w.target AS "targetTaskId", min(w.depth) AS depth FROM walk w
           JOIN pm_tasks a ON a.id = w.source JOIN pm_tasks b ON b.id = w.target WHERE a.deleted_at IS NULL AND b.deleted_at IS NULL
          GROUP BY w.source, w.target`,
        [taskId]
      )
    const downstream = yield* walk("down")
    const upstream = yield* walk("up")
    const ids = [
      ...new Set([
        taskId,
        ...downstream.flatMap((e) => [e.sourceTaskId, e.targetTaskId]),
        ...upstream.flatMap((e) => [e.sourceTaskId, e.targetTaskId])
      ])
    ]
    const nodes = yield* query<{ id: string; shortId: string; name: string; status: string; listId: string; closed: boolean }>(
      `SELECT id, short_id AS "shortId", name, status, list_id AS "listId", closed_at IS NOT NULL AS closed FROM pm_tasks WHERE id = ANY($1::text[])`,
      [ids]
    )
    const edges = [
      ...new Map(
        [...upstream, ...downstream].map((e) => [
          `${e.sourceTaskId}>${e.targetTaskId}`,
          { sourceTaskId: e.sourceTaskId, targetTaskId: e.targetTaskId }
        ])
      ).values()
    ]
    return {
      taskId,
      nodes,
      edges,
      blocking: [...new Set(downstream.map((e) => e.targetTaskId))],
      blockedBy: [...new Set(upstream.map((e) => e.sourceTaskId))],
      /** Open tasks upstream that still hold this one back. */
      openBlockers: nodes.filter((n) => upstream.some((e) => e.sourceTaskId === n.id) && !n.closed).map((n) => n.id)
    }
  })

/** Open tasks of a workspace held back by an open blocker. */
export const blockedTasks = (workspaceId: string) =>
  query<{ id: string; shortId: string; name: string; status: string; listId: string; blockerIds: Array<string> }>(
    `SELECT t.id, t.short_id AS "shortId", t.name, t.status, t.list_id AS "listId", array_agg(s.id ORDER BY s.created_at) AS "blockerIds"
       FROM pm_relationships r JOIN pm_tasks t ON t.id = r.target_task_id JOIN pm_tasks s ON s.id = r.source_task_id
      WHERE r.workspace_id = $1 AND r.type = 'blocks' AND t.deleted_at IS NULL AND s.deleted_at IS NULL AND t.closed_at IS NULL AND s.closed_at IS NULL
      GROUP BY t.id, t.short_id, t.name, t.status, t.list_id, t.created_at ORDER BY t.created_at, t.id`,
    [workspaceId]
  )

/** True when `from` reaches `to` along "blocks" edges. */
const reaches = (from: string, to: string) =>
  Effect.map(
    query<{ found: boolean }>(
      `WITH RECURSIVE reach(id) AS (SELECT $1::text UNION SELECT r.target_task_id FROM pm_relationships r JOIN reach ON r.source_task_id = reach.id WHERE r.type = 'blocks')
       SELECT EXISTS (SELECT 1 FROM reach WHERE id = $2) AS found`,
      [from, to]
    ),
    (rows) => rows[0]?.found === true
  )

export const RelationshipInput = Schema.Struct({ taskId: Id, type: RelationshipType, otherTaskId: Id })
export type RelationshipInput = typeof RelationshipInput.Type

const create = (workspaceId: string, input: RelationshipInput, by: string, path: string) =>
  Effect.gen(function* () {
    if (input.taskId === input.otherTaskId) return yield* new RelatesToItself({ field: `${path}.otherTaskId` })
    const noOther = new PlaceNotFound({ what: "task", field: `${path}.otherTaskId` })
    const a = yield* locateTask(input.taskId)
    const b = yield* Effect.catchTag(locateTask(input.otherTaskId), "PlaceNotFound", () => Effect.fail(noOther))
    if (a.workspaceId !== workspaceId || b.workspaceId !== workspaceId) return yield* noOther
    const edge = stored(input.type, input.taskId, input.otherTaskId)
    const existing = yield* query(
      edge.type === "relates_to"
        ? `SELECT 1 FROM pm_relationships WHERE type = 'relates_to' AND ((source_task_id = $1 AND target_task_id = $2) OR (source_task_id = $2 AND target_task_id = $1))`
        : `SELECT 1 FROM pm_relationships WHERE type = '${edge.type}' AND source_task_id = $1 AND target_task_id = $2`,
      [edge.source, edge.target]
    )
    if (existing.length > 0) return yield* new RelationshipExists()
    if (edge.type === "blocks" && (yield* reaches(edge.target, edge.source))) {
      return yield* new BlockingCycle({ field: `${path}.otherTaskId` })
    }
    const id = crypto.randomUUID()
    yield* query(
      `INSERT INTO pm_relationships (id, workspace_id, source_task_id, target_task_id, type, created_by) VALUES ($1, $2, $3, $4, $5, $6)`,
      [id, workspaceId, edge.source, edge.target, edge.type, by]
    )
    const relationship = yield* getRelationship(id)
    const data = { type: edge.type, sourceTaskId: edge.source, targetTaskId: edge.target }
    const changes: Array<Change> = [
      change({ workspaceId, spaceId: a.spaceId, listId: a.listId, taskId: a.taskId }, "relationship.created", id, data, by),
      change({ workspaceId, spaceId: b.spaceId, listId: b.listId, taskId: b.taskId }, "relationship.created", id, data, by)
    ]
    const { workspaceId: _w, ...result } = relationship
    return { result, changes }
  })

const remove = (workspaceId: string, relationshipId: string, by: string) =>
  Effect.gen(function* () {
    const relationship = yield* getRelationship(relationshipId)
    if (relationship.workspaceId !== workspaceId) return yield* new RelationshipNotFound({})
    yield* query(`DELETE FROM pm_relationships WHERE id = $1`, [relationshipId])
    const data = { type: relationship.type, sourceTaskId: relationship.sourceTaskId, targetTaskId: relationship.targetTaskId }
    const source = yield* locateTask(relationship.sourceTaskId)
    const target = yield* locateTask(relationship.targetTaskId)
    return [
      change(
        { workspaceId, spaceId: source.spaceId, listId: source.listId, taskId: source.taskId },
        "relationship.deleted",
        relationshipId,
        data,
        by
      ),
      change(
        { workspaceId, spaceId: target.spaceId, listId: target.listId, taskId: target.taskId },
        "relationship.deleted",
        relationshipId,
        data,
        by
      )
    ]
  })

export const relationshipCommands = {
  createRelationship: command(
    RelationshipInput,
    Relationship,
    Schema.Union([PlaceNotFound, RelatesToItself, RelationshipExists, BlockingCycle, RelationshipNotFound]),
    (input, by, workspaceId) => create(workspaceId, input, by, "body")
  ),

  deleteRelationship: command(
    Schema.Struct({ relationshipId: Id }),
    Schema.Void,
    Schema.Union([RelationshipNotFound, PlaceNotFound]),
    (input, by, workspaceId) => Effect.map(remove(workspaceId, input.relationshipId, by), (changes) => ({ result: undefined, changes }))
  ),

  /** All or nothing: one bad item refuses the whole batch, naming it. */
  bulkCreateRelationships: command(
    Schema.Struct({ items: Schema.Array(RelationshipInput) }),
    Items(Relationship),
    Schema.Union([PlaceNotFound, RelatesToItself, RelationshipExists, BlockingCycle, RelationshipNotFound]),
    (input, by, workspaceId) =>
      Effect.gen(function* () {
        const items: Array<Relationship> = []
        const changes: Array<Change> = []
        for (const [index, item] of input.items.entries()) {
          const created = yield* create(workspaceId, item, by, `body.items.${index}`)
          items.push(created.result)
          changes.push(...created.changes)
        }
        return { result: { items }, changes }
      })
  ),

  bulkDeleteRelationships: command(
    Schema.Struct({ relationshipIds: Schema.Array(Id) }),
    Schema.Struct({ deleted: Schema.Number }),
    Schema.Union([RelationshipNotFound, PlaceNotFound]),
    (input, by, workspaceId) =>
      Effect.gen(function* () {
        const changes: Array<Change> = []
        for (const [index, id] of input.relationshipIds.entries()) {
          changes.push(
            ...(yield* remove(workspaceId, id, by).pipe(
              Effect.catchTag("RelationshipNotFound", () =>
                Effect.fail(new RelationshipNotFound({ field: `body.relationshipIds.${index}` }))
              )
            ))
          )
        }
        return { result: { deleted: input.relationshipIds.length }, changes }
      })
  )
}
