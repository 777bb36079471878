/**
 * Names by id, for labels in answers: spaces, folders (with their space),
 * lists (with their folder and space) and custom fields. Deleted ones
 * included: a label names what was there.
 */
import { Effect, Schema } from "effect"
import * as SqlSchema from "../../persistence/SqlSchema.ts"

const Ids = Schema.Array(Schema.String)
const byId = <A extends { readonly id: string }>(rows: ReadonlyArray<A>) => new Map(rows.map((row) => [row.id, row] as const))
const whenAny =
  <A>(find: (ids: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<A & { readonly id: string }>, any, any>) =>
  (ids: ReadonlyArray<string>) =>
    ids.length === 0 ? Effect.succeed(new Map<string, A & { readonly id: string }>()) : Effect.map(find(ids), byId)

const findSpaces = SqlSchema.findAll({
  Request: Ids,
  Result: Schema.Struct({ id: Schema.String, name: Schema.String }),
  execute: (ids) => ["SELECT id, name FROM pm_spaces WHERE id = ANY($1::text[])", [ids]]
})

const findFolders = SqlSchema.findAll({
  Request: Ids,
  Result: Schema.Struct({ id: Schema.String, name: Schema.String, space: Schema.String }),
  execute: (ids) => [
    "SELECT f.id, f.name, s.name AS space FROM pm_folders f JOIN pm_spaces s ON s.id = f.space_id WHERE f.id = ANY($1::text[])",
    [ids]
  ]
})

const findLists = SqlSchema.findAll({
  Request: Ids,
  Result: Schema.Struct({ id: Schema.String, name: Schema.String, folder: Schema.NullOr(Schema.String), space: Schema.String }),
  execute: (ids) => [
    `SELECT l.id, l.name, f.name AS folder, s.name AS space FROM pm_lists l JOIN pm_spaces s ON s.id = l.space_id LEFT JOIN pm_folders f ON f.id = l.folder_id
      WHERE l.id = ANY($1::text[])`,
    [ids]
  ]
})

const findFields = SqlSchema.findAll({
  Request: Ids,
  Result: Schema.Struct({ id: Schema.String, name: Schema.String }),
  execute: (ids) => ["SELECT id, name FROM pm_custom_fields WHERE id = ANY($1::text[])", [ids]]
})

/** Spaces' names by id. */
export const spaceNames = whenAny(findSpaces)
/** Folders' names and their spaces' names by id. */
export const folderNames = whenAny(findFolders)
/** Lists' names and their folders' and spaces' names by id. */
export const listNames = whenAny(findLists)
/** Custom fields' names by id. */
export const fieldNames = whenAny(findFields)
