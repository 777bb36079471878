/**
 * Replies match their schemas: the pipeline encodes every reply through the
 * response its operation declares, and a reply that does not fit is a defect
 * (logged with the operation id, answered 500). The registry refuses what
 * cannot be held to that: JSON without a schema, a content key that is not one
 * media type, two different schemas under one name.
 */
import { Effect, Logger, Schema, Stream } from "effect"
import { describe, expect, it } from "vitest"
import { type AnyOperation, raw, streamed, tagGroup } from "../facade/Operation.ts"
import { type IncomingRequest, type OutgoingResponse, respond } from "../facade/Pipeline.ts"
import { atriumRegistry } from "../facade/operations.ts"
import { makeRegistry, schemaNameProblems } from "../facade/Registry.ts"

const Thing = Schema.Struct({ id: Schema.String, count: Schema.Number, at: Schema.Date }).annotate({ identifier: "ReplyTestThing" })

// A plain record, not tagGroup's typed declaration: these tests hand the pipeline replies that do not fit.
const op = (overrides: Partial<AnyOperation>): AnyOperation => ({
  service: "pm",
  tag: "Tasks",
  operationId: "replyTest",
  method: "GET",
  path: "/v1/reply-test",
  summary: "test",
  auth: "public",
  scopes: [],
  responses: { 200: { description: "A thing", schema: Thing } },
  examples: [],
  handler: () => Effect.succeed({ id: "a", count: 1, at: new Date(0) }),
  ...overrides
})

const request: IncomingRequest = {
  method: "GET",
  path: "/pm/v1/reply-test",
  query: "",
  requestId: "req-1",
  origin: "http://test",
  authorization: "",
  apiKey: "",
  contentType: "",
  ifNoneMatch: "",
  body: undefined
}

/** Runs one request through the pipeline, collecting what was logged. */
const run = (operation: AnyOperation) => {
  const logged: Array<string> = []
  const logger = Logger.make(({ message }) => {
    logged.push((Array.isArray(message) ? message : [message]).map(String).join(" "))
  })
  const response = Effect.runSync(
    respond({ _tag: "Found", operation, params: {} }, request).pipe(
      Effect.provide(Logger.layer([logger]))
    ) as Effect.Effect<OutgoingResponse>
  )
  return {
    response,
    body: typeof response.body === "string" ? response.body : new TextDecoder().decode(response.body),
    logged: logged.join("\n")
  }
}

describe("a declared operation's handler is typed by its first 2xx response", () => {
  const { operation } = tagGroup("pm", "Tasks", { typedReply: [], noContent: [] })
  it("a result that does not fit is a compile error (tsc checks the expectations below)", () => {
    const typed = operation({
      operationId: "typedReply",
      method: "GET",
      path: "/v1/typed-reply",
      summary: "test",
      auth: "public",
      scopes: [],
      responses: { 200: { description: "A thing", schema: Thing }, 404: { description: "None" } },
      // @ts-expect-error count is a number in the schema
      handler: () => Effect.succeed({ id: "a", count: "1", at: new Date(0) })
    })
    const noContent = operation({
      operationId: "noContent",
      method: "DELETE",
      path: "/v1/typed-reply",
      summary: "test",
      auth: "public",
      scopes: [],
      responses: { 204: { description: "Gone" } },
      handler: () => Effect.void
    })
    const { service: _service, tag: _tag, examples: _examples, ...contract } = noContent
    // @ts-expect-error an operation whose examples are not in its tag's examples must give its own
    operation({ ...contract, operationId: "renamed" })
    expect([typed.service, typed.tag, typed.examples, noContent.examples]).toEqual(["pm", "Tasks", [], []])
  })
})

describe("replies are encoded through their declared schema", () => {
  it("a reply that fits is sent in its encoded (documented) form", () => {
    const { response, body } = run(op({}))
    expect(response.status).toBe(200)
    expect(JSON.parse(body)).toEqual({ id: "a", count: 1, at: "1970-01-01T00:00:00.000Z" })
  })

  it("an unchanged result object (a read model's state) read again is encoded no more; a new one is encoded anew", () => {
    let reads = 0
    const state = { id: "a", at: new Date(0) } as { id: string; at: Date; count: number }
    Object.defineProperty(state, "count", { enumerable: true, get: () => (reads++, 1) })
    let current: object = state
    const same = op({ handler: () => Effect.succeed(current) })
    expect(JSON.parse(run(same).body)).toMatchObject({ count: 1 })
    const afterFirst = reads
    // Read once, its body is not kept (a scan of every task); read twice, it is.
    expect(JSON.parse(run(same).body)).toMatchObject({ count: 1 })
    expect(reads).toBeGreaterThan(afterFirst)
    const afterSecond = reads
    expect(JSON.parse(run(same).body)).toMatchObject({ count: 1 })
    expect(JSON.parse(run(same).body)).toMatchObject({ count: 1 })
    expect(reads).toBe(afterSecond)
    current = { id: "a", at: new Date(0), count: 2 }
    expect(JSON.parse(run(same).body)).toMatchObject({ count: 2 })
  })

  describe("a list reply (an object holding arrays) is encoded item by item", () => {
    const Page = Schema.Struct({ items: Schema.Array(Thing), next: Schema.NullOr(Schema.String), total: Schema.Number })
    const listOp = (handler: AnyOperation["handler"]) => op({ responses: { 200: { description: "A page", schema: Page } }, handler })

    it("its body is the struct's encoded form, items in order", () => {
      const items = [
        { id: "a", count: 1, at: new Date(0) },
        { id: "b", count: 2, at: new Date(1000) }
      ]
      const { response, body } = run(listOp(() => Effect.succeed({ items, next: null, total: 2 })))
      expect(response.status).toBe(200)
      expect(JSON.parse(body)).toEqual({
        items: [
          { id: "a", count: 1, at: "1970-01-01T00:00:00.000Z" },
          { id: "b", count: 2, at: "1970-01-01T00:00:01.000Z" }
        ],
        next: null,
        total: 2
      })
      expect(JSON.parse(run(listOp(() => Effect.succeed({ items: [], next: "c", total: 0 }))).body)).toEqual({
        items: [],
        next: "c",
        total: 0
      })
    })

    it("an item object shown again (a task an actor holds) is encoded no more; a new page around it still is", () => {
      let reads = 0
      const held = { id: "a", at: new Date(0) } as { id: string; at: Date; count: number }
      Object.defineProperty(held, "count", { enumerable: true, get: () => (reads++, 1) })
      let total = 1
      const page = listOp(() => Effect.succeed({ items: [held], next: null, total }))
      run(page)
      run(page)
      const afterSecond = reads
      total = 7
      expect(JSON.parse(run(page).body)).toEqual({
        items: [{ id: "a", count: 1, at: "1970-01-01T00:00:00.000Z" }],
        next: null,
        total: 7
      })
      expect(reads).toBe(afterSecond)
    })

    it("an item or a property that does not fit is a defect naming it", () => {
      const badItem = run(listOp(() => Effect.succeed({ items: [{ id: "a", count: "one", at: new Date(0) }], next: null, total: 1 })))
      expect(badItem.response.status).toBe(500)
      expect(badItem.logged).toContain("count")
      const extra = run(listOp(() => Effect.succeed({ items: [], next: null, total: 0, secret: "x" })))
      expect(extra.response.status).toBe(500)
      expect(extra.logged).toContain("secret")
      const missing = run(listOp(() => Effect.succeed({ next: null, total: 0 })))
      expect(missing.response.status).toBe(500)
      expect(missing.logged).toContain("items")
    })
  })

  it("a field of the wrong type is a defect: 500, logged with the operation id", () => {
    const { response, body, logged } = run(op({ handler: () => Effect.succeed({ id: "a", count: "one", at: new Date(0) }) }))
    expect(response.status).toBe(500)
    expect(JSON.parse(body).error.code).toBe("internal")
    expect(logged).toContain("replyTest")
    expect(logged).toContain("count")
  })

  it("a field the schema does not document is a defect too", () => {
    const { response, logged } = run(op({ handler: () => Effect.succeed({ id: "a", count: 1, at: new Date(0), secret: "x" }) }))
    expect(response.status).toBe(500)
    expect(logged).toContain("secret")
  })

  it("a raw reply must carry a declared media type", () => {
    const csv = op({
      responses: { 200: { description: "CSV", contentType: "text/csv" } },
      handler: () => Effect.succeed(raw("text/csv; charset=utf-8", "a,b\r\n"))
    })
    expect(run(csv).response.status).toBe(200)
    const wrong = op({
      responses: { 200: { description: "CSV", contentType: "text/csv" } },
      handler: () => Effect.succeed(raw("text/html", "<p>"))
    })
    const { response, logged } = run(wrong)
    expect(response.status).toBe(500)
    expect(logged).toContain("served as text/html")
  })

  it("a streamed reply carries a declared media type; its body is the stream, not run until it is sent", () => {
    let pulled = 0
    const events = Stream.map(Stream.make("event: a\n\n", "event: b\n\n"), (chunk) => {
      pulled++
      return chunk
    })
    const sse = op({
      responses: { 200: { description: "Events", contentType: "text/event-stream" } },
      handler: () => Effect.succeed(streamed("text/event-stream", events, { "cache-control": "no-cache" }))
    })
    const { response } = run(sse)
    expect(response).toMatchObject({ status: 200, body: "", headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } })
    expect(pulled).toBe(0)
    expect(Effect.runSync(Stream.mkString(response.stream as Stream.Stream<string>))).toBe("event: a\n\nevent: b\n\n")
    const wrong = op({
      responses: { 200: { description: "Events", contentType: "text/event-stream" } },
      handler: () => Effect.succeed(streamed("text/plain", events))
    })
    const refused = run(wrong)
    expect(refused.response.status).toBe(500)
    expect(refused.logged).toContain("streamed as text/plain")
  })

  it("a range admits any type under it (a download keeps its file's type)", () => {
    const download = op({
      responses: { 200: { description: "File", contentType: ["image/*", "application/*"] } },
      handler: () => Effect.succeed(raw("application/json", "not even json"))
    })
    expect(run(download).response.status).toBe(200)
  })

  it("raw JSON is checked against the schema of its declared JSON type", () => {
    const good = op({
      handler: () =>
        Effect.succeed(raw("application/json; charset=utf-8", JSON.stringify({ id: "a", count: 1, at: "1970-01-01T00:00:00.000Z" })))
    })
    expect(run(good).response.status).toBe(200)
    const bad = op({ handler: () => Effect.succeed(raw("application/json", JSON.stringify({ id: "a" }))) })
    expect(run(bad).response.status).toBe(500)
  })

  it("a status the operation does not declare is a defect", () => {
    const { response, logged } = run(op({ handler: () => Effect.succeed({ ...raw("application/json", "{}"), status: 202 }) }))
    expect(response.status).toBe(500)
    expect(logged).toContain("not declared")
  })
})

describe("the registry refuses what the pipeline could not hold to a schema", () => {
  it("JSON without a schema", () => {
    expect(() => makeRegistry([op({ responses: { 200: { description: "JSON", contentType: "application/json" } } })])).toThrow(
      /replyTest: response 200 returns JSON without a schema/
    )
    expect(() => makeRegistry([op({ responses: { 200: { description: "Nothing said" } } })])).toThrow(/declares no content/)
  })

  it("a content key that is not one media type", () => {
    expect(() => makeRegistry([op({ responses: { 200: { description: "Image", contentType: "image/png, image/jpeg" } } })])).toThrow(
      /not one media type/
    )
    expect(() => makeRegistry([op({ method: "PUT", upload: { contentTypes: ["image/png, image/gif"], maxBytes: 10 } })])).toThrow(
      /upload type/
    )
  })

  it("an error status declaring a body of its own (every error is the envelope)", () => {
    expect(() =>
      makeRegistry([op({ responses: { 200: { description: "ok", schema: Thing }, 404: { description: "x", schema: Thing } } })])
    ).toThrow(/error envelope/)
  })

  it("two different schemas under one name in a service (checked by this suite, not at every start)", () => {
    const Other = Schema.Struct({ name: Schema.String }).annotate({ identifier: "ReplyTestThing" })
    const second = op({
      operationId: "replyTestTwo",
      path: "/v1/reply-test-2",
      responses: { 200: { description: "Other", schema: Other } }
    })
    expect(schemaNameProblems([op({}), second])).toEqual([
      "two different schemas are named ReplyTestThing in pm (replyTest and replyTestTwo); rename one"
    ])
    // The same schema used twice is one name, one shape.
    expect(schemaNameProblems([op({}), op({ operationId: "replyTestTwo", path: "/v1/reply-test-2" })])).toEqual([])
  })

  it("no two different schemas share a name in Atrium's own registry", () => {
    expect(schemaNameProblems(atriumRegistry.operations)).toEqual([])
  })
})

describe("documented examples are replies that would pass", () => {
  it("every example's response has a declared status, and its JSON body fits that status's schema", async () => {
    const { atriumRegistry } = await import("../facade/operations.ts")
    const problems: Array<string> = []
    for (const operation of atriumRegistry.operations) {
      for (const example of operation.examples) {
        const spec = operation.responses[example.response.status]
        if (spec === undefined) {
          problems.push(`${operation.operationId}/${example.name}: status ${example.response.status} is not declared`)
          continue
        }
        if (spec.schema === undefined || example.response.body === undefined || typeof example.response.body === "string") continue
        const exit = Schema.decodeUnknownExit(Schema.toCodecJson(spec.schema) as unknown as Schema.Codec<unknown, unknown>, {
          onExcessProperty: "error"
        })(example.response.body)
        if (exit._tag === "Failure") problems.push(`${operation.operationId}/${example.name}: ${String(exit.cause)}`)
      }
    }
    expect(problems).toEqual([])
  })
})
