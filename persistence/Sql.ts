/**
 * The one SQL interface of Atrium. Two backends implement it (PostgreSQL via
 * `postgres`, embedded PGlite); both speak the same SQL with `$n` parameters.
 *
 * Both return identical JS values (see `internal/sqlValues.ts`): int8 (and
 * `count(*)`) → number, or the exact decimal string beyond 2^53 − 1; numeric →
 * string; timestamptz/timestamp → ISO string "2024-05-01T12:00:00.123Z"
 * (milliseconds, UTC); date → "YYYY-MM-DD"; json/jsonb → parsed value; bytea →
 * Uint8Array. Sessions run in UTC. `undefined` parameters are refused.
 * Get one with `Database.layer` (`persistence/Database.ts`).
 */
import { Context, Effect, Option, Schema } from "effect"
import { transientMarker } from "../runtime/ActorStore.ts"
import { type Rejection, reject } from "../runtime/Rejection.ts"
import { Wakeup } from "../runtime/Wakeup.ts"
import { mayWrite } from "./internal/fencing.ts"

export class SqlError extends Schema.TaggedError<SqlError>()("SqlError", {
  message: Schema.String,
  /** SQLSTATE when the database gave one (e.g. "23505" unique violation). */
  code: Schema.optionalKey(Schema.String),
  /**
   * The database did not answer or gave up (connection lost or refused, a
   * statement or idle-in-transaction timeout, shutting down, a deadlock or
   * serialization failure): retrying may succeed. Answered 503, not 500.
   */
  transient: Schema.optionalKey(Schema.Boolean)
}) {
  get [transientMarker](): boolean {
    return this.transient === true
  }
}

export type Row = Record<string, unknown>

export interface SqlShape {
  readonly backend: "postgres" | "pglite"
  /** Runs one prepared statement. JSON values for jsonb columns are passed as objects, never strings. */
  readonly query: <R extends object = Row>(text: string, params?: ReadonlyArray<unknown>) => Effect.Effect<ReadonlyArray<R>, SqlError>
  /** Runs `body` in one transaction: inside it, `Sql` is bound to the transaction. Nested calls join the outer one. */
  readonly transaction: <A, E, R>(body: Effect.Effect<A, E, R>) => Effect.Effect<A, E | SqlError, R>
  /**
   * Runs `text` as the current transaction's last statement, sent together with COMMIT: no round trip of its
   * own, and a lock it takes (a counter row every writer of a workspace queues on) is held only while the
   * server runs it and the COMMIT right behind it, never while this process is busy elsewhere. `then` gets
   * its rows once the transaction committed; its failure rolls the transaction back and fails it. Outside a
   * transaction it runs now.
   */
  readonly queryWithCommit: <R extends object = Row>(
    text: string,
    params: ReadonlyArray<unknown>,
    then: (rows: ReadonlyArray<R>) => Effect.Effect<void>
  ) => Effect.Effect<void, SqlError>
  /**
   * Runs a script of one or more statements without parameters (simple query
   * protocol), e.g. a migration file. Inside `transaction` it runs in that
   * transaction. Never build a script from user input: use `query` with `$n`.
   */
  readonly executeScript: (script: string) => Effect.Effect<void, SqlError>
  /**
   * Tells the other nodes of this database that `topic` has work (a wake-up, runtime/Wakeup.ts), after this
   * node's own workers were woken: a NOTIFY on PostgreSQL (persistence/WakeupRelay.ts); nothing on PGlite, which
   * one process owns.
   */
  readonly announce: (topic: string) => void
}

export class Sql extends Context.Service<Sql, SqlShape>()("atrium/persistence/Sql") {}

/**
 * What runs once the current transaction commits (undefined outside one); the
 * driver provides a fresh list per transaction and drops it on rollback.
 */
export const AfterCommit = Context.Reference<Array<Effect.Effect<void>> | undefined>("atrium/persistence/Sql/AfterCommit", {
  defaultValue: () => undefined
})

/**
 * The transaction the current fiber runs in, if any (a driver's own value). Every `Sql` built from a driver
 * consults it, so a service that captured `Sql` at construction also joins a transaction opened by its
 * caller (and cannot deadlock PGlite's single connection by querying "outside" it).
 */
export const CurrentTransaction = Context.Reference<object | undefined>("atrium/persistence/Sql/CurrentTransaction", {
  defaultValue: () => undefined
})

/**
 * Where a statement asked with `context` runs: its transaction, else its database's pool (the `Sql` itself).
 * Reads batched across fibers are grouped by it, so none joins another fiber's transaction or database.
 */
export const connectionOf = (context: Context.Context<Sql>): object => Context.get(context, CurrentTransaction) ?? Context.get(context, Sql)

/** Runs `effect` once the current transaction has committed (never if it rolls back); outside a transaction, now. */
export const afterCommit = (effect: Effect.Effect<void>): Effect.Effect<void> =>
  Effect.flatMap(AfterCommit, (pending) => (pending === undefined ? effect : Effect.sync(() => void pending.push(effect))))

/**
 * Wakes the background workers listening on `topic` (runtime/Wakeup.ts) once
 * the write that gave them work is visible: signalled before the commit, a
 * worker would look, find nothing yet, and sleep through its safety poll.
 */
export const wakeAfterCommit = (topic: string): Effect.Effect<void> =>
  afterCommit(
    Effect.flatMap(Wakeup, (wakeup) =>
      Effect.flatMap(Effect.serviceOption(Sql), (sql) =>
        Effect.sync(() => {
          wakeup.signal(topic)
          if (Option.isSome(sql)) sql.value.announce(topic)
        })
      )
    )
  )

/** Whether a statement may write (anything but a plain read; errs on the side of "may"). */
export const mayModify = (text: string): boolean => mayWrite(text)

/** `Sql.query` from the context: the common case for domain reads. */
export const query = <R extends object = Row>(
  text: string,
  params?: ReadonlyArray<unknown>
): Effect.Effect<ReadonlyArray<R>, SqlError, Sql> => Sql.use((sql) => sql.query<R>(text, params))

/** `Sql.queryWithCommit` from the context. */
export const queryWithCommit = <R extends object = Row>(
  text: string,
  params: ReadonlyArray<unknown>,
  then: (rows: ReadonlyArray<R>) => Effect.Effect<void>
): Effect.Effect<void, SqlError, Sql> => Sql.use((sql) => sql.queryWithCommit<R>(text, params, then))

/**
 * Milliseconds from the database's clock (so no skew with this node's) until
 * the timestamptz `expression`, an aggregate over `from` (e.g. `min(due_at)`,
 * `FROM queue WHERE …`); 0 when it has passed, undefined when it is NULL
 * (nothing waiting). What a worker sleeps until its next due work.
 */
export const millisUntil = (expression: string, from: string): Effect.Effect<number | undefined, SqlError, Sql> =>
  Effect.map(
    query<{ inMs: number | null }>(`SELECT (extract(epoch FROM (${expression}) - now()) * 1000)::float8 AS "inMs" ${from}`),
    (rows) => {
      const inMs = rows[0]?.inMs
      return inMs === null || inMs === undefined ? undefined : Math.max(0, Number(inMs))
    }
  )

/**
 * SQL expression: timestamptz `column` as text in the form every timestamp
 * of a row has (`Date#toISOString()`, milliseconds, UTC), for timestamps
 * built into JSON in SQL (json_build_object), which PostgreSQL would
 * otherwise render as "2024-05-01T12:00:00.123456+00:00".
 */
export const isoTimestampSql = (column: string): string => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`

/**
 * SQL failures that are the caller's conflict, not a defect: a unique
 * violation (`duplicate` says what is taken) and a foreign-key one; any other
 * is a defect.
 */
export const fromSqlError =
  (duplicate: string) =>
  (error: SqlError): Effect.Effect<never, Rejection> =>
    error.code === "23505"
      ? Effect.fail(reject("conflict", duplicate))
      : error.code === "23503"
        ? Effect.fail(reject("conflict", "A referenced item no longer exists"))
        : Effect.die(error)

/** SQL failures a caller does not map are defects: the runtime logs them and answers 500 (or 503 when transient). */
export const orDieSql = <A, E, R>(effect: Effect.Effect<A, E | SqlError, R>): Effect.Effect<A, Exclude<E, SqlError>, R> =>
  Effect.catchIf(
    effect,
    (error): error is SqlError => error instanceof SqlError,
    (error) => Effect.die(error),
    (error) => Effect.fail(error)
  )
