/**
 * Tenancy, registry-driven: every protected operation with path ids is
 * called by a member of another workspace — with a user session and with an
 * all-scopes API key of that other workspace — using the first workspace's
 * real ids (and its example body, its ids made real). Each must answer 403 or
 * 404, and the first workspace must read the same afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { AnyOperation } from "../../facade/Operation.ts"
import { atriumRegistry } from "../../facade/operations.ts"
import { startAtrium, type TestServer } from "../support/atrium.ts"
import { type FuzzReply, send } from "./support/Client.ts"
import { type Caller, paramsFor, type Seeded, seedWorkspace, substitute } from "./support/Seed.ts"

let atrium: TestServer
let owner: Seeded
let stranger: Seeded
beforeAll(async () => {
  atrium = await startAtrium()
  owner = await seedWorkspace(atrium, atriumRegistry, "Owner")
  stranger = await seedWorkspace(atrium, atriumRegistry, "Stranger")
}, 180_000)
afterAll(async () => {
  await atrium?.close()
})

const protectedWithIds = atriumRegistry.operations.filter((op) => op.auth !== "public" && /\{\w+\}/.test(op.path))

/** A small file of a type the upload accepts. */
const uploadOf = (op: AnyOperation) => {
  const accepted = op.upload!.contentTypes[0]!
  return { rawBody: "hello", contentType: accepted.endsWith("/*") ? `${accepted.slice(0, -1)}plain` : accepted }
}

const requestOf = (op: AnyOperation) => {
  const example = op.examples[0]?.request
  return {
    label: "with the owner's ids",
    params: paramsFor(op, owner),
    ...(op.upload ? uploadOf(op) : {}),
    ...(example?.query ? { query: substitute(example.query, owner, op.service) as Record<string, unknown> } : {}),
    ...(op.body && example?.body !== undefined ? { body: substitute(example.body, owner, op.service) } : {})
  }
}

/**
 * Moments and counters of the reader's own activity differ between two reads of unchanged data, and so does time
 * that grows with the clock (a task's minutes in its current status).
 */
const VOLATILE = /(At|Time|Until|Seconds|lastSeq|seq|etag|online|presence|expires|^totalMinutes)$/i
const MOMENT = /^\d{4}-\d\d-\d\dT\d\d:\d\d/
const normalize = (value: unknown): unknown => {
  if (typeof value === "string" && MOMENT.test(value)) return "<moment>"
  if (Array.isArray(value)) return value.map(normalize)
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => !VOLATILE.test(key))
        .map(([key, item]) => [key, normalize(item)])
    )
  }
  return value
}

/** Everything the owner can read with known ids and no required query: the state a stranger must not change. */
const snapshot = async (): Promise<Record<string, unknown>> => {
  const reads = atriumRegistry.operations.filter(
    (op) => op.method === "GET" && op.auth !== "public" && op.auth !== "apiKey" && op.responses[200]?.contentType === undefined
  )
  const result: Record<string, unknown> = {}
  for (const op of reads) {
    const reply = await send(atrium.origin, op, owner.caller, { label: "snapshot", params: paramsFor(op, owner) })
    if (reply.status === 200) result[op.operationId] = normalize(reply.body)
  }
  return result
}

const asStranger = (credentials: "jwt" | "apiKey"): Caller =>
  credentials === "jwt" ? { ...stranger.caller, apiKey: "" } : { ...stranger.caller, token: "" }

/**
 * 403 or 404. A success is allowed only when it touched none of the owner's
 * resources: names and keys (a wiki space key, a Lite list name) are unique
 * per workspace, so the stranger may name its own resource with the same words.
 */
const expectRefused = (op: AnyOperation, credentials: string, reply: FuzzReply) => {
  const label = `${op.operationId} as a stranger (${credentials}): ${reply.status} ${reply.text.slice(0, 300)}`
  if (reply.status < 300) {
    const shown = [...owner.params.values()].filter((id) => reply.text.includes(id))
    expect(shown, `${label} shows the owner's resources`).toEqual([])
    return
  }
  expect([403, 404], label).toContain(reply.status)
  expect(reply.body?.error?.code, label).toEqual(expect.any(String))
}

describe("a member of another workspace cannot reach this one's resources", () => {
  let before: Record<string, unknown>
  beforeAll(async () => {
    before = await snapshot()
  }, 120_000)

  for (const op of protectedWithIds) {
    it(`${op.operationId} (${op.method} ${op.path})`, async () => {
      const request = requestOf(op)
      if (op.auth !== "apiKey") {
        const caller = asStranger("jwt")
        expectRefused(op, "user session", await send(atrium.origin, op.auth === "both" ? { ...op, auth: "jwt" } : op, caller, request))
      }
      if (op.auth === "both" || op.auth === "apiKey") {
        const caller = asStranger("apiKey")
        expectRefused(op, "API key", await send(atrium.origin, { ...op, auth: "apiKey" }, caller, request))
      }
    })
  }

  it("and nothing the owner reads has changed", async () => {
    const after = await snapshot()
    expect(Object.keys(before).length).toBeGreaterThan(50)
    for (const [operationId, read] of Object.entries(before)) expect(after[operationId], operationId).toEqual(read)
  }, 120_000)
})
