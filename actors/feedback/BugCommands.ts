/**
 * Bug reports of one board, written by its FeedbackDesk: short ids B-1,
 * B-2… per board (the desk serialises creation, so max+1 never collides),
 * steps to reproduce, expected/actual, environment, severity and bug status
 * levels (with history), assignee, attachments and comments. A report or
 * comment held for moderation gets its queue item in the same transaction.
 */
import { randomUUID } from "node:crypto"
import { Effect, Schema } from "effect"
import { Id } from "../Fields.ts"
import { query } from "../../persistence/Sql.ts"
import { iso } from "../wiki/WikiQueries.ts"
import { BugComment, BugReport, Environment, type Moderation } from "./DeskRecords.ts"
import { bugsOfBoard, nextBugNumber } from "./DeskQueries.ts"
import { deskCommand, done, userOrNull, found } from "./DeskCommand.ts"

const NullableId = Schema.NullOr(Id)
const Held = Schema.Literals(["pending", "approved"])

export const BugFields = {
  title: Schema.String,
  stepsToReproduce: Schema.optionalKey(Schema.String),
  expected: Schema.optionalKey(Schema.String),
  actual: Schema.optionalKey(Schema.String),
  environment: Schema.optionalKey(Environment),
  severityLevelId: Schema.optionalKey(NullableId),
  bugStatusLevelId: Schema.optionalKey(NullableId),
  categoryId: Schema.optionalKey(NullableId),
  attachmentIds: Schema.optionalKey(Schema.Array(Id))
}

const bugById = (boardId: string, bugReportId: string) =>
  Effect.flatMap(bugsOfBoard(boardId), (bugs) =>
    found(
      bugs.find((b) => b.id === bugReportId),
      "bug report"
    )
  )

const AuthorInput = {
  reporterEmail: Schema.optionalKey(Schema.String),
  reporterName: Schema.optionalKey(Schema.String),
  moderation: Held
}

export const bugCommands = {
  createBug: deskCommand(Schema.Struct({ workspaceId: Id, ...BugFields, ...AuthorInput }), BugReport, (input, by, boardId) =>
    Effect.gen(function* () {
      const id = randomUUID()
      const number = yield* nextBugNumber(boardId)
      yield* query(
        `INSERT INTO feedback_bug_reports (id, board_id, workspace_id, number, title, steps, expected, actual, environment,
             severity_level_id, bug_status_level_id, category_id, reporter_id, reporter_email, reporter_name, attachment_ids, moderation)
           VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17)`,
        [
          id,
          boardId,
          input.workspaceId,
          number,
          input.title,
          input.stepsToReproduce ?? "",
          input.expected ?? "",
          input.actual ?? "",
          input.environment ?? {},
          input.severityLevelId ?? null,
          input.bugStatusLevelId ?? null,
          input.categoryId ?? null,
          userOrNull(by),
          input.reporterEmail ?? null,
          input.reporterName ?? null,
          input.attachmentIds ?? [],
          input.moderation
        ]
      )
      return done(yield* bugById(boardId, id))
    })
  ),
  updateBug: deskCommand(
    Schema.Struct({
      bugReportId: Id,
      title: Schema.optionalKey(Schema.String),
      stepsToReproduce: Schema.optionalKey(Schema.String),
      expected: Schema.optionalKey(Schema.String),
      actual: Schema.optionalKey(Schema.String),
      environment: Schema.optionalKey(Environment),
      categoryId: Schema.optionalKey(NullableId),
      attachmentIds: Schema.optionalKey(Schema.Array(Id))
    }),
    BugReport,
    (input, _by, boardId) =>
      Effect.gen(function* () {
        const before = yield* bugById(boardId, input.bugReportId)
        yield* query(
          `UPDATE feedback_bug_reports SET title = $2, steps = $3, expected = $4, actual = $5, environment = $6, category_id = $7,
             attachment_ids = $8, updated_at = now() WHERE id = $1`,
          [
            before.id,
            input.title ?? before.title,
            input.stepsToReproduce ?? before.stepsToReproduce,
            input.expected ?? before.expected,
            input.actual ?? before.actual,
            input.environment ?? before.environment,
            input.categoryId === undefined ? before.categoryId : input.categoryId,
            input.attachmentIds ?? before.attachmentIds
          ]
        )
        return done(yield* bugById(boardId, before.id))
      })
  ),
  /** One of the tracked fields, with a history row when it changes. */
  setBugField: deskCommand(
    Schema.Struct({ bugReportId: Id, field: Schema.Literals(["bugStatusLevel", "severityLevel", "assignee"]), value: NullableId }),
    BugReport,
    (input, by, boardId) =>
      Effect.gen(function* () {
        const before = yield* bugById(boardId, input.bugReportId)
        const column = { bugStatusLevel: "bug_status_level_id", severityLevel: "severity_level_id", assignee: "assignee_id" }[input.field]
        const previous = { bugStatusLevel: before.bugStatusLevelId, severityLevel: before.severityLevelId, assignee: before.assigneeId }[
          input.field
        ]
        if (previous !== input.value) {
          yield* query(`UPDATE feedback_bug_reports SET ${column} = $2, updated_at = now() WHERE id = $1`, [before.id, input.value])
          yield* query(
            `INSERT INTO feedback_bug_history (id, bug_report_id, field, from_value, to_value, changed_by) VALUES ($1,$2,$3,$4,$5,$6)`,
            [randomUUID(), before.id, input.field, previous, input.value, by]
          )
        }
        return done(yield* bugById(boardId, before.id))
      })
  ),
  deleteBug: deskCommand(Schema.Struct({ bugReportId: Id }), Schema.Null, (input, _by, boardId) =>
    Effect.gen(function* () {
      const before = yield* bugById(boardId, input.bugReportId)
      yield* query(`UPDATE feedback_bug_reports SET deleted_at = now() WHERE id = $1`, [before.id])
      return done(null)
    })
  ),
  commentBug: deskCommand(
    Schema.Struct({ bugReportId: Id, body: Schema.String, internal: Schema.Boolean, moderation: Held }),
    BugComment,
    (input, by, boardId) =>
      Effect.gen(function* () {
        const bug = yield* bugById(boardId, input.bugReportId)
        const id = randomUUID()
        const rows = yield* query(
          `INSERT INTO feedback_bug_comments (id, bug_report_id, board_id, author_id, body, internal, moderation)
           VALUES ($1,$2,$3,$4,$5,$6,$7) RETURNING *`,
          [id, bug.id, boardId, by, input.body, input.internal, input.moderation satisfies Moderation]
        )
        return done({
          id,
          bugReportId: bug.id,
          authorId: by,
          body: input.body,
          internal: input.internal,
          moderation: input.moderation,
          createdAt: iso(rows[0]!.created_at)
        })
      })
  )
}
