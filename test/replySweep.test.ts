/**
 * Real replies against their schemas, beyond what the feature tests reach:
 * over a small workspace (space, folder, lists, a task with a tag, comment and
 * checklist, a wiki space and page), every documented GET of the four
 * services is called with the fixture's ids. The pipeline encodes each reply
 * through its declared schema and answers 500 when one does not fit, so the
 * sweep passes only when no read answers 5xx.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { services } from "../facade/catalog/Services.ts"
import { fullPath } from "../facade/Registry.ts"
import { atriumRegistry } from "../facade/operations.ts"
import { signUp, startAtrium, type TestServer } from "./support/atrium.ts"

let atrium: TestServer
let token: string
const ids: Record<string, Record<string, string>> = { hub: {}, pm: {}, wiki: {}, feedback: {} }

const created = async (method: string, path: string, body: unknown) => {
  const response = await atrium.request(method, path, { token, body })
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${response.text}`)
  return response.body
}

beforeAll(async () => {
  atrium = await startAtrium()
  const user = await signUp(atrium, "Sweeper")
  token = user.token
  const workspace = await created("POST", "/pm/v1/workspaces", { name: "Sweep" })
  const space = await created("POST", `/pm/v1/workspaces/${workspace.id}/spaces`, { name: "Engineering" })
  const folder = await created("POST", `/pm/v1/spaces/${space.id}/folders`, { name: "Roadmap" })
  const list = await created("POST", `/pm/v1/folders/${folder.id}/lists`, { name: "Backlog" })
  await created("POST", `/pm/v1/spaces/${space.id}/lists`, { name: "Loose ends" })
  const task = await created("POST", `/pm/v1/lists/${list.id}/tasks`, {
    name: "Sweep the replies",
    tags: ["api"],
    assigneeIds: [user.userId],
    priority: "high"
  })
  await created("POST", `/pm/v1/lists/${list.id}/tasks`, { name: "A subtask", parentTaskId: task.id })
  const comment = await created("POST", `/pm/v1/tasks/${task.id}/comments`, { text: "First!" })
  const checklist = await created("POST", `/pm/v1/tasks/${task.id}/checklists`, { name: "Release", items: ["Write changelog"] })
  const wikiSpace = await created("POST", "/wiki/v1/spaces", { workspaceId: workspace.id, name: "Handbook", key: "HB" })
  const page = await created("POST", `/wiki/v1/spaces/${wikiSpace.id}/pages`, { title: "Welcome", markdown: "# Hello\n\nSee [[Welcome]]." })
  Object.assign(ids.pm!, {
    workspaceId: workspace.id,
    spaceId: space.id,
    folderId: folder.id,
    listId: list.id,
    taskId: task.id,
    taskRef: task.id,
    shortId: task.shortId,
    userId: user.userId,
    commentId: comment.id,
    checklistId: checklist.id
  })
  Object.assign(ids.wiki!, {
    workspaceId: workspace.id,
    spaceId: wikiSpace.id,
    spaceKey: wikiSpace.key,
    pageId: page.id,
    pageRef: page.id,
    pageSlug: page.slug
  })
  Object.assign(ids.hub!, { workspaceId: workspace.id, tag: services.hub.tags[0]!.tag })
}, 60_000)
afterAll(async () => {
  await atrium?.close()
})

describe("every documented read replies as its schema says", () => {
  it("no GET answers 5xx over a small workspace", async () => {
    const unknownId = "00000000-0000-4000-8000-000000000000"
    const failures: Array<string> = []
    let ok = 0
    const reads = atriumRegistry.operations.filter((op) => op.method === "GET")
    for (const op of reads) {
      const path = fullPath(op).replace(/\{(\w+)\}/g, (_whole, name: string) => encodeURIComponent(ids[op.service]![name] ?? unknownId))
      const response = await atrium.request("GET", path, { token })
      if (response.status >= 500) failures.push(`${op.operationId} ${path}: ${response.status} ${response.text.slice(0, 200)}`)
      if (response.status < 300) ok++
    }
    expect(failures).toEqual([])
    // Most reads find something: the sweep is not a tour of 404s.
    expect(ok).toBeGreaterThan(reads.length / 2)
  }, 180_000)
})
