/**
 * A wiki space's changes on the live stream (scope wikiSpace): its tree
 * (pages created, moved, renamed, archived, restored, deleted) and comments,
 * ids only; replayed from the log with lastSeq; a restricted space refuses
 * those who may not see it, and a member's workspace subscription does not
 * carry its events; pm's activity log leaves them out.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { rawClient } from "../../pm/live/support.ts"
import { startAtrium, type TestAtrium } from "../../support/atrium.ts"
import { createPage, createSpace, team, type Team } from "./fixture.ts"

let atrium: TestAtrium
let t: Team
beforeAll(async () => {
  atrium = await startAtrium()
  t = await team(atrium)
})
afterAll(async () => {
  await atrium?.close()
})

const follow = async (token: string, spaceId: string) => {
  const ticket = await atrium.request("POST", `/wiki/v1/spaces/${spaceId}/stream-ticket`, { token })
  expect(ticket.status, ticket.text).toBe(201)
  expect(ticket.body.subscribe).toEqual({ type: "subscribe", scope: "wikiSpace", id: spaceId })
  const client = await rawClient(ticket.body.url)
  const reply = await client.subscribe(ticket.body.subscribe.scope, ticket.body.subscribe.id)
  return { client, reply }
}

const call = async (token: string, method: string, url: string, body?: unknown) => {
  const reply = await atrium.request(method, url, { token, ...(body !== undefined ? { body } : {}) })
  expect(reply.status, reply.text).toBeLessThan(300)
  return reply.body
}

describe("a wiki space on the live stream (scope wikiSpace)", () => {
  it("followers see the tree and comment changes as ids, in order, and can resume from the log", async () => {
    const space = await createSpace(atrium, t.owner.token, t.workspaceId)
    const { client, reply } = await follow(t.viewer.token, space.id)
    expect(reply.type).toBe("subscribed")

    const guide = await createPage(atrium, t.member.token, space.id, { title: "Guide" })
    const setup = await createPage(atrium, t.member.token, space.id, { title: "Setup" })
    await call(t.member.token, "POST", `/wiki/v1/pages/${setup.id}/move`, { parentPageId: guide.id })
    await call(t.member.token, "PATCH", `/wiki/v1/pages/${setup.id}`, { title: "Laptop setup" })
    // Same title again: nothing in the tree changed, nothing is sent.
    await call(t.member.token, "PATCH", `/wiki/v1/pages/${setup.id}`, { title: "Laptop setup" })
    const thread = await call(t.viewer.token, "POST", `/wiki/v1/pages/${guide.id}/comments`, { body: "Where do I start?" })
    await call(t.member.token, "POST", `/wiki/v1/comments/${thread.id}/replies`, { body: "Here." })
    await call(t.member.token, "POST", `/wiki/v1/comments/${thread.id}/resolve`)
    await call(t.member.token, "POST", `/wiki/v1/comments/${thread.id}/reopen`)
    await call(t.member.token, "DELETE", `/wiki/v1/pages/${setup.id}`)
    const last = await client.inbox.next((f) => f.type === "page.archived" || f.type === "page.deleted")

    const events = client.inbox.events()
    expect(events.map((f) => f.type)).toEqual([
      "page.created",
      "page.created",
      "page.moved",
      "page.updated",
      "comment.created",
      "comment.created",
      "comment.resolved",
      "comment.reopened",
      last.type
    ])
    for (const event of events) expect(event).toMatchObject({ scope: "wikiSpace", entityId: space.id })
    expect(events[2]).toMatchObject({ actorId: t.member.userId, data: { pageId: setup.id, parentPageId: guide.id } })
    expect(events[5]!.data).toMatchObject({ pageId: guide.id, threadId: thread.id })
    // Ids, never titles or text: each reader re-reads what their page rights show.
    expect(JSON.stringify(events)).not.toMatch(/Laptop setup|Where do I start/)
    client.close()

    // Resuming with lastSeq replays what was missed from the log.
    const again = await follow(t.viewer.token, space.id)
    again.client.send({ type: "subscribe", scope: "wikiSpace", id: space.id, lastSeq: events[6]!.seq })
    await again.client.inbox.next((f) => f.type === last.type)
    expect(again.client.inbox.events().map((f) => f.type)).toEqual(["comment.reopened", last.type])
    again.client.close()

    // pm's activity log is pm's own.
    const activity = await call(t.owner.token, "GET", `/pm/v1/workspaces/${t.workspaceId}/activity`)
    expect(activity.items.some((item: { scope: string }) => item.scope === "wikiSpace")).toBe(false)
  })

  it("a restricted space refuses those who may not see it; a member's workspace subscription does not carry it", async () => {
    const secret = await createSpace(atrium, t.owner.token, t.workspaceId, { name: "Secret", visibility: "restricted" })
    const open = await createSpace(atrium, t.owner.token, t.workspaceId, { name: "Open" })
    expect((await atrium.request("POST", `/wiki/v1/spaces/${secret.id}/stream-ticket`, { token: t.member.token })).status).toBe(404)
    expect((await atrium.request("POST", `/wiki/v1/spaces/${open.id}/stream-ticket`, { token: t.outsider.token })).status).toBe(404)

    const ticket = await atrium.request("POST", "/pm/v1/ws/ticket", { token: t.member.token, body: { workspaceId: t.workspaceId } })
    const sneaky = await rawClient(ticket.body.url)
    expect(await sneaky.subscribe("wikiSpace", secret.id)).toMatchObject({ type: "error", code: "not_found" })
    await sneaky.subscribe("workspace", t.workspaceId)
    const hidden = await createPage(atrium, t.owner.token, secret.id, { title: "Hidden" })
    const follower = await follow(t.member.token, open.id)
    const marker = await createPage(atrium, t.owner.token, open.id, { title: "Marker" })
    await follower.client.inbox.next((f) => f.type === "page.created" && f.data?.pageId === marker.id)
    expect(sneaky.inbox.events().some((f) => f.data?.pageId === hidden.id)).toBe(false)
    sneaky.close()
    follower.client.close()
  })
})
