/**
 * The `Idempotency-Key` header on API writes (facade/IdempotencyKey.ts): a
 * write sent again with its key is answered with the first reply and applied
 * once; keys are per caller (another user's identical key is another write);
 * a malformed key is a 400 naming the header; the OpenAPI documents declare
 * the header once and reference it from every write operation.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { signUp, startAtrium, type TestResponse, type TestServer } from "./support/atrium.ts"

let atrium: TestServer
const users: Array<{ token: string; list: string }> = []

const created = (response: TestResponse) => {
  expect(response.status, response.text).toBe(201)
  return response.body
}

/** A user with a workspace, a space and a list of their own. */
const userWithList = async (name: string) => {
  const { token } = await signUp(atrium, name)
  const post = (path: string, body: unknown) => atrium.request("POST", path, { token, body })
  const workspace = created(await post("/pm/v1/workspaces", { name: `${name}'s` })).id
  const space = created(await post(`/pm/v1/workspaces/${workspace}/spaces`, { name: "Engineering" })).id
  const list = created(await post(`/pm/v1/spaces/${space}/lists`, { name: "Backlog" })).id
  return { token, list }
}

beforeAll(async () => {
  atrium = await startAtrium()
  users.push(await userWithList("Ada"), await userWithList("Grace"))
}, 180_000)
afterAll(async () => {
  await atrium?.close()
})

const createTask = (user: { token: string; list: string }, name: string, key?: string) =>
  atrium.request("POST", `/pm/v1/lists/${user.list}/tasks`, {
    token: user.token,
    body: { name },
    ...(key === undefined ? {} : { headers: { "Idempotency-Key": key } })
  })

const tasksNamed = async (name: string) =>
  (await atrium.sql<{ n: number }>("select count(*)::int as n from pm_tasks where name = $1 and deleted_at is null", [name]))[0]!.n

describe("Idempotency-Key", () => {
  it("answers a write sent again with its key with the first reply, and stores it once", async () => {
    const first = await createTask(users[0]!, "Once only", "retry-7f3a")
    expect(first.status, first.text).toBe(201)
    const again = await createTask(users[0]!, "Once only", "retry-7f3a")
    expect(again.status, again.text).toBe(201)
    expect(again.body).toEqual(first.body)
    // The draft's quoted form is the same key.
    const quoted = await createTask(users[0]!, "Once only", '"retry-7f3a"')
    expect(quoted.body).toEqual(first.body)
    expect(await tasksNamed("Once only")).toBe(1)
    // Without a key, or with another one, it is another write.
    expect(created(await createTask(users[0]!, "Once only", "retry-other")).id).not.toBe(first.body.id)
    expect(created(await createTask(users[0]!, "Once only")).id).not.toBe(first.body.id)
    expect(await tasksNamed("Once only")).toBe(3)
  })

  it("keeps each caller's keys apart: the same key from another user is another write", async () => {
    const ada = created(await createTask(users[0]!, "Shared key", "same-key-1"))
    const grace = created(await createTask(users[1]!, "Shared key", "same-key-1"))
    expect(grace.id).not.toBe(ada.id)
    expect(grace.listId).toBe(users[1]!.list)
    expect(await tasksNamed("Shared key")).toBe(2)
    // Each still gets their own first reply back.
    expect((await createTask(users[1]!, "Shared key", "same-key-1")).body).toEqual(grace)
    expect((await createTask(users[0]!, "Shared key", "same-key-1")).body).toEqual(ada)
    expect(await tasksNamed("Shared key")).toBe(2)
  })

  it("refuses a malformed key with a 400 naming the header, before anything is written", async () => {
    for (const key of ["has space", "x".repeat(256), "é", '""']) {
      const response = await createTask(users[0]!, "Malformed key", key)
      expect(response.status, `${key}: ${response.text}`).toBe(400)
      expect(response.body.error.message).toContain("Idempotency-Key")
      expect(response.body.error.details[0].path).toBe("header.Idempotency-Key")
    }
    expect(await tasksNamed("Malformed key")).toBe(0)
  })

  it("is declared once in the OpenAPI document and referenced by every write operation", async () => {
    const document = (await atrium.request("GET", "/pm/v1/openapi.json")).body
    expect(document.components.parameters.IdempotencyKey).toMatchObject({ name: "Idempotency-Key", in: "header", required: false })
    expect(document.components.parameters.IdempotencyKey.description).toContain("10 minutes")
    const ref = { $ref: "#/components/parameters/IdempotencyKey" }
    let writes = 0
    for (const [path, operations] of Object.entries<Record<string, any>>(document.paths)) {
      for (const [method, operation] of Object.entries<any>(operations)) {
        const keyed = operation.parameters.some((parameter: unknown) => JSON.stringify(parameter) === JSON.stringify(ref))
        const write = method !== "get" && operation.security.length > 0
        expect(keyed, `${method} ${path}`).toBe(write)
        if (write) writes++
      }
    }
    expect(writes).toBeGreaterThan(10)
  })
})
