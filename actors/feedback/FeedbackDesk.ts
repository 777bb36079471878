/**
 * The feedback desk of one board (actor kind `feedbackDesk`, id = board id):
 * the single writer of the board's bug reports, milestones, changelog
 * entries, moderation decisions, private feedback and public form
 * submissions. Requests, votes and comments stay the Board actor's; the desk
 * asks it when a decision touches them.
 *
 * In memory it holds the board's bug reports, milestones and changelog
 * entries (rebuilt from the rows on activation and after each of its
 * writes) and serves their reads from there. Every write commits its rows
 * (and its moderation-log row) in one transaction before the reply.
 */
import { Effect, Schema } from "effect"
import type { SqlError } from "../../persistence/Sql.ts"
import type { Sql } from "../../persistence/Sql.ts"
import { Actor, type ActorContext } from "../../runtime/Actor.ts"
import type { ActorError } from "../../runtime/ActorError.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { Board } from "./Board.ts"
import { type BoardEvent, commitBoardWrite } from "./BoardLog.ts"
import { bugCommands } from "./BugCommands.ts"
import { type DeskCommand, DeskError, deskConflicts } from "./DeskCommand.ts"
import { bugsOfBoard, changelogOfBoard, milestonesOfBoard } from "./DeskQueries.ts"
import { BugReport, ChangelogEntry, Milestone } from "./DeskRecords.ts"
import { BoardArchived } from "./FeedbackErrors.ts"
import { intakeCommands } from "./IntakeCommands.ts"
import { moderationCommands } from "./ModerationCommands.ts"
import { releaseCommands } from "./ReleaseCommands.ts"

export const DeskState = Schema.Struct({
  bugs: Schema.Array(BugReport),
  milestones: Schema.Array(Milestone),
  changelog: Schema.Array(ChangelogEntry)
})
export type DeskState = typeof DeskState.Type

const rebuild = (boardId: string): Effect.Effect<DeskState, SqlError, Sql> =>
  Effect.all({ bugs: bugsOfBoard(boardId), milestones: milestonesOfBoard(boardId), changelog: changelogOfBoard(boardId) })

const By = Schema.String.annotate({ description: "The acting user's id; empty for an anonymous visitor" })

/** A desk command's message: the acting user and the command's input; its success; the desk's errors. */
const command = <I extends Schema.Top, S extends Schema.Top>(entry: DeskCommand<I, S>) => ({
  payload: Schema.Struct({ by: By, input: entry.input }),
  success: entry.success,
  error: DeskError
})

/** A read of the desk's memory: it cannot fail. */
const read = <S extends Schema.Top>(success: S) => ({ payload: Schema.Struct({}), success, error: Schema.Never })

/** The board event a command's success is logged as (and streamed as, unless it is the team's only). */
const eventOf = (name: string, result: unknown, boardId: string): BoardEvent => {
  const value = (typeof result === "object" && result !== null ? result : {}) as Record<string, unknown>
  const [type, teamOnly] = eventTypes[name] ?? [`desk.${name}`, true]
  const hidden =
    teamOnly ||
    value.moderation === "pending" ||
    value.internal === true ||
    (value.state !== undefined && value.state !== "published" && name.endsWith("Entry"))
  return {
    type,
    entityId: typeof value.id === "string" ? value.id : boardId,
    data: typeof value.shortId === "string" ? { shortId: value.shortId } : {},
    ...(hidden ? { teamOnly: true } : {})
  }
}

const eventTypes: Record<string, readonly [string, boolean]> = {
  createBug: ["bug.created", false],
  updateBug: ["bug.updated", false],
  setBugField: ["bug.updated", false],
  deleteBug: ["bug.deleted", false],
  commentBug: ["bug.commented", false],
  createMilestone: ["milestone.created", false],
  updateMilestone: ["milestone.updated", false],
  deleteMilestone: ["milestone.deleted", false],
  linkRequest: ["milestone.updated", false],
  unlinkRequest: ["milestone.updated", false],
  putArticle: ["milestone.article_updated", false],
  deleteArticle: ["milestone.article_updated", false],
  createEntry: ["changelog.created", false],
  updateEntry: ["changelog.updated", false],
  publishDue: ["changelog.published", false],
  moderate: ["moderation.logged", true],
  undo: ["moderation.logged", true],
  createPrivateFeedback: ["private_feedback.created", true],
  submitForm: ["form.submitted", true],
  attachSubmission: ["form.submitted", true]
}

/** Another actor not answering while this one waits is a failure of this message (a defect), not the caller's fault. */
const isActorError = (e: { readonly _tag: string }): e is ActorError =>
  e._tag === "ActorOverloaded" || e._tag === "ActorTimeout" || e._tag === "ActorDefect" || e._tag === "ActorUnavailable"

/**
 * Runs a command on an active board: its rows and its board event commit in
 * one transaction (the Board actor's change log, so the event reaches the
 * board's live stream), then its `after` runs, then the read model is
 * rebuilt before the next message.
 */
const run =
  <I extends Schema.Top, S extends Schema.Top>(name: string, entry: DeskCommand<I, S>) =>
  (payload: { readonly by: string; readonly input: I["Type"] }, ctx: ActorContext<DeskState>) =>
    Effect.gen(function* () {
      const boardId = ctx.address.id
      const view = yield* Board.client(yield* ActorSystem)(boardId).view({})
      if (view.board.archived) return yield* new BoardArchived()
      const written = yield* commitBoardWrite(
        boardId,
        view.board.workspaceId,
        payload.by,
        Effect.map(entry.run(payload.input, payload.by, boardId), (outcome) => ({
          result: outcome,
          events: [eventOf(name, outcome.result, boardId)]
        }))
      )
      ctx.reload()
      const done = written.result
      return yield* (done.after ?? Effect.succeed(done.result)).pipe(Effect.catchTag("SqlError", deskConflicts))
    }).pipe(Effect.catchIf(isActorError, (e) => Effect.die(e)))

const { createBug, updateBug, setBugField, deleteBug, commentBug } = bugCommands
const { createMilestone, updateMilestone, deleteMilestone, linkRequest, unlinkRequest, putArticle, deleteArticle } = releaseCommands
const { createEntry, updateEntry, publishDue } = releaseCommands
const { moderate, undo } = moderationCommands
const { createPrivateFeedback, submitForm, attachSubmission } = intakeCommands

export const FeedbackDesk = Actor<DeskState>()({
  kind: "feedbackDesk",
  state: DeskState,
  initial: () => ({ bugs: [], milestones: [], changelog: [] }),
  rebuild: (boardId: string) => rebuild(boardId).pipe(Effect.orDie),
  messages: {
    bugs: read(Schema.Array(BugReport)),
    milestones: read(Schema.Array(Milestone)),
    changelog: read(Schema.Array(ChangelogEntry)),
    createBug: command(createBug),
    updateBug: command(updateBug),
    setBugField: command(setBugField),
    deleteBug: command(deleteBug),
    commentBug: command(commentBug),
    createMilestone: command(createMilestone),
    updateMilestone: command(updateMilestone),
    deleteMilestone: command(deleteMilestone),
    linkRequest: command(linkRequest),
    unlinkRequest: command(unlinkRequest),
    putArticle: command(putArticle),
    deleteArticle: command(deleteArticle),
    createEntry: command(createEntry),
    updateEntry: command(updateEntry),
    publishDue: command(publishDue),
    moderate: command(moderate),
    undo: command(undo),
    createPrivateFeedback: command(createPrivateFeedback),
    submitForm: command(submitForm),
    attachSubmission: command(attachSubmission)
  },
  handlers: {
    bugs: (_, ctx) => Effect.succeed(ctx.state.bugs),
    milestones: (_, ctx) => Effect.succeed(ctx.state.milestones),
    changelog: (_, ctx) => Effect.succeed(ctx.state.changelog),
    createBug: run("createBug", createBug),
    updateBug: run("updateBug", updateBug),
    setBugField: run("setBugField", setBugField),
    deleteBug: run("deleteBug", deleteBug),
    commentBug: run("commentBug", commentBug),
    createMilestone: run("createMilestone", createMilestone),
    updateMilestone: run("updateMilestone", updateMilestone),
    deleteMilestone: run("deleteMilestone", deleteMilestone),
    linkRequest: run("linkRequest", linkRequest),
    unlinkRequest: run("unlinkRequest", unlinkRequest),
    putArticle: run("putArticle", putArticle),
    deleteArticle: run("deleteArticle", deleteArticle),
    createEntry: run("createEntry", createEntry),
    updateEntry: run("updateEntry", updateEntry),
    publishDue: run("publishDue", publishDue),
    moderate: run("moderate", moderate),
    undo: run("undo", undo),
    createPrivateFeedback: run("createPrivateFeedback", createPrivateFeedback),
    submitForm: run("submitForm", submitForm),
    attachSubmission: run("attachSubmission", attachSubmission)
  }
})
