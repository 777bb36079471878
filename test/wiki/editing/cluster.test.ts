/**
 * The wiki's read models on a two-node cluster (NATS + PostgreSQL): page
 * actors live on either node, and a change made through one node reaches
 * the live actors on the other before the write replies.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startAtrium, type TestServer } from "../../support/atrium.ts"
import { checkPostgres, createTestDatabase, type TestDatabase } from "../../support/database.ts"
import { checkNats, natsUrl, testPrefix } from "../../support/nats.ts"
import { createPage, createSpace, team, type Team } from "./fixture.ts"

const ready = (await checkPostgres("wiki read models on a cluster")) && (await checkNats("wiki read models on a cluster"))

describe.skipIf(!ready)("wiki read models on a two-node cluster", () => {
  let database: TestDatabase
  let a: TestServer
  let b: TestServer
  let t: Team
  beforeAll(async () => {
    database = await createTestDatabase()
    const shared = { databaseUrl: database.url, natsUrl: natsUrl(), natsPrefix: testPrefix() }
    a = await startAtrium(shared)
    b = await startAtrium(shared)
    t = await team(a)
  })
  afterAll(async () => {
    await b?.close()
    await a?.close()
    await database?.drop()
  })

  const status = async (node: TestServer, token: string, pageId: string) =>
    (await node.request("GET", `/wiki/v1/pages/${pageId}`, { token })).status

  it("a restriction set through one node hides the children served by either node at once", async () => {
    const space = await createSpace(a, t.owner.token, t.workspaceId)
    const parent = await createPage(a, t.member.token, space.id, { title: "Board" })
    // Enough children that their actors land on both nodes.
    const children = await Promise.all(
      Array.from({ length: 12 }, (_, i) => createPage(a, t.member.token, space.id, { title: `Minutes ${i}`, parentPageId: parent.id }))
    )
    for (const child of children) {
      expect(await status(a, t.viewer.token, child.id)).toBe(200)
      expect(await status(b, t.viewer.token, child.id)).toBe(200)
    }
    const restricted = await b.request("PUT", `/wiki/v1/pages/${parent.id}/permissions`, {
      token: t.member.token,
      body: { restriction: "view" }
    })
    expect(restricted.status, restricted.text).toBe(200)
    for (const child of children) {
      expect(await status(a, t.viewer.token, child.id)).toBe(404)
      expect(await status(b, t.viewer.token, child.id)).toBe(404)
    }
    // A space permission changed through A: B's next check sees it.
    const entry = await a.request("PUT", `/wiki/v1/spaces/${space.id}/permissions`, {
      token: t.owner.token,
      body: { workspaceRole: "member", role: "viewer" }
    })
    expect(entry.status, entry.text).toBe(200)
    expect((await b.request("GET", `/wiki/v1/pages/${children[0]!.id}`, { token: t.member.token })).body.access).toBe("read")
  })
})
