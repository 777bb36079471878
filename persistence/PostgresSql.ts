/**
 * `Sql` on PostgreSQL through the `postgres` client (postgres.js).
 *
 * - Every statement is prepared (`sql.unsafe(text, params, { prepare: true })`)
 *   and its parameters are left untyped, so the server infers each `$n` type
 *   and the value is serialized for that type (see `internal/sqlValues.ts`):
 *   objects and arrays bound to json/jsonb are stored as JSON objects/arrays.
 * - Result values are identical to the PGlite backend (int8 → number when
 *   safe else string, timestamps → ISO strings, date → "YYYY-MM-DD"…).
 * - Transactions use `sql.begin`; sessions run with `TimeZone=UTC` and JIT
 *   compilation off (it only pays for long analytic queries).
 * - The pool is small (default 10) and closed when the layer is released.
 */
import { Effect, Layer } from "effect"
import postgres from "postgres"
import { Sql, type SqlError, type SqlShape } from "./Sql.ts"
import * as Driver from "./internal/driver.ts"
import * as SqlValues from "./internal/sqlValues.ts"

export interface PostgresSqlOptions {
  /** Maximum pool size (default 10). */
  readonly max?: number
  /** Seconds to wait for a connection (default 10). */
  readonly connectTimeout?: number
  /** Seconds before an idle connection is closed (default 60). */
  readonly idleTimeout?: number
}

// postgres.js custom types: one entry per OID, so the same parser/serializer
// tables drive both backends (array types derive from them at connect time).
const types = Object.fromEntries(
  [...new Set([...Object.keys(SqlValues.parsers), ...Object.keys(SqlValues.serializers)])].map((key) => {
    const oid = Number(key)
    return [
      `oid${oid}`,
      {
        to: oid,
        from: [oid],
        serialize: SqlValues.serializers[oid],
        parse: SqlValues.parsers[oid] ?? ((text: string) => text)
      }
    ]
  })
) as Record<string, postgres.PostgresType>

type Client = postgres.Sql<Record<string, postgres.PostgresType>>

const connectionOf = (client: Client | postgres.TransactionSql<Record<string, postgres.PostgresType>>): Driver.Connection => ({
  run: (text, params) =>
    client
      .unsafe(
        text,
        // type 0: let the server infer every parameter's type (postgres.js would
        // otherwise pin Date/boolean/bigint/Uint8Array to its own guess)
        params.map((value) => client.typed(value as never, 0)) as Array<never>,
        { prepare: true, simple: false } as postgres.UnsafeQueryOptions
      )
      .then((rows) => Array.from(rows) as ReadonlyArray<Record<string, unknown>>),
  runScript: (script) =>
    client
      .unsafe(script)
      .simple()
      .then(() => undefined)
})

/** The `Sql` service of an open postgres.js client. */
export const make = (client: Client): SqlShape =>
  Driver.make({
    backend: "postgres",
    ...connectionOf(client),
    begin: (use) => client.begin((transaction) => use(connectionOf(transaction))).then(() => undefined)
  })

/** Opens a pool on `url` (a `postgres://` URL), checks it answers, and closes it on release. */
export const layer = (url: string, options: PostgresSqlOptions = {}): Layer.Layer<Sql, SqlError> =>
  Layer.effect(
    Sql,
    Effect.gen(function* () {
      const client = yield* Effect.acquireRelease(
        Effect.sync(() =>
          postgres(url, {
            max: options.max ?? 10,
            prepare: true,
            connect_timeout: options.connectTimeout ?? 10,
            idle_timeout: options.idleTimeout ?? 60,
            types,
            onnotice: () => {}, // "relation … already exists, skipping" and friends
            // jit off: requests run short statements, and a plan whose estimate crosses
            // jit_above_cost spent ~300 ms compiling to save microseconds (bench/plans.ts)
            connection: { TimeZone: "UTC", application_name: "atrium", jit: "off" }
          })
        ),
        (client) => Effect.promise(() => client.end({ timeout: 5 }))
      )
      const sql = make(client)
      yield* sql.query("select 1")
      return sql
    })
  )
