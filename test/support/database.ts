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
import { randomBytes } from "node:crypto"
import postgres from "postgres"
import { migratedTemplate } from "../../tools/PostgresTemplate.ts"

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

/**
 * Creates a database of its own for this test run: a copy of the migrated
 * template (a server's own migration run then finds nothing to apply), or
 * empty with `{ empty: true }` for tests of the migrations themselves.
 */
export const createTestDatabase = async (options: { readonly empty?: boolean } = {}): Promise<TestDatabase> => {
  const base = adminUrl()
  const name = `atrium_test_${randomBytes(6).toString("hex")}`
  const from = options.empty === true ? undefined : await migratedTemplate(base)
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
