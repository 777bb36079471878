/**
 * Authorization of every work operation, driven by the registry: each
 * operation's own example (its ids swapped for real ones) is sent by someone
 * outside the workspace (404, as if nothing existed) and, for writes, by a
 * viewer (403). Examples must therefore also decode against their schemas.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { fullPath } from "../../../facade/Registry.ts"
import { pmWorkOperations } from "../../../facade/pm/work.ts"
import { exampleIds } from "../../../facade/pm/WorkAccess.ts"
import { ex as feedbackIds } from "../../../facade/feedback/deskExamples.ts"
import { expectStatus, type PmAtrium, setupWorkspace, startPmAtrium } from "./support/pmAtrium.ts"

let atrium: PmAtrium
let w: Awaited<ReturnType<typeof setupWorkspace>>
const swap = new Map<string, string>()
/** Operations that need another entity than the shared fixture's (e.g. a task in the trash). */
const overrides = new Map<string, Map<string, string>>()

const call = async (method: string, path: string, body?: unknown, token = w.owner.token) =>
  expectStatus(
    await atrium.request(method, `/pm/v1${path}`, body === undefined ? { token } : { token, body }),
    method === "POST" ? 201 : 200
  )

beforeAll(async () => {
  atrium = await startPmAtrium()
  w = await setupWorkspace(atrium)
  const space = await call("POST", `/workspaces/${w.workspaceId}/spaces`, { name: "Engineering" })
  const folder = await call("POST", `/spaces/${space.id}/folders`, { name: "Q4 roadmap" })
  const list = await call("POST", `/folders/${folder.id}/lists`, { name: "Backlog" })
  const env = await call("POST", `/spaces/${space.id}/custom-fields`, {
    name: "Environment",
    type: "dropdown",
    options: [{ name: "production" }, { name: "staging" }]
  })
  await call("POST", `/spaces/${space.id}/custom-fields`, { name: "Story points", type: "number" })
  const task = await call("POST", `/lists/${list.id}/tasks`, { name: "Ship the login page", tags: ["frontend"], dueDate: "2026-12-01" })
  const task2 = await call("POST", `/lists/${list.id}/tasks`, { name: "Design review" })
  const checklist = await call("POST", `/tasks/${task.id}/checklists`, { name: "Release", items: ["Write changelog"] })
  const comment = await call("POST", `/tasks/${task.id}/comments`, { text: "hello" })
  const attachment = expectStatus(
    await atrium.request("POST", `/pm/v1/tasks/${task.id}/attachments?filename=a.txt`, {
      token: w.owner.token,
      rawBody: "hi",
      headers: { "content-type": "text/plain" }
    }),
    201
  )
  const entry = await call("POST", `/tasks/${task.id}/time-entries`, { startedAt: "2026-11-21T09:00:00Z", durationMinutes: 30 })
  const template = await call("POST", `/tasks/${task.id}/save-as-template`, { name: "T" })
  const relationship = await call("POST", `/tasks/${task.id}/relationships`, { type: "relates_to", relatedTaskId: task2.id })
  const statuses = await call("GET", `/spaces/${space.id}/statuses`)
  const trashed = await call("POST", `/lists/${list.id}/tasks`, { name: "Trashed" })
  expectStatus(await atrium.request("DELETE", `/pm/v1/tasks/${trashed.id}`, { token: w.owner.token }), 204)
  overrides.set("restoreDeletedTask", new Map([[exampleIds.task, trashed.id]]))
  // A board with a request and a bug report, for the operations that link a task to the feedback it delivers.
  const board = await atrium.request("POST", "/feedback/v1/boards", {
    token: w.owner.token,
    body: { workspaceId: w.workspaceId, name: "Ideas", slug: `ideas-${Date.now().toString(36)}`, visibility: "public" }
  })
  const request = expectStatus(
    await atrium.request("POST", `/feedback/v1/boards/${expectStatus(board, 201).id}/feature-requests`, {
      token: w.owner.token,
      body: { title: "Dark mode" }
    }),
    201
  )
  const bug = expectStatus(
    await atrium.request("POST", `/feedback/v1/boards/${board.body.id}/bug-reports`, {
      token: w.owner.token,
      body: { title: "Export fails" }
    }),
    201
  )
  const pairs: Array<[string, string]> = [
    [feedbackIds.featureRequestId, request.id],
    [feedbackIds.bugReportId, bug.id],
    [feedbackIds.slug, board.body.slug],
    ["FR-12", request.shortId],
    [exampleIds.workspace, w.workspaceId],
    [exampleIds.space, space.id],
    [exampleIds.folder, folder.id],
    [exampleIds.list, list.id],
    [exampleIds.task, task.id],
    [exampleIds.task2, task2.id],
    [exampleIds.status, statuses.items[0].id],
    [exampleIds.field, env.id],
    [exampleIds.option, env.config.options[0].id],
    [exampleIds.user, w.owner.userId],
    [exampleIds.user2, w.member.userId],
    [exampleIds.comment, comment.id],
    [exampleIds.tag, task.tags[0].id],
    [exampleIds.checklist, checklist.id],
    [exampleIds.item, checklist.items[0].id],
    [exampleIds.attachment, attachment.id],
    [exampleIds.relationship, relationship.id],
    [exampleIds.entry, entry.id],
    [exampleIds.template, template.id],
    ["T-42", task.shortId],
    ["T-43", task2.shortId],
    ["S-1", space.shortId],
    ["F-1", folder.shortId],
    ["L-1", list.shortId],
    ["bob@example.com", w.member.email],
    ["alice@example.com", w.owner.email]
  ]
  for (const [from, to] of pairs) swap.set(from, to)
})
afterAll(async () => {
  await atrium?.close()
})

const real = (value: unknown, extra: Map<string, string> = new Map()): unknown => {
  if (typeof value === "string") {
    let out = value
    for (const [from, to] of [...extra, ...swap]) out = out.split(from).join(to)
    return out
  }
  if (Array.isArray(value)) return value.map((v) => real(v, extra))
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [real(k, extra) as string, real(v, extra)]))
  return value
}

const requestOf = (op: (typeof pmWorkOperations)[number]) => {
  const example = op.examples[0]!
  const extra = overrides.get(op.operationId)
  const params = real(example.request?.params ?? {}, extra) as Record<string, string>
  const query = real(example.request?.query ?? {}, extra) as Record<string, string>
  const path = fullPath(op).replace(/\{(\w+)\}/g, (_, name) => encodeURIComponent(params[name] ?? "00000000-0000-4000-8000-000000000000"))
  const search = new URLSearchParams(query).toString()
  return { path: search ? `${path}?${search}` : path, body: real(example.request?.body, extra) }
}

const send = (op: (typeof pmWorkOperations)[number], token: string) => {
  const { path, body } = requestOf(op)
  if (op.upload) return atrium.request(op.method, path, { token, rawBody: "bytes", headers: { "content-type": "text/plain" } })
  return atrium.request(op.method, path, body === undefined ? { token } : { token, body })
}

// A write of any service's data: linking a task to a feature request writes feedback's (feedback:write).
const isWrite = (op: (typeof pmWorkOperations)[number]) => op.scopes.some((scope) => scope.endsWith(":write"))

describe("every work operation checks who is asking", () => {
  // The seed's work tags, and the two beyond it that show the feature requests a task delivers (issue 24).
  it("covers the seed's tags", () => {
    const tags = new Set(pmWorkOperations.map((op) => op.tag))
    expect([...tags].sort()).toEqual([
      "Comments (Lite)",
      "Folders",
      "Lists",
      "Relationships",
      "Relationships (Lite)",
      "Search (Lite)",
      "Spaces",
      "Structure (Lite)",
      "Tags",
      "Task Feedback",
      "Task Feedback (Lite)",
      "Tasks",
      "Tasks (Lite)"
    ])
    for (const op of pmWorkOperations) {
      expect(op.examples.length, op.operationId).toBeGreaterThan(0)
      expect(op.auth, op.operationId).toBe("both")
    }
  })

  it("someone of another workspace gets 404 from every operation", async () => {
    for (const op of pmWorkOperations) {
      const response = await send(op, w.outsider.token)
      expect(response.status, `${op.operationId}: ${response.text}`).toBe(404)
      expect(response.body.error.code).toBe("not_found")
    }
  })

  it("a viewer gets 403 from every write", async () => {
    for (const op of pmWorkOperations.filter(isWrite)) {
      const response = await send(op, w.viewer.token)
      expect(response.status, `${op.operationId}: ${response.text}`).toBe(403)
    }
  })

  it("a viewer may read everything", async () => {
    for (const op of pmWorkOperations.filter((o) => !isWrite(o))) {
      const response = await send(op, w.viewer.token)
      expect(response.status, `${op.operationId}: ${response.text}`).toBeLessThan(300)
    }
  })

  it("an API key of another workspace sees nothing; scopes gate reads and writes", async () => {
    const otherKey = expectStatus(
      await atrium.request("POST", "/pm/v1/api-keys", {
        token: w.outsider.token,
        body: { workspaceId: w.otherWorkspaceId, name: "k", scopes: ["tasks:read", "tasks:write"] }
      }),
      201
    )
    const spaces = await atrium.request("GET", `/pm/v1/workspaces/${w.workspaceId}/spaces`, { token: otherKey.key })
    expect(spaces.status).toBe(404)
    const reader = expectStatus(
      await atrium.request("POST", "/pm/v1/api-keys", {
        token: w.owner.token,
        body: { workspaceId: w.workspaceId, name: "r", scopes: ["tasks:read"] }
      }),
      201
    )
    expect((await atrium.request("GET", `/pm/v1/workspaces/${w.workspaceId}/spaces`, { token: reader.key })).status).toBe(200)
    const denied = await atrium.request("POST", `/pm/v1/workspaces/${w.workspaceId}/spaces`, { token: reader.key, body: { name: "x" } })
    expect(denied.status).toBe(403)
    expect(denied.body.error.message).toContain("tasks:write")
    const writer = expectStatus(
      await atrium.request("POST", "/pm/v1/api-keys", {
        token: w.owner.token,
        body: { workspaceId: w.workspaceId, name: "w", scopes: ["tasks:read", "tasks:write"] }
      }),
      201
    )
    const created = expectStatus(
      await atrium.request("POST", `/pm/v1/workspaces/${w.workspaceId}/spaces`, { apiKey: writer.key, body: { name: "By key" } }),
      201
    )
    expect(created.createdBy).toBe(w.owner.userId)
  })
})
