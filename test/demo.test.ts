/**
 * `npm start -- --demo`: the seed gives two users who share a workspace, a
 * space with lists and 30 tasks, a completed and a running sprint, a wiki
 * space with rich-text pages both users may edit, the recorded meetings with
 * each user's own notes and version, a calendar series with prompts, a public
 * feedback board, Lens answers to the questions the README suggests, and a
 * working API key for the printed MCP address; a second start seeds nothing
 * more. Every area is checked through the API, as the web app reads it.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { demoBoardSlug, seedDemo } from "../facade/Demo.ts"
import { DEMO_EMAIL, DEMO_PASSWORD, DEMO_SECOND_EMAIL } from "../facade/DemoContent.ts"
import { DEMO_BOARD, DEMO_QUESTIONS, DEMO_SERIES, DEMO_SPRINTS, demoNotes } from "../facade/DemoContent.ts"
import { startAtrium, type TestServer } from "./support/atrium.ts"

let atrium: TestServer
let output: string

const login = async (email: string) => {
  const response = await atrium.request("POST", "/pm/v1/auth/login", { body: { email, password: DEMO_PASSWORD } })
  expect(response.status, response.text).toBe(200)
  return response.body.accessToken as string
}

let ada: string
let ben: string
let workspaceId: string

beforeAll(async () => {
  atrium = await startAtrium()
  output = await atrium.run(seedDemo(atrium.origin))
  ada = await login(DEMO_EMAIL)
  ben = await login(DEMO_SECOND_EMAIL)
  workspaceId = (await atrium.request("GET", "/pm/v1/lite/context", { token: ada })).body.workspace.id
}, 600_000)

/** Polls `read` until `done` holds (meetings are processed in the background). */
const eventually = async <T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> => {
  for (let attempt = 0; ; attempt++) {
    const value = await read()
    if (done(value) || attempt === 600) return value
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

const callNamed = async (token: string, name: string) => {
  const calls = await atrium.request("GET", `/hub/v1/calls?workspaceId=${workspaceId}&limit=50`, { token })
  expect(calls.status, calls.text).toBe(200)
  const found = calls.body.items.find((c: { name: string }) => c.name === name)
  expect(found, `call ${name}`).toBeDefined()
  return eventually(
    async () => (await atrium.request("GET", `/hub/v1/calls/${found.id}`, { token })).body,
    (call) => call.status === "ready" && call.enhancedNotes !== ""
  )
}
afterAll(async () => {
  await atrium?.close()
})

describe("demo seed", () => {
  it("prints the web address, the MCP address, both logins and the API key", () => {
    expect(output).toContain(`${atrium.origin}/ `)
    expect(output).toContain(`${atrium.origin}/mcp`)
    expect(output).toContain(`${DEMO_EMAIL} / ${DEMO_PASSWORD}`)
    expect(output).toContain(`${DEMO_SECOND_EMAIL} / ${DEMO_PASSWORD}`)
    expect(output).toMatch(/API key\s+\S+/)
  })

  it("gives both users one workspace with a space, three lists and 30 tasks spread over the workflow", async () => {
    const ben = await login(DEMO_SECOND_EMAIL)
    const context = await atrium.request("GET", "/pm/v1/lite/context", { token: ben })
    expect(context.status, context.text).toBe(200)
    expect(context.body.members.map((m: { email: string }) => m.email).sort()).toEqual([DEMO_SECOND_EMAIL, DEMO_EMAIL].sort())
    const space = context.body.spaces.find((s: { name: string }) => s.name === "Product")
    expect(space.lists.map((l: { name: string }) => l.name)).toEqual(["Sprint 12", "Backlog", "Bugs"])
    const workspaceId = context.body.workspace.id
    const tasks = await atrium.request("GET", `/pm/v1/lite/search/tasks?workspaceId=${workspaceId}&includeClosed=true&limit=100`, {
      token: ben
    })
    expect(tasks.body.items).toHaveLength(30)
    const statuses = new Set(
      tasks.body.items.filter((t: { list: string }) => t.list === "Sprint 12").map((t: { status: string }) => t.status)
    )
    expect(statuses.size).toBeGreaterThan(2)
    expect(new Set(tasks.body.items.flatMap((t: { assignees: Array<string> }) => t.assignees))).toEqual(
      new Set([DEMO_EMAIL, DEMO_SECOND_EMAIL])
    )
  })

  it("has a wiki space with rich-text pages that both users may edit", async () => {
    const ada = await login(DEMO_EMAIL)
    const ben = await login(DEMO_SECOND_EMAIL)
    const outline = await atrium.request("GET", "/wiki/v1/lite/spaces/HB/pages", { token: ada })
    expect(outline.status, outline.text).toBe(200)
    expect(outline.body.items.map((p: { title: string }) => p.title)).toEqual(
      expect.arrayContaining(["Welcome", "Onboarding", "Laptop setup", "Engineering practices"])
    )
    expect(outline.body.items.find((p: { title: string }) => p.title === "Laptop setup").parentSlug).toBe("onboarding")
    const page = await atrium.request("GET", "/wiki/v1/lite/spaces/HB/pages/laptop-setup", { token: ben })
    expect(page.body.access).toBe("edit")
    expect(page.body.markdown).toContain("```")
    expect(page.body.markdown).toContain("**20**")
    const welcome = await atrium.request("GET", "/wiki/v1/lite/spaces/HB/pages/welcome", { token: ben })
    expect(welcome.body.markdown).toMatch(/^# Welcome/)
    expect(welcome.body.markdown).toContain("> ")
  })

  it("has a completed sprint (velocity) and a running one with tasks finished on different days (burndown steps down)", async () => {
    const context = await atrium.request("GET", "/pm/v1/lite/context", { token: ben })
    const spaceId = context.body.spaces.find((s: { name: string }) => s.name === "Product").id
    const sprints = await atrium.request("GET", `/pm/v1/spaces/${spaceId}/sprints`, { token: ben })
    expect(sprints.status, sprints.text).toBe(200)
    const byName = new Map(sprints.body.items.map((s: { name: string }) => [s.name, s]))
    expect(byName.get(DEMO_SPRINTS.previous.name)).toMatchObject({ status: "completed" })
    const current = byName.get(DEMO_SPRINTS.current.name) as { id: string; status: string }
    expect(current.status).toBe("active")
    const burndown = await atrium.request("GET", `/pm/v1/sprints/${current.id}/burndown`, { token: ben })
    expect(burndown.status, burndown.text).toBe(200)
    expect(burndown.body.committed).toBe(DEMO_SPRINTS.current.tasks.length)
    expect(burndown.body.current).toEqual({
      scope: DEMO_SPRINTS.current.tasks.length,
      completed: DEMO_SPRINTS.current.finished.length,
      remaining: DEMO_SPRINTS.current.tasks.length - DEMO_SPRINTS.current.finished.length
    })
    expect(burndown.body.days.length).toBeGreaterThan(10)
    // The finished tasks were done on days of their own (the seed places the sprint in the past): the line steps down.
    const completedByDay = burndown.body.days
      .filter((d: { completed: number | null }) => d.completed !== null)
      .map((d: { completed: number }) => d.completed)
    expect(completedByDay.length).toBe(DEMO_SPRINTS.current.startedDaysAgo + 1)
    expect(new Set(completedByDay).size).toBe(DEMO_SPRINTS.current.finished.length)
    expect(completedByDay).toEqual([...completedByDay].sort((a, b) => a - b))
    const previous = byName.get(DEMO_SPRINTS.previous.name) as { id: string }
    const earlier = await atrium.request("GET", `/pm/v1/sprints/${previous.id}/burndown`, { token: ben })
    expect(earlier.body.days.map((d: { completed: number | null }) => d.completed).filter((c: number | null) => c !== null)).toHaveLength(
      earlier.body.days.length
    )
    expect(earlier.body.current.completed).toBe(DEMO_SPRINTS.previous.finished.length)
    const velocity = await atrium.request("GET", `/pm/v1/spaces/${spaceId}/velocity`, { token: ada })
    expect(velocity.body.sprints).toHaveLength(1)
    expect(velocity.body.sprints[0]).toMatchObject({
      name: DEMO_SPRINTS.previous.name,
      committedTasks: DEMO_SPRINTS.previous.tasks.length,
      completedTasks: DEMO_SPRINTS.previous.finished.length
    })
  })

  it("gives each user their own notes and version of the same recorded call", async () => {
    for (const name of Object.keys(demoNotes)) {
      const [adaCall, benCall] = [await callNamed(ada, name), await callNamed(ben, name)]
      expect(adaCall.id).toBe(benCall.id)
      expect(adaCall.userNotes).toBe(demoNotes[name]![0])
      expect(benCall.userNotes).toBe(demoNotes[name]![1])
      expect(adaCall.notesVersion.id).not.toBe(benCall.notesVersion.id)
      expect(adaCall.enhancedNotes).not.toBe(benCall.enhancedNotes)
      expect(adaCall.notesVersion.isDefault).toBe(false)
    }
    const transcript = await atrium.request("GET", `/hub/v1/calls/${(await callNamed(ben, "Weekly bug triage")).id}/transcript`, {
      token: ben
    })
    expect(transcript.status, transcript.text).toBe(200)
    expect(JSON.stringify(transcript.body)).toContain("cache headers")
  })

  it("has a calendar series whose occurrence carries both users' prompts, combined by the rule", async () => {
    const triage = await callNamed(ben, DEMO_SERIES.meeting)
    expect(triage.calendarEventId).toMatch(/_\d{8}T\d{6}Z$/)
    const [adaEvent, benEvent] = await Promise.all(
      [ada, ben].map(async (token) => (await atrium.request("GET", `/hub/v1/calendar/events/${triage.calendarEventId}`, { token })).body)
    )
    expect(adaEvent).toMatchObject({ title: DEMO_SERIES.title, recurring: true, isOrganizer: true })
    expect(adaEvent.seriesPrompt ?? null).toBeNull()
    expect(adaEvent.effectivePrompt).toBe(DEMO_SERIES.occurrencePrompt[0])
    expect(benEvent).toMatchObject({
      isOrganizer: false,
      seriesPrompt: DEMO_SERIES.seriesPrompt,
      occurrencePrompt: DEMO_SERIES.occurrencePrompt[1]
    })
    expect(benEvent.effectivePrompt).toBe(
      `series custom prompt: ${DEMO_SERIES.seriesPrompt}\noccurrence custom prompt: ${DEMO_SERIES.occurrencePrompt[1]}`
    )
  })

  it("has a public feedback board with categories, voted and commented requests, a roadmap and a released milestone", async () => {
    const slug = demoBoardSlug(workspaceId)
    expect(output).toContain(`/feedback/v1/public/boards/${slug}`)
    const board = await atrium.request("GET", `/feedback/v1/public/boards/${slug}`)
    expect(board.status, board.text).toBe(200)
    const categories = await atrium.request("GET", `/feedback/v1/public/boards/${slug}/categories`)
    expect(categories.body.items.map((c: { name: string }) => c.name).sort()).toEqual([...DEMO_BOARD.categories].sort())
    const requests = await atrium.request("GET", `/feedback/v1/public/boards/${slug}/feature-requests?limit=50`)
    expect(requests.status, requests.text).toBe(200)
    expect(requests.body.items).toHaveLength(DEMO_BOARD.requests.length)
    for (const seeded of DEMO_BOARD.requests) {
      const listed = requests.body.items.find((r: { title: string }) => r.title === seeded.title)
      expect(listed, seeded.title).toMatchObject({
        voteCount: new Set(seeded.voters).size,
        commentCount: seeded.comments.length,
        category: expect.objectContaining({ name: seeded.category })
      })
      if (seeded.status !== undefined) expect(listed.status.name).toBe(seeded.status)
    }
    const commented = requests.body.items.find((r: { title: string }) => r.title === DEMO_BOARD.requests[0].title)
    const comments = await atrium.request("GET", `/feedback/v1/public/boards/${slug}/feature-requests/${commented.shortId}/comments`)
    expect(comments.body.items.map((c: { body: string }) => c.body)).toEqual(DEMO_BOARD.requests[0].comments.map(([, text]) => text))
    const roadmap = await atrium.request("GET", `/feedback/v1/public/boards/${slug}/roadmap`)
    expect(roadmap.body.columns.flatMap((c: { requests: Array<{ title: string }> }) => c.requests.map((r) => r.title))).toEqual(
      expect.arrayContaining(["Dark mode", "Import tasks from a CSV file"])
    )
    const milestones = await atrium.request("GET", `/feedback/v1/public/boards/${slug}/milestones`)
    const milestone = milestones.body.items.find((m: { name: string }) => m.name === DEMO_BOARD.milestone.name)
    expect(milestone).toMatchObject({ hasArticle: true, releasedAt: expect.any(String) })
    expect(milestone.featureRequests.map((r: { title: string }) => r.title).sort()).toEqual([...DEMO_BOARD.milestone.requests].sort())
    const article = await atrium.request("GET", `/feedback/v1/public/boards/${slug}/milestones/${milestone.id}/article`)
    expect(article.body.html).toContain("<h1>Live boards and page history</h1>")
    // Rendered from the shared rich-text schema.
    expect(article.body.html).toContain("<li><p><strong>Restore a page version</strong>: open a page's versions and press <em>Restore</em>")
    const changelog = await atrium.request("GET", `/feedback/v1/public/boards/${slug}/changelog`)
    expect(changelog.body.items).toEqual([
      expect.objectContaining({ title: DEMO_BOARD.changelog.title, kind: "new", milestoneId: milestone.id })
    ])
  })

  it("Lens answers the questions the README suggests, from the seeded meetings", async () => {
    const ask = async (token: string, message: string) => {
      const answer = await atrium.request("POST", "/hub/lens/chat", { token, body: { message, workspaceId } })
      expect(answer.status, answer.text).toBe(200)
      return answer.body
    }
    const titles = (answer: { citations: Array<{ title: string }> }) => answer.citations.map((c) => c.title).join(" | ")
    for (const question of DEMO_QUESTIONS) expect(output).toContain(question)
    const [cacheQuestion, darkModeQuestion, agentQuestion] = DEMO_QUESTIONS
    const cache = await ask(ben, cacheQuestion)
    expect(cache.answer).toContain("Ada")
    expect(titles(cache)).toContain("Weekly bug triage")
    const darkMode = await ask(ada, darkModeQuestion)
    expect(titles(darkMode)).toContain("Sprint 12 planning")
    expect(darkMode.answer.toLowerCase()).toContain("dark mode")
    const agent = await ask(ada, agentQuestion)
    expect(agent.trace.route).toBe("agent")
    expect(agent.proposals.length).toBeGreaterThan(0)
  })

  it("the printed API key works at the printed MCP address", async () => {
    const key = /API key\s+(\S+)/.exec(output)![1]!
    const client = new Client({ name: "demo-test", version: "1.0.0" })
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${atrium.origin}/mcp`), { requestInit: { headers: { "x-api-key": key } } })
    )
    const found = await client.callTool({ name: "searchTasks", arguments: { list: "Bugs", includeClosed: "true" } })
    expect((found.structuredContent as { items: Array<unknown> }).items).toHaveLength(6)
    await client.close()
  })

  it("a second start seeds nothing more and prints the logins again", async () => {
    const again = await atrium.run(seedDemo(atrium.origin))
    expect(again).toContain("already seeded")
    expect(again).not.toMatch(/atr_live_/)
    expect(again).toContain(`${DEMO_SECOND_EMAIL} / ${DEMO_PASSWORD}`)
    expect(again).toContain(`${atrium.origin}/mcp`)
    const ada = await login(DEMO_EMAIL)
    const workspaces = await atrium.request("GET", "/pm/v1/workspaces", { token: ada })
    expect(workspaces.body.items ?? workspaces.body).toHaveLength(1)
  })
})
