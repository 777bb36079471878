/**
 * The standing Lens index: it follows the workspace's changes without a
 * restart (a task and its comments, a page edit, a processed recording),
 * still applies the asker's permissions before ranking (private pm spaces,
 * page restrictions set after indexing, each user's own call notes), and the
 * streaming operation sends the run as it happens and stops it when the
 * client goes away.
 */
import { request as httpRequest, type ServerResponse } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { signUp, startAtrium, type TestServer } from "../support/atrium.ts"
import { fakeServer, json, record, settled, type User, workspaceWith } from "../hub/support/calls.ts"

let atrium: TestServer
let alice: User
let bob: User
let workspaceId: string
let listId: string
let pageId: string
let callId: number

const ask = (who: User, message: string) => atrium.request("POST", "/hub/lens/chat", { token: who.token, body: { workspaceId, message } })

const cites = (reply: { body: any }, sourceType: string) => reply.body.citations.filter((c: any) => c.sourceType === sourceType)

/** Waits until `check` holds (the index is current by the next question, but writes such as a recording's processing finish later). */
const eventually = async (check: () => Promise<boolean> | boolean, what: string) => {
  for (let i = 0; i < 200; i++) {
    if (await check()) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`never: ${what}`)
}

/** A server-sent event stream read as it arrives; `close` drops the connection. */
const openStream = (who: User, message: string) => {
  const received = { text: "", ended: false }
  const request = httpRequest({
    host: "127.0.0.1",
    port: atrium.port,
    path: "/hub/v1/lens/chat/stream",
    method: "POST",
    headers: { authorization: `Bearer ${who.token}`, "content-type": "application/json" }
  })
  const status = new Promise<number>((resolve, reject) => {
    request.on("response", (response) => {
      response.setEncoding("utf8")
      response.on("data", (chunk: string) => (received.text += chunk))
      response.on("end", () => (received.ended = true))
      response.on("error", () => (received.ended = true))
      resolve(response.statusCode ?? 0)
    })
    request.on("error", reject)
  })
  request.end(JSON.stringify({ workspaceId, message }))
  return { received, status, close: () => request.destroy() }
}

const eventsOf = (text: string) => [...text.matchAll(/^event: (\w+)$/gm)].map((m) => m[1]!)

beforeAll(async () => {
  atrium = await startAtrium()
  alice = await signUp(atrium, "Alice")
  bob = await signUp(atrium, "Bob")
  workspaceId = await workspaceWith(atrium, alice, [bob])
  const space = await atrium.request("POST", `/pm/v1/workspaces/${workspaceId}/spaces`, { token: alice.token, body: { name: "Fleet" } })
  const list = await atrium.request("POST", `/pm/v1/spaces/${space.body.id}/lists`, { token: alice.token, body: { name: "Refits" } })
  listId = list.body.id
}, 60_000)

afterAll(async () => {
  await atrium?.close()
})

describe("the index follows the workspace without a restart", () => {
  it("a new task, then a comment on it, are answerable by the next question", async () => {
    const before = await ask(bob, "Which hull fabric does the zeppelin refit use?")
    expect(before.status, before.text).toBe(200)
    expect(cites(before, "task")).toEqual([])
    const task = await atrium.request("POST", `/pm/v1/lists/${listId}/tasks`, {
      token: alice.token,
      body: { name: "Zeppelin refit: replace the hull fabric", description: "Use the silver hull fabric from the new supplier." }
    })
    expect(task.status, task.text).toBe(201)
    const after = await ask(bob, "Which hull fabric does the zeppelin refit use?")
    expect(cites(after, "task").map((c: any) => c.sourceId)).toContain(task.body.id)
    const comment = await atrium.request("POST", `/pm/v1/tasks/${task.body.id}/comments`, {
      token: alice.token,
      body: { text: "The zeppelin refit waits for the helium permit." }
    })
    expect(comment.status, comment.text).toBe(201)
    const commented = await ask(bob, "What does the zeppelin refit wait for? helium permit")
    expect(commented.text).toContain("helium permit")
  })

  it("a deleted task or chat document leaves the index by the next question", async () => {
    const task = await atrium.request("POST", `/pm/v1/lists/${listId}/tasks`, {
      token: alice.token,
      body: { name: "Narwhal survey: count the pods", description: "The narwhal survey counts pods in the fjord." }
    })
    const chat = await atrium.request("POST", `/hub/v1/workspaces/${workspaceId}/chat-documents`, {
      token: alice.token,
      body: {
        source: "chatapp",
        externalId: "narwhal",
        title: "#survey",
        messages: [{ externalId: "n1", author: "Erin", sentAt: "2026-11-21T12:00:00Z", text: "The narwhal survey found eleven pods." }]
      }
    })
    expect(chat.status, chat.text).toBe(201)
    // An open question: both sources are about it (a "how many" question is answered by the one stating a count).
    const question = "What do we know about the narwhal survey of the pods?"
    const before = await ask(bob, question)
    expect(before.body.citations.map((c: any) => c.sourceId)).toEqual(expect.arrayContaining([task.body.id, chat.body.id]))
    expect((await atrium.request("DELETE", `/pm/v1/tasks/${task.body.id}`, { token: alice.token })).status).toBeLessThan(300)
    const removed = await atrium.request("DELETE", `/hub/v1/workspaces/${workspaceId}/chat-documents/${chat.body.id}`, {
      token: alice.token
    })
    expect(removed.status, removed.text).toBeLessThan(300)
    const after = await ask(bob, question)
    expect(after.text).not.toContain(task.body.id)
    expect(after.text).not.toContain(chat.body.id)
    expect(after.text).not.toContain("eleven pods")
  })

  it("a page edit replaces what Lens answers from", async () => {
    const space = await atrium.request("POST", "/wiki/v1/spaces", { token: alice.token, body: { workspaceId, name: "Hangar", key: "HGR" } })
    const page = await atrium.request("POST", `/wiki/v1/spaces/${space.body.id}/pages`, {
      token: alice.token,
      body: { title: "Airship hangar", markdown: "The hangar door opens at dawn for the airship crews." }
    })
    expect(page.status, page.text).toBe(201)
    pageId = page.body.id
    const first = await ask(bob, "When does the airship hangar door open?")
    expect(cites(first, "page").map((c: any) => c.sourceId)).toContain(pageId)
    expect(first.text).toContain("dawn")
    const edited = await atrium.request("PATCH", `/wiki/v1/pages/${pageId}`, {
      token: alice.token,
      body: { markdown: "The hangar door opens at dusk for the airship crews." }
    })
    expect(edited.status, edited.text).toBe(200)
    const second = await ask(bob, "When does the airship hangar door open?")
    expect(second.text).toContain("dusk")
    expect(second.text).not.toContain("dawn")
  })

  it("a recording that finishes processing is answerable from its transcript", async () => {
    const question = "What did Carol ask Bob about the login bug?"
    expect(cites(await ask(bob, question), "transcript")).toEqual([])
    const recording = await record(atrium, alice.token, workspaceId)
    callId = recording.callId
    expect((await settled(atrium, alice.token, recording.id)).status).toBe("ready")
    const after = await ask(bob, question)
    const cited = cites(after, "transcript")
    expect(cited.length).toBeGreaterThan(0)
    expect(cited[0].snippet).toMatch(/login bug/)
  })
})

describe("permissions are applied before ranking, by the standing index too", () => {
  it("a task in a private space reaches its members only", async () => {
    const secret = await atrium.request("POST", `/pm/v1/workspaces/${workspaceId}/spaces`, {
      token: alice.token,
      body: { name: "Board", isPrivate: true }
    })
    expect(secret.status, secret.text).toBe(201)
    const list = await atrium.request("POST", `/pm/v1/spaces/${secret.body.id}/lists`, { token: alice.token, body: { name: "Deals" } })
    const task = await atrium.request("POST", `/pm/v1/lists/${list.body.id}/tasks`, {
      token: alice.token,
      body: { name: "Quokka acquisition: negotiate the price", description: "The quokka acquisition closes at 12 million." }
    })
    expect(task.status, task.text).toBe(201)
    const question = "What is the price of the quokka acquisition?"
    const forAlice = await ask(alice, question)
    expect(cites(forAlice, "task").map((c: any) => c.sourceId)).toContain(task.body.id)
    const forBob = await ask(bob, question)
    expect(forBob.text).not.toContain(task.body.id)
    expect(forBob.text).not.toContain("12 million")
    expect(forBob.body.trace.steps.find((s: any) => s.kind === "retrieve").detail).not.toMatch(/^0 /)
  })

  it("a page restricted after it was indexed disappears for those without access at once", async () => {
    const question = "When does the airship hangar door open?"
    expect(cites(await ask(bob, question), "page").map((c: any) => c.sourceId)).toContain(pageId)
    const restricted = await atrium.request("PUT", `/wiki/v1/pages/${pageId}/permissions`, {
      token: alice.token,
      body: { restriction: "view" }
    })
    expect(restricted.status, restricted.text).toBe(200)
    const forBob = await ask(bob, question)
    expect(forBob.text).not.toContain(pageId)
    expect(forBob.text).not.toContain("dusk")
    expect(cites(await ask(alice, question), "page").map((c: any) => c.sourceId)).toContain(pageId)
  })

  it("a user's own call notes reach them only", async () => {
    const notes = await atrium.request("PUT", `/hub/v1/calls/${callId}/my-notes`, {
      token: alice.token,
      body: { notes: "The platypus contract renews in June." }
    })
    expect(notes.status, notes.text).toBe(200)
    const question = "When does the platypus contract renew?"
    await eventually(async () => (await ask(alice, question)).text.includes("June"), "alice's notes answer her")
    const forAlice = await ask(alice, question)
    expect(cites(forAlice, "call").length).toBeGreaterThan(0)
    const forBob = await ask(bob, question)
    expect(forBob.text).not.toContain("platypus contract renews")
    expect(cites(forBob, "call")).toEqual([])
  })
})

describe("Lens Streaming Resource", () => {
  const withModel = async (hold: (response: ServerResponse) => void, body: () => Promise<void>) => {
    const saved = { ...process.env }
    const model = await fakeServer((request, response) => {
      // Routing and grading are answered at once (with nothing usable: the rules decide); only synthesis is held.
      if (/router of Lens|grader of Lens/.test(request.body.messages[0].content)) {
        return json(response, 200, { choices: [{ message: { role: "assistant", content: "{}" } }] })
      }
      hold(response)
    })
    Object.assign(process.env, { LLM_BASE_URL: model.url, LLM_API_KEY: "sk-test", LLM_MODEL: "fake-stream" })
    try {
      await body()
      return model
    } finally {
      for (const key of ["LLM_BASE_URL", "LLM_API_KEY", "LLM_MODEL"]) {
        if (saved[key] === undefined) delete process.env[key]
        else process.env[key] = saved[key]
      }
      await model.close()
    }
  }

  it("sends each step as it finishes, before the answer is written; then citations, deltas and final, in order", async () => {
    const held: Array<ServerResponse> = []
    let asked = 0
    await withModel(
      (response) => {
        asked++
        held.push(response)
      },
      async () => {
        const stream = openStream(bob, "What did Carol ask Bob about the login bug?")
        expect(await stream.status).toBe(200)
        await eventually(() => asked === 1, "the model is asked")
        await eventually(() => eventsOf(stream.received.text).length >= 4, "the local steps arrive")
        // The model has not answered: the local steps are out already, nothing else is.
        expect(new Set(eventsOf(stream.received.text))).toEqual(new Set(["step"]))
        json(held[0]!, 200, {
          choices: [{ message: { role: "assistant", content: "Carol asked Bob to fix the login bug [1]." } }],
          usage: { prompt_tokens: 100, completion_tokens: 20 }
        })
        await eventually(() => stream.received.ended, "the stream ends")
        const events = eventsOf(stream.received.text)
        const order = ["step", "citation", "delta", "final"]
        expect(new Set(events)).toEqual(new Set(order))
        expect(events.map((e) => order.indexOf(e))).toEqual(events.map((e) => order.indexOf(e)).sort((a, b) => a - b))
        const final = JSON.parse(/event: final\ndata: (.*)\n/.exec(stream.received.text)![1]!)
        expect(final.answer).toBe("Carol asked Bob to fix the login bug [1].")
        expect(final.trace.steps.at(-1)).toMatchObject({ kind: "synthesize", name: "fake-stream" })
      }
    )
  })

  it("closing the connection stops the run: the model call is abandoned and not metered, the local run that happened is", async () => {
    const usage = async (engine: string) =>
      (
        await atrium.request("GET", `/hub/v1/workspaces/${workspaceId}/token-usage/me?engine=${engine}&limit=100`, {
          token: alice.token
        })
      ).body.items as Array<any>
    const localBefore = (await usage("local")).length
    const modelBefore = (await usage("model")).filter((u) => u.purpose === "stream").length
    let asked = 0
    let abandoned = false
    await withModel(
      (response) => {
        asked++
        // Never answers: only the client going away ends this call.
        response.on("close", () => (abandoned = true))
      },
      async () => {
        const stream = openStream(alice, "What did Carol ask Bob about the login bug?")
        expect(await stream.status).toBe(200)
        await eventually(() => asked === 1, "the model is asked")
        stream.close()
        await eventually(() => abandoned, "the model call is abandoned")
        await eventually(async () => (await usage("local")).length === localBefore + 1, "the local run is metered")
        await new Promise((resolve) => setTimeout(resolve, 300))
        expect(asked).toBe(1)
        // Routing and grading answered and are metered; the abandoned synthesis is not.
        expect((await usage("model")).filter((u) => u.purpose === "stream").length).toBe(modelBefore)
        expect((await usage("local")).filter((u) => u.purpose === "stream").length).toBeGreaterThan(0)
      }
    )
  })
})
