/**
 * Group commit of the task and list actors: updates queued on one task, and
 * creates queued on one list, commit in one transaction, each caller answered
 * with its own outcome; a refused one (before or after it wrote) is answered
 * alone and leaves nothing behind, the others apply; after the answers a read
 * shows every acknowledged write.
 */
import { Effect, Exit } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { send } from "../../../actors/pm/WorkActor.ts"
import { PmList, PmTask } from "../../../actors/pm/WorkActors.ts"
import { checkPostgres, createTestDatabase, type TestDatabase } from "../../support/database.ts"
import { expectStatus, type PmAtrium, setupWorkspace, startPmAtrium } from "./support/pmAtrium.ts"

const postgres = await checkPostgres("pm group commit on PostgreSQL")

for (const backend of ["pglite", "postgres"] as const) {
  describe.skipIf(backend === "postgres" && !postgres)(`group commit on ${backend}`, () => {
    let database: TestDatabase | undefined
    let atrium: PmAtrium
    let w: Awaited<ReturnType<typeof setupWorkspace>>
    let space: any
    beforeAll(async () => {
      database = backend === "postgres" ? await createTestDatabase() : undefined
      atrium = await startPmAtrium(database === undefined ? {} : { databaseUrl: database.url })
      w = await setupWorkspace(atrium)
      space = await call("POST", `/workspaces/${w.workspaceId}/spaces`, { name: "Group commit" }, 201)
    })
    afterAll(async () => {
      await atrium?.close()
      await database?.drop()
    })

    async function call(method: string, path: string, body?: unknown, status = 200) {
      const response = await atrium.request(
        method,
        `/pm/v1${path}`,
        body === undefined ? { token: w.member.token } : { token: w.member.token, body }
      )
      return expectStatus(response, status)
    }
    const newList = (name: string) => call("POST", `/spaces/${space.id}/lists`, { name }, 201)

    /** How many transactions wrote the events of `type` on `entityIds` after `afterSeq` (rows of one transaction share its xmin). */
    const transactions = async (type: string, entityIds: ReadonlyArray<string>, afterSeq: number) => {
      const [row] = await atrium.sql<{ n: number }>(
        `SELECT count(DISTINCT xmin::text)::int AS n FROM pm_events WHERE workspace_id = $1 AND type = $2 AND entity_id = ANY($3::text[]) AND seq > $4`,
        [w.workspaceId, type, entityIds, afterSeq]
      )
      return row!.n
    }
    const lastSeq = async () => (await atrium.changes(w.workspaceId)).at(-1)?.seq ?? 0

    describe("updates of one task", () => {
      it("queued together commit in one transaction, each answered with its own result", async () => {
        const list = await newList("Updates")
        const task = await call("POST", `/lists/${list.id}/tasks`, { name: "Hot" }, 201)
        const since = await lastSeq()
        const sent = Array.from({ length: 12 }, (_, i) => `edit ${i}`)
        const replies = await atrium.run(
          Effect.all(
            sent.map((description) => send(PmTask, task.id, "update", w.member.userId, { description })),
            { concurrency: "unbounded" }
          )
        )
        // Each caller gets the task as its own update left it.
        expect(replies.map((r) => r.description)).toEqual(sent)
        expect(replies.map((r) => r.version).sort((a, b) => a - b)).toEqual(sent.map((_, i) => task.version + 1 + i))
        const last = replies.reduce((a, b) => (a.version > b.version ? a : b))
        const read = await call("GET", `/tasks/${task.id}`)
        expect(read).toMatchObject({ version: task.version + 12, description: last.description })
        const logged = (await atrium.changes(w.workspaceId, "task.updated")).filter((c) => c.entityId === task.id)
        expect(logged.map((c) => c.data.description)).toEqual([...replies].sort((a, b) => a.version - b.version).map((r) => r.description))
        // Queued behind the first one, the others shared transactions.
        expect(await transactions("task.updated", [task.id], since)).toBeLessThan(12)
      })

      it("a refused update is answered alone, with nothing of it kept; the others apply", async () => {
        const list = await newList("Refusals")
        const task = await call("POST", `/lists/${list.id}/tasks`, { name: "Contested" }, 201)
        const patches = [
          { description: "first" },
          // Refused before it writes anything.
          { status: "no such status" },
          { description: "second" },
          // Refused after it wrote: its new tag is created before its unknown field is found.
          { tagNames: ["half-applied"], customFields: { "no such field": 1 } },
          { description: "third" },
          { priority: "high" as const }
        ]
        const outcomes = await atrium.run(
          Effect.all(
            patches.map((patch) => Effect.exit(send(PmTask, task.id, "update", w.member.userId, patch))),
            { concurrency: "unbounded" }
          )
        )
        expect(outcomes.map((o) => (Exit.isSuccess(o) ? "ok" : "refused"))).toEqual(["ok", "refused", "ok", "refused", "ok", "ok"])
        expect(outcomes[1]).toMatchObject({ cause: { reasons: [{ error: { _tag: "UnknownStatus" } }] } })
        expect(outcomes[3]).toMatchObject({ cause: { reasons: [{ error: { _tag: "UnknownCustomField" } }] } })
        const read = await call("GET", `/tasks/${task.id}`)
        expect(read).toMatchObject({ version: task.version + 4, description: "third", priority: "high", tags: [] })
        const tags = await atrium.sql(`SELECT id FROM pm_tags WHERE space_id = $1 AND name = 'half-applied'`, [space.id])
        expect(tags).toEqual([])
        const logged = (await atrium.changes(w.workspaceId, "task.updated")).filter((c) => c.entityId === task.id)
        expect(logged.map((c) => c.data.version)).toEqual([1, 2, 3, 4].map((n) => task.version + n))
      })

      it("over HTTP: concurrent PATCHes all acknowledged, each with its own body, and a read shows them all", async () => {
        const list = await newList("HTTP updates")
        const task = await call("POST", `/lists/${list.id}/tasks`, { name: "Busy" }, 201)
        const responses = await Promise.all(
          Array.from({ length: 16 }, (_, i) =>
            atrium.request("PATCH", `/pm/v1/tasks/${task.id}`, {
              token: w.member.token,
              body: i === 7 ? { startDate: "2026-12-02", dueDate: "2026-12-01" } : { description: `http ${i}` }
            })
          )
        )
        expect(responses.map((r) => r.status)).toEqual(Array.from({ length: 16 }, (_, i) => (i === 7 ? 400 : 200)))
        for (const [i, response] of responses.entries()) if (i !== 7) expect(response.body.description).toBe(`http ${i}`)
        expect(new Set(responses.filter((r) => r.status === 200).map((r) => r.body.version)).size).toBe(15)
        const read = await call("GET", `/tasks/${task.id}`)
        expect(read.version).toBe(task.version + 15)
        expect(read.startDate).toBeNull()
        const latest = responses.filter((r) => r.status === 200).reduce((a, b) => (a.body.version > b.body.version ? a : b))
        expect(read.description).toBe(latest.body.description)
      })
    })

    describe("creates in one list", () => {
      it("queued together are inserted together, each answered with its own task; a refused one alone", async () => {
        const list = await newList("Creates")
        const parent = await call("POST", `/lists/${list.id}/tasks`, { name: "Parent" }, 201)
        const since = await lastSeq()
        const inputs = [
          ...Array.from({ length: 10 }, (_, i) => ({ name: `plain ${i}` })),
          { name: "refused", status: "no such status" },
          { name: "assigned", assigneeIds: [w.owner.userId], tagNames: ["grouped"], priority: "urgent" as const },
          { name: "child", parentTaskId: parent.id },
          { name: "done already", status: "done" }
        ]
        const outcomes = await atrium.run(
          Effect.all(
            inputs.map((input) => Effect.exit(send(PmList, list.id, "createTask", w.member.userId, input))),
            { concurrency: "unbounded" }
          )
        )
        expect(outcomes.map((o) => Exit.isSuccess(o))).toEqual(inputs.map((input) => input.name !== "refused"))
        expect(outcomes[10]).toMatchObject({ cause: { reasons: [{ error: { _tag: "UnknownStatus" } }] } })
        const created = outcomes.flatMap((o) => (Exit.isSuccess(o) ? [o.value] : []))
        expect(created.map((t) => t.name)).toEqual(inputs.filter((i) => i.name !== "refused").map((i) => i.name))
        expect(new Set(created.map((t) => t.shortId)).size).toBe(created.length)
        expect(new Set(created.map((t) => t.position)).size).toBe(created.length)
        // Each answer is the task as a read shows it.
        for (const task of created) expect(await call("GET", `/tasks/${task.id}`)).toEqual(task)
        const assigned = created.find((t) => t.name === "assigned")!
        expect(assigned).toMatchObject({ priority: "urgent", assignees: [{ id: w.owner.userId }], tags: [{ name: "grouped" }] })
        expect(created.find((t) => t.name === "child")!.parentTaskId).toBe(parent.id)
        expect(created.find((t) => t.name === "done already")!.closedAt).not.toBeNull()
        expect((await call("GET", `/tasks/${parent.id}`)).subtaskCount).toBe(1)
        const listed = await call("GET", `/lists/${list.id}/tasks?limit=50`)
        expect(listed.total).toBe(created.length + 1)
        expect(await atrium.sql(`SELECT id FROM pm_tasks WHERE list_id = $1 AND name = 'refused'`, [list.id])).toEqual([])
        const logged = (await atrium.changes(w.workspaceId, "task.created")).filter((c) => c.seq > since)
        expect(logged.map((c) => c.entityId).sort()).toEqual(created.map((t) => t.id).sort())
        expect(
          await transactions(
            "task.created",
            created.map((t) => t.id),
            since
          )
        ).toBeLessThan(created.length)
      })

      it("over HTTP: concurrent POSTs all acknowledged with unique short ids, and the list shows every one", async () => {
        const list = await newList("HTTP creates")
        const responses = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            atrium.request("POST", `/pm/v1/lists/${list.id}/tasks`, { token: w.member.token, body: { name: `post ${i}` } })
          )
        )
        expect(responses.map((r) => r.status)).toEqual(Array(20).fill(201))
        expect(responses.map((r) => r.body.name)).toEqual(Array.from({ length: 20 }, (_, i) => `post ${i}`))
        expect(new Set(responses.map((r) => r.body.shortId)).size).toBe(20)
        const listed = await call("GET", `/lists/${list.id}/tasks?limit=50`)
        expect(listed.items.map((t: { id: string }) => t.id).sort()).toEqual(responses.map((r) => r.body.id).sort())
      })
    })
  })
}
