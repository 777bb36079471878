/**
 * Test helpers for PostgreSQL: a throwaway database per test run (a copy of
 * a migrated template), and the convention for suites that need a service.
 *
 * Convention: a suite that needs PostgreSQL calls
 * `await checkPostgres("<suite name>")` at the top of its file and skips
 * itself (`describe.skipIf(!available)`) when that returns false. When
 * `ATRIUM_REQUIRE_SERVICES=1` is set (CI), an unreachable PostgreSQL makes
 * `checkPostgres` throw, so the test file FAILS instead of being skipped;
 * otherwise it prints a loud warning naming the suite and returns false.
 *
 * `ATRIUM_TEST_PG_ADMIN_URL` (default `postgres://postgres@127.0.0.1:5432/postgres`)
 * must be allowed to CREATE and DROP databases.
 */
import { createHash, randomBytes } from "node:crypto"
import { readdirSync, readFileSync } from "node:fs"
import path from "node:path"
import { Effect, Layer } from "effect"
import postgres from "postgres"
import * as Database from "../../persistence/Database.ts"
import * as Migrations from "../../persistence/Migrations.ts"

export const adminUrl = (): string =>
  process.env.ATRIUM_TEST_PG_ADMIN_URL !== undefined && process.env.ATRIUM_TEST_PG_ADMIN_URL !== ""
    ? process.env.ATRIUM_TEST_PG_ADMIN_URL
    : "postgres://postgres@127.0.0.1:5432/postgres"

/** Whether `ATRIUM_REQUIRE_SERVICES=1`: missing services fail the tests instead of skipping them. */
export const servicesRequired = (): boolean => process.env.ATRIUM_REQUIRE_SERVICES === "1"

const admin = (url: string, connectTimeoutSeconds = 5) =>
  postgres(url, { max: 1, connect_timeout: connectTimeoutSeconds, onnotice: () => {} })

/** Whether PostgreSQL at `url` (default: the admin URL) answers `select 1` within `timeoutMs`. */
export const postgresAvailable = async (url: string = adminUrl(), timeoutMs = 2000): Promise<boolean> => {
  const sql = admin(url, Math.max(1, Math.ceil(timeoutMs / 1000)))
  let timer: NodeJS.Timeout | undefined
  try {
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs)
    })
    return await Promise.race([
      sql`select 1`.then(
        () => true,
        () => false
      ),
      timeout
    ])
  } finally {
    clearTimeout(timer)
    await sql.end({ timeout: 1 }).catch(() => {})
  }
}

/**
 * Whether the PostgreSQL suite `suite` can run. Throws when PostgreSQL is
 * unreachable and `ATRIUM_REQUIRE_SERVICES=1`; otherwise warns loudly and
 * returns false.
 */
export const checkPostgres = async (suite: string): Promise<boolean> => {
  if (await postgresAvailable()) return true
  const where = adminUrl().replace(/\/\/[^@/]*@/, "//***@")
  if (servicesRequired()) {
    throw new Error(`[${suite}] PostgreSQL is unreachable at ${where} and ATRIUM_REQUIRE_SERVICES=1: failing instead of skipping`)
  }
  console.warn(
    [
      "",
      "!".repeat(78),
      `!! SKIPPED: ${suite}`,
      `!! PostgreSQL is unreachable at ${where}.`,
      "!! Set ATRIUM_TEST_PG_ADMIN_URL, or ATRIUM_REQUIRE_SERVICES=1 to fail instead.",
      "!".repeat(78),
      ""
    ].join("\n")
  )
  return false
}

export interface TestDatabase {
  /** `atrium_test_<random>` */
  readonly name: string
  /** The admin URL with its database replaced by `name`. */
  readonly url: string
  /** Drops the database, terminating its connections (`WITH (FORCE)`). */
  readonly drop: () => Promise<void>
}

/** The migrations' fingerprint: a changed or added migration makes a new template. */
const migrationsKey = (): string => {
  const hash = createHash("sha256")
  for (const file of readdirSync(Migrations.directory).sort()) {
    hash
      .update(file)
      .update("\0")
      .update(readFileSync(path.join(Migrations.directory, file)))
      .update("\0")
  }
  return hash.digest("hex").slice(0, 16)
}

let template: Promise<string> | undefined

/**
 * A database every migration has been applied to, made once per set of
 * migrations (under an advisory lock: one process builds, the others wait)
 * and then only copied (`CREATE DATABASE … TEMPLATE`, a fraction of a second
 * against seconds of migrating). Templates of older migration sets are dropped.
 * `base`: the admin URL of the server (the bench's smoke runs pass theirs).
 */
export const migratedTemplate = (base: string = adminUrl()): Promise<string> => {
  template ??= (async () => {
    const name = `atrium_template_${migrationsKey()}`
    const sql = admin(base)
    try {
      await sql`select pg_advisory_lock(hashtext('atrium_test_template'))`
      const [found] = await sql<Array<{ count: number }>>`select count(*)::int as count from pg_database where datname = ${name}`
      if (found.count === 0) {
        const building = `${name}_building`
        await sql.unsafe(`drop database if exists "${building}" with (force)`)
        await sql.unsafe(`create database "${building}"`)
        const url = new URL(base)
        url.pathname = `/${building}`
        await Effect.runPromise(Effect.scoped(Layer.build(Database.postgres(url.toString()))))
        await sql.unsafe(`alter database "${building}" rename to "${name}"`)
      }
      const stale = await sql<Array<{ datname: string }>>`
        select datname from pg_database where datname like 'atrium\_template\_%' and datname <> ${name}`
      // Not forced: another checkout's run may be copying its own template right now.
      for (const { datname } of stale) await sql.unsafe(`drop database if exists "${datname}"`).catch(() => {})
      await sql`select pg_advisory_unlock(hashtext('atrium_test_template'))`
      return name
    } finally {
      await sql.end({ timeout: 5 })
    }
  })()
  template.catch(() => {
    template = undefined
  })
  return template
}

/**
 * Creates a database of its own for this test run: a copy of the migrated
 * template (a server's own migration run then finds nothing to apply), or
 * empty with `{ empty: true }` for tests of the migrations themselves.
 */
export const createTestDatabase = async (options: { readonly empty?: boolean } = {}): Promise<TestDatabase> => {
  const base = adminUrl()
  const name = `atrium_test_${randomBytes(6).toString("hex")}`
  const from = options.empty === true ? undefined : await migratedTemplate()
  const sql = admin(base)
  try {
    await sql.unsafe(from === undefined ? `create database "${name}"` : `create database "${name}" template "${from}"`)
  } finally {
    await sql.end({ timeout: 5 })
  }
  const url = new URL(base)
  url.pathname = `/${name}`
  let dropped = false
  return {
    name,
    url: url.toString(),
    drop: async () => {
      if (dropped) return
      dropped = true
      const sql = admin(base)
      try {
        await sql.unsafe(`drop database if exists "${name}" with (force)`)
      } finally {
        await sql.end({ timeout: 5 })
      }
    }
  }
}
