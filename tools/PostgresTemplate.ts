/**
 * A PostgreSQL database every migration has been applied to, made once per set
 * of migrations and then copied (`CREATE DATABASE … TEMPLATE`): the tests' own
 * databases and the bench's smoke runs start from copies, since migrating an
 * empty database takes seconds and a copy a fraction of one.
 */
import { createHash } from "node:crypto"
import { readdirSync, readFileSync } from "node:fs"
import path from "node:path"
import { Effect, Layer } from "effect"
import postgres from "postgres"
import * as Database from "../persistence/Database.ts"
import * as Migrations from "../persistence/Migrations.ts"

const admin = (url: string) => postgres(url, { max: 1, connect_timeout: 5, onnotice: () => {} })

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
 * `base`: the admin URL of the server.
 */
export const migratedTemplate = (base: string): Promise<string> => {
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
