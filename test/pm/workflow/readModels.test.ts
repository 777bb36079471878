/**
 * Forms, bulk jobs and whiteboards are actors that hold their aggregate in
 * memory: a read right after a write sees the write, a warm read sends no SQL
 * about the aggregate, and the state the commands handed over equals the one
 * rebuilt from the rows (what a restart or an invalidation produces).
 */
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { read } from "../../../actors/pm/WorkActor.ts"
import { PmBulkJob } from "../../../actors/pmops/BulkJobs.ts"
import { PmForm } from "../../../actors/pmops/Forms.ts"
import { PmWhiteboard } from "../../../actors/pmops/Whiteboards.ts"
import { Sql } from "../../../persistence/Sql.ts"
import type { ActorKind } from "../../../runtime/Actor.ts"
import { ActorSystem } from "../../../runtime/ActorSystem.ts"
import { type PmAtrium, startPmAtrium } from "../work/support/pmAtrium.ts"
import { eventually, workspaceWithList } from "./support.ts"

process.env.PM_BULK_POLL_MS = "20"

let atrium: PmAtrium
let w: Awaited<ReturnType<typeof workspaceWithList>>

beforeAll(async () => {
  atrium = await startPmAtrium()
  w = await workspaceWithList(atrium)
})
afterAll(() => atrium?.close())

/** The SQL statements the server sends while `body` runs. */
const sqlDuring = async (body: () => Promise<unknown>) => {
  const sql = await atrium.run(
    Effect.gen(function* () {
      return yield* Sql
    })
  )
  const original = sql.query
  const seen: Array<string> = []
  ;(sql as { query: typeof sql.query }).query = (text, params) => {
    seen.push(text)
    return original(text, params)
  }
  try {
    await body()
  } finally {
    ;(sql as { query: typeof sql.query }).query = original
  }
  return seen
}

/** The actor's state as its commands left it, and as rebuilt from its rows. */
const memoryAndRows = <S>(kind: ActorKind<S>, id: string, memory: Effect.Effect<unknown, unknown, ActorSystem>) =>
  atrium.run(Effect.all({ memory, rows: kind.rebuild!(id) }))

const invalidate = (kind: ActorKind, id: string) => atrium.run(ActorSystem.use((system) => system.invalidate(kind, id)))

describe("pm ops read models", () => {
  it("a form: reads after writes see them, warm reads send no SQL, and a rebuild gives the same form", async () => {
    const form = await w.call("POST", `/v1/lists/${w.listId}/forms`, { name: "Intake", fields: [{ target: "name", label: "Title" }] })
    const renamed = await w.call("PATCH", `/v1/forms/${form.id}`, { name: "Intake v2", public: true })
    expect(await w.call("GET", `/v1/forms/${form.id}`)).toEqual(renamed)
    expect(renamed).toMatchObject({ name: "Intake v2", public: true })

    await w.call("POST", `/v1/forms/${form.id}/submissions`, { answers: { name: "From the form" } })
    const public1 = await atrium.request("POST", `/pm/v1/public/forms/${renamed.publicToken}/submissions`, {
      body: { answers: { name: "From outside" } }
    })
    expect(public1.status).toBe(202)
    expect((await w.call("GET", `/v1/forms/${form.id}`)).submissionCount).toBe(2)

    const statements = await sqlDuring(() => w.call("GET", `/v1/forms/${form.id}`))
    expect(statements.filter((s) => s.includes("pm_forms"))).toEqual([])

    const { memory, rows } = await memoryAndRows(PmForm, form.id, read(PmForm, form.id, "get", {}))
    expect(memory).toEqual(rows)
    await invalidate(PmForm, form.id)
    expect(await w.call("GET", `/v1/forms/${form.id}`)).toEqual(memory)

    // Closing the link: the old token opens nothing, at once.
    await w.call("PATCH", `/v1/forms/${form.id}`, { public: false })
    expect((await atrium.request("GET", `/pm/v1/public/forms/${renamed.publicToken}`)).status).toBe(404)
    await w.call("DELETE", `/v1/forms/${form.id}`, undefined, 204)
    expect((await atrium.request("GET", `/pm/v1/forms/${form.id}`, { token: w.owner.token })).status).toBe(404)
  })

  it("a whiteboard: comments written are read back from memory, and a rebuild gives the same board", async () => {
    const session = await w.call("POST", `/v1/workspaces/${w.workspaceId}/whiteboards`, { name: "Retro", spaceId: w.spaceId })
    const boardId = session.whiteboard.id as string
    const thread = await w.call("POST", `/v1/whiteboards/${boardId}/comments`, { elementId: "note-1", text: "Too many meetings" })
    const reply = await w.call("POST", `/v1/whiteboards/${boardId}/comments`, {
      elementId: "ignored",
      text: "Agreed",
      parentCommentId: thread.id
    })
    expect(reply.pin.elementId).toBe("note-1")
    const other = await w.call("POST", `/v1/whiteboards/${boardId}/comments`, { elementId: "note-2", text: "Ship faster" })
    await w.call("POST", `/v1/whiteboards/${boardId}/comments/${thread.id}/resolve`, { resolved: true }, 200)

    const resolved = await w.call("GET", `/v1/whiteboards/${boardId}/comments?resolved=true`)
    expect(resolved.items.map((c: { id: string }) => c.id)).toEqual([thread.id, reply.id])
    const edited = await w.call("PATCH", `/v1/whiteboards/${boardId}/comments/${other.id}`, { text: "Ship smaller" })
    expect(edited.text).toBe("Ship smaller")
    expect((await w.call("GET", `/v1/whiteboards/${boardId}/comments/${other.id}`)).text).toBe("Ship smaller")

    const statements = await sqlDuring(() => w.call("GET", `/v1/whiteboards/${boardId}/comments`))
    expect(statements.filter((s) => s.includes("pm_whiteboard"))).toEqual([])

    const { memory, rows } = await memoryAndRows(
      PmWhiteboard,
      boardId,
      Effect.all({ board: read(PmWhiteboard, boardId, "get", {}), comments: read(PmWhiteboard, boardId, "comments", {}) })
    )
    expect(memory).toEqual(rows)

    await w.call("DELETE", `/v1/whiteboards/${boardId}/comments/${thread.id}`, undefined, 204)
    const left = await w.call("GET", `/v1/whiteboards/${boardId}/comments`)
    expect(left.items.map((c: { id: string }) => c.id)).toEqual([other.id])
    await invalidate(PmWhiteboard, boardId)
    expect(await w.call("GET", `/v1/whiteboards/${boardId}/comments`)).toEqual(left)
  })

  it("a bulk job: the worker's progress shows in the job's status, and a rebuild gives the same job", async () => {
    const csv = ["Title", "One", "Two", "Three"].join("\n")
    const job = await w.call("POST", `/v1/lists/${w.listId}/imports/csv`, { csv, idempotencyKey: "read-model-1" }, 202)
    const again = await w.call("POST", `/v1/lists/${w.listId}/imports/csv`, { csv, idempotencyKey: "read-model-1" }, 202)
    expect(again.id).toBe(job.id)
    const done = await eventually(async () => {
      const got = await w.call("GET", `/v1/workspaces/${w.workspaceId}/bulk-jobs/${job.id}`)
      return got.status === "completed" ? got : undefined
    })
    expect(done).toMatchObject({ total: 3, processed: 3, succeeded: 3, failed: 0, progress: 1 })
    expect(await w.call("GET", `/v1/imports/${job.id}`)).toMatchObject(done)

    const statements = await sqlDuring(() => w.call("GET", `/v1/workspaces/${w.workspaceId}/bulk-jobs/${job.id}`))
    // (The worker polls for queued jobs meanwhile: only reads count.)
    expect(statements.filter((s) => s.trimStart().startsWith("SELECT") && s.includes("pm_bulk_jobs"))).toEqual([])

    const { memory, rows } = await memoryAndRows(PmBulkJob, job.id, read(PmBulkJob, job.id, "get", {}))
    expect(memory).toEqual(rows)
    expect(memory).toEqual(done)
  })
})
