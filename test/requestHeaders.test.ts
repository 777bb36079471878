/**
 * Which request headers reach a handler (facade/RequestHeaders.ts): those its
 * operation declares, the Idempotency-Key where it applies, and the
 * credentials any operation's helpers check; never the rest.
 */
import { Effect, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { type AnyOperation, tagGroup } from "../facade/Operation.ts"
import { type HeaderSource, headersFor } from "../facade/RequestHeaders.ts"

const { operation } = tagGroup("pm", "Header Test")

const contract = {
  path: "/v1/header-test",
  summary: "test",
  scopes: [],
  responses: { 200: { description: "ok", schema: Schema.Struct({}) } },
  examples: [],
  handler: () => Effect.succeed({})
} as const

const read: AnyOperation = operation({ ...contract, operationId: "readHeaderTest", method: "GET", auth: "jwt" })
const signed: AnyOperation = operation({
  ...contract,
  operationId: "signedHeaderTest",
  method: "POST",
  auth: "public",
  headers: ["X-Signature", "cookie"]
})
const write: AnyOperation = operation({ ...contract, operationId: "writeHeaderTest", method: "POST", auth: "jwt" })

/** A request with these headers, as uWS offers them ("" for an absent one). */
const request = (sent: ReadonlyArray<readonly [string, string]>): HeaderSource => ({
  getHeader: (name) => sent.find(([n]) => n === name)?.[1] ?? "",
  forEach: (callback) => {
    for (const [name, value] of sent) callback(name, value)
  }
})

const sent = request([
  ["authorization", "Bearer secret"],
  ["user-agent", "test"],
  ["x-internal-key", "service:key"],
  ["x-signature", "v0=abc"],
  ["cookie", "a=1"],
  ["cookie", "b=2"],
  ["idempotency-key", ""]
])

describe("request headers a handler gets", () => {
  it("an operation that declares none gets only the credentials its helpers check", () => {
    expect(headersFor(read, sent)).toEqual({ "x-internal-key": "service:key" })
    expect(headersFor(read, request([["user-agent", "test"]]))).toEqual({})
  })

  it("a declared header arrives as sent (names case-insensitive, repeats joined); undeclared ones do not", () => {
    expect(headersFor(signed, sent)).toEqual({ "x-internal-key": "service:key", "x-signature": "v0=abc", cookie: "a=1, b=2" })
  })

  it("a write that takes an Idempotency-Key gets it, even empty (so an empty key is refused, not ignored)", () => {
    expect(headersFor(write, sent)).toEqual({ "x-internal-key": "service:key", "idempotency-key": "" })
    expect(headersFor(write, request([["idempotency-key", "k-1"]]))).toEqual({ "idempotency-key": "k-1" })
  })
})
