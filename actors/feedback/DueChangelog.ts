/** Boards with changelog entries scheduled for a time that has passed: the publishing sweep asks their desks to publish them. */
import { Effect, Schema } from "effect"
import * as SqlSchema from "../../persistence/SqlSchema.ts"

const findBoards = SqlSchema.findAll({
  Request: Schema.Void,
  Result: Schema.Struct({ board_id: Schema.String }),
  execute: () => ["SELECT DISTINCT board_id FROM feedback_changelog_entries WHERE state = 'scheduled' AND publish_at <= now()", []]
})

/** Ids of the boards with at least one scheduled entry now due. */
export const boardsWithDueEntries = Effect.map(findBoards(undefined), (rows) => rows.map((row) => row.board_id))
