/**
 * Batched live streams (StreamBatcher) with the window forced long: a client
 * that asked for batch frames (`batch=1`, Socket.IO `auth.batch`) gets
 * several events per frame under load and still sees every seq of its
 * scopes exactly once, in order — across topics it follows together and
 * across a reconnect with `lastSeq` in the middle of a burst. Plain clients
 * are unchanged: one frame per event.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { signUp } from "../../support/atrium.ts"
import {
  createWorkspace,
  emit,
  type LiveAtrium,
  rawClient,
  seedList,
  seedSpace,
  seedTask,
  socketIoClient,
  startLiveAtrium,
  taskChange,
  ticketFor
} from "./support.ts"

let atrium: LiveAtrium
beforeAll(async () => {
  process.env.PM_STREAM_COALESCE_MS = "200"
  atrium = await startLiveAtrium()
})
afterAll(async () => {
  delete process.env.PM_STREAM_COALESCE_MS
  await atrium?.close()
})

const world = async () => {
  const owner = await signUp(atrium, "Owner")
  const workspaceId = await createWorkspace(atrium, owner.token)
  const spaceId = await seedSpace(atrium, workspaceId, owner.userId)
  const listA = await seedList(atrium, workspaceId, spaceId, owner.userId)
  const listB = await seedList(atrium, workspaceId, spaceId, owner.userId)
  const taskA = await seedTask(atrium, workspaceId, spaceId, listA, owner.userId)
  const taskB = await seedTask(atrium, workspaceId, spaceId, listB, owner.userId)
  return {
    owner,
    workspaceId,
    a: { spaceId, listId: listA, taskId: taskA },
    b: { spaceId, listId: listB, taskId: taskB }
  }
}

const connect = async (token: string, workspaceId: string, batch: boolean) => {
  const { url } = await ticketFor(atrium, { token }, workspaceId)
  const client = await rawClient(batch ? `${url}&batch=1` : url)
  await client.inbox.next((f) => f.type === "ready")
  return client
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i)

describe("batched streams", () => {
  it("sends a burst in fewer frames than events, every seq once and in order; plain clients get one frame per event", async () => {
    const { owner, workspaceId, a, b } = await world()
    const batched = await connect(owner.token, workspaceId, true)
    const plain = await connect(owner.token, workspaceId, false)
    await batched.subscribe("workspace", workspaceId)
    await plain.subscribe("workspace", workspaceId)
    for (let round = 0; round < 10; round++) {
      await emit(
        atrium,
        Array.from({ length: 10 }, (_, i) => taskChange(workspaceId, i % 3 === 0 ? b : a, owner.userId, { round, i }))
      )
    }
    await batched.inbox.next((f) => f.seq === 100)
    await plain.inbox.next((f) => f.seq === 100)
    expect(batched.inbox.events().map((e) => e.seq)).toEqual(range(1, 100))
    expect(batched.inbox.batches).toBeGreaterThan(0)
    expect(batched.inbox.batched).toBeGreaterThan(batched.inbox.batches)
    expect(plain.inbox.events()).toEqual(batched.inbox.events())
    expect(plain.inbox.batches).toBe(0)
    batched.close()
    plain.close()
  })

  it("keeps seq order across topics one socket follows together, each socket getting only its scopes", async () => {
    const { owner, workspaceId, a, b } = await world()
    const both = await connect(owner.token, workspaceId, true)
    await both.subscribe("list", a.listId)
    await both.subscribe("task", b.taskId)
    const onlyA = await connect(owner.token, workspaceId, true)
    await onlyA.subscribe("list", a.listId)
    const everything = await connect(owner.token, workspaceId, true)
    await everything.subscribe("workspace", workspaceId)
    // Interleaved within each transaction and across transactions: a, b, a, b …
    for (let round = 0; round < 6; round++) {
      await emit(
        atrium,
        Array.from({ length: 8 }, (_, i) => taskChange(workspaceId, i % 2 === 0 ? a : b, owner.userId, { round, i }))
      )
    }
    await both.inbox.next((f) => f.seq === 48)
    await onlyA.inbox.next((f) => f.seq === 47)
    expect(both.inbox.events().map((e) => e.seq)).toEqual(range(1, 48))
    expect(onlyA.inbox.events().map((e) => e.seq)).toEqual(range(1, 48).filter((seq) => seq % 2 === 1))
    // The list topics split where the burst alternates; the workspace topic batches it whole.
    await everything.inbox.next((f) => f.seq === 48)
    expect(everything.inbox.events().map((e) => e.seq)).toEqual(range(1, 48))
    expect(everything.inbox.batches).toBeGreaterThan(0)
    both.close()
    onlyA.close()
    everything.close()
  })

  it("across a reconnect with lastSeq in the middle of a burst: every seq exactly once, in order", async () => {
    const { owner, workspaceId, a, b } = await world()
    const first = await connect(owner.token, workspaceId, true)
    await first.subscribe("space", a.spaceId)
    let writing = true
    let written = 0
    const writer = (async () => {
      while (writing) {
        await emit(
          atrium,
          Array.from({ length: 5 }, (_, i) => taskChange(workspaceId, i % 2 === 0 ? a : b, owner.userId, { i }))
        )
        written += 5
        await new Promise((resolve) => setTimeout(resolve, 15))
      }
    })()
    await first.inbox.next((f) => typeof f.seq === "number" && f.seq >= 40, 20_000)
    first.close()
    await first.closed
    const seen = first.inbox.events().map((e) => e.seq)
    // The writer keeps going while the client is away and while it resubscribes.
    await new Promise((resolve) => setTimeout(resolve, 100))
    const second = await connect(owner.token, workspaceId, true)
    await second.subscribe("space", a.spaceId, seen[seen.length - 1])
    await second.inbox.next((f) => typeof f.seq === "number" && f.seq >= seen[seen.length - 1]! + 60, 20_000)
    writing = false
    await writer
    await second.inbox.next((f) => f.seq === written, 20_000)
    const all = [...seen, ...second.inbox.events().map((e) => e.seq)]
    expect(all).toEqual(range(1, written))
    expect(second.inbox.batches).toBeGreaterThan(0)
    second.close()
  }, 60_000)

  it("Socket.IO with batch: the same events as the raw socket, batched too", async () => {
    const { owner, workspaceId, a, b } = await world()
    const raw = await connect(owner.token, workspaceId, true)
    await raw.subscribe("space", a.spaceId)
    const sio = await socketIoClient(atrium.origin, (await ticketFor(atrium, { token: owner.token }, workspaceId)).ticket, true)
    await sio.inbox.next((f) => f.type === "ready")
    await sio.subscribe("space", a.spaceId)
    for (let round = 0; round < 5; round++) {
      await emit(
        atrium,
        Array.from({ length: 6 }, (_, i) => taskChange(workspaceId, i % 2 === 0 ? a : b, owner.userId, { round, i }))
      )
    }
    await raw.inbox.next((f) => f.seq === 30)
    await sio.inbox.next((f) => f.seq === 30)
    expect(sio.inbox.events().map((e) => e.seq)).toEqual(range(1, 30))
    expect(sio.inbox.events()).toEqual(raw.inbox.events())
    expect(sio.inbox.batches).toBeGreaterThan(0)
    raw.close()
    sio.close()
  })
})
