/**
 * Milestones (with dates, the requests they deliver and a long-form
 * article) and changelog entries (new / improved / fixed; draft, scheduled
 * or published) of one board, written by its FeedbackDesk. Publishing an
 * entry linked to requests ships them: after the commit the Board actor
 * sets each to the board's shipped status and their voters and subscribers
 * are notified (`Shipping`), before the reply.
 */
import { randomUUID } from "node:crypto"
import { Effect, Schema } from "effect"
import type { ProseMirrorNode } from "../../richtext/RichText.ts"
import { query } from "../../persistence/Sql.ts"
import { Id, Timestamp } from "../Fields.ts"
import { iso } from "../wiki/WikiQueries.ts"
import { ProseMirrorJson, RenderedArticle, rendered } from "./ArticleContent.ts"
import { deskCommand, done, found, notFound } from "./DeskCommand.ts"
import { changelogOfBoard, milestoneArticle, milestonesOfBoard } from "./DeskQueries.ts"
import { ChangelogEntry, ChangelogKind, ChangelogState, Milestone } from "./DeskRecords.ts"
import { shipRequests } from "./Shipping.ts"

const IsoDate = Schema.String.check(Schema.isPattern(/^\d{4}-\d{2}-\d{2}$/, { expected: "a date YYYY-MM-DD" }))

const milestoneOf = (boardId: string, milestoneId: string) =>
  Effect.flatMap(milestonesOfBoard(boardId), (all) =>
    found(
      all.find((m) => m.id === milestoneId),
      "milestone"
    )
  )

const entryOf = (boardId: string, entryId: string) =>
  Effect.flatMap(changelogOfBoard(boardId), (all) =>
    found(
      all.find((e) => e.id === entryId),
      "changelog entry"
    )
  )

export const MilestoneArticle = Schema.Struct({
  milestoneId: Id,
  ...RenderedArticle.fields,
  updatedAt: Schema.NullOr(Timestamp),
  updatedBy: Schema.NullOr(Id)
}).annotate({ identifier: "MilestoneArticle" })
export type MilestoneArticle = typeof MilestoneArticle.Type

export const articleOf = (milestoneId: string) =>
  Effect.map(milestoneArticle(milestoneId), (row) => ({
    milestoneId,
    ...rendered(row?.article ?? { type: "doc", content: [] }),
    updatedAt: row?.article_updated_at ? iso(row.article_updated_at) : null,
    updatedBy: row?.article_updated_by ?? null
  }))

/** Sets the entry published and ships its requests after the commit; the entry as it ends up. */
const publishing = (boardId: string, entry: ChangelogEntry, by: string) =>
  Effect.gen(function* () {
    const notified = yield* shipRequests(boardId, entry.featureRequestIds, by, { title: entry.title, entryId: entry.id })
    yield* query(`UPDATE feedback_changelog_entries SET notified_count = notified_count + $2 WHERE id = $1`, [entry.id, notified])
    return { ...entry, notifiedCount: entry.notifiedCount + notified }
  })

const EntryFields = {
  title: Schema.optionalKey(Schema.String),
  kind: Schema.optionalKey(ChangelogKind),
  content: Schema.optionalKey(ProseMirrorJson),
  state: Schema.optionalKey(ChangelogState),
  publishAt: Schema.optionalKey(Schema.NullOr(Timestamp)),
  milestoneId: Schema.optionalKey(Schema.NullOr(Id)),
  featureRequestIds: Schema.optionalKey(Schema.Array(Id))
}

export const releaseCommands = {
  createMilestone: deskCommand(
    Schema.Struct({
      workspaceId: Id,
      name: Schema.String,
      description: Schema.optionalKey(Schema.String),
      date: Schema.optionalKey(IsoDate)
    }),
    Milestone,
    (input, by, boardId) =>
      Effect.gen(function* () {
        const id = randomUUID()
        yield* query(
          `INSERT INTO feedback_milestones (id, board_id, workspace_id, name, description, date, created_by) VALUES ($1,$2,$3,$4,$5,$6::date,$7)`,
          [id, boardId, input.workspaceId, input.name, input.description ?? "", input.date ?? null, by]
        )
        return done(yield* milestoneOf(boardId, id))
      })
  ),
  updateMilestone: deskCommand(
    Schema.Struct({
      milestoneId: Id,
      name: Schema.optionalKey(Schema.String),
      description: Schema.optionalKey(Schema.String),
      date: Schema.optionalKey(Schema.NullOr(IsoDate)),
      released: Schema.optionalKey(Schema.Boolean)
    }),
    Milestone,
    (input, _by, boardId) =>
      Effect.gen(function* () {
        const before = yield* milestoneOf(boardId, input.milestoneId)
        yield* query(
          `UPDATE feedback_milestones SET name = $2, description = $3, date = $4::date,
             released_at = CASE WHEN $5::boolean IS NULL THEN released_at WHEN $5 THEN coalesce(released_at, now()) ELSE NULL END,
             updated_at = now() WHERE id = $1`,
          [
            before.id,
            input.name ?? before.name,
            input.description ?? before.description,
            input.date === undefined ? before.date : input.date,
            input.released ?? null
          ]
        )
        return done(yield* milestoneOf(boardId, before.id))
      })
  ),
  deleteMilestone: deskCommand(Schema.Struct({ milestoneId: Id }), Schema.Null, (input, _by, boardId) =>
    Effect.gen(function* () {
      const before = yield* milestoneOf(boardId, input.milestoneId)
      yield* query(`DELETE FROM feedback_milestones WHERE id = $1`, [before.id])
      return done(null)
    })
  ),
  linkRequest: deskCommand(Schema.Struct({ milestoneId: Id, featureRequestId: Id }), Milestone, (input, by, boardId) =>
    Effect.gen(function* () {
      const before = yield* milestoneOf(boardId, input.milestoneId)
      yield* query(
        `INSERT INTO feedback_milestone_requests (milestone_id, feature_request_id, added_by) VALUES ($1,$2,$3) ON CONFLICT DO NOTHING`,
        [before.id, input.featureRequestId, by]
      )
      return done(yield* milestoneOf(boardId, before.id))
    })
  ),
  unlinkRequest: deskCommand(Schema.Struct({ milestoneId: Id, featureRequestId: Id }), Milestone, (input, _by, boardId) =>
    Effect.gen(function* () {
      const before = yield* milestoneOf(boardId, input.milestoneId)
      if (!before.featureRequestIds.includes(input.featureRequestId)) return yield* notFound("feature request in this milestone")
      yield* query(`DELETE FROM feedback_milestone_requests WHERE milestone_id = $1 AND feature_request_id = $2`, [
        before.id,
        input.featureRequestId
      ])
      return done(yield* milestoneOf(boardId, before.id))
    })
  ),
  putArticle: deskCommand(Schema.Struct({ milestoneId: Id, content: ProseMirrorJson }), MilestoneArticle, (input, by, boardId) =>
    Effect.gen(function* () {
      const before = yield* milestoneOf(boardId, input.milestoneId)
      yield* query(
        `UPDATE feedback_milestones SET article = $2, article_updated_at = now(), article_updated_by = $3, updated_at = now() WHERE id = $1`,
        [before.id, input.content, by]
      )
      return done(yield* articleOf(before.id))
    })
  ),
  deleteArticle: deskCommand(Schema.Struct({ milestoneId: Id }), Schema.Null, (input, _by, boardId) =>
    Effect.gen(function* () {
      const before = yield* milestoneOf(boardId, input.milestoneId)
      if (!before.hasArticle) return yield* notFound("article for this milestone")
      yield* query(
        `UPDATE feedback_milestones SET article = NULL, article_updated_at = NULL, article_updated_by = NULL, updated_at = now() WHERE id = $1`,
        [before.id]
      )
      return done(null)
    })
  ),
  createEntry: deskCommand(
    Schema.Struct({ workspaceId: Id, ...EntryFields, title: Schema.String, kind: ChangelogKind, content: ProseMirrorJson }),
    ChangelogEntry,
    (input, by, boardId) =>
      Effect.gen(function* () {
        const id = randomUUID()
        const state = input.state ?? "draft"
        yield* query(
          `INSERT INTO feedback_changelog_entries (id, board_id, workspace_id, title, kind, content, state, publish_at, published_at,
             milestone_id, feature_request_ids, created_by)
           VALUES ($1,$2,$3,$4,$5,$6,$7,$8::timestamptz, CASE WHEN $7 = 'published' THEN now() END, $9,$10,$11)`,
          [
            id,
            boardId,
            input.workspaceId,
            input.title,
            input.kind,
            input.content satisfies ProseMirrorNode,
            state,
            input.publishAt ?? null,
            input.milestoneId ?? null,
            input.featureRequestIds ?? [],
            by
          ]
        )
        const entry = yield* entryOf(boardId, id)
        return done(entry, state === "published" ? publishing(boardId, entry, by) : undefined)
      })
  ),
  updateEntry: deskCommand(Schema.Struct({ entryId: Id, ...EntryFields }), ChangelogEntry, (input, by, boardId) =>
    Effect.gen(function* () {
      const before = yield* entryOf(boardId, input.entryId)
      const state = input.state ?? before.state
      const publishes = state === "published" && before.state !== "published"
      yield* query(
        `UPDATE feedback_changelog_entries SET title = $2, kind = $3, content = coalesce($4, content), state = $5, publish_at = $6::timestamptz,
           published_at = CASE WHEN $5 = 'published' THEN coalesce(published_at, now()) ELSE NULL END,
           milestone_id = $7, feature_request_ids = $8, updated_at = now() WHERE id = $1`,
        [
          before.id,
          input.title ?? before.title,
          input.kind ?? before.kind,
          input.content ?? null,
          state,
          input.publishAt === undefined ? before.publishAt : input.publishAt,
          input.milestoneId === undefined ? before.milestoneId : input.milestoneId,
          input.featureRequestIds ?? before.featureRequestIds
        ]
      )
      const entry = yield* entryOf(boardId, before.id)
      return done(entry, publishes ? publishing(boardId, entry, by) : undefined)
    })
  ),
  /** Publishes the scheduled entries whose time has come; how many. */
  publishDue: deskCommand(Schema.Struct({}), Schema.Number, (_input, _by, boardId) =>
    Effect.gen(function* () {
      const due = yield* query<{ id: string; created_by: string }>(
        `UPDATE feedback_changelog_entries SET state = 'published', published_at = publish_at, updated_at = now()
          WHERE board_id = $1 AND state = 'scheduled' AND publish_at <= now() RETURNING id, created_by`,
        [boardId]
      )
      const ship = Effect.gen(function* () {
        for (const row of due) yield* publishing(boardId, yield* entryOf(boardId, row.id), row.created_by)
        return due.length
      })
      return done(due.length, due.length > 0 ? ship : undefined)
    })
  )
}
