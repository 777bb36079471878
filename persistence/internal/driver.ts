/**
 * The part of the `Sql` service both backends share: parameter checks, error
 * mapping, and transactions bridged from a driver's callback-style
 * `begin(use)` (postgres.js `sql.begin`, PGlite `transaction`) into Effect.
 *
 * @internal
 */
import { Context, Effect, Exit } from "effect"
import { CurrentFence, type Fence, Fenced } from "../../runtime/ShardFences.ts"
import { AfterCommit, CurrentTransaction, Sql, SqlError, type Row, type SqlShape } from "../Sql.ts"
import * as Fencing from "./fencing.ts"
import { undefinedParameter } from "./sqlValues.ts"

/** One connection's worth of statements: the pool outside a transaction, the transaction's connection inside one. */
export interface Connection {
  /** One statement, `$n` parameters, extended protocol; fails once `limitMillis` passed without an answer (backend default when absent). */
  readonly run: (text: string, params: ReadonlyArray<unknown>, limitMillis?: number) => Promise<ReadonlyArray<Row>>
  /** One or more statements, no parameters, simple protocol. */
  readonly runScript: (script: string, limitMillis?: number) => Promise<void>
}

export interface Driver extends Connection {
  readonly backend: SqlShape["backend"]
  /**
   * Opens a transaction and calls `use` with its connection: COMMIT when the
   * returned promise resolves, ROLLBACK when it rejects; the result settles
   * after COMMIT/ROLLBACK (and rejects when COMMIT fails).
   */
  readonly begin: (use: (connection: Connection) => Promise<void>, limitMillis?: number) => Promise<void>
  /** `SqlShape.announce` (absent: nothing to tell). */
  readonly announce?: (topic: string) => void
}

/**
 * The client-side time limit of the statements run in this fiber (undefined:
 * the backend's default, see `PostgresSql.defaultTimeLimitMillis`): a
 * database that stops answering fails a statement instead of hanging it.
 * Migrations raise it (they may wait for another process's migrations).
 */
export const TimeLimit = Context.Reference<number | undefined>("atrium/persistence/Sql/TimeLimit", { defaultValue: () => undefined })

interface Transaction {
  readonly driver: Driver
  readonly connection: Connection
  /** Set when a statement failed on the server: the transaction can only roll back. */
  aborted: boolean
  /** The fence check's answer, until a statement of the body (or COMMIT) has waited for it (see `sendCheck`). */
  verdict: Effect.Effect<void, SqlError> | undefined
  /** Statements sent together with COMMIT, in order (`SqlShape.queryWithCommit`). */
  readonly closing: Array<ClosingStatement>
}

interface ClosingStatement {
  readonly text: string
  readonly params: ReadonlyArray<unknown>
  readonly then: (rows: ReadonlyArray<any>) => Effect.Effect<void>
}

/** `statement`, then the fence's verdict if still unread: the body goes on only once the check has passed. */
const afterVerdict = <A>(transaction: Transaction, statement: Effect.Effect<A, SqlError>): Effect.Effect<A, SqlError> =>
  Effect.suspend(() => {
    if (transaction.verdict === undefined) return statement
    return Effect.flatMap(Effect.exit(statement), (exit) => {
      const verdict = transaction.verdict
      transaction.verdict = undefined
      return verdict === undefined ? exit : Effect.andThen(verdict, exit)
    })
  })

const SQLSTATE = /^[0-9A-Z]{5}$/

/**
 * Failures where the database did not answer or gave up, so a retry may
 * succeed: SQLSTATE class 08 (connection), 57 (canceled by a statement
 * timeout, shutting down, cannot connect now), 25P03 (idle in transaction
 * too long), 53300 (too many connections), 40001/40P01 (serialization,
 * deadlock), 55P03 (lock timeout); and client-side connection failures.
 */
const transientStates = /^(08|57|25P03|53300|40001|40P01|55P03)/
const transientClientCodes = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
  "CONNECT_TIMEOUT",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED"
])

/** Maps a driver error to `SqlError`, keeping the SQLSTATE when the server sent one. */
export const toSqlError = (cause: unknown): SqlError => {
  if (cause instanceof SqlError) return cause
  if (typeof cause === "object" && cause !== null) {
    const error = cause as { message?: unknown; code?: unknown; detail?: unknown; severity?: unknown }
    const message = typeof error.message === "string" && error.message !== "" ? error.message : String(cause)
    const detail = typeof error.detail === "string" && error.detail !== "" ? ` (${error.detail})` : ""
    // Node's own error codes (ECONNREFUSED, EPIPE…) are not SQLSTATEs: only server errors carry `severity`.
    const code = typeof error.code === "string" && SQLSTATE.test(error.code) && error.severity !== undefined ? error.code : undefined
    const transient =
      code !== undefined ? transientStates.test(code) : typeof error.code === "string" && transientClientCodes.has(error.code)
    return new SqlError({ message: message + detail, ...(code !== undefined ? { code } : {}), ...(transient ? { transient } : {}) })
  }
  return new SqlError({ message: String(cause) })
}

const serverFailed = (error: SqlError): boolean => error.code !== undefined

const checkParams = (params: ReadonlyArray<unknown>): SqlError | undefined => {
  const index = undefinedParameter(params)
  return index === -1 ? undefined : new SqlError({ message: `Parameter $${index + 1} is undefined (use null for SQL NULL)` })
}

/** Thrown into a driver's `begin` callback to make it roll back. */
const rollbackSignal = Symbol.for("atrium/persistence/Sql/rollback")

interface OpenTransaction {
  readonly connection: Connection
  readonly commit: Effect.Effect<void, SqlError>
  readonly rollback: Effect.Effect<void>
}

const open = (driver: Driver, limitMillis: number | undefined): Effect.Effect<OpenTransaction, SqlError> =>
  Effect.callback<OpenTransaction, SqlError>((resume) => {
    let finish: (commit: boolean) => void = () => {}
    const done = new Promise<void>((resolve, reject) => {
      finish = (commit) => (commit ? resolve() : reject(rollbackSignal))
    })
    done.catch(() => {}) // the driver observes the rejection; this only keeps Node from reporting it
    let cancelled = false
    const result = driver.begin((connection) => {
      if (cancelled) return Promise.reject(rollbackSignal)
      resume(
        Effect.succeed({
          connection,
          commit: Effect.tryPromise({
            try: () => {
              finish(true)
              return result
            },
            catch: toSqlError
          }),
          rollback: Effect.promise(() => {
            finish(false)
            return result.then(
              () => {},
              () => {}
            )
          })
        })
      )
      return done
    }, limitMillis)
    // Fails only when no connection arrived (begin itself failed); later resumes are ignored.
    result.then(
      () => {},
      (cause) => resume(Effect.fail(toSqlError(cause)))
    )
    // Interrupted while waiting for a connection: roll back as soon as it arrives.
    return Effect.sync(() => {
      cancelled = true
      finish(false)
    })
  })

/** Builds the `Sql` service of a driver. */
export const make = (driver: Driver): SqlShape => {
  const announce = driver.announce ?? (() => {})
  const run = (connection: Connection, text: string, params: ReadonlyArray<unknown>, transaction?: Transaction) =>
    Effect.suspend(() => {
      const invalid = checkParams(params)
      if (invalid !== undefined) return Effect.fail(invalid)
      return Effect.flatMap(TimeLimit, (limit) =>
        Effect.tryPromise({
          try: () => connection.run(text, params, limit),
          catch: (cause) => {
            const error = toSqlError(cause)
            if (transaction !== undefined && serverFailed(error)) transaction.aborted = true
            return error
          }
        })
      )
    })

  const runScript = (connection: Connection, script: string, transaction?: Transaction) =>
    Effect.flatMap(TimeLimit, (limit) =>
      Effect.tryPromise({
        try: () => connection.runScript(script, limit),
        catch: (cause) => {
          const error = toSqlError(cause)
          if (transaction !== undefined && serverFailed(error)) transaction.aborted = true
          return error
        }
      })
    )

  const ours = (transaction: object | undefined): transaction is Transaction =>
    transaction !== undefined && "driver" in transaction && transaction.driver === driver

  const closeWith = (transaction: Transaction, closing: ClosingStatement): Effect.Effect<void, SqlError> =>
    Effect.suspend(() => {
      const invalid = checkParams(closing.params)
      if (invalid !== undefined) return Effect.fail(invalid)
      transaction.closing.push(closing)
      return Effect.void
    })

  /**
   * Sends the closing statements and COMMIT right behind them, without waiting in between: the server runs
   * them in order, and answers COMMIT with ROLLBACK when one of them failed. The failure is then the
   * transaction's; otherwise each statement's `then` runs with its rows.
   */
  const commitClosing = (state: Transaction, commit: Effect.Effect<void, SqlError>) =>
    Effect.gen(function* () {
      if (state.closing.length === 0) return yield* commit
      const limit = yield* TimeLimit
      const answers = state.closing.map((closing) =>
        state.connection.run(closing.text, closing.params, limit).then(Exit.succeed, (cause) => Exit.fail(toSqlError(cause)))
      )
      const committed = yield* Effect.exit(commit)
      const closed = yield* Effect.promise(() => Promise.all(answers))
      for (const exit of closed) if (Exit.isFailure(exit)) return yield* exit
      if (Exit.isFailure(committed)) return yield* committed
      for (const [i, closing] of state.closing.entries()) {
        const rows = closed[i]!
        if (Exit.isSuccess(rows)) yield* closing.then(rows.value)
      }
    })

  const boundTo = (transaction: Transaction): SqlShape => ({
    backend: driver.backend,
    query: <R extends object = Row>(text: string, params: ReadonlyArray<unknown> = []) =>
      afterVerdict(transaction, run(transaction.connection, text, params, transaction)) as Effect.Effect<ReadonlyArray<R>, SqlError>,
    queryWithCommit: (text, params, then) => closeWith(transaction, { text, params, then }),
    transaction: (body) => body,
    executeScript: (script) => afterVerdict(transaction, runScript(transaction.connection, script, transaction)),
    announce
  })

  /**
   * Sends the fence check, the transaction's first statement: it locks the shard's epoch row against a bump
   * until COMMIT, and records the idempotency keys of the message being handled in the same statement. Its
   * answer is not awaited before the body starts: the body's first statement goes out right behind it on
   * the same connection (the server runs it after the check), and the body goes on only once both are
   * answered (`afterVerdict`), so the check costs no round trip of its own. A refused fence rolls back.
   */
  const sendCheck = (state: Transaction, fence: Fence): Effect.Effect<void, SqlError> => {
    const [text, params] =
      fence.requests === undefined || fence.requests.length === 0
        ? [Fencing.checkStatement, Fencing.checkParams(fence.shard)]
        : [Fencing.checkAndRecordStatement, Fencing.checkAndRecordParams(fence.shard, fence.requests)]
    // Sent now, synchronously, so it is on the wire before anything the body sends.
    const answer: Promise<Exit.Exit<ReadonlyArray<Row>, SqlError>> = state.connection.run(text, params).then(Exit.succeed, (cause) => {
      const error = toSqlError(cause)
      if (serverFailed(error)) state.aborted = true
      return Exit.fail(error)
    })
    return Effect.flatMap(
      Effect.promise(() => answer),
      (exit): Effect.Effect<void, SqlError> => {
        if (Exit.isFailure(exit)) return Effect.failCause(exit.cause)
        const rows = exit.value
        const current = rows.length === 0 ? undefined : Number(rows[0]!.epoch)
        if (current === fence.epoch) return Effect.void
        fence.refused = new Fenced({ shard: fence.shard, epoch: fence.epoch, current })
        return Effect.die(fence.refused)
      }
    )
  }

  /** The body with the fence check in front of it; a verdict the body never waited for is read before COMMIT, and wins. */
  const fenced = <A, E, R>(state: Transaction, fence: Fence, body: Effect.Effect<A, E, R>): Effect.Effect<A, E | SqlError, R> =>
    Effect.suspend(() => {
      state.verdict = sendCheck(state, fence)
      return Effect.flatMap(Effect.exit(body), (exit) => {
        const verdict = state.verdict
        state.verdict = undefined
        return verdict === undefined ? exit : Effect.andThen(verdict, exit)
      })
    })

  const transaction = <A, E, R>(body: Effect.Effect<A, E, R>): Effect.Effect<A, E | SqlError, R> =>
    Effect.flatMap(CurrentTransaction, (current) => {
      if (ours(current)) return body // nested: join the outer transaction
      return Effect.flatMap(CurrentFence, (fence) =>
        Effect.uninterruptibleMask((restore) =>
          Effect.gen(function* () {
            const opened = yield* restore(open(driver, yield* TimeLimit))
            const state: Transaction = { driver, connection: opened.connection, aborted: false, verdict: undefined, closing: [] }
            const committed: Array<Effect.Effect<void>> = []
            const exit = yield* Effect.exit(
              restore(
                (fence === undefined ? body : fenced(state, fence, body)).pipe(
                  Effect.provideService(Sql, boundTo(state)),
                  Effect.provideService(CurrentTransaction, state),
                  Effect.provideService(AfterCommit, committed)
                )
              )
            )
            if (Exit.isSuccess(exit) && !state.aborted) {
              yield* commitClosing(state, opened.commit)
              if (fence !== undefined) fence.committed = true
              for (const effect of committed) yield* Effect.ignore(effect)
              return exit.value
            }
            yield* opened.rollback
            if (Exit.isSuccess(exit)) {
              return yield* Effect.fail(
                new SqlError({
                  message: "A statement of this transaction failed and its error was handled, so the transaction was rolled back",
                  code: "25P02"
                })
              )
            }
            return yield* exit
          })
        )
      )
    })

  // A handler's write outside a transaction is fenced too: it runs in a transaction of its own.
  const outside = <A>(fenced: Effect.Effect<A, SqlError>, unfenced: Effect.Effect<A, SqlError>, text: string): Effect.Effect<A, SqlError> =>
    Effect.flatMap(CurrentFence, (fence) => (fence !== undefined && Fencing.mayWrite(text) ? transaction(fenced) : unfenced))

  const query = <R extends object = Row>(text: string, params: ReadonlyArray<unknown> = []): Effect.Effect<ReadonlyArray<R>, SqlError> =>
    Effect.flatMap(CurrentTransaction, (current) =>
      ours(current)
        ? afterVerdict(current, run(current.connection, text, params, current))
        : outside(query<Row>(text, params), run(driver, text, params), text)
    ) as Effect.Effect<ReadonlyArray<R>, SqlError>

  const queryWithCommit = <R extends object = Row>(
    text: string,
    params: ReadonlyArray<unknown>,
    then: (rows: ReadonlyArray<R>) => Effect.Effect<void>
  ): Effect.Effect<void, SqlError> =>
    Effect.flatMap(CurrentTransaction, (current) =>
      ours(current) ? closeWith(current, { text, params, then }) : Effect.flatMap(query<R>(text, params), then)
    )

  const executeScript = (script: string): Effect.Effect<void, SqlError> =>
    Effect.flatMap(CurrentTransaction, (current) =>
      ours(current)
        ? afterVerdict(current, runScript(current.connection, script, current))
        : outside(executeScript(script), runScript(driver, script), script)
    )

  return { backend: driver.backend, query, queryWithCommit, transaction, executeScript, announce }
}
