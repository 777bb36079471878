/**
 * `npm start -- --demo`: the seed gives two users who share a workspace, a
 * space with lists and 30 tasks, a wiki space with rich-text pages both users
 * may edit, and a working API key for the printed MCP address; a second start
 * seeds nothing more.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DEMO_EMAIL, DEMO_PASSWORD, DEMO_SECOND_EMAIL, seedDemo } from "../facade/Demo.ts"
import { startAtrium, type TestServer } from "./support/atrium.ts"

let atrium: TestServer
let output: string

const login = async (email: string) => {
  const response = await atrium.request("POST", "/pm/v1/auth/login", { body: { email, password: DEMO_PASSWORD } })
  expect(response.status, response.text).toBe(200)
  return response.body.accessToken as string
}

beforeAll(async () => {
  atrium = await startAtrium()
  output = await atrium.run(seedDemo(atrium.origin))
})
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
