/**
 * Bad input never costs a 5xx: every operation in the registry is sent
 * missing credentials, malformed ids, malformed JSON, wrong types, unknown
 * fields and the wrong content type, and must answer the error envelope
 * with a 4xx.
 */
import { request as httpRequest } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { AnyOperation } from "../facade/Operation.ts"
import { fullPath } from "../facade/Registry.ts"
import { atriumRegistry } from "../facade/operations.ts"
import { signUp, startAtrium, type TestAtrium, type TestResponse } from "./support/atrium.ts"

let atrium: TestAtrium
let token: string
beforeAll(async () => {
  atrium = await startAtrium({ bodyLimitBytes: 64 * 1024 })
  token = (await signUp(atrium, "Fuzzer")).token
})
afterAll(async () => {
  await atrium?.close()
})

const expectEnvelope = (response: TestResponse, label: string) => {
  expect(response.status, `${label}: ${response.text}`).toBeGreaterThanOrEqual(400)
  expect(response.status, `${label}: ${response.text}`).toBeLessThan(500)
  expect(response.body?.error?.code, label).toEqual(expect.any(String))
  expect(response.body?.error?.message, label).toEqual(expect.any(String))
  expect(response.body?.requestId, label).toBe(response.headers.get("x-request-id"))
}

const withParams = (path: string, value: string) => path.replace(/\{\w+\}/g, encodeURIComponent(value))
/** Well-formed path values: the operation's first example's (integer ids stay integers), else `value`. */
const withExampleParams = (op: AnyOperation, value: string) =>
  fullPath(op).replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(op.examples[0]?.request?.params?.[name] ?? value)))

describe("bad input answers the error envelope with a 4xx, never a 5xx", () => {
  const operations = atriumRegistry.operations

  it("missing credentials on every protected operation: 401", async () => {
    for (const op of operations.filter((o) => o.auth !== "public")) {
      const response = await atrium.request(op.method, withParams(fullPath(op), "00000000-0000-4000-8000-000000000000"))
      expectEnvelope(response, `${op.operationId} without credentials`)
      expect(response.status, op.operationId).toBe(401)
    }
  })

  it("malformed path ids name the parameter", async () => {
    for (const op of operations.filter((o) => o.params !== undefined && o.auth !== "apiKey")) {
      const response = await atrium.request(op.method, withParams(fullPath(op), "not-an-id"), op.body ? { token, body: {} } : { token })
      expectEnvelope(response, `${op.operationId} with a malformed id`)
      if (response.status === 400) expect(response.body.error.details[0].path, op.operationId).toMatch(/^(path|body)\./)
    }
  })

  it("malformed JSON, wrong types, unknown fields and wrong content types on every body", async () => {
    for (const op of operations.filter((o) => o.body !== undefined)) {
      const path = withExampleParams(op, "00000000-0000-4000-8000-000000000000")
      const auth = op.auth === "public" ? {} : { token }
      const cases: Array<[string, Parameters<TestAtrium["request"]>[2]]> = [
        ["malformed JSON", { ...auth, rawBody: '{"a": ', headers: { "content-type": "application/json" } }],
        ["invalid UTF-8", { ...auth, rawBody: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]), headers: { "content-type": "application/json" } }],
        ["an array", { ...auth, body: [] }],
        ["a number", { ...auth, body: 42 }],
        ["null", { ...auth, body: null }],
        ["an unknown field", { ...auth, body: { __unknown: true } }],
        ["wrong content type", { ...auth, rawBody: "name=x", headers: { "content-type": "application/x-www-form-urlencoded" } }],
        ["no body", { ...auth }]
      ]
      for (const [label, options] of cases) {
        const response = await atrium.request(op.method, path, options)
        expectEnvelope(response, `${op.operationId} with ${label}`)
      }
      const malformed = await atrium.request(op.method, path, { ...auth, rawBody: "{", headers: { "content-type": "application/json" } })
      if (malformed.status === 400) expect(malformed.body.error.message).toMatch(/Malformed JSON/)
    }
  })

  it("wrong field types name the field", async () => {
    const response = await atrium.request("POST", "/pm/v1/auth/register", {
      body: { email: "x@example.com", password: 12345678, name: ["n"] }
    })
    expect(response.status).toBe(400)
    expect(response.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(["body.name", "body.password"])
  })

  it("oversized bodies: 413 from Content-Length before buffering, and while streaming", async () => {
    const big = JSON.stringify({ name: "x".repeat(100 * 1024) })
    const declared = await atrium.request("POST", "/pm/v1/workspaces", {
      token,
      rawBody: big,
      headers: { "content-type": "application/json" }
    })
    expectEnvelope(declared, "declared oversize")
    expect(declared.status).toBe(413)
    // Chunked (no Content-Length): refused once the limit is crossed.
    const chunked = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const url = new URL(atrium.origin)
      const req = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          method: "POST",
          path: "/pm/v1/workspaces",
          headers: { "content-type": "application/json", authorization: `Bearer ${token}` }
        },
        (res) => {
          let body = ""
          res.on("data", (chunk) => (body += chunk))
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }))
        }
      )
      req.on("error", reject)
      for (let i = 0; i < 10; i++) req.write("x".repeat(16 * 1024))
      req.end()
    })
    expect(chunked.status).toBe(413)
    expect(JSON.parse(chunked.body).error.code).toBe("too_large")
    // The server is fine afterwards.
    expect((await atrium.request("GET", "/pm/v1/workspaces", { token })).status).toBe(200)
  })

  it("unknown routes answer 404, wrong methods 405 with Allow", async () => {
    const missing = await atrium.request("GET", "/pm/v1/nothing-here")
    expectEnvelope(missing, "unknown route")
    expect(missing.status).toBe(404)
    const wrongMethod = await atrium.request("PUT", "/pm/v1/auth/login")
    expectEnvelope(wrongMethod, "wrong method")
    expect(wrongMethod.status).toBe(405)
    expect(wrongMethod.headers.get("allow")).toBe("POST")
    expect((await atrium.request("GET", "/%E0%A4%A")).status).toBe(404)
  })

  it("echoes a sane x-request-id and invents one otherwise", async () => {
    const echoed = await atrium.request("GET", "/pm/v1/nothing", { headers: { "x-request-id": "trace-123" } })
    expect(echoed.headers.get("x-request-id")).toBe("trace-123")
    expect(echoed.body.requestId).toBe("trace-123")
    const invented = await atrium.request("GET", "/pm/v1/nothing", { headers: { "x-request-id": "bad id with spaces" } })
    expect(invented.headers.get("x-request-id")).not.toBe("bad id with spaces")
  })
})
