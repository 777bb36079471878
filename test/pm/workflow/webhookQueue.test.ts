/**
 * pm's webhook queue keeps each (endpoint, entity) in change order: a lease
 * takes a run from the entity's oldest pending row, in order; while the head
 * is leased or waiting for its retry, nothing behind it is leased. (The
 * server's own delivery engine is idled by a long poll, so the test leases.)
 */
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { pmWebhookQueue } from "../../../actors/pmops/WebhookQueue.ts"
import type { Due, Settlement } from "../../../actors/webhooks/DeliveryEngine.ts"
import { type PmAtrium, startPmAtrium } from "../work/support/pmAtrium.ts"
import { workspaceWithList } from "./support.ts"

process.env.ATRIUM_ALLOW_PRIVATE_URLS = "1"
process.env.PM_WEBHOOK_POLL_MS = "100000000"

let atrium: PmAtrium
let w: Awaited<ReturnType<typeof workspaceWithList>>

beforeAll(async () => {
  atrium = await startPmAtrium()
  w = await workspaceWithList(atrium)
})
afterAll(() => atrium?.close())

const lease = () => atrium.run(pmWebhookQueue.claim(200, 60))
const seqOf = (due: Due) => (due.payload as { data: { seq: number } }).data.seq
const entityOf = (due: Due) => (due.payload as { data: { entityId: string } }).data.entityId
const settled = (kind: Settlement["kind"], retryInMs?: number): Settlement => ({
  kind,
  attempt: 1,
  statusCode: kind === "delivered" ? 200 : 503,
  error: null,
  durationMs: 1,
  ...(retryInMs === undefined ? {} : { retryInMs })
})

describe("pm webhook queue", () => {
  it("leases each entity's rows as one run in change order, and nothing behind a leased or waiting head", async () => {
    await w.call("POST", `/v1/workspaces/${w.workspaceId}/webhooks`, {
      url: "http://127.0.0.1:9/hook",
      eventTypes: ["task.created", "task.updated"]
    })
    const a = await w.call("POST", `/v1/lists/${w.listId}/tasks`, { name: "A" })
    const b = await w.call("POST", `/v1/lists/${w.listId}/tasks`, { name: "B" })
    await w.call("PATCH", `/v1/tasks/${a.id}`, { name: "A1" })
    await w.call("PATCH", `/v1/tasks/${a.id}`, { name: "A2" })

    const first = await lease()
    const ofA = first.filter((d) => entityOf(d) === a.id)
    expect(ofA).toHaveLength(3)
    expect(ofA.map(seqOf)).toEqual([...ofA.map(seqOf)].sort((x, y) => x - y))
    expect(new Set(ofA.map((d) => d.orderKey)).size).toBe(1)
    expect(first.filter((d) => entityOf(d) === b.id)).toHaveLength(1)
    expect(await lease()).toEqual([])

    // The head went out; the rest of A's run came back unsent; a new change joins behind them.
    await atrium.run(Effect.andThen(pmWebhookQueue.settle(ofA[0]!, settled("delivered")), pmWebhookQueue.release(ofA.slice(1))))
    await w.call("PATCH", `/v1/tasks/${a.id}`, { name: "A3" })
    const second = await lease()
    expect(second.map((d) => d.id).slice(0, 2)).toEqual(ofA.slice(1).map((d) => d.id))
    expect(second).toHaveLength(3)
    expect(second.every((d) => entityOf(d) === a.id)).toBe(true)

    // The head failed and waits for its retry: the rows behind it, free and due, stay where they are.
    await atrium.run(Effect.andThen(pmWebhookQueue.settle(second[0]!, settled("retry", 60_000)), pmWebhookQueue.release(second.slice(1))))
    expect(await lease()).toEqual([])
  })
})
