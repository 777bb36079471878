/**
 * Form Views: a form on a list with task fields and a custom field; member
 * and public submissions create tasks through the normal write path; the
 * public link's honeypot and rate limit; answers checked and named.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type PmAtrium, startPmAtrium } from "../work/support/pmAtrium.ts"
import { workspaceWithList } from "./support.ts"

let atrium: PmAtrium
let w: Awaited<ReturnType<typeof workspaceWithList>>

beforeAll(async () => {
  atrium = await startPmAtrium()
  w = await workspaceWithList(atrium)
})
afterAll(() => atrium?.close())

const publicCall = (method: "GET" | "POST", path: string, body?: unknown) =>
  atrium.request(method, `/pm/v1/public/forms/${path}`, body === undefined ? {} : { body })

describe("form views", () => {
  it("turns member and public submissions into tasks, custom fields included, and drops honeypot hits", async () => {
    const field = await w.call("POST", `/v1/lists/${w.listId}/custom-fields`, { name: "Customers affected", type: "number" })
    const form = await w.call("POST", `/v1/lists/${w.listId}/forms`, {
      name: "Bug report",
      fields: [
        { target: "name", label: "What broke?", required: true },
        { target: "priority", label: "Severity" },
        { target: "dueDate", label: "Needed by" },
        { target: "customField", fieldId: field.id, label: "How many customers?", required: true }
      ],
      public: true,
      rateLimitPerMinute: 2
    })
    expect(form.publicToken).toMatch(/^[\w-]{16,}$/)

    const mine = await w.call("POST", `/v1/forms/${form.id}/submissions`, {
      answers: { name: "Export is broken", priority: "high", dueDate: "2026-12-24", [field.id]: 12 }
    })
    const task = await w.call("GET", `/v1/tasks/${mine.taskId}`)
    expect(task).toMatchObject({ name: "Export is broken", priority: "high", listId: w.listId, createdBy: w.owner.userId })
    expect(task.dueDate).toMatch(/^2026-12-24T00:00:00/)
    expect(task.customFields.find((f: { fieldId: string }) => f.fieldId === field.id).value).toBe(12)
    expect((await atrium.changes(w.workspaceId, "task.created")).some((c) => c.entityId === mine.taskId)).toBe(true)

    const rendered = await publicCall("GET", form.publicToken)
    expect(rendered.status).toBe(200)
    expect(rendered.body.fields.map((f: { key: string }) => f.key)).toEqual(["name", "priority", "dueDate", field.id])

    const before = (await atrium.changes(w.workspaceId, "task.created")).length
    const bot = await publicCall("POST", `${form.publicToken}/submissions`, {
      answers: { name: "Buy now", [field.id]: 1 },
      website: "http://spam"
    })
    expect(bot.status).toBe(202)
    expect((await atrium.changes(w.workspaceId, "task.created")).length).toBe(before)

    const guest = await publicCall("POST", `${form.publicToken}/submissions`, { answers: { name: "Login loops", [field.id]: 3 } })
    expect(guest.status).toBe(202)
    expect(guest.body).toEqual({ accepted: true, taskId: null })
    const created = await atrium.changes(w.workspaceId, "task.created")
    expect(created.length).toBe(before + 1)
    expect((await w.call("GET", `/v1/tasks/${created.at(-1)!.entityId}`)).createdBy).toBe(w.owner.userId)

    // The link's limit: 2 a minute.
    expect((await publicCall("POST", `${form.publicToken}/submissions`, { answers: { name: "Second", [field.id]: 1 } })).status).toBe(202)
    const limited = await publicCall("POST", `${form.publicToken}/submissions`, { answers: { name: "Third", [field.id]: 1 } })
    expect(limited.status).toBe(429)
    expect((await w.call("GET", `/v1/forms/${form.id}`)).submissionCount).toBe(3)

    // Closing the link: gone for the public.
    await w.call("PATCH", `/v1/forms/${form.id}`, { public: false })
    expect((await publicCall("GET", form.publicToken)).status).toBe(404)
  })

  it("checks answers and form fields, naming each problem", async () => {
    const form = await w.call("POST", `/v1/lists/${w.listId}/forms`, {
      name: "Request",
      fields: [
        { target: "name", label: "Title", required: true },
        { target: "priority", label: "Priority", required: true }
      ]
    })
    const submit = (answers: unknown) =>
      atrium.request("POST", `/pm/v1/forms/${form.id}/submissions`, { token: w.member.token, body: { answers } })
    const paths = (response: { body: any }) => response.body.error.details.map((d: { path: string }) => d.path)
    const missing = await submit({ name: "No priority" })
    expect(missing.status).toBe(400)
    expect(paths(missing)).toEqual(["body.answers.priority"])
    const wrong = await submit({ name: "Bad", priority: "apocalyptic" })
    expect(wrong.status).toBe(400)
    expect(paths(wrong)).toEqual(["body.answers.priority"])
    const stranger = await submit({ name: "x", priority: "low", color: "red" })
    expect(paths(stranger)).toEqual(["body.answers.color"])
    expect(
      (
        await atrium.request("POST", `/pm/v1/forms/${form.id}/submissions`, {
          token: w.viewer.token,
          body: { answers: { name: "x", priority: "low" } }
        })
      ).status
    ).toBe(403)
    expect((await atrium.request("GET", `/pm/v1/forms/${form.id}`, { token: w.outsider.token })).status).toBe(404)

    const noName = await atrium.request("POST", `/pm/v1/lists/${w.listId}/forms`, {
      token: w.owner.token,
      body: { name: "Nameless", fields: [{ target: "description", label: "Say something" }] }
    })
    expect(noName.status).toBe(400)
    expect(paths(noName)).toEqual(["body.fields"])
    const foreignField = await atrium.request("POST", `/pm/v1/lists/${w.listId}/forms`, {
      token: w.owner.token,
      body: {
        name: "F",
        fields: [
          { target: "name", label: "T" },
          { target: "customField", fieldId: crypto.randomUUID(), label: "X" }
        ]
      }
    })
    expect(paths(foreignField)).toEqual(["body.fields.1.fieldId"])
    await w.call("DELETE", `/v1/forms/${form.id}`, undefined, 204)
    expect((await atrium.request("GET", `/pm/v1/forms/${form.id}`, { token: w.owner.token })).status).toBe(404)
  })
})
