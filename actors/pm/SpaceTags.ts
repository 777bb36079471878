/** Tags of a space (tasks of the space pick from them): reads, and the space actor's commands. */
import { Effect, Schema } from "effect"
import { Id, Name } from "../Fields.ts"
import { query } from "../../persistence/Sql.ts"
import * as SqlSchema from "../../persistence/SqlSchema.ts"
import { PlaceNotFound } from "./PmErrors.ts"
import { change } from "./Changes.ts"
import { getSpace } from "./StructureReads.ts"
import { command } from "./WorkActor.ts"
import { TagNameTaken, TagNotFound } from "./WorkErrors.ts"
import { Color, Tag } from "./WorkRecords.ts"

export const TagInput = Schema.Struct({ name: Name(64), color: Schema.optionalKey(Color) })
export const TagPatch = Schema.Struct({ name: Schema.optionalKey(Name(64)), color: Schema.optionalKey(Color) })

const columns = `g.id, g.space_id AS "spaceId", g.name, g.color, g.created_at AS "createdAt"`

export const tagsOfSpace = (spaceId: string) =>
  query<Tag & { taskCount: number }>(
    `SELECT ${columns}, (SELECT count(*)::int FROM pm_task_tags tt JOIN pm_tasks t ON t.id = tt.task_id WHERE tt.tag_id = g.id AND t.deleted_at IS NULL) AS "taskCount"
       FROM pm_tags g WHERE g.space_id = $1 ORDER BY lower(g.name)`,
    [spaceId]
  )

const tagOf = (spaceId: string, tagId: string) =>
  Effect.flatMap(query<Tag>(`SELECT ${columns} FROM pm_tags g WHERE g.id = $1 AND g.space_id = $2`, [tagId, spaceId]), (rows) =>
    rows[0] ? Effect.succeed(rows[0]) : Effect.fail(new TagNotFound())
  )

const taken = (spaceId: string, name: string, except = "") =>
  Effect.flatMap(
    query(`SELECT 1 FROM pm_tags WHERE space_id = $1 AND lower(name) = lower($2) AND id <> $3`, [spaceId, name.trim(), except]),
    (rows) => (rows.length > 0 ? Effect.fail(new TagNameTaken({ name: name.trim() })) : Effect.void)
  )

export const tagCommands = {
  createTag: command(TagInput, Tag, Schema.Union([PlaceNotFound, TagNotFound, TagNameTaken]), (input, by, spaceId) =>
    Effect.gen(function* () {
      const space = yield* getSpace(spaceId)
      yield* taken(spaceId, input.name)
      const id = crypto.randomUUID()
      yield* query(`INSERT INTO pm_tags (id, workspace_id, space_id, name, color, created_by) VALUES ($1, $2, $3, $4, $5, $6)`, [
        id,
        space.workspaceId,
        spaceId,
        input.name.trim(),
        input.color ?? "#8d8d8d",
        by
      ])
      const tag = yield* tagOf(spaceId, id)
      return {
        result: tag,
        changes: [change({ workspaceId: space.workspaceId, spaceId }, "tag.created", id, { name: tag.name, color: tag.color }, by)]
      }
    })
  ),

  updateTag: command(
    Schema.Struct({ tagId: Id, ...TagPatch.fields }),
    Tag,
    Schema.Union([PlaceNotFound, TagNotFound, TagNameTaken]),
    (input, by, spaceId) =>
      Effect.gen(function* () {
        const space = yield* getSpace(spaceId)
        const tag = yield* tagOf(spaceId, input.tagId)
        if (input.name !== undefined) yield* taken(spaceId, input.name, tag.id)
        yield* query(`UPDATE pm_tags SET name = $2, color = $3 WHERE id = $1`, [
          tag.id,
          input.name?.trim() ?? tag.name,
          input.color ?? tag.color
        ])
        const { tagId: _t, ...changed } = input
        return {
          result: yield* tagOf(spaceId, tag.id),
          changes: [change({ workspaceId: space.workspaceId, spaceId }, "tag.updated", tag.id, changed, by)]
        }
      })
  ),

  /** Deletes the tag and takes it off every task. */
  deleteTag: command(Schema.Struct({ tagId: Id }), Schema.Void, Schema.Union([PlaceNotFound, TagNotFound]), (input, by, spaceId) =>
    Effect.gen(function* () {
      const space = yield* getSpace(spaceId)
      const tag = yield* tagOf(spaceId, input.tagId)
      const untagged = yield* query(`DELETE FROM pm_task_tags WHERE tag_id = $1 RETURNING task_id`, [tag.id])
      yield* query(`DELETE FROM pm_tags WHERE id = $1`, [tag.id])
      return {
        result: undefined,
        changes: [
          change({ workspaceId: space.workspaceId, spaceId }, "tag.deleted", tag.id, { name: tag.name, tasks: untagged.length }, by)
        ]
      }
    })
  )
}

const findTagNames = SqlSchema.findAll({
  Request: Schema.Struct({ workspaceId: Schema.String, spaceId: Schema.NullOr(Schema.String) }),
  Result: Schema.Struct({ name: Schema.String }),
  execute: (r) => [
    "SELECT DISTINCT lower(name) AS name FROM pm_tags WHERE workspace_id = $1 AND ($2::text IS NULL OR space_id = $2)",
    [r.workspaceId, r.spaceId]
  ]
})

/** Every tag name (lower case) of the workspace, or of one space. */
export const tagNamesIn = (workspaceId: string, spaceId: string | null) =>
  Effect.map(findTagNames({ workspaceId, spaceId }), (rows) => rows.map((r) => r.name))
