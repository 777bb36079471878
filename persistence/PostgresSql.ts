/**
 * `Sql` on PostgreSQL through the `postgres` client (postgres.js).
 *
 * - Every statement is prepared (`sql.unsafe(text, params, { prepare: true })`)
 *   and its parameters are left untyped, so the server infers each `$n` type
 *   and the value is serialized for that type (see `internal/sqlValues.ts`):
 *   objects and arrays bound to json/jsonb are stored as JSON objects/arrays.
 * - Result values are identical to the PGlite backend (int8 → number when
 *   safe else string, timestamps → ISO strings, date → "YYYY-MM-DD"…).
 * - Transactions run on a reserved connection, BEGIN pipelined with their
 *   first statements (`transact`); sessions run with `TimeZone=UTC` and JIT
 *   compilation off (it only pays for long analytic queries).
 * - The pool is small (default 10) and closed when the layer is released.
 * - The server's array types are learned once, when the layer starts
 *   (`learnArrayTypes`), not by every new connection of every pool.
 */
import { Effect, Layer } from "effect"
import postgres from "postgres"
import { Sql, type SqlError, type SqlShape } from "./Sql.ts"
import * as Driver from "./internal/driver.ts"
import * as WakeupRelay from "./WakeupRelay.ts"
import { Wakeup } from "../runtime/Wakeup.ts"
import * as SqlValues from "./internal/sqlValues.ts"

export interface PostgresSqlOptions {
  /** Maximum pool size (default 10). */
  readonly max?: number
  /** Seconds to wait for a connection (default 10). */
  readonly connectTimeout?: number
  /** Seconds before an idle connection is closed (default 60). */
  readonly idleTimeout?: number
}

/** Parsers and serializers by type OID, as postgres.js keeps them in `options.parsers` / `options.serializers`. */
interface TypeTables {
  readonly parsers: Record<number, (value: any) => unknown>
  readonly serializers: Record<number, (value: any) => unknown>
}

/**
 * The shared tables of both backends (`internal/sqlValues.ts`): an OID given only a serializer there is read
 * as its text. Array types derive from them (`learnArrayTypes`).
 */
const baseTypes: TypeTables = {
  parsers: Object.fromEntries(
    [...new Set([...Object.keys(SqlValues.parsers), ...Object.keys(SqlValues.serializers)])].map((key) => [
      Number(key),
      SqlValues.parsers[Number(key)] ?? ((text: string) => text)
    ])
  ),
  serializers: { ...SqlValues.serializers }
}

/**
 * `client` parsing and serializing by `tables`. They go into the client's own tables, where postgres.js's
 * `fetch_types` puts the array types it learns, not into its `types` option: `reserve()` (one per transaction)
 * makes a helper function for every entry of `types`, and with an entry per array type of the database (about
 * 300 on Atrium's schema) that was ~40 KB per transaction, kept alive by the reserved connection long enough to
 * be promoted: most of what the old generation collected under a write load.
 */
const withTypeTables = (client: Client, ...tables: ReadonlyArray<TypeTables>): Client => {
  for (const { parsers, serializers } of tables) {
    Object.assign(client.options.parsers, parsers)
    Object.assign(client.options.serializers, serializers)
  }
  return client
}

type Client = postgres.Sql<Record<string, postgres.PostgresType>>
type Reserved = postgres.ReservedSql<Record<string, postgres.PostgresType>>
type Session = Client | Reserved

/** The database did not answer within the time limit: transient (`ETIMEDOUT`), the connection is given up. */
const timedOut = (millis: number, what: string) =>
  Object.assign(new Error(`the database did not answer ${what} within ${millis} ms`), { code: "ETIMEDOUT" })

/** A transaction's connection that is gone: refused here, so nothing more is written to it. */
const connectionGone = () =>
  Object.assign(new Error("the transaction's connection to the database was lost"), { code: "CONNECTION_CLOSED" })

/**
 * `promise`, or a rejection after `millis` (then `onExpired` runs). The
 * statement itself is not cancelled: the connection it waits on is given up
 * by `onExpired` (see `Pool.replace`).
 */
const limited = <A>(promise: Promise<A>, millis: number, what: string, onExpired: () => void): Promise<A> => {
  if (!Number.isFinite(millis)) return promise
  let timer: ReturnType<typeof setTimeout> | undefined
  const expiry = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onExpired()
      reject(timedOut(millis, what))
    }, millis)
  })
  promise.catch(() => {}) // settled after the limit: observed here, nobody awaits it any more
  return Promise.race([promise, expiry]).finally(() => clearTimeout(timer))
}

const statement = (session: Session, text: string, params: ReadonlyArray<unknown>) =>
  session
    .unsafe(
      text,
      // type 0: let the server infer every parameter's type (postgres.js would
      // otherwise pin Date/boolean/bigint/Uint8Array to its own guess)
      params.map((value) => session.typed(value as never, 0)) as Array<never>,
      { prepare: true, simple: false } as postgres.UnsafeQueryOptions
    )
    .then((rows) => Array.from(rows) as ReadonlyArray<Record<string, unknown>>)

const script = (session: Session, text: string) =>
  session
    .unsafe(text)
    .simple()
    .then(() => undefined)

/**
 * The pool, replaced as a whole when the database stops answering: a statement
 * past its time limit means the server or the path to it is stuck, and every
 * connection shares that path. The old pool is ended at once (`end({ timeout: 0 })`
 * terminates its connections: statements still waiting on them fail with
 * CONNECTION_DESTROYED, and a terminated connection refuses further writes).
 */
interface Pool {
  current: Client
  generation: number
  /** Gives up the pool of `generation` (a no-op when it was already replaced). */
  readonly replace: (generation: number) => void
}

const makePool = (open: () => Client): Pool => {
  const pool: Pool = {
    current: open(),
    generation: 0,
    replace: (generation) => {
      if (generation !== pool.generation) return
      const old = pool.current
      pool.current = open()
      pool.generation++
      void old.end({ timeout: 0 }).catch(() => {})
    }
  }
  return pool
}

/**
 * A transaction's connection: once its connection is lost (a statement failed
 * with a connection error, a FATAL server error, or the transaction ended under
 * it), nothing more is sent on it. postgres.js 3.4.9 keeps the connection of a
 * transaction reserved after its socket closed, and a statement queued on it
 * then writes to a null socket from a `setImmediate` (an uncaught TypeError
 * that ends the process: porsager/postgres#1154, #1208); a connection that
 * reconnected meanwhile would even run the statement outside the transaction.
 */
interface TransactionState {
  lost: boolean
}

const isConnectionLoss = (cause: unknown): boolean => {
  if (typeof cause !== "object" || cause === null) return false
  const error = cause as { code?: unknown; severity?: unknown }
  return error.severity === "FATAL" || error.severity === "PANIC" || (Driver.toSqlError(cause).transient === true && !("severity" in error))
}

const transactionConnection = (
  session: Session,
  state: TransactionState,
  limit: (promise: Promise<unknown>, millis: number, what: string) => Promise<unknown>
): Driver.Connection => {
  const guarded = <A>(run: () => Promise<A>, millis: number, what: string): Promise<A> => {
    if (state.lost) return Promise.reject(connectionGone())
    return (limit(run(), millis, what) as Promise<A>).catch((cause: unknown) => {
      if (isConnectionLoss(cause)) state.lost = true
      throw cause
    })
  }
  return {
    run: (text, params, millis = defaultTimeLimitMillis) => guarded(() => statement(session, text, params), millis, "a statement"),
    runScript: (text, millis = scriptTimeLimitMillis) => guarded(() => script(session, text), millis, "a script")
  }
}

/** postgres.js stopped handing over the connection (checked by the layer's first transaction, at startup). */
const unsupported = () =>
  new Error(
    "postgres.js no longer calls a statement's `onexecute` with its connection: persistence/PostgresSql.ts relies on it (check the pinned version)"
  )

/** A connection's socket as postgres.js reports its end to whoever set `onclose` (`sql.begin` does the same). */
interface Socket {
  onclose: ((cause: unknown) => void) | null
}

/**
 * One transaction on a reserved connection. BEGIN is not awaited: it goes out in one write with the
 * transaction's first statements (the fence check and the body's first statement), so a transaction costs
 * the round trips of its statements and COMMIT only; `sql.begin` would wait for BEGIN first. A body that
 * failed rolls back. A connection whose socket closed meanwhile is left alone (nothing more is written to it,
 * and it is not handed back to the pool: see `TransactionState`); COMMIT and ROLLBACK are limited like a statement.
 */
const transact = async (
  reserved: Reserved,
  use: (connection: Driver.Connection) => Promise<void>,
  millis: number,
  limit: <A>(promise: Promise<A>, millis: number, what: string) => Promise<A>
): Promise<void> => {
  const state: TransactionState = { lost: false }
  let socket: Socket | undefined
  let lostBy: unknown
  const closed = (cause: unknown) => {
    state.lost = true
    lostBy = cause
  }
  // `onexecute` hands over the connection the statement went out on (postgres.js's `sql.begin` uses it the same
  // way); answering true keeps the connection pipelining the statements behind it.
  const watch = (connection: Socket) => {
    socket = connection
    connection.onclose = closed
    return true
  }
  const begun = reserved.unsafe("begin", [], { onexecute: watch } as postgres.UnsafeQueryOptions).then(() => undefined)
  begun.catch(() => {}) // a failed BEGIN fails the statements behind it too: `use` reports it
  const connection = transactionConnection(reserved, state, limit)
  const end = (statement: "commit" | "rollback") =>
    limit(reserved.unsafe(statement), millis, statement === "commit" ? "to COMMIT" : "to ROLLBACK").catch((cause: unknown) => {
      if (isConnectionLoss(cause)) state.lost = true
      throw cause
    })
  try {
    let failure: { readonly cause: unknown } | undefined
    try {
      await use(connection)
      await limit(begun, millis, "to BEGIN")
      if (socket === undefined) throw unsupported()
    } catch (cause) {
      failure = { cause }
    }
    if (state.lost) throw failure?.cause ?? lostBy ?? connectionGone()
    if (failure !== undefined) {
      await end("rollback")
      throw failure.cause
    }
    await end("commit")
  } finally {
    if (socket !== undefined && socket.onclose === closed) socket.onclose = null
    if (!state.lost && socket !== undefined) reserved.release()
  }
}

/**
 * Client-side time limit of a statement (and of waiting for a connection, and
 * of COMMIT): above the server's statement timeout of actor transactions (5 s,
 * `internal/fencing.ts`), so a server that answers always answers first, and
 * below the 7.5 s a node keeps serving a shard after its last lease renewal,
 * so a node whose database stopped answering never waits on it past its
 * lease. Migrations and scripts get longer (`Driver.TimeLimit`).
 */
export const defaultTimeLimitMillis = 7000
const scriptTimeLimitMillis = 10 * 60_000

/**
 * The `Sql` service of a pool (`open` makes one, and is called again to replace it) and how to close it;
 * `announce` tells other nodes of wake-ups (persistence/WakeupRelay.ts).
 */
export const make = (
  open: () => Client,
  announce?: (topic: string) => void
): { readonly sql: SqlShape; readonly close: () => Promise<void> } => {
  const pool = makePool(open)
  const limit = <A>(promise: Promise<A>, millis: number, what: string) => {
    const generation = pool.generation
    return limited(promise, millis, what, () => pool.replace(generation))
  }
  const begin: Driver.Driver["begin"] = (use, millis = defaultTimeLimitMillis) => {
    const reserving = pool.current.reserve()
    // Waiting for a connection is limited like a statement; one that arrives after that goes back unused.
    return limit(reserving, millis, "with a connection").then(
      (reserved) => transact(reserved, use, millis, limit),
      (cause: unknown) => {
        reserving.then(
          (late) => late.release(),
          () => {}
        )
        throw cause
      }
    )
  }
  const sql = Driver.make({
    backend: "postgres",
    run: (text, params, millis = defaultTimeLimitMillis) => limit(statement(pool.current, text, params), millis, "a statement"),
    runScript: (text, millis = scriptTimeLimitMillis) => limit(script(pool.current, text), millis, "a script"),
    begin,
    announce
  })
  return { sql, close: () => pool.current.end({ timeout: 5 }) }
}

/**
 * The server's array types (`text[]`, `int8[]`…, each element parsed and serialized by `baseTypes`), learned once
 * on a connection of their own; the pools then open with `fetch_types: false`. postgres.js would otherwise learn
 * them on every new connection, with a catalog query whose failure nothing awaits (`fetchArrayTypes` in its
 * connection.js, porsager/postgres#1192, #1205): a connection ended, reset or terminated while that query runs
 * rejects it unhandled, and the process exits. A pool replaced as it opens connections (`Pool.replace`, once a
 * held database answers again) did exactly that: an unhandled CONNECTION_DESTROYED. The probe here is the one
 * connection left with that window, once, at startup, and it is never ended under the query.
 */
const learnArrayTypes = async (url: string, options: ClientOptions): Promise<TypeTables> => {
  const probe = withTypeTables(postgres(url, { ...options, max: 1, idle_timeout: 0 }), baseTypes)
  try {
    await limited(probe`select 1`, defaultTimeLimitMillis, "its first statement", () => {})
  } catch (cause) {
    // Not ended under the catalog query it may be running (see above): it closes once the database answers.
    void probe.end().catch(() => {})
    throw cause
  }
  await probe.end({ timeout: 5 })
  const learned: TypeTables = { parsers: {}, serializers: {} }
  for (const [key, parse] of Object.entries(probe.options.parsers)) {
    const oid = Number(key)
    const serialize = probe.options.serializers[oid]
    if ("array" in parse && parse.array === true && serialize !== undefined) {
      learned.parsers[oid] = parse
      learned.serializers[oid] = serialize
    }
  }
  return learned
}

type ClientOptions = postgres.Options<Record<string, postgres.PostgresType>>

/** Opens a pool on `url` (a `postgres://` URL), checks it answers, and closes it on release. */
export const layer = (url: string, options: PostgresSqlOptions = {}): Layer.Layer<Sql, SqlError> =>
  Layer.effect(
    Sql,
    Effect.gen(function* () {
      const wakeup = yield* Wakeup
      const common: ClientOptions = {
        prepare: true,
        connect_timeout: options.connectTimeout ?? 10,
        onnotice: () => {}, // "relation … already exists, skipping" and friends
        // jit off: requests run short statements, and a plan whose estimate crosses
        // jit_above_cost spent ~300 ms compiling to save microseconds (bench/plans.ts)
        connection: { TimeZone: "UTC", application_name: "atrium", jit: "off" }
      }
      const arrayTypes = yield* Effect.tryPromise({ try: () => learnArrayTypes(url, common), catch: Driver.toSqlError })
      // Opened once the pool answers; until then there is nothing to announce.
      let relay: WakeupRelay.WakeupRelay | undefined
      const { sql } = yield* Effect.acquireRelease(
        Effect.sync(() =>
          make(
            () =>
              withTypeTables(
                postgres(url, {
                  ...common,
                  fetch_types: false,
                  max: options.max ?? 10,
                  idle_timeout: options.idleTimeout ?? 60
                }),
                baseTypes,
                arrayTypes
              ),
            (topic) => relay?.announce(topic)
          )
        ),
        (opened) => Effect.promise(opened.close)
      )
      yield* sql.query("select 1")
      // A transaction now, so a postgres.js that no longer supports what `transact` relies on stops the start;
      // it sends and reads an array, so one that no longer reads its type tables (`withTypeTables`) stops it too.
      const [echoed] = yield* sql.transaction(sql.query<{ readonly tags: unknown }>("select $1::text[] AS tags", [["a,b", "c"]]))
      if (!Array.isArray(echoed?.tags) || echoed.tags.join("|") !== "a,b|c")
        return yield* Effect.die(
          new Error("postgres.js no longer uses the types put in its type tables: see withTypeTables in persistence/PostgresSql.ts")
        )
      relay = yield* Effect.acquireRelease(
        Effect.tryPromise({ try: () => WakeupRelay.open(url, wakeup), catch: Driver.toSqlError }),
        (opened) => Effect.promise(opened.close)
      )
      return sql
    })
  )
