/**
 * Moderation decisions of one board, written by its FeedbackDesk with their
 * log row in one transaction: approve, decline, approve-and-verify the
 * author (their next posts skip the queue), decline-and-block (their next
 * posts are refused), spam markers, and undo of a logged action. Bug
 * reports and bug comments are the desk's own rows; a decision on a feature
 * request or a comment is applied by the Board actor first (the facade asks
 * it), then recorded here.
 */
import { randomUUID } from "node:crypto"
import { Effect, Schema } from "effect"
import { query } from "../../persistence/Sql.ts"
import { Id } from "../Fields.ts"
import { deskCommand, done, found } from "./DeskCommand.ts"
import { moderationLogEntry } from "./DeskQueries.ts"
import { ModerationAction, ModerationKind, ModerationLogEntry } from "./DeskRecords.ts"
import { NotAwaitingModeration, NotUndoable } from "./FeedbackErrors.ts"

const ownTable: Partial<Record<typeof ModerationKind.Type, string>> = {
  bugReport: "feedback_bug_reports",
  bugComment: "feedback_bug_comments"
}

const Decision = Schema.Struct({
  action: ModerationAction,
  kind: ModerationKind,
  targetId: Id,
  authorKey: Schema.NullOr(Schema.String).annotate({ description: "user:<id> or email:<address> of the post's author" }),
  detail: Schema.Record(Schema.String, Schema.Unknown)
})

const stateAfter: Partial<Record<typeof ModerationAction.Type, "approved" | "declined">> = {
  approve: "approved",
  approveAndVerify: "approved",
  decline: "declined",
  declineAndBlock: "declined"
}

const standingAfter: Partial<Record<typeof ModerationAction.Type, "verified" | "blocked">> = {
  approveAndVerify: "verified",
  declineAndBlock: "blocked"
}

const appendLog = (boardId: string, by: string, entry: typeof Decision.Type, itemId: string | null) =>
  Effect.gen(function* () {
    const id = randomUUID()
    yield* query(
      `INSERT INTO feedback_moderation_log (id, board_id, action, item_id, target_kind, target_id, author_key, detail, acted_by)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9)`,
      [id, boardId, entry.action, itemId, entry.kind, entry.targetId, entry.authorKey, entry.detail, by]
    )
    return yield* Effect.flatMap(moderationLogEntry(id), (e) => found(e, "log entry"))
  })

/** Sets a desk-owned post's moderation state; 404 unless it is in `from`. */
const setOwnState = (kind: typeof ModerationKind.Type, targetId: string, boardId: string, from: string, to: string) =>
  Effect.gen(function* () {
    const table = ownTable[kind]
    if (table === undefined) return
    const rows = yield* query(`UPDATE ${table} SET moderation = $3 WHERE id = $1 AND board_id = $2 AND moderation = $4 RETURNING id`, [
      targetId,
      boardId,
      to,
      from
    ])
    if (rows.length === 0) return yield* new NotAwaitingModeration({ kind })
  })

const setStanding = (boardId: string, authorKey: string | null, standing: "verified" | "blocked" | undefined, by: string) =>
  authorKey === null || standing === undefined
    ? Effect.void
    : Effect.asVoid(
        query(
          `INSERT INTO feedback_board_authors (board_id, author_key, standing, set_by) VALUES ($1,$2,$3,$4)
           ON CONFLICT (board_id, author_key) DO UPDATE SET standing = $3, set_by = $4, set_at = now()`,
          [boardId, authorKey, standing, by]
        )
      )

export const moderationCommands = {
  /** Records (and for desk-owned posts, applies) one decision or spam marker. */
  moderate: deskCommand(Decision, ModerationLogEntry, (input, by, boardId) =>
    Effect.gen(function* () {
      const to = stateAfter[input.action]
      if (to !== undefined) yield* setOwnState(input.kind, input.targetId, boardId, "pending", to)
      yield* setStanding(boardId, input.authorKey, standingAfter[input.action], by)
      if (input.action === "markSpam") {
        yield* query(
          `INSERT INTO feedback_spam_marks (target_id, board_id, kind, reason, marked_by) VALUES ($1,$2,$3,$4,$5)
           ON CONFLICT (target_id) DO UPDATE SET reason = $4, marked_by = $5, marked_at = now()`,
          [input.targetId, boardId, input.kind, String(input.detail.reason ?? "marked by a moderator"), by]
        )
      }
      if (input.action === "unmarkSpam")
        yield* query(`DELETE FROM feedback_spam_marks WHERE target_id = $1 AND board_id = $2`, [input.targetId, boardId])
      return done(yield* appendLog(boardId, by, input, input.targetId))
    })
  ),
  /**
   * Undoes a logged action: desk-owned posts go back to the queue, a
   * standing it set is lifted, a spam marker removed; the entry is marked
   * undone and the undo logged. (A feature request's or comment's own
   * state, and a merge, the facade reverts through the Board actor first.)
   */
  undo: deskCommand(Schema.Struct({ entryId: Id }), ModerationLogEntry, (input, by, boardId) =>
    Effect.gen(function* () {
      const entry = yield* Effect.flatMap(moderationLogEntry(input.entryId), (e) =>
        found(e !== undefined && e.boardId === boardId ? e : undefined, "moderation log entry")
      )
      if (!entry.undoable) return yield* new NotUndoable()
      const kind = entry.targetKind as typeof ModerationKind.Type
      const to = stateAfter[entry.action]
      if (to !== undefined)
        yield* setOwnState(kind, entry.targetId, boardId, to, "pending").pipe(Effect.catchTag("NotAwaitingModeration", () => Effect.void))
      const author = (yield* query<{ author_key: string | null }>(`SELECT author_key FROM feedback_moderation_log WHERE id = $1`, [
        entry.id
      ]))[0]
      if (standingAfter[entry.action] !== undefined && author?.author_key) {
        yield* query(`DELETE FROM feedback_board_authors WHERE board_id = $1 AND author_key = $2`, [boardId, author.author_key])
      }
      if (entry.action === "markSpam") yield* query(`DELETE FROM feedback_spam_marks WHERE target_id = $1`, [entry.targetId])
      yield* query(`UPDATE feedback_moderation_log SET undone_at = now(), undone_by = $2 WHERE id = $1`, [entry.id, by])
      return done(
        yield* appendLog(
          boardId,
          by,
          {
            action: entry.action === "merge" ? "unmerge" : "undo",
            kind,
            targetId: entry.targetId,
            authorKey: author?.author_key ?? null,
            detail: { undid: entry.id, action: entry.action }
          },
          entry.itemId
        )
      )
    })
  )
}
