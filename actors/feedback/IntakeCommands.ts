/**
 * What reaches a board from outside its workflow, written by its
 * FeedbackDesk: private feedback (only the team sees it) and public form
 * submissions. The form is rate limited per IP address (hashed) and board:
 * the desk serialises a board's submissions, so counting the last hour's
 * rows and inserting the new one cannot race, on any node. A filled
 * honeypot field is recorded and answered like a success, and nothing is
 * created.
 */
import { randomUUID } from "node:crypto"
import { Effect, Schema } from "effect"
import { query } from "../../persistence/Sql.ts"
import { Id } from "../Fields.ts"
import { iso } from "../wiki/WikiQueries.ts"
import { bugCommands } from "./BugCommands.ts"
import { ANONYMOUS, deskCommand, done, userOrNull } from "./DeskCommand.ts"
import { Environment, PrivateFeedback } from "./DeskRecords.ts"
import { SubmissionLimit } from "./FeedbackErrors.ts"

export const FormKind = Schema.Literals(["featureRequest", "bugReport"])

export const FormReceipt = Schema.Struct({
  submissionId: Id,
  kind: FormKind,
  /** The bug report created here; a feature request is created by the Board actor afterwards. */
  bugReportId: Schema.NullOr(Id),
  honeypot: Schema.Boolean
})

export const intakeCommands = {
  createPrivateFeedback: deskCommand(
    Schema.Struct({
      workspaceId: Id,
      title: Schema.String,
      body: Schema.String,
      email: Schema.NullOr(Schema.String),
      name: Schema.NullOr(Schema.String)
    }),
    PrivateFeedback,
    (input, by, boardId) =>
      Effect.gen(function* () {
        const id = randomUUID()
        const rows = yield* query<{ created_at: string }>(
          `INSERT INTO feedback_private_feedback (id, board_id, workspace_id, author_id, email, name, title, body)
           VALUES ($1,$2,$3,$4,$5,$6,$7,$8) RETURNING created_at`,
          [id, boardId, input.workspaceId, userOrNull(by), input.email, input.name, input.title, input.body]
        )
        return done({
          id,
          boardId,
          authorId: userOrNull(by),
          email: input.email,
          name: input.name,
          title: input.title,
          body: input.body,
          createdAt: iso(rows[0]!.created_at)
        })
      })
  ),
  submitForm: deskCommand(
    Schema.Struct({
      workspaceId: Id,
      kind: FormKind,
      title: Schema.String,
      details: Schema.String,
      environment: Schema.optionalKey(Environment),
      email: Schema.NullOr(Schema.String),
      name: Schema.NullOr(Schema.String),
      ipHash: Schema.String,
      honeypot: Schema.Boolean,
      perHour: Schema.Number,
      moderation: Schema.Literals(["pending", "approved"])
    }),
    FormReceipt,
    (input, _by, boardId) =>
      Effect.gen(function* () {
        const recent = yield* query<{ n: number }>(
          `SELECT count(*) AS n FROM feedback_form_submissions WHERE board_id = $1 AND ip_hash = $2 AND created_at > now() - interval '1 hour'`,
          [boardId, input.ipHash]
        )
        if (Number(recent[0]?.n ?? 0) >= input.perHour) {
          return yield* new SubmissionLimit({ perHour: input.perHour })
        }
        const id = randomUUID()
        const bug =
          input.kind === "bugReport" && !input.honeypot
            ? (yield* bugCommands.createBug.run(
                {
                  workspaceId: input.workspaceId,
                  title: input.title,
                  actual: input.details,
                  ...(input.environment ? { environment: input.environment } : {}),
                  ...(input.email ? { reporterEmail: input.email } : {}),
                  ...(input.name ? { reporterName: input.name } : {}),
                  moderation: input.moderation
                },
                ANONYMOUS,
                boardId
              )).result
            : undefined
        yield* query(
          `INSERT INTO feedback_form_submissions (id, board_id, kind, target_id, email, name, ip_hash, honeypot) VALUES ($1,$2,$3,$4,$5,$6,$7,$8)`,
          [id, boardId, input.kind, bug?.id ?? null, input.email, input.name, input.ipHash, input.honeypot]
        )
        return done({ submissionId: id, kind: input.kind, bugReportId: bug?.id ?? null, honeypot: input.honeypot })
      })
  ),
  /** Records the feature request the Board actor created for a form submission. */
  attachSubmission: deskCommand(Schema.Struct({ submissionId: Id, targetId: Id }), Schema.Null, (input, _by, boardId) =>
    Effect.as(
      query(`UPDATE feedback_form_submissions SET target_id = $3 WHERE id = $1 AND board_id = $2`, [
        input.submissionId,
        boardId,
        input.targetId
      ]),
      done(null)
    )
  )
}
