/**
 * Two nodes sharing one PostgreSQL database and one NATS: a ticket issued on
 * one node opens a socket on the other (once), a change made through one
 * node reaches subscribers on the other in order, and a batch that never
 * crossed NATS is found by the periodic comparison with the log.
 * Needs PostgreSQL and NATS (skipped loudly without them, failed with ATRIUM_REQUIRE_SERVICES=1).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { append } from "../../../actors/pm/ChangeLogLive.ts"
import { Sql } from "../../../persistence/Sql.ts"
import { signUp } from "../../support/atrium.ts"
import { checkPostgres, createTestDatabase, type TestDatabase } from "../../support/database.ts"
import { checkNats, natsUrl, testPrefix } from "../../support/nats.ts"
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

const available = (await checkPostgres("pm live streams across nodes")) && (await checkNats("pm live streams across nodes"))

describe.skipIf(!available)("live streams across two nodes (PostgreSQL + NATS)", () => {
  let database: TestDatabase
  let nodeA: LiveAtrium
  let nodeB: LiveAtrium
  beforeAll(async () => {
    database = await createTestDatabase()
    const shared = { databaseUrl: database.url, natsUrl: natsUrl(), natsPrefix: testPrefix() }
    // Node A never sweeps during the tests (what it gets came over NATS); node B sweeps often.
    process.env.PM_STREAM_SWEEP_MS = "600000"
    nodeA = await startLiveAtrium(shared)
    process.env.PM_STREAM_SWEEP_MS = "300"
    nodeB = await startLiveAtrium(shared)
  })
  afterAll(async () => {
    delete process.env.PM_STREAM_SWEEP_MS
    await nodeA?.close()
    await nodeB?.close()
    await database?.drop()
  })

  const world = async () => {
    const owner = await signUp(nodeA, "Owner")
    const workspaceId = await createWorkspace(nodeA, owner.token)
    const spaceId = await seedSpace(nodeA, workspaceId, owner.userId)
    const listId = await seedList(nodeA, workspaceId, spaceId, owner.userId)
    const taskId = await seedTask(nodeA, workspaceId, spaceId, listId, owner.userId)
    return { owner, workspaceId, where: { spaceId, listId, taskId } }
  }

  it("a ticket issued on node A opens a socket on node B, once", async () => {
    const { owner, workspaceId } = await world()
    const issued = await ticketFor(nodeA, { token: owner.token }, workspaceId)
    const onB = issued.url.replace(`:${nodeA.port}/`, `:${nodeB.port}/`)
    const client = await rawClient(onB)
    expect(await client.inbox.next((f) => f.type === "ready")).toMatchObject({ workspaceId, userId: owner.userId })
    expect((await (await rawClient(issued.url)).closed).code).toBe(4401)
    client.close()
  })

  it("delivers changes made through node B to subscribers on node A, in order, on both transports", async () => {
    const { owner, workspaceId, where } = await world()
    const raw = await rawClient((await ticketFor(nodeA, { token: owner.token }, workspaceId)).url)
    await raw.inbox.next((f) => f.type === "ready")
    await raw.subscribe("workspace", workspaceId)
    const sio = await socketIoClient(nodeA.origin, (await ticketFor(nodeA, { token: owner.token }, workspaceId)).ticket)
    await sio.subscribe("task", where.taskId)
    await Promise.all(Array.from({ length: 10 }, (_, i) => emit(nodeB, [taskChange(workspaceId, where, owner.userId, { i })])))
    await emit(nodeA, [taskChange(workspaceId, where, owner.userId, { local: true })])
    await raw.inbox.next((f) => f.seq === 11)
    await sio.inbox.next((f) => f.seq === 11)
    expect(raw.inbox.events().map((e) => e.seq)).toEqual(Array.from({ length: 11 }, (_, i) => i + 1))
    expect(sio.inbox.events()).toEqual(raw.inbox.events())
    raw.close()
    sio.close()
  })

  it("finds a batch that never crossed NATS by comparing with the log", async () => {
    const { owner, workspaceId, where } = await world()
    const client = await rawClient((await ticketFor(nodeB, { token: owner.token }, workspaceId)).url)
    await client.inbox.next((f) => f.type === "ready")
    await client.subscribe("list", where.listId)
    // Appended on node A without publishing: as if the NATS message were lost.
    await nodeA.run(
      Sql.use((sql) => sql.transaction(append([taskChange(workspaceId, where, owner.userId, { lost: true })], { retention: 1000 }, [])))
    )
    const recovered = await client.inbox.next((f) => f.seq === 1, 10_000)
    expect(recovered.data).toEqual({ lost: true })
    await emit(nodeA, [taskChange(workspaceId, where, owner.userId, { next: true })])
    await client.inbox.next((f) => f.seq === 2)
    expect(client.inbox.events().map((e) => e.seq)).toEqual([1, 2])
    client.close()
  })
})
