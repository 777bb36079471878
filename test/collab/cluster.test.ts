/**
 * Two collab nodes (child processes) sharing PostgreSQL and NATS: editors
 * connected to different nodes converge, a document opened on the second
 * node gets what the first holds, presence crosses nodes, and a node killed
 * with `kill -9` leaves no document stuck. Needs PostgreSQL and NATS (skipped
 * loudly without them, failed with ATRIUM_REQUIRE_SERVICES=1).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { checkPostgres, createTestDatabase, type TestDatabase } from "../support/database.ts"
import { checkNats, natsUrl, testPrefix } from "../support/nats.ts"
import { acknowledged, addParagraph, connectEditor, eventually, grant, synced, type TestEditor, typeText } from "../support/collabAtrium.ts"
import { type CollabAtrium, startCollabAtrium } from "../support/collabAtrium.ts"
import { type CollabProcess, signUpAt, startCollabProcess } from "../support/collabProcess.ts"

const available = (await checkPostgres("collab cluster")) && (await checkNats("collab cluster"))

describe.skipIf(!available)("two collab nodes over NATS", () => {
  let database: TestDatabase
  let nodeA: CollabProcess
  let nodeB: CollabProcess
  let nodeC: CollabAtrium
  let user: { userId: string; token: string }
  const editors: Array<TestEditor> = []
  const open = (node: CollabProcess, name: string) => {
    const editor = connectEditor(node.collabUrl, name, user.token)
    editors.push(editor)
    return editor
  }

  beforeAll(async () => {
    database = await createTestDatabase()
    const env = { DATABASE_URL: database.url, NATS_URL: natsUrl(), NATS_PREFIX: testPrefix(), PORT: "0", COLLAB_HEARTBEAT_SECONDS: "1" }
    nodeA = await startCollabProcess(env)
    nodeB = await startCollabProcess(env)
    // A third node in this process, to look at LiveDocuments across the cluster.
    nodeC = await startCollabAtrium(
      { databaseUrl: database.url, natsUrl: natsUrl(), natsPrefix: env.NATS_PREFIX },
      { COLLAB_HEARTBEAT_SECONDS: "1" }
    )
    user = await signUpAt(nodeA.origin, "Clustered")
  }, 180_000)

  afterAll(async () => {
    for (const editor of editors) editor.destroy()
    await nodeC?.close()
    await nodeA?.kill()
    await nodeB?.kill()
    await database?.drop()
  })

  it("editors on different nodes converge", async () => {
    const name = `cluster-${Date.now().toString(36)}`
    const a1 = open(nodeA, name)
    const a2 = open(nodeA, name)
    const b1 = open(nodeB, name)
    const b2 = open(nodeB, name)
    const all = [a1, a2, b1, b2]
    await Promise.all(all.map((editor) => synced(editor)))
    for (let round = 0; round < 10; round++) {
      for (const [i, editor] of all.entries()) addParagraph(editor, `${round}-${i}`)
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    typeText(a1, "A")
    typeText(b1, "B")
    await Promise.all(all.map((editor) => acknowledged(editor)))
    await eventually(
      () => all.every((editor) => editor.text() === a1.text()) && a1.text().split("\n").length >= 40,
      "all four editors converge"
    )
  })

  it("a document opened on the other node gets everything the first one holds", async () => {
    const name = `cluster-late-${Date.now().toString(36)}`
    const a = open(nodeA, name)
    await synced(a)
    for (let i = 0; i < 30; i++) addParagraph(a, `line ${i}`)
    await acknowledged(a)
    const b = open(nodeB, name)
    await synced(b)
    await eventually(() => b.text() === a.text(), "the late joiner on the other node converges")
    addParagraph(b, "from B")
    await eventually(() => a.text().endsWith("from B"), "edits flow back")
  })

  it("LiveDocuments on a third node sees the others' editors, and its REST edits reach them", async () => {
    const name = `cluster-rest-${Date.now().toString(36)}`
    const a = open(nodeA, name)
    const b = open(nodeB, name)
    await Promise.all([synced(a), synced(b)])
    await eventually(
      async () => (await nodeC.run(nodeC.live.editors(name))).length === 1,
      "the user is listed once (two sessions, one user)"
    )
    expect((await nodeC.run(nodeC.live.editors(name)))[0]!.userId).toBe(user.userId)
    await nodeC.run(
      nodeC.live.replace(name, { type: "doc", content: [{ type: "paragraph", content: [{ type: "text", text: "from REST on C" }] }] })
    )
    await eventually(() => a.text() === "from REST on C" && b.text() === "from REST on C", "both nodes' editors see the REST edit")
    a.destroy()
    b.destroy()
    await eventually(async () => (await nodeC.run(nodeC.live.editors(name))).length === 0, "editors gone")
  })

  it("awareness crosses nodes", async () => {
    const name = `cluster-awareness-${Date.now().toString(36)}`
    const a = open(nodeA, name)
    const b = open(nodeB, name)
    await Promise.all([synced(a), synced(b)])
    a.provider.setAwarenessField("user", { name: "On A" })
    await eventually(
      () => [...b.provider.awareness!.getStates().values()].some((state) => (state as { user?: { name?: string } }).user?.name === "On A"),
      "B's editor sees A's presence"
    )
  })

  it("a read-only reader on one node follows an editor on another, and its presence crosses over", async () => {
    // "ro-": read-only for everyone on the child nodes; the in-process node grants this editor editing.
    const name = `ro-cluster-${Date.now().toString(36)}`
    grant(user.userId, name, "edit")
    const editor = connectEditor(nodeC.collabUrl, name, user.token)
    editors.push(editor)
    await synced(editor)
    const reader = open(nodeA, name)
    reader.provider.setAwarenessField("user", { name: "Reading on A" })
    await synced(reader)
    expect(reader.provider.authorizedScope).toBe("readonly")
    addParagraph(editor, "written on C")
    await acknowledged(editor)
    await eventually(() => reader.text() === "written on C", "the reader on A follows the editor on C")
    await eventually(
      () =>
        [...editor.provider.awareness!.getStates().values()].some(
          (state) => (state as { user?: { name?: string } }).user?.name === "Reading on A"
        ),
      "the editor on C sees the reader's presence"
    )
    reader.destroy()
    await eventually(
      () =>
        ![...editor.provider.awareness!.getStates().values()].some(
          (state) => (state as { user?: { name?: string } }).user?.name === "Reading on A"
        ),
      "the reader's presence goes with it"
    )
  })

  it("a node killed with kill -9 leaves no document stuck", async () => {
    const name = `cluster-kill-${Date.now().toString(36)}`
    const other = await signUpAt(nodeA.origin, "OnB")
    const a = open(nodeA, name)
    const b = connectEditor(nodeB.collabUrl, name, other.token)
    editors.push(b)
    await Promise.all([synced(a), synced(b)])
    await eventually(async () => (await nodeC.run(nodeC.live.editors(name))).length === 2, "both users listed")
    for (let i = 0; i < 20; i++) addParagraph(b, `b${i}`)
    await acknowledged(b)
    await eventually(() => a.text() === b.text(), "editors converge before the kill")
    await nodeB.kill()
    // B's editor would reconnect through a load balancer; here it comes back on A.
    b.destroy()
    const again = open(nodeA, name)
    await synced(again)
    expect(again.text().split("\n")).toHaveLength(20)
    addParagraph(again, "after the kill")
    addParagraph(a, "still editing")
    await Promise.all([acknowledged(again), acknowledged(a)])
    await eventually(
      () => a.text() === again.text() && a.text().includes("after the kill") && a.text().includes("still editing"),
      "editing goes on"
    )
    // The dead node's editor disappears from the cluster's presence after a few heartbeats.
    await eventually(
      async () => !(await nodeC.run(nodeC.live.editors(name))).some((editor) => editor.userId === other.userId),
      "dead node's editor expired"
    )
  })
})
