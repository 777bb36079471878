/**
 * Lens state lives in actors (a thread per thread, an account and the
 * experiments per workspace) with SQL as the durable truth: concurrent turns
 * of one thread are serialised, concurrent top-ups all count, and after a
 * restart every thread, balance and experiment is rebuilt from the rows, so
 * a follow-up is still resolved against the thread's history.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { signUp, startAtrium, type TestServer } from "../support/atrium.ts"
import { workspaceWith } from "../hub/support/calls.ts"

const dataDir = mkdtempSync(path.join(tmpdir(), "atrium-lens-state-"))
let atrium: TestServer | undefined
afterAll(async () => {
  await atrium?.close()
  rmSync(dataDir, { recursive: true, force: true })
})

describe("Lens state across concurrency and a restart", () => {
  it("serialises a thread's turns, counts every top-up, and rebuilds threads, credits and experiments after a restart", async () => {
    atrium = await startAtrium({ dataDir })
    const alice = await signUp(atrium, "Alice")
    const workspaceId = await workspaceWith(atrium, alice, [])
    const space = await atrium.request("POST", "/wiki/v1/spaces", { token: alice.token, body: { workspaceId, name: "Ops", key: "OPS" } })
    expect(space.status, space.text).toBe(201)
    const page = await atrium.request("POST", `/wiki/v1/spaces/${space.body.id}/pages`, {
      token: alice.token,
      body: { title: "Incident runbook", markdown: "The incident runbook: page the on-call engineer, then open a status page." }
    })
    expect(page.status, page.text).toBe(201)
    const ask = (token: string, body: Record<string, unknown>) =>
      atrium!.request("POST", "/hub/lens/chat", { token, body: { workspaceId, ...body } })

    const first = await ask(alice.token, { message: "What does the incident runbook say?" })
    expect(first.status, first.text).toBe(200)
    const threadId = first.body.threadId as string
    // Five follow-ups at once on one thread: each gets its own turn, none is lost.
    const followUps = ["and who is paged?", "and then?", "and what is it for?", "also when?", "and the status page?"]
    const replies = await Promise.all(followUps.map((message) => ask(alice.token, { message, threadId })))
    expect(replies.map((r) => r.status)).toEqual(followUps.map(() => 200))
    const thread = await atrium.request("GET", `/hub/v1/lens/threads/${threadId}`, { token: alice.token })
    expect(thread.body.turns).toHaveLength(6)
    expect(thread.body.turns[0].message).toBe("What does the incident runbook say?")
    expect(new Set(thread.body.turns.slice(1).map((t: any) => t.message))).toEqual(new Set(followUps))

    // Ten top-ups at once all count.
    const credits = `/hub/v1/workspaces/${workspaceId}/lens/credits`
    expect((await atrium.request("PUT", credits, { token: alice.token, body: { balance: 40 } })).body.balance).toBe(40)
    const topUps = await Promise.all(
      Array.from({ length: 10 }, () => atrium!.request("POST", credits, { token: alice.token, body: { amount: 1 } }))
    )
    expect(topUps.map((r) => r.status)).toEqual(topUps.map(() => 200))
    expect((await atrium.request("GET", credits, { token: alice.token })).body.balance).toBe(50)

    const experiments = `/hub/v1/workspaces/${workspaceId}/lens/experiments`
    const experiment = await atrium.request("POST", experiments, {
      token: alice.token,
      body: {
        name: "Top three",
        variants: [
          { name: "control", settings: {} },
          { name: "narrow", settings: { topK: 3 } }
        ]
      }
    })
    expect(experiment.status, experiment.text).toBe(201)
    await atrium.close()

    atrium = await startAtrium({ dataDir })
    const login = await atrium.request("POST", "/pm/v1/auth/login", { body: { email: alice.email, password: alice.password } })
    const token = login.body.accessToken as string
    const rebuilt = await atrium.request("GET", `/hub/v1/lens/threads/${threadId}`, { token })
    expect(rebuilt.body).toEqual(thread.body)
    expect((await atrium.request("GET", credits, { token })).body.balance).toBe(50)
    expect((await atrium.request("GET", experiments, { token })).body.items).toEqual([experiment.body])
    // Still a follow-up of the thread's last question, and still one credit a run.
    const after = await ask(token, { message: "and who owns it?", threadId })
    expect(after.status, after.text).toBe(200)
    const graded = after.body.trace.steps.find((s: any) => s.kind === "grade").detail as string
    expect(graded).toMatch(/relevant for "and who owns it\? \(.*incident.*runbook.*\)"/)
    expect((await atrium.request("GET", credits, { token })).body.balance).toBe(49)
    expect((await atrium.request("GET", `/hub/v1/lens/threads/${threadId}`, { token })).body.turns).toHaveLength(7)
  })
})
