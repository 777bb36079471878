/**
 * The conventional stack's database handle: postgres.js on PostgreSQL, or
 * PGlite in-process on an embedded DATA_DIR (the directory Atrium's embedded
 * mode uses, `<DATA_DIR>/pglite`, opened only while Atrium is stopped).
 * A thin promise API, as an application without Effect would hold it; the
 * bench's seeding and checks use it too.
 *
 * Statements are prepared (postgres.js `prepare: true`; PGlite is one
 * in-process session). Sessions run with TimeZone=UTC, as Atrium's.
 */
import { PGlite } from "@electric-sql/pglite"
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm"
import { join } from "node:path"
import postgres from "postgres"

export type Row = Record<string, unknown>

export interface Queries {
  readonly query: <T = Row>(text: string, params?: ReadonlyArray<unknown>) => Promise<Array<T>>
}

export interface Db extends Queries {
  /** Runs `body` in one transaction (BEGIN … COMMIT, ROLLBACK on a throw). */
  readonly transaction: <A>(body: (tx: Queries) => Promise<A>) => Promise<A>
  readonly close: () => Promise<void>
  readonly backend: "postgres" | "pglite"
}

/** Where the database is: a PostgreSQL URL, or an embedded DATA_DIR. */
export type DbTarget = { readonly databaseUrl: string } | { readonly dataDir: string }

export const openPostgres = (url: string, max = 10): Db => {
  const sql = postgres(url, {
    max,
    prepare: true,
    onnotice: () => {},
    connection: { TimeZone: "UTC", application_name: "bench-conventional" }
  })
  const on = (client: postgres.Sql | postgres.TransactionSql): Queries => ({
    query: async <T>(text: string, params: ReadonlyArray<unknown> = []) =>
      Array.from(await client.unsafe(text, params as Array<never>, { prepare: true })) as unknown as Array<T>
  })
  return {
    ...on(sql),
    transaction: async <A>(body: (tx: Queries) => Promise<A>) => (await sql.begin((tx) => body(on(tx)))) as A,
    close: () => sql.end({ timeout: 5 }),
    backend: "postgres"
  }
}

const quoted = (text: string) => `'${text.replace(/'/g, "''")}'`

/** A parameter as an SQL literal (strings, numbers, booleans, null, arrays of strings or numbers). */
const literal = (value: unknown): string => {
  if (value === null || value === undefined) return "NULL"
  if (typeof value === "number" || typeof value === "bigint") return String(value)
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE"
  if (Array.isArray(value))
    return quoted(`{${value.map((v) => (v === null ? "NULL" : `"${String(v).replace(/["\\]/g, (c) => `\\${c}`)}"`)).join(",")}}`)
  return quoted(String(value))
}

/** PGlite on `<dataDir>/pglite`; pg_trgm is loaded in case the migrations installed it. */
export const openPglite = async (dataDir: string): Promise<Db> => {
  const db = await PGlite.create({ dataDir: join(dataDir, "pglite"), relaxedDurability: false, extensions: { pg_trgm } })
  await db.exec("SET TimeZone TO 'UTC'")
  // PGlite plans every query it is sent: statements with parameters are
  // PREPAREd once (the session is the process's own) and EXECUTEd after.
  const prepared = new Map<string, string>()
  const on = (client: Pick<PGlite, "query">): Queries => ({
    query: async <T>(text: string, params: ReadonlyArray<unknown> = []) => {
      if (params.length === 0) return (await client.query<T>(text)).rows
      let name = prepared.get(text)
      if (name === undefined) {
        name = `s${prepared.size + 1}`
        await client.query(`PREPARE ${name} AS ${text}`)
        prepared.set(text, name)
      }
      // EXECUTE takes no bind parameters: its arguments are literals.
      return (await client.query<T>(`EXECUTE ${name}(${params.map(literal).join(", ")})`)).rows
    }
  })
  return {
    ...on(db),
    transaction: (body) => db.transaction((tx) => body(on(tx))),
    close: () => db.close(),
    backend: "pglite"
  }
}

export const openDb = (target: DbTarget, max?: number): Promise<Db> =>
  "databaseUrl" in target ? Promise.resolve(openPostgres(target.databaseUrl, max)) : openPglite(target.dataDir)
