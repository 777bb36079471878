/**
 * Query plans of the search and listing reads on a large workspace, before
 * and after the search indexes (migrations from 070 on), in one run:
 *
 *   node --import tsx bench/plans.ts [--pglite] [--tasks 20000] [--pages 20000] [--runs 30]
 *
 * Seeds one workspace with `--tasks` pm tasks (one in 8 named "… golf", five
 * "… zebra") and `--pages` wiki pages (same words in the titles and text),
 * migrated without the search indexes; runs each read through the real read
 * functions, printing `EXPLAIN ANALYZE` of every statement it sends and the
 * median latency of `--runs` calls; then applies the remaining migrations and
 * does it again. PostgreSQL by default (a throwaway database on
 * `BENCH_DATABASE_URL`, default postgres://postgres@127.0.0.1:5432/postgres;
 * `--keep` leaves it for a look with psql).
 */
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { Context, Effect, Layer } from "effect"
import postgres from "postgres"
import { getSpace, spaceTree } from "../actors/pm/StructureReads.ts"
import { countsBy } from "../actors/pm/TaskAggregates.ts"
import { findTasks, findTaskKeysAfter, getTask, type TaskFilter } from "../actors/pm/TaskReads.ts"
import { searchFacets, searchPages, searchTitles } from "../actors/wiki/SearchIndex.ts"
import { parseSearchQuery } from "../actors/wiki/SearchQuery.ts"
import { type Reader, visibleTo } from "../actors/wiki/VisiblePages.ts"
import * as Migrations from "../persistence/Migrations.ts"
import * as PgliteSql from "../persistence/PgliteSql.ts"
import * as PostgresSql from "../persistence/PostgresSql.ts"
import { query, Sql, type SqlShape } from "../persistence/Sql.ts"

const args = process.argv.slice(2)
const option = (name: string, fallback: number) => {
  const at = args.indexOf(`--${name}`)
  return at >= 0 ? Number(args[at + 1]) : fallback
}
const onPglite = args.includes("--pglite")
const taskCount = option("tasks", 20_000)
const pageCount = option("pages", 20_000)
const runs = option("runs", 30)
const FIRST_NEW = 70

const write = (text: string) => process.stdout.write(`${text}\n`)

const seed = `
INSERT INTO actor_state (kind, id, state, version)
SELECT 'account', 'user' || n || '@example.com',
       jsonb_build_object('userId', 'u' || n, 'email', 'user' || n || '@example.com', 'name', 'User ' || n, 'createdAt', now()), 1
  FROM generate_series(1, 3) n;
INSERT INTO pm_spaces (id, workspace_id, short_id, name, created_by)
SELECT 's' || n, 'ws', 'S-' || n, 'Space ' || n, 'u1' FROM generate_series(1, 2) n;
INSERT INTO pm_lists (id, workspace_id, space_id, short_id, name, created_by)
SELECT 'l' || n, 'ws', 's' || (1 + n % 2), 'L-' || n, 'List ' || n, 'u1' FROM generate_series(1, 4) n;
INSERT INTO pm_statuses (id, workspace_id, scope_type, scope_id, name, type, color, position)
SELECT 'st' || s || '-' || k, 'ws', 'space', 's' || s, (ARRAY['to do', 'in progress', 'done', 'closed'])[k],
       (ARRAY['open', 'active', 'done', 'closed'])[k], '#87909e', k
  FROM generate_series(1, 2) s, generate_series(1, 4) k;
INSERT INTO pm_tasks (id, workspace_id, space_id, list_id, short_id, name, description, status, created_by, created_at, position)
SELECT 't' || n, 'ws', 's' || (1 + (n % 4 + 1) % 2), 'l' || (n % 4 + 1), 'T-' || n,
       'Task ' || n || ' ' || CASE WHEN n % 1000 = 7 AND n <= 5000 THEN 'zebra'
                                   ELSE (ARRAY['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel'])[1 + n % 8] END,
       'Notes about item ' || n || ', part of the ' || (ARRAY['north', 'south', 'east', 'west'])[1 + n % 4] || ' rollout.',
       'to do', 'u1', now() - (${taskCount} - n) * interval '1 second', n
  FROM generate_series(1, ${taskCount}) n;
INSERT INTO pm_task_assignees (task_id, user_id) SELECT 't' || n, 'u' || (1 + n % 3) FROM generate_series(1, ${taskCount}) n;
INSERT INTO wiki_spaces (id, workspace_id, key, name, created_by) VALUES ('ws1', 'ws', 'ENG', 'Engineering', 'u1');
INSERT INTO wiki_pages (id, space_id, workspace_id, parent_id, title, slug, content_text, created_by, updated_by, updated_at, archived_at, restriction)
SELECT 'p' || n, 'ws1', 'ws', CASE WHEN n > 100 THEN 'p' || (1 + n % 100) END,
       'Page ' || n || ' ' || CASE WHEN n % 1000 = 7 AND n <= 5000 THEN 'zebra'
                                   ELSE (ARRAY['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel'])[1 + n % 8] END,
       'page-' || n,
       'How the ' || (ARRAY['north', 'south', 'east', 'west'])[1 + n % 4] || ' team runs step ' || n || ' of the release.',
       'u1', 'u1', now() - (${pageCount} - n) * interval '1 second',
       CASE WHEN n % 500 = 3 THEN now() END, CASE WHEN n % 700 = 5 THEN 'view' ELSE 'open' END
  FROM generate_series(1, ${pageCount}) n;
ANALYZE;`

/** `sql` that also prints the plan of every statement it runs, while `explaining` is on. */
const explaining = { on: false }
const explained = (sql: SqlShape): SqlShape => ({
  ...sql,
  query: (text, params) =>
    explaining.on && !/^\s*EXPLAIN/i.test(text)
      ? Effect.flatMap(sql.query<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, COSTS OFF) ${text}`, params), (plan) => {
          write(plan.map((row) => `    ${row["QUERY PLAN"]}`).join("\n"))
          return sql.query(text, params)
        })
      : sql.query(text, params)
})

const viewer = { userId: "u1", admin: true }
const reader: Reader = { workspaceId: "ws", userId: "u1", role: "member" }
const filter = (q: string): TaskFilter => ({ workspaceId: "ws", viewer, q })

const reads: ReadonlyArray<readonly [string, Effect.Effect<unknown, unknown, Sql>]> = [
  ["getTask", getTask(`t${Math.floor(taskCount / 2)}`)],
  ["searchTasksLite q=golf limit=20 (1 in 8 match)", findTaskKeysAfter(filter("golf"), undefined, 20, "asc")],
  ["searchTasksLite q=zebra limit=20 (5 match)", findTaskKeysAfter(filter("zebra"), undefined, 20, "asc")],
  ["searchTasksLite q=t-4242 (short id)", findTaskKeysAfter(filter("t-4242"), undefined, 20, "asc")],
  ["searchTasks q=zebra offset page with total", findTasks(filter("zebra"), { offset: 0, limit: 20 })],
  ["searchWiki q=zebra", searchPages({ _tag: "reader", reader }, parseSearchQuery("zebra")!, {}, { limit: 20, offset: 0 })],
  ["searchWiki q=golf", searchPages({ _tag: "reader", reader }, parseSearchQuery("golf")!, {}, { limit: 20, offset: 0 })],
  ["searchWikiTitles q=zebr", searchTitles(reader, parseSearchQuery("zebr", "A")!, "zebr", undefined, 10)],
  ["getWikiSearchFacets q=zebra", searchFacets(reader, parseSearchQuery("zebra")!, {})],
  [
    "wiki pages visible to a member (visibleTo: home, dashboards, export)",
    Effect.suspend(() => {
      const visible = visibleTo(reader, 1)
      return query(`WITH RECURSIVE ${visible.ctes} SELECT count(*) AS n FROM visible_pages`, [...visible.params])
    })
  ],
  [
    "task counts by status type (dashboard widget)",
    countsBy({ workspaceId: "ws", viewer, scopeType: "workspace", scopeId: "ws" }, "status_type")
  ],
  ["space tree with task counts", Effect.flatMap(getSpace("s1"), (space) => spaceTree(space))]
]

const median = (values: Array<number>) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!

const measure = (label: string) =>
  Effect.gen(function* () {
    write(`\n## ${label}\n`)
    for (const [name, read] of reads) {
      write(`### ${name}`)
      explaining.on = true
      yield* read
      explaining.on = false
      const times: Array<number> = []
      for (let i = 0; i < runs; i++) {
        const started = performance.now()
        yield* read
        times.push(performance.now() - started)
      }
      write(`  median ${median(times).toFixed(2)} ms over ${runs} calls\n`)
    }
  })

const main = Effect.gen(function* () {
  const sql = yield* Sql
  // The migrations before the search indexes, in a folder of their own.
  const before = mkdtempSync(path.join(tmpdir(), "atrium-plans-"))
  for (const file of readdirSync(Migrations.directory)) {
    if (Number.parseInt(file, 10) < FIRST_NEW) cpSync(path.join(Migrations.directory, file), path.join(before, file))
  }
  yield* Migrations.run(before)
  rmSync(before, { recursive: true })
  write(`# Plans on ${sql.backend}: ${taskCount} tasks, ${pageCount} wiki pages`)
  const seeded = performance.now()
  yield* sql.executeScript(seed)
  write(`seeded in ${((performance.now() - seeded) / 1000).toFixed(1)} s`)
  yield* measure("before: migrations < 070")
  yield* Migrations.run()
  yield* sql.executeScript("ANALYZE")
  yield* measure("after: every migration")
})

const run = async () => {
  if (onPglite) {
    await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const sql = yield* Layer.build(PgliteSql.layer(PgliteSql.memory))
          yield* main.pipe(Effect.provideService(Sql, explained(Context.get(sql, Sql))))
        })
      )
    )
    return
  }
  const adminUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres"
  const name = `atrium_plans_${process.pid}`
  const admin = postgres(adminUrl, { onnotice: () => {} })
  await admin.unsafe(`CREATE DATABASE ${name}`)
  try {
    const url = new URL(adminUrl)
    url.pathname = `/${name}`
    await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const sql = yield* Layer.build(PostgresSql.layer(url.toString()))
          yield* main.pipe(Effect.provideService(Sql, explained(Context.get(sql, Sql))))
        })
      )
    )
  } finally {
    if (args.includes("--keep")) write(`kept database ${name}`)
    else await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    await admin.end()
  }
}

await run()
