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
import { Actor, type ActorContext, type ActorKind } from "../../runtime/Actor.ts"
import type { ActorError } from "../../runtime/ActorError.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { reject, type Rejection } from "../../runtime/Rejection.ts"
import type { ChangeLog } from "../pm/ChangeLog.ts"
import { Board } from "./Board.ts"
import { type BoardEvent, commitBoardWrite } from "./BoardLog.ts"
import { bugCommands } from "./BugCommands.ts"
import { type DeskCommand, fromSqlError } from "./DeskCommand.ts"
import { bugsOfBoard, changelogOfBoard, milestonesOfBoard } from "./DeskQueries.ts"
import { BugReport, ChangelogEntry, Milestone } from "./DeskRecords.ts"
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

const commands = { ...bugCommands, ...releaseCommands, ...moderationCommands, ...intakeCommands }
type Commands = typeof commands

const By = Schema.String.annotate({ description: "The acting user's id; empty for an anonymous visitor" })

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

/**
 * Runs a command on an active board: its rows and its board event commit in
 * one transaction (the Board actor's change log, so the event reaches the
 * board's live stream), then its `after` runs, then the read model is
 * rebuilt before the next message.
 */
const runCommand =
  (name: string, entry: DeskCommand) => (payload: { readonly by: string; readonly input: unknown }, ctx: ActorContext<DeskState>) =>
    Effect.gen(function* () {
      const boardId = ctx.address.id
      const view = yield* (yield* ActorSystem).ask(Board, boardId, "view", {})
      if (view.board.archived) return yield* reject("conflict", "The board is archived; restore it first")
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
      return yield* (done.after ?? Effect.succeed(done.result)).pipe(Effect.catchTag("SqlError", fromSqlError))
    }).pipe(
      // Another actor not answering while this one waits is a failure of this message, not the caller's fault.
      Effect.catchIf(
        (e): e is ActorError => e._tag !== "Rejection",
        (e) => Effect.die(e)
      ),
      Effect.withSpan(`feedbackDesk ${name}`)
    ) as Effect.Effect<unknown, Rejection, Sql | ActorSystem | ChangeLog>

const reads = {
  bugs: {
    payload: Schema.Struct({}),
    success: Schema.Array(BugReport),
    handle: (_: {}, state: DeskState) => state.bugs
  },
  milestones: {
    payload: Schema.Struct({}),
    success: Schema.Array(Milestone),
    handle: (_: {}, state: DeskState) => state.milestones
  },
  changelog: {
    payload: Schema.Struct({}),
    success: Schema.Array(ChangelogEntry),
    handle: (_: {}, state: DeskState) => state.changelog
  }
} as const

const messages: Record<string, { payload: Schema.Top; success: Schema.Top }> = {}
const handlers: Record<string, (payload: any, ctx: ActorContext<DeskState>) => Effect.Effect<unknown, Rejection, any>> = {}
for (const [name, entry] of Object.entries(commands) as unknown as Array<[string, DeskCommand]>) {
  messages[name] = { payload: Schema.Struct({ by: By, input: entry.input }), success: entry.success }
  handlers[name] = runCommand(name, entry)
}
for (const [name, read] of Object.entries(reads)) {
  messages[name] = { payload: read.payload, success: read.success }
  handlers[name] = (payload, ctx) => Effect.succeed(read.handle(payload, ctx.state))
}

export const FeedbackDesk: ActorKind<DeskState> = Actor<DeskState>()({
  kind: "feedbackDesk",
  state: DeskState,
  initial: () => ({ bugs: [], milestones: [], changelog: [] }),
  rebuild: (boardId: string) => rebuild(boardId).pipe(Effect.orDie),
  messages,
  handlers
})

type InputOf<C> = C extends DeskCommand<infer I, any> ? I["Type"] : never
type ResultOf<C> = C extends DeskCommand<any, infer S> ? S["Type"] : never

/** Asks a board's desk to run one command as `by`; the result type follows the command. */
export const deskSend = <K extends keyof Commands & string>(
  boardId: string,
  name: K,
  by: string,
  input: InputOf<Commands[K]>
): Effect.Effect<ResultOf<Commands[K]>, Rejection | ActorError, ActorSystem> =>
  ActorSystem.use((system) => system.ask(FeedbackDesk, boardId, name, { by, input })) as never

/** Reads a board's desk read model (served from memory). */
export const deskRead = <K extends keyof typeof reads>(
  boardId: string,
  name: K
): Effect.Effect<ReturnType<(typeof reads)[K]["handle"]>, Rejection | ActorError, ActorSystem> =>
  ActorSystem.use((system) => system.ask(FeedbackDesk, boardId, name, {})) as never
