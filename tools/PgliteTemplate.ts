/**
 * A migrated PGlite database made once and copied into each test or bench server's
 * data directory. Creating a PGlite cluster (initdb in WASM) and applying
 * every migration costs seconds of CPU; the tests and the bench start hundreds
 * of servers, and a copy of the finished files costs a few hundred milliseconds.
 *
 * The template lives in `node_modules/.cache/atrium-pglite/<key>/pglite`, the
 * key hashing the migrations, PGlite's version and the PGlite layer's own
 * source (extensions, settings), so a changed migration makes a new template.
 * It is made through `Database.pglite`, the same layer the server uses, and
 * the server still runs `Migrations` on the copy (all recorded: nothing to
 * apply), so a stale template cannot hide a migration. One process builds a
 * template at a time (a lock folder); the others wait for it.
 */
import { createHash } from "node:crypto"
import { appendFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs"
import path from "node:path"
import { fileURLToPath } from "node:url"

const ROOT = fileURLToPath(new URL("../", import.meta.url))
const CACHE_DIR = path.join(ROOT, "node_modules", ".cache", "atrium-pglite")
/** A lock older than this was left by a process that died while building. */
const STALE_LOCK_MS = 5 * 60_000

const templateKey = (migrations: string): string => {
  const hash = createHash("sha256")
  const inputs = [
    ...readdirSync(migrations).map((file) => path.join(migrations, file)),
    path.join(ROOT, "node_modules", "@electric-sql", "pglite", "package.json"),
    path.join(ROOT, "persistence", "PgliteSql.ts"),
    fileURLToPath(import.meta.url)
  ].sort()
  for (const file of inputs) hash.update(path.relative(ROOT, file)).update("\0").update(readFileSync(file)).update("\0")
  return hash.digest("hex").slice(0, 16)
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

// The database layer is loaded when a template is made or copied, not on import: the bench's runner imports this file
// with every scenario, and loading PGlite and the persistence layer cost it about two seconds of CPU per run.
const build = async (): Promise<string> => {
  const [{ Effect, Layer }, Database, Migrations] = await Promise.all([
    import("effect"),
    import("../persistence/Database.ts"),
    import("../persistence/Migrations.ts")
  ])
  const target = path.join(CACHE_DIR, templateKey(Migrations.directory))
  const done = () => existsSync(path.join(target, "pglite", "PG_VERSION"))
  const lock = `${target}.lock`
  mkdirSync(CACHE_DIR, { recursive: true })
  for (;;) {
    if (done()) return target
    try {
      mkdirSync(lock)
      break
    } catch {
      // Another process builds it: wait, or take over a lock its builder left behind.
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now())
      if (age > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true })
      else await sleep(200)
    }
  }
  // Build beside the target and rename: a reader never sees half a template.
  const scratch = `${target}.tmp-${process.pid}-${Date.now().toString(36)}`
  try {
    if (done()) return target
    rmSync(target, { recursive: true, force: true })
    await Effect.runPromise(Effect.scoped(Layer.build(Database.pglite(scratch))))
    renameSync(scratch, target)
  } finally {
    rmSync(scratch, { recursive: true, force: true })
    rmSync(lock, { recursive: true, force: true })
  }
  return target
}

let template: Promise<string> | undefined

/**
 * Settings for a database of a few megabytes (test servers and nodes): PGlite zeroes its shared buffers at every
 * start, and initdb's 128 MB cost about 0.6 s of CPU each time.
 */
export const SMALL_DATABASE_SETTINGS = "shared_buffers = 16MB"

/**
 * Puts a migrated PGlite database into `dataDir` (as `Database.pglite(dataDir)`
 * opens it) unless it holds one already; `memory://` is left alone. `settings`
 * (postgresql.conf lines) are added to the copy only, never to the template.
 */
export const seedPglite = async (dataDir: string, settings?: string): Promise<void> => {
  const PgliteSql = await import("../persistence/PgliteSql.ts")
  if (dataDir.startsWith(PgliteSql.memory)) return
  const directory = PgliteSql.directoryOf(dataDir)
  if (existsSync(directory)) return
  if (template === undefined) {
    template = build()
    template.catch(() => {
      template = undefined
    })
  }
  cpSync(path.join(await template, "pglite"), directory, { recursive: true })
  if (settings !== undefined) appendFileSync(path.join(directory, "postgresql.conf"), `\n# seedPglite\n${settings}\n`)
}
