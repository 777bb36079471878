/**
 * Registry-driven fuzzing: every operation of the catalog, present and
 * future, is sent requests generated from its own schemas, with valid ids of
 * a seeded workspace. Never a 5xx, never a hang; every 4xx is the error
 * envelope, naming the field at fault; accepted text reads back
 * byte-identical. Fixed cases cover every field; fast-check adds random
 * hostile values with a fixed seed (`npm run fuzz` runs many more).
 * The operations are split over two test files (pm, the other services) so
 * the suite's workers fuzz them side by side, each against its own server.
 */
import { fc, it } from "@fast-check/vitest"
import { afterAll, beforeAll, describe, expect } from "vitest"
import type { AnyOperation } from "../../../facade/Operation.ts"
import { atriumRegistry } from "../../../facade/operations.ts"
import { startAtrium, type TestServer } from "../../support/atrium.ts"
import { type Base, casesFor, echoes, type FuzzCase } from "./Cases.ts"
import { expectHonest, expectRefusedNaming, type FuzzReply, send } from "./Client.ts"
import { holdsUnstorable, hostileValue, storableSamples } from "./Hostile.ts"
import { paramsFor, type Seeded, seedWorkspace, substitute } from "./Seed.ts"
import { shapeOf } from "./Shapes.ts"

const SEED = Number(process.env.FUZZ_SEED ?? 20261124)
/** Random hostile requests per operation: a few in CI, `FUZZ_RUNS` (e.g. `npm run fuzz`) for more. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 3)
const BODY_LIMIT = 256 * 1024
/** Cases of one operation in flight at once. */
const CONCURRENCY = 4

let atrium: TestServer
let seeded: Seeded

/**
 * Operations that destroy or give away what the other cases need (the
 * seeded workspace, the caller's session or role) are fuzzed against
 * well-formed ids of nothing: decoding, where every case below is decided,
 * runs all the same, and an accidental success changes nothing.
 */
const destructive = (op: AnyOperation) =>
  op.method === "DELETE" ||
  /delete|remove|archive|leave|logout|revoke|rotate|deactivate|transfer|password|merge|complete|convert|restore|reset|disable|decline|import/i.test(
    op.operationId
  )

const baseOf = (op: AnyOperation): Base => {
  const example = op.examples[0]?.request
  const known = destructive(op) ? { params: new Map<string, string>(), real: new Map<string, string>() } : seeded
  return {
    params: paramsFor(op, known),
    query: example?.query ? (substitute(example.query, known, op.service) as Record<string, unknown>) : undefined,
    body: example?.body !== undefined ? substitute(example.body, known, op.service) : undefined
  }
}

/** Fields holding a document format the server converts (markdown → rich text), so not kept verbatim. */
const converted = new Set(["markdown", "content", "html"])

/** Every string the reply shows under `field`, at any depth (the reply may be the parent: a checklist for its item). */
const shownAs = (value: unknown, field: string, found: Array<string> = []): Array<string> => {
  if (Array.isArray(value)) for (const item of value) shownAs(item, field, found)
  else if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      if (key === field && typeof item === "string") found.push(item)
      else shownAs(item, field, found)
    }
  }
  return found
}

const check = (op: AnyOperation, fuzzCase: FuzzCase, reply: FuzzReply) => {
  const expectation = fuzzCase.expect
  if (expectation.kind === "refused") return expectRefusedNaming(op, fuzzCase, reply, expectation.path)
  expectHonest(op, fuzzCase, reply)
  if (expectation.kind === "stored" && reply.status < 300 && echoes(op)) {
    const shown = shownAs(reply.body, expectation.field)
    if (shown.length > 0 && !converted.has(expectation.field)) {
      expect(shown, `${op.operationId} ${fuzzCase.label}: read back`).toContain(expectation.value)
    }
  }
}

const runAll = async (op: AnyOperation, all: ReadonlyArray<FuzzCase>) => {
  // Accepted text is read back one case at a time: concurrent updates of one field would race.
  const cases = all.filter((fuzzCase) => fuzzCase.expect.kind !== "stored")
  let next = 0
  const worker = async () => {
    while (next < cases.length) {
      const fuzzCase = cases[next++]!
      check(op, fuzzCase, await send(atrium.origin, op, seeded.caller, fuzzCase))
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker))
  for (const fuzzCase of all.filter((c) => c.expect.kind === "stored")) {
    check(op, fuzzCase, await send(atrium.origin, op, seeded.caller, fuzzCase))
  }
}

/** Every place in a JSON value, as key paths (the root excluded). */
const placesIn = (value: unknown, at: ReadonlyArray<string> = [], found: Array<ReadonlyArray<string>> = []) => {
  const entries = Array.isArray(value)
    ? value.map((item, index) => [String(index), item] as const)
    : typeof value === "object" && value !== null
      ? Object.entries(value)
      : []
  for (const [key, item] of entries) {
    found.push([...at, key])
    placesIn(item, [...at, key], found)
  }
  return found
}

/** A copy of `value` with `replacement` at `path`. */
const withValueAt = (value: unknown, path: ReadonlyArray<string>, replacement: unknown): unknown => {
  if (path.length === 0) return replacement
  const [key, ...rest] = path as [string, ...Array<string>]
  if (Array.isArray(value)) return value.map((item, index) => (String(index) === key ? withValueAt(item, rest, replacement) : item))
  const record = typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {}
  return { ...record, [key]: withValueAt(record[key], rest, replacement) }
}

const stringAt = (value: unknown): string => JSON.stringify(value)?.slice(0, 60) ?? String(value)

/** Fuzzes the registry's operations that `select` picks, against a server of its own. */
export const fuzzOperations = (select: (op: AnyOperation) => boolean) => {
  const operations = atriumRegistry.operations.filter(select)
  beforeAll(async () => {
    atrium = await startAtrium({ bodyLimitBytes: BODY_LIMIT })
    seeded = await seedWorkspace(atrium, atriumRegistry, "Fuzzer")
  }, 300_000) // about a thousand requests, one after another: past two minutes on a loaded 2-core machine
  afterAll(async () => {
    await atrium?.close()
  })

  describe("every operation, fixed cases from its schemas", () => {
    for (const op of operations) {
      it(`${op.operationId} (${op.method} ${op.path})`, async () => {
        await runAll(op, casesFor(op, baseOf(op), BODY_LIMIT, !destructive(op)))
      })
    }
  })

  describe("every operation with a body, random hostile values at any depth", () => {
    for (const op of operations.filter((o) => o.body !== undefined && shapeOf(o).body.length > 0)) {
      // Top-level fields (present or not) and every place inside the example body.
      const example = op.examples[0]?.request?.body
      const places = [
        ...shapeOf(op).body.map((field) => [field.name] as ReadonlyArray<string>),
        ...placesIn(example).filter((path) => path.length > 1)
      ]
      it.prop([fc.constantFrom(...places), hostileValue], { seed: SEED, numRuns: RUNS, endOnFailure: true })(
        `${op.operationId} (${op.method} ${op.path})`,
        async (place, value) => {
          const base = baseOf(op)
          const field = place.join(".")
          const fuzzCase: FuzzCase = {
            label: `${field}=${stringAt(value)}`,
            params: base.params,
            ...(base.query !== undefined ? { query: base.query } : {}),
            body: withValueAt(base.body, place, value),
            expect: holdsUnstorable(value)
              ? { kind: "refused", path: `body.${field}` }
              : // Free text must come back as sent; other strings may be normalized (trimmed names, upper-case keys).
                typeof value === "string" && storableSamples.includes(value) && place.length === 1
                ? { kind: "stored", field, value }
                : { kind: "honest" }
          }
          check(op, fuzzCase, await send(atrium.origin, op, seeded.caller, fuzzCase))
        }
      )
    }
  })

  describe("every operation with a query, random hostile values", () => {
    for (const op of operations.filter((o) => shapeOf(o).query.length > 0)) {
      const names = shapeOf(op).query.map((field) => field.name)
      it.prop([fc.constantFrom(...names), hostileValue], { seed: SEED, numRuns: RUNS, endOnFailure: true })(
        `${op.operationId} (${op.method} ${op.path})`,
        async (name, value) => {
          const base = baseOf(op)
          const text = (typeof value === "string" ? value : (JSON.stringify(value) ?? "")).slice(0, 4000)
          // What arrives: a URL carries UTF-8, so an unpaired surrogate is sent as U+FFFD.
          const arrives = new URLSearchParams(new URLSearchParams({ text }).toString()).get("text")!
          const fuzzCase: FuzzCase = {
            label: `query ${name}=${stringAt(text)}`,
            params: base.params,
            query: { ...base.query, [name]: text },
            ...(op.body && base.body !== undefined ? { body: base.body } : {}),
            expect: holdsUnstorable(arrives) ? { kind: "refused", path: `query.${name}` } : { kind: "honest" }
          }
          check(op, fuzzCase, await send(atrium.origin, op, seeded.caller, fuzzCase))
        }
      )
    }
  })
}
