/**
 * A milestone's changelog entry drafted from linked work (issue 24): the
 * team drafts it from the pm tasks linked to the milestone's requests (each
 * task's title and short id, the requests it closes; requests no task
 * delivers listed after), in the shared rich-text schema; a person edits and
 * publishes it, which ships the requests and notifies each voter once per
 * request; publishing it again after taking it back notifies nobody twice.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startAtrium, type TestServer } from "../support/atrium.ts"
import { createBoard, createRequest, newTeam, type Team } from "./fixture.ts"

let atrium: TestServer
let t: Team

beforeAll(async () => {
  atrium = await startAtrium()
  t = await newTeam(atrium)
}, 120_000)
afterAll(() => atrium?.close())

const completions = (userId: string) =>
  atrium.sql<{ title: string }>(
    "SELECT title FROM notification_outbox WHERE user_id = $1 AND area = 'feedback' AND kind = 'request_completed' ORDER BY title",
    [userId]
  )

describe("changelog drafts from linked work", () => {
  it("drafts the entry from the tasks that closed the milestone's requests; publishing notifies each voter once per request", async () => {
    const board = await createBoard(atrium, t, { name: "Roadmap" })
    const offline = await createRequest(atrium, t.member.token, board.id, { title: "Offline mode" })
    const dark = await createRequest(atrium, t.member.token, board.id, { title: "Dark mode" })
    const keys = await createRequest(atrium, t.member.token, board.id, { title: "Keyboard shortcuts" })
    for (const [voter, request] of [
      [t.viewer, offline],
      [t.admin, offline],
      [t.admin, dark]
    ] as const) {
      const voted = await atrium.request("POST", `/feedback/v1/feature-requests/${request.id}/votes`, { token: voter.token })
      expect(voted.status, voted.text).toBeLessThan(300)
    }

    const space = await atrium.request("POST", `/pm/v1/workspaces/${t.workspaceId}/spaces`, {
      token: t.owner.token,
      body: { name: "Product" }
    })
    const list = await atrium.request("POST", `/pm/v1/spaces/${space.body.id}/lists`, { token: t.owner.token, body: { name: "Build" } })
    const task = async (name: string, requests: ReadonlyArray<{ id: string }>) => {
      const created = await atrium.request("POST", `/pm/v1/lists/${list.body.id}/tasks`, { token: t.owner.token, body: { name } })
      expect(created.status, created.text).toBe(201)
      for (const request of requests)
        expect(
          (await atrium.request("PUT", `/feedback/v1/feature-requests/${request.id}/tasks/${created.body.id}`, { token: t.member.token }))
            .status
        ).toBe(200)
      return created.body as { id: string; shortId: string }
    }
    const sync = await task("Sync engine", [offline])
    const tokens = await task("Theme *tokens*", [dark, offline])

    const milestone = await atrium.request("POST", `/feedback/v1/boards/${board.id}/milestones`, {
      token: t.admin.token,
      body: { name: "Spring release", description: "Work offline, in the dark." }
    })
    expect(milestone.status, milestone.text).toBe(201)
    for (const request of [offline, dark, keys]) {
      const added = await atrium.request("POST", `/feedback/v1/milestones/${milestone.body.id}/feature-requests`, {
        token: t.admin.token,
        body: { featureRequestId: request.id }
      })
      expect(added.status, added.text).toBeLessThan(300)
    }

    // Only the board's team drafts.
    expect([403, 404]).toContain(
      (await atrium.request("POST", `/feedback/v1/milestones/${milestone.body.id}/changelog-draft`, { token: t.viewer.token, body: {} }))
        .status
    )
    const drafted = await atrium.request("POST", `/feedback/v1/milestones/${milestone.body.id}/changelog-draft`, {
      token: t.member.token,
      body: {}
    })
    expect(drafted.status, drafted.text).toBe(201)
    expect(drafted.body).toMatchObject({
      title: "Spring release",
      kind: "new",
      state: "draft",
      milestoneId: milestone.body.id,
      notifiedCount: 0
    })
    expect([...drafted.body.featureRequestIds].sort()).toEqual([offline.id, dark.id, keys.id].sort())
    expect(drafted.body.markdown.split("\n").filter((line: string) => line !== "")).toEqual([
      "Work offline, in the dark.",
      `- **Sync engine** (${sync.shortId}) — closes ${offline.shortId} "Offline mode"`,
      `- **Theme \\*tokens\\*** (${tokens.shortId}) — closes ${offline.shortId} "Offline mode", ${dark.shortId} "Dark mode"`,
      "Also in this release:",
      `- **Keyboard shortcuts** (${keys.shortId})`
    ])
    expect(drafted.body.html).toContain(`<strong>Sync engine</strong> (${sync.shortId})`)
    // A draft tells nobody.
    expect(await completions(t.admin.userId)).toEqual([])

    // A person edits it, then publishes: each request ships, each voter hears once per request they voted for.
    const entryUrl = `/feedback/v1/changelog/${drafted.body.id}`
    const edited = await atrium.request("PATCH", entryUrl, {
      token: t.member.token,
      body: { title: "Spring release: offline and dark", markdown: `${drafted.body.markdown}\n\nThanks for asking!` }
    })
    expect(edited.status, edited.text).toBe(200)
    const published = await atrium.request("PATCH", entryUrl, { token: t.member.token, body: { state: "published" } })
    expect(published.status, published.text).toBe(200)
    expect(published.body.state).toBe("published")
    expect(published.body.markdown).toContain("Thanks for asking!")
    expect((await completions(t.admin.userId)).map((row) => row.title)).toEqual([
      `${offline.shortId} Offline mode: Shipped`,
      `${dark.shortId} Dark mode: Shipped`
    ])
    expect(await completions(t.viewer.userId)).toEqual([{ title: expect.stringContaining("Offline mode") }])
    const notified = published.body.notifiedCount
    expect(notified).toBeGreaterThanOrEqual(3)

    // Taken back to a draft and published again: the same change, announced once.
    expect((await atrium.request("PATCH", entryUrl, { token: t.member.token, body: { state: "draft" } })).status).toBe(200)
    const again = await atrium.request("PATCH", entryUrl, { token: t.member.token, body: { state: "published" } })
    expect(again.status, again.text).toBe(200)
    expect(again.body.notifiedCount).toBe(notified)
    expect(await completions(t.admin.userId)).toHaveLength(2)
    expect(await completions(t.viewer.userId)).toHaveLength(1)
  })

  it("builds a release from the completed requests no milestone holds yet", async () => {
    const board = await createBoard(atrium, t, { name: "Releases" })
    const statuses = (await atrium.request("GET", `/feedback/v1/boards/${board.id}/statuses`, { token: t.owner.token })).body
      .items as Array<{
      id: string
      type: string
    }>
    const shipped = statuses.find((s) => s.type === "shipped")!.id
    const complete = async (title: string) => {
      const request = await createRequest(atrium, t.member.token, board.id, { title })
      const moved = await atrium.request("POST", `/feedback/v1/feature-requests/${request.id}/status`, {
        token: t.admin.token,
        body: { statusId: shipped }
      })
      expect(moved.status, moved.text).toBeLessThan(300)
      return request
    }
    const csv = await complete("CSV export")
    const sso = await complete("Single sign-on")
    const earlier = await complete("Audit log")
    const open = await createRequest(atrium, t.member.token, board.id, { title: "Mobile app" })
    const milestoneOf = async (name: string) => {
      const created = await atrium.request("POST", `/feedback/v1/boards/${board.id}/milestones`, { token: t.admin.token, body: { name } })
      expect(created.status, created.text).toBe(201)
      return created.body.id as string
    }
    // An earlier release holds one completed request already.
    const before = await milestoneOf("Winter release")
    await atrium.request("POST", `/feedback/v1/milestones/${before}/feature-requests`, {
      token: t.admin.token,
      body: { featureRequestId: earlier.id }
    })

    const spring = await milestoneOf("Spring release")
    const drafted = await atrium.request("POST", `/feedback/v1/milestones/${spring}/changelog-draft`, {
      token: t.admin.token,
      body: { addCompletedRequests: true }
    })
    expect(drafted.status, drafted.text).toBe(201)
    expect(drafted.body.featureRequestIds).toEqual([csv.id, sso.id])
    expect(drafted.body.featureRequestIds).not.toContain(open.id)
    expect(drafted.body.markdown).toContain(`**CSV export** (${csv.shortId})`)
    const milestone = await atrium.request("GET", `/feedback/v1/milestones/${spring}`, { token: t.admin.token })
    expect(milestone.body.featureRequestIds).toEqual([csv.id, sso.id])
    // A bad flag is named.
    const refused = await atrium.request("POST", `/feedback/v1/milestones/${spring}/changelog-draft`, {
      token: t.admin.token,
      body: { addCompletedRequests: "yes" }
    })
    expect(refused.status).toBe(400)
    expect(refused.body.error.details[0].path).toBe("body.addCompletedRequests")
  })
})
