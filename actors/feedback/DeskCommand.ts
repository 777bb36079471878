/**
 * How the feedback desk's commands are declared: an input and a success
 * Schema (so in-process asks pass values and NATS encodes with the same
 * schemas) and a body that writes its rows. The body runs in one
 * transaction; what it must do beyond its own rows (ask the Board actor to
 * ship a request, notify voters) it returns as `after`, run once the
 * transaction committed and before the reply — never while holding the
 * transaction, since another actor's write would wait on it.
 */
import { Effect, type Schema } from "effect"
import type { Sql, SqlError } from "../../persistence/Sql.ts"
import type { ActorError } from "../../runtime/ActorError.ts"
import type { ActorSystem } from "../../runtime/ActorSystem.ts"
import { reject, type Rejection } from "../../runtime/Rejection.ts"
import type { ChangeLog } from "../pm/ChangeLog.ts"

export interface Done<A> {
  readonly result: A
  /** Runs after the commit, before the reply; its failure is the reply's (the rows stay committed). */
  readonly after?: Effect.Effect<A, Rejection | ActorError | SqlError, Sql | ActorSystem | ChangeLog>
}

export type DeskEffect<A> = Effect.Effect<Done<A>, Rejection | SqlError, Sql>

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

/** SQL failures that are the caller's conflict, not a defect: unique and foreign-key violations. */
export const fromSqlError = (error: SqlError) =>
  error.code === "23505"
    ? Effect.fail(reject("conflict", "That item already exists here"))
    : error.code === "23503"
      ? Effect.fail(reject("conflict", "A referenced item no longer exists"))
      : Effect.die(error)

export const notFound = (what: string) => reject("not_found", `No such ${what} on this board`)

/** The value, or a 404 naming `what`. */
export const found = <A>(value: A | undefined, what: string): Effect.Effect<A, Rejection> =>
  value === undefined ? Effect.fail(notFound(what)) : Effect.succeed(value)
