/**
 * Task actors are built from one batched read (TaskReads.findTaskById): the
 * tasks asked for in one turn come back from one statement, each caller with
 * its own task (or null for one missing or deleted), and a read inside a
 * transaction is never batched with reads outside it (it sees the
 * transaction's own writes; they do not).
 */
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { Effect, Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { findTaskById } from "../../../actors/pm/TaskReads.ts"
import type { Task } from "../../../actors/pm/WorkRecords.ts"
import * as Database from "../../../persistence/Database.ts"
import { Sql, type SqlShape } from "../../../persistence/Sql.ts"
import { seedPglite } from "../../../tools/PgliteTemplate.ts"

let dir: string
let runtime: ManagedRuntime.ManagedRuntime<Sql, unknown>
/** Statements sent through the pool (a transaction's are its own). */
let statements = 0

/** The database's `Sql`, counting the statements run outside transactions. */
const counted = Layer.effect(
  Sql,
  Effect.map(
    Effect.service(Sql),
    (sql): SqlShape => ({
      ...sql,
      query: (text, params) => {
        statements++
        return sql.query(text, params)
      }
    })
  )
)

const run = <A, E>(effect: Effect.Effect<A, E, Sql>) => runtime.runPromise(effect)
const sql = (text: string, params: ReadonlyArray<unknown> = []) => run(Sql.use((db) => db.query(text, params)))

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "atrium-task-batch-"))
  await seedPglite(dir)
  runtime = ManagedRuntime.make(counted.pipe(Layer.provide(Database.pglite(dir))))
  await sql(`INSERT INTO pm_spaces (id, workspace_id, short_id, name, created_by) VALUES ('s1', 'w1', 'S1', 'Space', 'u1')`)
  await sql(`INSERT INTO pm_lists (id, workspace_id, space_id, short_id, name, created_by) VALUES ('l1', 'w1', 's1', 'L1', 'List', 'u1')`)
  for (const id of ["t1", "t2", "t3"]) {
    await sql(
      `INSERT INTO pm_tasks (id, workspace_id, space_id, list_id, short_id, name, status, created_by) VALUES ($1, 'w1', 's1', 'l1', $2, $3, 'to do', 'u1')`,
      [id, id.toUpperCase(), `Task ${id}`]
    )
  }
  await sql(`UPDATE pm_tasks SET deleted_at = now() WHERE id = 't3'`)
}, 60_000)

afterAll(async () => {
  await runtime?.dispose()
  if (dir) await rm(dir, { recursive: true, force: true })
})

describe("findTaskById", () => {
  it("answers the reads of one turn from one statement, each with its own task", async () => {
    const before = statements
    const found = await run(Effect.all(["t1", "t2", "missing", "t3", "t1"].map(findTaskById), { concurrency: "unbounded" }))
    expect(statements - before).toBe(1)
    expect(found.map((task) => task?.name ?? null)).toEqual(["Task t1", "Task t2", null, null, "Task t1"])
    expect(found[0]).toMatchObject({ id: "t1", listId: "l1", spaceId: "s1", status: { name: "to do" }, assignees: [] })
  })

  it("reads apart inside a transaction: it sees its own write, a read outside asked in the same turn does not", async () => {
    let outside: Promise<Task | null> | undefined
    let inside: Task | null = null
    await run(
      Effect.exit(
        Sql.use((db) =>
          db.transaction(
            Effect.gen(function* () {
              yield* Sql.use((tx) => tx.query(`UPDATE pm_tasks SET name = 'Renamed' WHERE id = 't2'`))
              // A fiber of its own, outside the transaction, asking in the same turn.
              outside = runtime.runPromise(findTaskById("t2"))
              inside = yield* findTaskById("t2")
              return yield* Effect.fail("roll back")
            })
          )
        )
      )
    )
    expect(inside).toMatchObject({ name: "Renamed" })
    expect((await outside)?.name).toBe("Task t2")
    expect((await run(findTaskById("t2")))?.name).toBe("Task t2")
  })
})
