/**
 * Prompt combination through the model port, against a local fake
 * OpenAI-compatible server that sees every prompt: the workspace prompt
 * first, then each participant's own per-call prompt, or their series +
 * occurrence prompts combined exactly as the seed says ("series custom
 * prompt: S" then "occurrence custom prompt: O"; one alone as it stands).
 * One model call per distinct set of inputs. When processing finishes,
 * participants' personal webhooks get "meeting.processed".
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { signUp, startAtrium, type TestServer } from "../support/atrium.ts"
import { fakeServer, json, record, settled, type User, workspaceWith } from "./support/calls.ts"

const saved = Object.fromEntries(
  ["LLM_BASE_URL", "LLM_API_KEY", "LLM_MODEL", "ATRIUM_ALLOW_PRIVATE_URLS", "WEBHOOK_POLL_MS"].map((name) => [name, process.env[name]])
)
let atrium: TestServer
let model: Awaited<ReturnType<typeof fakeServer>>
let receiver: Awaited<ReturnType<typeof fakeServer>>
let alice: User
let bob: User
let carol: User
let dan: User
let workspaceId: string
let occurrenceId: string

/** The instructions block of a prompt the fake model received. */
const instructionsOf = (prompt: string) =>
  /^Instructions:\n([\s\S]*?)\n\n(?:My notes|My note template|Meeting date)/.exec(prompt)?.[1] ?? null
const prompts = () => model.requests.map((r) => r.body.messages[1].content as string)

beforeAll(async () => {
  model = await fakeServer((request, response) => {
    if (request.url !== "/v1/chat/completions" || request.headers.authorization !== "Bearer llm-key") return json(response, 401, {})
    const instructions = instructionsOf(request.body.messages[1].content)
    const content = {
      summary: `Summary steered by: ${instructions ?? "nothing"}`,
      keyPoints: ["Pricing stays simple"],
      actionItems: [{ text: "Send the timeline", owner: "Alice", dueDate: "2026-11-27" }],
      enhancedNotes: "## Notes"
    }
    json(response, 200, {
      id: "chatcmpl-1",
      object: "chat.completion",
      choices: [{ index: 0, message: { role: "assistant", content: JSON.stringify(content) } }]
    })
  })
  receiver = await fakeServer((_, response) => json(response, 200, {}))
  Object.assign(process.env, {
    LLM_BASE_URL: `${model.url}/v1`,
    LLM_API_KEY: "llm-key",
    LLM_MODEL: "fake-model",
    ATRIUM_ALLOW_PRIVATE_URLS: "1",
    WEBHOOK_POLL_MS: "50"
  })
  atrium = await startAtrium()
  ;[alice, bob, carol, dan] = await Promise.all(["Alice", "Bob", "Carol", "Dan"].map((name) => signUp(atrium, name)))
  workspaceId = await workspaceWith(atrium, alice, [bob, carol, dan])
  const event = await atrium.request("POST", "/hub/v1/calendar/events", {
    token: alice.token,
    body: {
      title: "Weekly sync",
      start: "2026-12-01T10:00:00.000Z",
      end: "2026-12-01T10:30:00.000Z",
      recurrence: "FREQ=WEEKLY;COUNT=4",
      attendeeEmails: [bob.email, carol.email, dan.email]
    }
  })
  expect(event.status).toBe(201)
  const listed = await atrium.request("GET", "/hub/v1/calendar/events?from=2026-12-01T00:00:00.000Z&to=2026-12-02T00:00:00.000Z", {
    token: bob.token
  })
  occurrenceId = listed.body.items[0].occurrenceId
})
afterAll(async () => {
  await atrium?.close()
  await Promise.all([model?.close(), receiver?.close()])
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name]
    else process.env[name] = value
  }
})

const setPrompt = (user: User, which: "series-prompt" | "occurrence-prompt", prompt: string) =>
  atrium.request("PUT", `/hub/v1/calendar/events/${occurrenceId}/${which}`, { token: user.token, body: { prompt } })

describe("prompts given to the model", () => {
  it("combines the workspace, series, occurrence and per-call prompts exactly, one model call per distinct input set", async () => {
    await atrium.request("PATCH", `/hub/v1/workspaces/${workspaceId}/settings`, {
      token: alice.token,
      body: { customPrompt: "Workspace: decisions first." }
    })
    expect((await setPrompt(bob, "series-prompt", "Track pricing")).status).toBe(200)
    expect((await setPrompt(bob, "occurrence-prompt", "This week: the launch date")).status).toBe(200)
    await setPrompt(carol, "series-prompt", "Track hiring")
    await setPrompt(dan, "occurrence-prompt", "Only the venue")
    const hook = await atrium.request("POST", "/hub/v1/users/me/webhooks", { token: bob.token, body: { url: `${receiver.url}/hooks` } })
    expect(hook.status).toBe(201)

    const created = await record(atrium, alice.token, workspaceId, {
      attendeeEmails: [bob.email, carol.email, dan.email],
      calendarEventId: occurrenceId
    })
    expect((await settled(atrium, alice.token, created.id)).status).toBe("ready")

    // Alice (no inputs) → the default; Bob both prompts; Carol and Dan one each: four distinct sets, four calls.
    expect(prompts().map(instructionsOf).sort()).toEqual(
      [
        "Workspace: decisions first.",
        "Workspace: decisions first.\n\nseries custom prompt: Track pricing\noccurrence custom prompt: This week: the launch date",
        "Workspace: decisions first.\n\nTrack hiring",
        "Workspace: decisions first.\n\nOnly the venue"
      ].sort()
    )
    expect(
      model.requests.every((r) => r.body.model === "fake-model" && r.body.messages[1].content.includes("Alice: Welcome everyone"))
    ).toBe(true)

    const bobCall = (await atrium.request("GET", `/hub/v1/calls/${created.callId}`, { token: bob.token })).body
    expect(bobCall.summary).toBe(
      "Summary steered by: Workspace: decisions first.\n\nseries custom prompt: Track pricing\noccurrence custom prompt: This week: the launch date"
    )
    expect(bobCall.actionItems[0]).toMatchObject({ text: "Send the timeline", owner: "Alice", dueDate: "2026-11-27" })
    expect((await atrium.request("GET", `/hub/v1/calls/${created.callId}`, { token: alice.token })).body.notesVersion.isDefault).toBe(true)
    expect(model.requests).toHaveLength(4)

    // Dan's per-call prompt replaces his calendar prompt for this call: one new generation, only his.
    const danCall = await atrium.request("PUT", `/hub/v1/calls/${created.callId}/my-prompt`, {
      token: dan.token,
      body: { prompt: "Only the catering" }
    })
    expect(danCall.body.summary).toBe("Summary steered by: Workspace: decisions first.\n\nOnly the catering")
    expect(model.requests).toHaveLength(5)
    expect((await atrium.request("GET", `/hub/v1/calls/${created.callId}`, { token: carol.token })).body.summary).toBe(
      "Summary steered by: Workspace: decisions first.\n\nTrack hiring"
    )
    expect(model.requests).toHaveLength(5)

    // Bob's personal webhook heard that the meeting was processed (thin payload: ids).
    for (let i = 0; i < 200 && receiver.requests.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 25))
    expect(receiver.requests[0]!.headers["webhook-signature"]).toMatch(/^v1,/)
    expect(JSON.stringify(receiver.requests[0]!.body)).toContain(created.callUuid)
  })

  it("refuses a calendarEventId that is not an occurrence id, naming the field", async () => {
    const reply = await atrium.request("POST", "/hub/v1/recordings", {
      token: alice.token,
      body: { workspaceId, name: "x", transcript: { format: "segments", segments: [] }, calendarEventId: "not-an-occurrence" }
    })
    expect(reply.status).toBe(400)
    expect(reply.body.error.details[0].path).toBe("body.calendarEventId")
  })
})
