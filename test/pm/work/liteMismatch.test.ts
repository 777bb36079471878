/**
 * Lite operations refuse references that contradict each other: a list given
 * by id (or short id) with a folder or space it is not in — of another space
 * or another workspace — answers 409 naming both, never silently ignores one.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { signUp, startAtrium, type TestServer, type TestResponse } from "../../support/atrium.ts"

let atrium: TestServer
let token: string
let workspaceId: string
const here = { space: "", otherSpace: "", folder: "", otherFolder: "", list: "", listShortId: "", task: "" }
let foreignFolder: string

const created = (response: TestResponse) => {
  expect(response.status, response.text).toBe(201)
  return response.body
}

beforeAll(async () => {
  atrium = await startAtrium()
  token = (await signUp(atrium, "Lite")).token
  const post = (path: string, body: unknown, as = token) => atrium.request("POST", path, { token: as, body })
  workspaceId = created(await post("/pm/v1/workspaces", { name: "Home" })).id
  here.space = created(await post(`/pm/v1/workspaces/${workspaceId}/spaces`, { name: "Engineering" })).id
  here.otherSpace = created(await post(`/pm/v1/workspaces/${workspaceId}/spaces`, { name: "Marketing" })).id
  here.folder = created(await post(`/pm/v1/spaces/${here.space}/folders`, { name: "Roadmap" })).id
  here.otherFolder = created(await post(`/pm/v1/spaces/${here.space}/folders`, { name: "Ops" })).id
  const list = created(await post(`/pm/v1/folders/${here.folder}/lists`, { name: "Backlog" }))
  here.list = list.id
  here.listShortId = list.shortId
  here.task = created(await post(`/pm/v1/lists/${here.list}/tasks`, { name: "Move me" })).id

  const stranger = (await signUp(atrium, "Elsewhere")).token
  const theirs = created(await post("/pm/v1/workspaces", { name: "Theirs" }, stranger)).id
  const theirSpace = created(await post(`/pm/v1/workspaces/${theirs}/spaces`, { name: "Engineering" }, stranger)).id
  foreignFolder = created(await post(`/pm/v1/spaces/${theirSpace}/folders`, { name: "Roadmap" }, stranger)).id
})
afterAll(async () => {
  await atrium?.close()
})

const expectMismatch = (response: TestResponse, prefix: string, fields: ReadonlyArray<string>) => {
  expect(response.status, response.text).toBe(409)
  const paths = (response.body.error.details as Array<{ path: string }>).map((detail) => detail.path)
  expect(paths.sort()).toEqual(fields.map((field) => `${prefix}.${field}`).sort())
  expect(response.body.error.message).toContain("Backlog")
}

describe("Lite references that contradict the list", () => {
  it("createTaskLite: a folder of another workspace with a list id", async () => {
    const response = await atrium.request("POST", "/pm/v1/lite/tasks", {
      token,
      body: { workspaceId, folder: foreignFolder, list: here.list, name: "Nope" }
    })
    expectMismatch(response, "body", ["folder", "list"])
    const tasks = await atrium.sql("SELECT count(*)::int AS n FROM pm_tasks WHERE list_id = $1", [here.list])
    expect(tasks[0]!.n).toBe(1)
  })

  it("createTaskLite: another folder of the same space, by name, with a short id", async () => {
    const response = await atrium.request("POST", "/pm/v1/lite/tasks", {
      token,
      body: { workspaceId, folder: "Ops", list: here.listShortId, name: "Nope" }
    })
    expectMismatch(response, "body", ["folder", "list"])
  })

  it("createTaskLite: the list's own folder is accepted", async () => {
    const response = await atrium.request("POST", "/pm/v1/lite/tasks", {
      token,
      body: { workspaceId, folder: "Roadmap", list: here.list, name: "Fine" }
    })
    expect(response.status, response.text).toBe(201)
  })

  it("moveTaskLite: a folder of another workspace", async () => {
    const response = await atrium.request("POST", `/pm/v1/lite/tasks/${here.task}/move`, {
      token,
      body: { workspaceId, folder: foreignFolder, list: here.list }
    })
    expectMismatch(response, "body", ["folder", "list"])
  })

  it("updateListLite: a space the list is not in", async () => {
    const response = await atrium.request("PATCH", "/pm/v1/lite/lists", {
      token,
      body: { workspaceId, space: "Marketing", list: here.list, newName: "Renamed" }
    })
    expectMismatch(response, "body", ["space", "list"])
    const lists = await atrium.sql("SELECT name FROM pm_lists WHERE id = $1", [here.list])
    expect(lists[0]!.name).toBe("Backlog")
  })

  it("resolveListLite: a folder of another workspace in the query", async () => {
    const response = await atrium.request(
      "GET",
      `/pm/v1/lite/lists/resolve?${new URLSearchParams({ workspaceId, folder: foreignFolder, list: here.list })}`,
      { token }
    )
    expectMismatch(response, "query", ["folder", "list"])
  })

  it("createStatusLite (every Lite scope by names): a space the list is not in", async () => {
    const response = await atrium.request("POST", "/pm/v1/lite/statuses", {
      token,
      body: { workspaceId, space: "Marketing", list: here.listShortId, name: "in review", type: "active" }
    })
    expectMismatch(response, "body", ["space", "list"])
  })

  it("a list that exists nowhere is still 404", async () => {
    const response = await atrium.request("POST", "/pm/v1/lite/tasks", {
      token,
      body: { workspaceId, space: "Engineering", list: "No such list", name: "Nope" }
    })
    expect(response.status, response.text).toBe(404)
  })
})
