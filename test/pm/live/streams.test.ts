/**
 * Live update streams on one node: tickets (single use, expiry, workspace
 * binding), scope authorization, no cross-workspace leaks, private spaces,
 * replay with lastSeq, resync when the log no longer has it, slow consumers
 * cut off, malformed frames, and the raw socket and Socket.IO seeing the same
 * events.
 */
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { query } from "../../../persistence/Sql.ts"
import { signUp } from "../../support/atrium.ts"
import {
  addMember,
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
  process.env.PM_EVENT_RETENTION = "40"
  process.env.PM_STREAM_MAX_BACKPRESSURE = String(256 * 1024)
  process.env.PM_STREAM_REVALIDATE_MS = "250"
  atrium = await startLiveAtrium()
})
afterAll(async () => {
  delete process.env.PM_EVENT_RETENTION
  delete process.env.PM_STREAM_MAX_BACKPRESSURE
  delete process.env.PM_STREAM_REVALIDATE_MS
  await atrium?.close()
})

const world = async () => {
  const owner = await signUp(atrium, "Owner")
  const member = await signUp(atrium, "Member")
  const workspaceId = await createWorkspace(atrium, owner.token)
  await addMember(atrium, owner.token, workspaceId, member.email)
  const spaceId = await seedSpace(atrium, workspaceId, owner.userId)
  const listId = await seedList(atrium, workspaceId, spaceId, owner.userId)
  const taskId = await seedTask(atrium, workspaceId, spaceId, listId, owner.userId)
  return { owner, member, workspaceId, where: { spaceId, listId, taskId } }
}

const connect = async (token: string, workspaceId: string) => {
  const client = await rawClient((await ticketFor(atrium, { token }, workspaceId)).url)
  await client.inbox.next((f) => f.type === "ready")
  return client
}

describe("tickets", () => {
  it("opens a socket once: a reused ticket is refused with 4401", async () => {
    const { owner, workspaceId } = await world()
    const issued = await ticketFor(atrium, { token: owner.token }, workspaceId)
    expect(issued.url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/pm\/v1\/ws\?ticket=wst_/)
    expect(Date.parse(issued.expiresAt) - Date.now()).toBeLessThanOrEqual(31_000)
    const first = await rawClient(issued.url)
    const ready = await first.inbox.next((f) => f.type === "ready")
    expect(ready).toMatchObject({ workspaceId, userId: owner.userId, seq: 0 })
    const again = await rawClient(issued.url)
    expect((await again.closed).code).toBe(4401)
    first.close()
  })

  it("refuses an expired ticket, a made-up one and none at all", async () => {
    const { owner, workspaceId } = await world()
    const issued = await ticketFor(atrium, { token: owner.token }, workspaceId)
    await atrium.run(query("UPDATE pm_ws_tickets SET expires_at = now() - interval '1 second' WHERE user_id = $1", [owner.userId]))
    expect((await (await rawClient(issued.url)).closed).code).toBe(4401)
    const base = issued.url.split("?")[0]!
    expect((await (await rawClient(`${base}?ticket=wst_${"A".repeat(43)}`)).closed).code).toBe(4401)
    expect((await (await rawClient(base)).closed).code).toBe(4401)
  })

  it("binds tickets to a workspace the caller may see, for JWTs and API keys with events:subscribe", async () => {
    const { owner, member, workspaceId } = await world()
    const stranger = await signUp(atrium, "Stranger")
    expect((await atrium.request("POST", "/pm/v1/ws/ticket", { token: stranger.token, body: { workspaceId } })).status).toBe(404)
    expect((await atrium.request("POST", "/pm/v1/ws/ticket", { body: { workspaceId } })).status).toBe(401)
    const other = await createWorkspace(atrium, owner.token, "Other")
    const mint = async (scopes: Array<string>) =>
      (await atrium.request("POST", "/hub/v1/api-keys", { token: owner.token, body: { workspaceId, name: "bot", scopes } })).body
        .key as string
    const key = await mint(["events:subscribe"])
    const viaKey = await atrium.request("POST", "/pm/v1/ws/ticket", { apiKey: key, body: { workspaceId } })
    expect(viaKey.status).toBe(201)
    expect((await atrium.request("POST", "/pm/v1/ws/ticket", { apiKey: key, body: { workspaceId: other } })).status).toBe(404)
    expect((await atrium.request("POST", "/pm/v1/ws/ticket", { apiKey: await mint(["tasks:read"]), body: { workspaceId } })).status).toBe(
      403
    )
    const client = await rawClient(viaKey.body.url)
    expect(await client.inbox.next((f) => f.type === "ready")).toMatchObject({ workspaceId, userId: owner.userId })
    client.close()
    // A ticket of a key revoked before it is used is refused.
    const created = await atrium.request("POST", "/hub/v1/api-keys", {
      token: owner.token,
      body: { workspaceId, name: "short-lived", scopes: ["events:subscribe"] }
    })
    const pending = await atrium.request("POST", "/pm/v1/ws/ticket", { apiKey: created.body.key, body: { workspaceId } })
    expect((await atrium.request("DELETE", `/hub/v1/api-keys/${created.body.id}`, { token: owner.token })).status).toBe(204)
    expect((await (await rawClient(pending.body.url)).closed).code).toBe(4401)
    // A member removed after getting a ticket cannot use it.
    const ticket = await ticketFor(atrium, { token: member.token }, workspaceId)
    expect(
      (await atrium.request("DELETE", `/hub/v1/workspaces/${workspaceId}/members/${member.userId}`, { token: owner.token })).status
    ).toBe(204)
    expect((await (await rawClient(ticket.url)).closed).code).toBe(4403)
  })
})

describe("subscriptions", () => {
  it("refuses scopes of another workspace, unknown ids and private spaces the caller is not in", async () => {
    const { owner, member, workspaceId, where } = await world()
    const elsewhere = await world()
    const privateSpace = await seedSpace(atrium, workspaceId, owner.userId, { isPrivate: true, members: [owner.userId] })
    const client = await connect(member.token, workspaceId)
    for (const [scope, id] of [
      ["workspace", elsewhere.workspaceId],
      ["space", elsewhere.where.spaceId],
      ["list", elsewhere.where.listId],
      ["task", elsewhere.where.taskId],
      ["space", privateSpace],
      ["task", crypto.randomUUID()]
    ] as const) {
      expect(await client.subscribe(scope, id)).toMatchObject({ type: "error", code: "not_found", scope, id })
    }
    expect(await client.subscribe("list", where.listId)).toMatchObject({ type: "subscribed", seq: 0 })
    // The owner (an admin) sees the private space.
    const admin = await connect(owner.token, workspaceId)
    expect(await admin.subscribe("space", privateSpace)).toMatchObject({ type: "subscribed" })
    client.close()
    admin.close()
  })

  it("delivers a workspace's events to its subscribers only, in seq order, once per connection", async () => {
    const a = await world()
    const b = await world()
    const clientA = await connect(a.owner.token, a.workspaceId)
    const clientB = await connect(b.owner.token, b.workspaceId)
    await clientA.subscribe("workspace", a.workspaceId)
    await clientA.subscribe("task", a.where.taskId) // covered by the workspace subscription: no duplicates
    // Client B tries to follow A's entities: refused, and it sees none of A's events.
    expect((await clientB.subscribe("task", a.where.taskId)).type).toBe("error")
    await clientB.subscribe("workspace", b.workspaceId)
    for (let i = 1; i <= 3; i++) await emit(atrium, [taskChange(a.workspaceId, a.where, a.owner.userId, { i })])
    await emit(atrium, [taskChange(b.workspaceId, b.where, b.owner.userId, { marker: true })])
    await clientA.inbox.next((f) => f.seq === 3)
    await clientB.inbox.next((f) => f.seq === 1 && f.data.marker === true)
    expect(clientA.inbox.events().map((e) => e.seq)).toEqual([1, 2, 3])
    expect(clientA.inbox.events().every((e) => e.workspaceId === a.workspaceId)).toBe(true)
    expect(clientB.inbox.events().every((e) => e.workspaceId === b.workspaceId)).toBe(true)
    expect(clientA.inbox.events()[0]).toEqual({
      seq: 1,
      type: "task.updated",
      workspaceId: a.workspaceId,
      scope: "task",
      entityId: a.where.taskId,
      path: a.where,
      data: { i: 1 },
      actorId: a.owner.userId,
      at: expect.any(String)
    })
    clientA.close()
    clientB.close()
  })

  it("hides private-space events from workspace subscribers outside the space", async () => {
    const { owner, member, workspaceId } = await world()
    const insider = await signUp(atrium, "Insider")
    await addMember(atrium, owner.token, workspaceId, insider.email)
    const spaceId = await seedSpace(atrium, workspaceId, owner.userId, { isPrivate: true, members: [insider.userId] })
    const listId = await seedList(atrium, workspaceId, spaceId, owner.userId)
    const taskId = await seedTask(atrium, workspaceId, spaceId, listId, owner.userId)
    const clients = {
      owner: await connect(owner.token, workspaceId),
      member: await connect(member.token, workspaceId),
      insider: await connect(insider.token, workspaceId)
    }
    for (const client of Object.values(clients)) await client.subscribe("workspace", workspaceId)
    await emit(atrium, [taskChange(workspaceId, { spaceId, listId, taskId }, owner.userId, { secret: true })])
    await emit(atrium, [
      {
        workspaceId,
        scope: "workspace",
        entityId: workspaceId,
        path: {},
        type: "workspace.updated",
        data: { marker: true },
        actorId: owner.userId
      }
    ])
    for (const client of Object.values(clients)) await client.inbox.next((f) => f.data?.marker === true)
    expect(clients.owner.inbox.events().map((e) => e.seq)).toEqual([1, 2])
    expect(clients.insider.inbox.events().map((e) => e.seq)).toEqual([1, 2])
    expect(clients.member.inbox.events().map((e) => e.seq)).toEqual([2])
    // Replays apply the same rule.
    const late = await connect(member.token, workspaceId)
    await late.subscribe("workspace", workspaceId, 0)
    expect(late.inbox.events().map((e) => e.seq)).toEqual([2])
    for (const client of [...Object.values(clients), late]) client.close()
  })

  it("replays what a reconnecting client missed, from its lastSeq", async () => {
    const { owner, workspaceId, where } = await world()
    const first = await connect(owner.token, workspaceId)
    await first.subscribe("list", where.listId)
    await emit(atrium, [taskChange(workspaceId, where, owner.userId, { n: 1 })])
    const seen = await first.inbox.next((f) => f.seq === 1)
    first.close()
    await first.closed
    // Missed while away: two in the list, one elsewhere in the workspace.
    const otherList = await seedList(atrium, workspaceId, where.spaceId, owner.userId)
    await emit(atrium, [taskChange(workspaceId, where, owner.userId, { n: 2 })])
    await emit(atrium, [
      {
        workspaceId,
        scope: "list",
        entityId: otherList,
        path: { spaceId: where.spaceId },
        type: "list.updated",
        data: {},
        actorId: owner.userId
      }
    ])
    await emit(atrium, [taskChange(workspaceId, where, owner.userId, { n: 3 })])
    const second = await connect(owner.token, workspaceId)
    const subscribed = await second.subscribe("list", where.listId, seen.seq)
    expect(subscribed).toMatchObject({ type: "subscribed", seq: 4 })
    expect(second.inbox.events().map((e) => [e.seq, e.data.n])).toEqual([
      [2, 2],
      [4, 3]
    ])
    // And live afterwards, without a gap or a repeat.
    await emit(atrium, [taskChange(workspaceId, where, owner.userId, { n: 4 })])
    await second.inbox.next((f) => f.seq === 5)
    expect(second.inbox.events().map((e) => e.seq)).toEqual([2, 4, 5])
    second.close()
  })

  it("tells a client that is too far behind to resync, then streams live", async () => {
    const { owner, workspaceId, where } = await world()
    for (let i = 0; i < 5; i++)
      await emit(
        atrium,
        Array.from({ length: 20 }, () => taskChange(workspaceId, where, owner.userId))
      )
    const client = await connect(owner.token, workspaceId)
    client.send({ type: "subscribe", scope: "workspace", id: workspaceId, lastSeq: 3 })
    const resync = await client.inbox.next((f) => f.type === "resync")
    expect(resync).toMatchObject({ workspaceId, scope: "workspace", id: workspaceId, seq: 100 })
    await client.inbox.next((f) => f.type === "subscribed")
    expect(client.inbox.events()).toEqual([])
    await emit(atrium, [taskChange(workspaceId, where, owner.userId)])
    expect((await client.inbox.next((f) => typeof f.seq === "number" && f.entityId !== undefined)).seq).toBe(101)
    // Within the retained window the same client would have been replayed.
    const recent = await connect(owner.token, workspaceId)
    await recent.subscribe("workspace", workspaceId, 95)
    expect(recent.inbox.events().map((e) => e.seq)).toEqual([96, 97, 98, 99, 100, 101])
    client.close()
    recent.close()
  })

  it("stops sending after unsubscribe", async () => {
    const { owner, workspaceId, where } = await world()
    const client = await connect(owner.token, workspaceId)
    await client.subscribe("task", where.taskId)
    await emit(atrium, [taskChange(workspaceId, where, owner.userId)])
    await client.inbox.next((f) => f.seq === 1)
    client.send({ type: "unsubscribe", scope: "task", id: where.taskId })
    await client.inbox.next((f) => f.type === "unsubscribed")
    await emit(atrium, [taskChange(workspaceId, where, owner.userId)])
    await client.subscribe("space", where.spaceId)
    await emit(atrium, [taskChange(workspaceId, where, owner.userId)])
    await client.inbox.next((f) => f.seq === 3)
    expect(client.inbox.events().map((e) => e.seq)).toEqual([1, 3])
    client.close()
  })

  it("pushes a user's notifications to their own sockets only", async () => {
    const { owner, member, workspaceId, where } = await world()
    const mine = await connect(member.token, workspaceId)
    const theirs = await connect(owner.token, workspaceId)
    await emit(atrium, [
      {
        ...taskChange(workspaceId, where, owner.userId),
        notify: [{ userId: member.userId, reason: "assigned", title: "Owner assigned you" }]
      }
    ])
    const note = await mine.inbox.next((f) => f.type === "notification")
    expect(note.notification).toMatchObject({
      workspaceId,
      reason: "assigned",
      title: "Owner assigned you",
      read: false,
      event: { seq: 1, type: "task.updated" }
    })
    await emit(atrium, [
      {
        ...taskChange(workspaceId, where, member.userId),
        notify: [{ userId: owner.userId, reason: "commented", title: "Member commented" }]
      }
    ])
    await theirs.inbox.next((f) => f.type === "notification" && f.notification.reason === "commented")
    expect(mine.inbox.frames.filter((f) => f.type === "notification").length).toBe(1)
    mine.close()
    theirs.close()
  })
})

describe("access changes while connected", () => {
  it("closes the sockets of a removed member (4403), a changed role (4409) and a lost private space (4409)", async () => {
    const { owner, member, workspaceId } = await world()
    const removed = await connect(member.token, workspaceId)
    await removed.subscribe("workspace", workspaceId)
    expect(
      (await atrium.request("DELETE", `/hub/v1/workspaces/${workspaceId}/members/${member.userId}`, { token: owner.token })).status
    ).toBe(204)
    expect((await removed.closed).code).toBe(4403)

    const other = await world()
    const demoted = await connect(other.member.token, other.workspaceId)
    expect(
      (
        await atrium.request("PATCH", `/hub/v1/workspaces/${other.workspaceId}/members/${other.member.userId}`, {
          token: other.owner.token,
          body: { role: "viewer" }
        })
      ).status
    ).toBe(200)
    expect((await demoted.closed).code).toBe(4409)

    const third = await world()
    const spaceId = await seedSpace(atrium, third.workspaceId, third.owner.userId, { isPrivate: true, members: [third.member.userId] })
    const insider = await connect(third.member.token, third.workspaceId)
    expect(await insider.subscribe("space", spaceId)).toMatchObject({ type: "subscribed" })
    const bystander = await connect(third.member.token, third.workspaceId)
    await bystander.subscribe("workspace", third.workspaceId)
    await atrium.run(query("DELETE FROM pm_space_members WHERE space_id = $1", [spaceId]))
    expect((await insider.closed).code).toBe(4409)
    expect((await bystander.closed).code).toBe(4409)
  })
})

describe("protocol errors and slow clients", () => {
  it("closes a connection that sends a malformed frame with 4400, and only that one", async () => {
    const { owner, workspaceId } = await world()
    const bystander = await connect(owner.token, workspaceId)
    for (const frame of [
      "not json",
      "[1,2]",
      JSON.stringify({ type: "dance" }),
      JSON.stringify({ type: "subscribe", scope: "galaxy", id: "x" }),
      JSON.stringify({ type: "subscribe", scope: "task", id: 42 }),
      JSON.stringify({ type: "subscribe", scope: "task", id: "x", lastSeq: -1 }),
      JSON.stringify({ type: "subscribe", scope: "task", id: "x", extra: 1 }),
      Buffer.from([1, 2, 3]),
      "x".repeat(5000)
    ]) {
      const client = await connect(owner.token, workspaceId)
      client.send(frame)
      const closed = await client.closed
      expect(closed.code, String(frame).slice(0, 40)).toBe(4400)
    }
    expect(await bystander.subscribe("workspace", workspaceId)).toMatchObject({ type: "subscribed" })
    bystander.close()
  })

  it("closes a frame holding a NUL or an unpaired surrogate with 4400 naming where", async () => {
    const { owner, workspaceId } = await world()
    for (const [frame, reason] of [
      ['{"type":"subscribe","scope":"workspace","id":"ab\\u0000cd"}', "frame.id contains a NUL character"],
      ['{"type":"subscribe","scope":"work\\ud800space","id":"x"}', "frame.scope contains an unpaired UTF-16 surrogate"],
      ['{"type":"subscribe","scope":"task","id":"x","\\udc00":1}', "frame a key contains an unpaired UTF-16 surrogate"]
    ] as const) {
      const client = await connect(owner.token, workspaceId)
      client.send(frame)
      const closed = await client.closed
      expect(closed.code, frame).toBe(4400)
      expect(closed.reason, frame).toContain(reason)
    }
    // Socket.IO frames go through the same rule.
    const sio = await socketIoClient(atrium.origin, (await ticketFor(atrium, { token: owner.token }, workspaceId)).ticket)
    await sio.inbox.next((f) => f.type === "ready")
    sio.socket.emit("subscribe", { scope: "workspace", id: "ab\u0000cd" })
    expect(await sio.inbox.next((f) => f.type === "error")).toMatchObject({
      closeCode: 4400,
      message: expect.stringContaining("frame.id contains a NUL character")
    })
    sio.close()
  })

  it("cuts off a client that stops reading; it resumes from its lastSeq", async () => {
    const { owner, workspaceId, where } = await world()
    const slow = await connect(owner.token, workspaceId)
    await slow.subscribe("workspace", workspaceId)
    const fast = await connect(owner.token, workspaceId)
    await fast.subscribe("workspace", workspaceId)
    const tcp = (slow.socket as unknown as { _socket: { pause: () => void; resume: () => void } })._socket
    tcp.pause()
    // ~11 MB: more than the kernel buffers on both ends plus the 256 KiB backpressure limit.
    const blob = "x".repeat(8 * 1024)
    const total = 1400
    // In bursts small enough for a client that does read (each burst is published in one go).
    for (let round = 0; round < total / 20; round++) {
      await emit(
        atrium,
        Array.from({ length: 20 }, (_, i) => taskChange(workspaceId, where, owner.userId, { blob, i }))
      )
      await fast.inbox.next((f) => f.seq === (round + 1) * 20)
    }
    tcp.resume()
    // The server gave up on it: the connection was dropped, not closed politely, and it got a gap-free prefix.
    const closed = await slow.closed
    expect(closed.code).toBe(1006)
    const seen = slow.inbox.events().map((e) => e.seq)
    expect(seen.length).toBeLessThan(total)
    expect(seen).toEqual(seen.map((_, i) => i + 1))
    // Resuming with lastSeq: this much missed data is more than a replay carries, so it is told to resync, then follows live.
    const resumed = await connect(owner.token, workspaceId)
    await resumed.subscribe("workspace", workspaceId, seen[seen.length - 1] ?? 0)
    expect(resumed.inbox.frames.find((f) => f.type === "resync")).toMatchObject({ seq: total })
    await emit(atrium, [taskChange(workspaceId, where, owner.userId, { after: true })])
    expect((await resumed.inbox.next((f) => f.entityId !== undefined)).seq).toBe(total + 1)
    // A small gap is replayed instead.
    const again = await connect(owner.token, workspaceId)
    await again.subscribe("workspace", workspaceId, total - 3)
    expect(again.inbox.events().map((e) => e.seq)).toEqual([total - 2, total - 1, total, total + 1])
    fast.close()
    resumed.close()
    again.close()
  })
})

describe("Socket.IO", () => {
  it("receives the same frames as the raw socket", async () => {
    const { owner, workspaceId, where } = await world()
    const raw = await connect(owner.token, workspaceId)
    const sio = await socketIoClient(atrium.origin, (await ticketFor(atrium, { token: owner.token }, workspaceId)).ticket)
    const ready = await sio.inbox.next((f) => f.type === "ready")
    expect(ready).toMatchObject({ workspaceId, userId: owner.userId })
    expect(await sio.subscribe("space", where.spaceId)).toMatchObject({ type: "subscribed" })
    await raw.subscribe("space", where.spaceId)
    await emit(atrium, [taskChange(workspaceId, where, owner.userId, { a: 1 }), taskChange(workspaceId, where, owner.userId, { a: 2 })])
    await raw.inbox.next((f) => f.seq === 2)
    await sio.inbox.next((f) => f.seq === 2)
    expect(sio.inbox.events()).toEqual(raw.inbox.events())
    // Replay works the same way.
    const again = await socketIoClient(atrium.origin, (await ticketFor(atrium, { token: owner.token }, workspaceId)).ticket)
    await again.subscribe("task", where.taskId, 1)
    expect(again.inbox.events()).toEqual(raw.inbox.events().slice(1))
    raw.close()
    sio.close()
    again.close()
  })

  it("refuses a bad ticket at the handshake and malformed frames with closeCode 4400", async () => {
    const { owner, workspaceId } = await world()
    const refused = await socketIoClient(atrium.origin, "wst_nope").then(
      () => undefined,
      (error) => error as { message: string; data?: { code: number } }
    )
    expect(refused?.data?.code).toBe(4401)
    const sio = await socketIoClient(atrium.origin, (await ticketFor(atrium, { token: owner.token }, workspaceId)).ticket)
    await sio.inbox.next((f) => f.type === "ready")
    const gone = new Promise<string>((resolve) => sio.socket.on("disconnect", (reason) => resolve(reason)))
    sio.socket.emit("subscribe", { scope: "planet", id: "x" })
    expect(await sio.inbox.next((f) => f.type === "error")).toMatchObject({ code: "malformed", closeCode: 4400 })
    expect(await gone).toBe("io server disconnect")
  })
})

describe("isolation of the test database", () => {
  it("keeps tickets hashed", async () => {
    const { owner, workspaceId } = await world()
    const issued = await ticketFor(atrium, { token: owner.token }, workspaceId)
    const rows = await atrium.run(
      Effect.map(query<{ ticket_hash: string }>("SELECT ticket_hash FROM pm_ws_tickets WHERE user_id = $1", [owner.userId]), (r) => r)
    )
    expect(rows.length).toBe(1)
    expect(rows[0]!.ticket_hash).not.toContain(issued.ticket.slice(4))
  })
})
