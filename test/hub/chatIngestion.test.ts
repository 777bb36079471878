/** Chat conversations ingested into a workspace's knowledge: upsert by source and external id, append without duplicates, paging, scopes. */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { signUp, startAtrium, type TestServer } from "../support/atrium.ts"

let atrium: TestServer
beforeAll(async () => {
  atrium = await startAtrium()
})
afterAll(async () => {
  await atrium?.close()
})

const message = (externalId: string, minute: number, text: string, author = "Alice") => ({
  externalId,
  author,
  sentAt: `2026-11-21T12:${String(minute).padStart(2, "0")}:00Z`,
  text
})

const setup = async () => {
  const alice = await signUp(atrium, "Alice")
  const workspaceId = (await atrium.request("POST", "/pm/v1/workspaces", { token: alice.token, body: { name: "Acme" } })).body.id as string
  return { alice, workspaceId, base: `/hub/v1/workspaces/${workspaceId}/chat-documents` }
}

describe("chat ingestion", () => {
  it("ingests a conversation in time order, re-ingests it in place, and appends only new messages", async () => {
    const { alice, base } = await setup()
    const body = {
      source: "chatapp",
      externalId: "C1-thread-1",
      title: "Release thread",
      channel: "#release",
      messages: [message("m2", 2, "Yes, Friday."), message("m1", 1, "Ship on Friday?")]
    }
    const created = await atrium.request("POST", base, { token: alice.token, body })
    expect(created.status, created.text).toBe(201)
    expect(created.body).toMatchObject({
      created: true,
      messageCount: 2,
      firstMessageAt: "2026-11-21T12:01:00.000Z",
      lastMessageAt: "2026-11-21T12:02:00.000Z"
    })
    const got = await atrium.request("GET", `${base}/${created.body.id}`, { token: alice.token })
    expect(got.body.messages.map((m: any) => [m.position, m.externalId, m.text])).toEqual([
      [1, "m1", "Ship on Friday?"],
      [2, "m2", "Yes, Friday."]
    ])
    const again = await atrium.request("POST", base, {
      token: alice.token,
      body: { ...body, title: "Release thread (edited)", messages: [message("m1", 1, "Ship?")] }
    })
    expect(again.body).toMatchObject({ id: created.body.id, created: false, messageCount: 1, title: "Release thread (edited)" })
    const appended = await atrium.request("POST", `${base}/${created.body.id}/messages`, {
      token: alice.token,
      body: { messages: [message("m1", 1, "dup"), message("m3", 3, "Done!", "Bob")] }
    })
    expect(appended.status, appended.text).toBe(200)
    expect(appended.body).toMatchObject({ added: 1, messageCount: 2, lastMessageAt: "2026-11-21T12:03:00.000Z" })
    const twice = await atrium.request("POST", base, {
      token: alice.token,
      body: { ...body, messages: [message("x", 1, "a"), message("x", 2, "b")] }
    })
    expect(twice.status).toBe(400)
    expect(twice.body.error.details[0].path).toBe("body.messages.1.externalId")
    expect((await atrium.request("DELETE", `${base}/${created.body.id}`, { token: alice.token })).status).toBe(204)
    expect((await atrium.request("GET", `${base}/${created.body.id}`, { token: alice.token })).status).toBe(404)
  })

  it("lists newest first with filters and a cursor; other workspaces and read-only keys are kept out", async () => {
    const { alice, workspaceId, base } = await setup()
    for (const [i, source] of ["chatapp", "workchat", "chatapp"].entries()) {
      const reply = await atrium.request("POST", base, {
        token: alice.token,
        body: { source, externalId: `doc-${i}`, title: `Doc ${i}`, messages: [message(`m${i}`, i, "hello")] }
      })
      expect(reply.status).toBe(201)
    }
    const page1 = await atrium.request("GET", `${base}?limit=2`, { token: alice.token })
    expect(page1.body.items.map((d: any) => d.title)).toEqual(["Doc 2", "Doc 1"])
    const page2 = await atrium.request("GET", `${base}?limit=2&cursor=${page1.body.nextCursor}`, { token: alice.token })
    expect(page2.body).toMatchObject({ items: [expect.objectContaining({ title: "Doc 0" })], nextCursor: null })
    expect((await atrium.request("GET", `${base}?source=workchat`, { token: alice.token })).body.items.map((d: any) => d.title)).toEqual([
      "Doc 1"
    ])
    expect((await atrium.request("GET", `${base}?cursor=nonsense`, { token: alice.token })).status).toBe(400)

    const eve = await signUp(atrium, "Eve")
    expect((await atrium.request("GET", base, { token: eve.token })).status).toBe(404)
    const key = (
      await atrium.request("POST", "/hub/v1/api-keys", {
        token: alice.token,
        body: { workspaceId, name: "reader", scopes: ["chat-ingestion:read"] }
      })
    ).body.key
    expect((await atrium.request("GET", base, { apiKey: key })).status).toBe(200)
    const refused = await atrium.request("POST", base, {
      apiKey: key,
      body: { source: "email", externalId: "t", title: "t", messages: [] }
    })
    expect(refused.status).toBe(403)
  })
})
