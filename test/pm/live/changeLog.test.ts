/**
 * The ChangeLog: one transaction for the change and its events, a gap-free
 * per-workspace seq even under concurrency, notifications persisted (members
 * only, never the actor, muted reasons honoured), nothing logged or published
 * on rollback, nested transact joins the outer one, bounded retention.
 */
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ChangeFeed, type FeedBatch } from "../../../actors/pm/ChangeFeed.ts"
import { ChangeLog } from "../../../actors/pm/ChangeLog.ts"
import { query } from "../../../persistence/Sql.ts"
import { signUp } from "../../support/atrium.ts"
import { addMember, createWorkspace, emit, type LiveAtrium, seedList, seedSpace, seedTask, startLiveAtrium, taskChange } from "./support.ts"

let atrium: LiveAtrium
const published: Array<FeedBatch> = []
beforeAll(async () => {
  process.env.PM_EVENT_RETENTION = "40"
  atrium = await startLiveAtrium()
  await atrium.run(ChangeFeed.use((feed) => Effect.sync(() => feed.listen({ batch: (b) => published.push(b), reconnected: () => {} }))))
})
afterAll(async () => {
  delete process.env.PM_EVENT_RETENTION
  await atrium?.close()
})

const setup = async () => {
  const owner = await signUp(atrium, "Owner")
  const bob = await signUp(atrium, "Bob")
  const outsider = await signUp(atrium, "Outsider")
  const workspaceId = await createWorkspace(atrium, owner.token)
  await addMember(atrium, owner.token, workspaceId, bob.email)
  const spaceId = await seedSpace(atrium, workspaceId, owner.userId)
  const listId = await seedList(atrium, workspaceId, spaceId, owner.userId)
  const taskId = await seedTask(atrium, workspaceId, spaceId, listId, owner.userId)
  return { owner, bob, outsider, workspaceId, where: { spaceId, listId, taskId } }
}

const seqsOf = (workspaceId: string) =>
  atrium.run(
    Effect.map(query<{ seq: number }>("SELECT seq FROM pm_events WHERE workspace_id = $1 ORDER BY seq", [workspaceId]), (rows) =>
      rows.map((r) => Number(r.seq))
    )
  )

describe("ChangeLog.transact", () => {
  it("logs every change with consecutive seqs, returns the body's result and publishes after commit", async () => {
    const { owner, workspaceId, where } = await setup()
    const before = published.length
    const result = await atrium.run(
      ChangeLog.use((log) =>
        log.transact(
          Effect.gen(function* () {
            yield* query("UPDATE pm_tasks SET name = 'Renamed' WHERE id = $1", [where.taskId])
            return {
              result: "done",
              changes: [
                taskChange(workspaceId, where, owner.userId, { name: "Renamed" }),
                {
                  workspaceId,
                  scope: "list" as const,
                  entityId: where.listId,
                  path: { spaceId: where.spaceId },
                  type: "list.updated",
                  data: { n: 1 },
                  actorId: owner.userId
                }
              ]
            }
          })
        )
      )
    )
    expect(result).toBe("done")
    expect(await seqsOf(workspaceId)).toEqual([1, 2])
    const batch = published.slice(before).find((b) => b.workspaceId === workspaceId)!
    expect(batch.lastSeq).toBe(2)
    expect(batch.events!.map((e) => [e.seq, e.type])).toEqual([
      [1, "task.updated"],
      [2, "list.updated"]
    ])
    // The list event's path is completed with its own id, as replays from the log will show it.
    expect(batch.events![1]!.path).toEqual({ spaceId: where.spaceId, listId: where.listId })
  })

  it("rolls back the change and its events together, publishing nothing", async () => {
    const { owner, workspaceId, where } = await setup()
    const before = published.length
    const failed = await atrium.run(
      ChangeLog.use((log) =>
        log.transact(
          Effect.gen(function* () {
            yield* query("UPDATE pm_tasks SET name = 'Lost' WHERE id = $1", [where.taskId])
            return yield* Effect.fail("refused" as const)
          })
        )
      ).pipe(Effect.flip)
    )
    expect(failed).toBe("refused")
    expect(await seqsOf(workspaceId)).toEqual([])
    expect(published.length).toBe(before)
    const name = await atrium.run(query<{ name: string }>("SELECT name FROM pm_tasks WHERE id = $1", [where.taskId]))
    expect(name[0]!.name).toBe("Task")
    // A later change still starts at 1: the counter rolled back too.
    await emit(atrium, [taskChange(workspaceId, where, owner.userId)])
    expect(await seqsOf(workspaceId)).toEqual([1])
  })

  it("keeps seqs gap-free and unique under concurrent writers", async () => {
    const { owner, workspaceId, where } = await setup()
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        emit(atrium, [
          taskChange(workspaceId, where, owner.userId, { i }),
          taskChange(workspaceId, where, owner.userId, { i, second: true })
        ])
      )
    )
    expect(await seqsOf(workspaceId)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1))
  })

  it("joins an outer transact and publishes once, after the outer commit", async () => {
    const { owner, workspaceId, where } = await setup()
    const before = published.length
    await atrium.run(
      ChangeLog.use((log) =>
        log.transact(
          Effect.gen(function* () {
            yield* log.transact(Effect.succeed({ result: 1, changes: [taskChange(workspaceId, where, owner.userId, {}, "inner")] }))
            expect(published.length).toBe(before)
            return { result: 2, changes: [taskChange(workspaceId, where, owner.userId, {}, "outer")] }
          })
        )
      )
    )
    const mine = published.slice(before).filter((b) => b.workspaceId === workspaceId)
    expect(mine.flatMap((b) => b.events!.map((e) => `${e.seq}:${e.type}`))).toEqual(["1:inner", "2:outer"])
  })

  it("persists notifications for members other than the actor, honouring muted reasons", async () => {
    const { owner, bob, outsider, workspaceId, where } = await setup()
    const title = "Owner assigned you to Task"
    await emit(atrium, [
      {
        ...taskChange(workspaceId, where, owner.userId, { assigneeIds: [bob.userId] }),
        notify: [
          { userId: bob.userId, reason: "assigned", title },
          { userId: owner.userId, reason: "assigned", title },
          { userId: outsider.userId, reason: "assigned", title }
        ]
      }
    ])
    const rows = await atrium.run(
      query<{ user_id: string; reason: string; event_seq: number }>(
        "SELECT user_id, reason, event_seq FROM pm_notifications WHERE workspace_id = $1",
        [workspaceId]
      )
    )
    expect(rows.map((r) => [r.user_id, r.reason, Number(r.event_seq)])).toEqual([[bob.userId, "assigned", 1]])
    // Bob mutes "assigned": the next one is not created, "mentioned" still is.
    const muted = await atrium.request("PATCH", "/pm/v1/users/me/settings/notifications", {
      token: bob.token,
      body: { reasons: { assigned: false } }
    })
    expect(muted.status).toBe(200)
    await emit(atrium, [{ ...taskChange(workspaceId, where, owner.userId), notify: [{ userId: bob.userId, reason: "assigned", title }] }])
    await emit(atrium, [
      {
        ...taskChange(workspaceId, where, owner.userId),
        notify: [{ userId: bob.userId, reason: "mentioned", title: "Owner mentioned you" }]
      }
    ])
    const after = await atrium.run(
      query<{ reason: string }>("SELECT reason FROM pm_notifications WHERE workspace_id = $1 ORDER BY event_seq", [workspaceId])
    )
    expect(after.map((r) => r.reason)).toEqual(["assigned", "mentioned"])
  })

  it("keeps the log bounded per workspace", async () => {
    const { owner, workspaceId, where } = await setup()
    for (let i = 0; i < 6; i++)
      await emit(
        atrium,
        Array.from({ length: 20 }, () => taskChange(workspaceId, where, owner.userId))
      )
    const seqs = await seqsOf(workspaceId)
    expect(seqs[seqs.length - 1]).toBe(120)
    expect(seqs.length).toBeGreaterThanOrEqual(40)
    expect(seqs.length).toBeLessThan(60)
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => 121 - seqs.length + i))
  })

  it("refuses a malformed change as a defect (a programming error), logging nothing", async () => {
    const { owner, workspaceId, where } = await setup()
    const exit = await atrium.run(
      Effect.exit(
        ChangeLog.use((log) =>
          log.transact(
            Effect.succeed({ result: 0, changes: [{ ...taskChange(workspaceId, where, owner.userId), scope: "galaxy" as never }] })
          )
        )
      )
    )
    expect(exit._tag).toBe("Failure")
    expect(await seqsOf(workspaceId)).toEqual([])
  })
})
