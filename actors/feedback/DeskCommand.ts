/**
 * How the feedback desk's commands are declared: an input and a success
 * Schema (so in-process asks pass values and NATS encodes with the same
 * schemas) and a body that writes its rows. The body runs in one
 * transaction; what it must do beyond its own rows (ask the Board actor to
 * ship a request, notify voters) it returns as `after`, run once the
 * transaction committed and before the reply — never while holding the
 * transaction, since another actor's write would wait on it.
 */
import { Effect, Schema } from "effect"
import type { Sql, SqlError } from "../../persistence/Sql.ts"
import type { ActorError } from "../../runtime/ActorError.ts"
import type { ActorSystem } from "../../runtime/ActorSystem.ts"
import { ReferenceGone } from "../pm/PmErrors.ts"
import type { ChangeLog } from "../pm/ChangeLog.ts"
import { BoardRefusal, DeskItemExists, DeskItemNotFound, NotAwaitingModeration, NotUndoable, SubmissionLimit } from "./FeedbackErrors.ts"

/** What a desk command may fail with (its message's declared errors): its own refusals, and the Board actor's for what it asks of it after the commit. */
export const DeskError = Schema.Union([DeskItemNotFound, DeskItemExists, NotAwaitingModeration, NotUndoable, SubmissionLimit, BoardRefusal])
export type DeskError = typeof DeskError.Type

export interface Done<A> {
  readonly result: A
  /** Runs after the commit, before the reply; its failure is the reply's (the rows stay committed). */
  readonly after?: Effect.Effect<A, DeskError | ActorError | SqlError, Sql | ActorSystem | ChangeLog>
}

export type DeskEffect<A> = Effect.Effect<Done<A>, DeskError | SqlError, Sql>

export interface DeskCommand<I extends Schema.Top = Schema.Top, S extends Schema.Top = Schema.Top> {
  readonly input: I
  readonly success: S
  /** `by`: the acting user (`ANONYMOUS` for a visitor); `boardId`: the owning actor's id. */
  readonly run: (input: I["Type"], by: string, boardId: string) => DeskEffect<S["Type"]>
}

/** Who acts for an anonymous visitor (the change log wants an actor; no user has this id). */
export const ANONYMOUS = "anonymous"
/** The scheduler publishing due changelog entries. */
export const SCHEDULER = "scheduler"

/** The acting user's id, or null for an anonymous visitor or the scheduler. */
export const userOrNull = (by: string): string | null => (by === ANONYMOUS || by === SCHEDULER ? null : by)

export const deskCommand = <I extends Schema.Top, S extends Schema.Top>(
  input: I,
  success: S,
  run: (input: I["Type"], by: string, boardId: string) => DeskEffect<S["Type"]>
): DeskCommand<I, S> => ({ input, success, run })

export const done = <A>(result: A, after?: Done<A>["after"]): Done<A> => (after ? { result, after } : { result })

/** A unique violation of a desk command: the caller's conflict. */
export const deskConflicts = (error: SqlError): Effect.Effect<never, DeskItemExists | ReferenceGone> =>
  error.code === "23505" ? Effect.fail(new DeskItemExists()) : error.code === "23503" ? Effect.fail(new ReferenceGone()) : Effect.die(error)

export const notFound = (what: string) => new DeskItemNotFound({ what })

/** The value, or a 404 naming `what`. */
export const found = <A>(value: A | undefined, what: string): Effect.Effect<A, DeskItemNotFound> =>
  value === undefined ? Effect.fail(notFound(what)) : Effect.succeed(value)
