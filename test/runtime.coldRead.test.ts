/**
 * Reads of a rebuilt kind's actor that has no activation (`readOnly` + `rebuild`): answered from the rows
 * without activating it; read again soon after, it is activated and answers from memory. A write
 * acknowledged before a read is always seen, declared refusals stay refusals, and rows that cannot be read
 * are a transient failure (503), not a bug.
 */
import { Context, Data, Effect, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { Actor } from "../runtime/Actor.ts"
import { ActorUnavailable } from "../runtime/ActorError.ts"
import * as ActorHost from "../runtime/ActorHost.ts"
import { ActorStore } from "../runtime/ActorStore.ts"
import { LocalEnvelope } from "../runtime/Envelope.ts"
import * as MemoryActorStore from "../runtime/MemoryActorStore.ts"

/** The "relational truth" the kind is rebuilt from, and how often it was read. */
const rows = new Map<string, number>()
const rebuilds = new Map<string, number>()
let rowsDown = false

class NoSuchNote extends Schema.TaggedError<NoSuchNote>()("NoSuchNote", {}) {}
class RowsDown extends Data.TaggedError("RowsDown")<{}> {}

const Note = Actor<number | null>()({
  kind: "Note",
  state: Schema.NullOr(Schema.Number),
  initial: () => null,
  rebuild: (id) =>
    Effect.suspend(() => {
      rebuilds.set(id, (rebuilds.get(id) ?? 0) + 1)
      return rowsDown ? Effect.fail(new RowsDown()) : Effect.succeed(rows.get(id) ?? null)
    }),
  readOnly: ["get"],
  messages: {
    get: { payload: Schema.Struct({}), success: Schema.Number, error: NoSuchNote },
    set: { payload: Schema.Struct({ value: Schema.Number }), success: Schema.Number }
  },
  handlers: {
    get: (_, ctx) => (ctx.state === null ? Effect.fail(new NoSuchNote()) : Effect.succeed(ctx.state)),
    // A rebuilt kind commits its rows itself, then hands the new state over.
    set: ({ value }, ctx) =>
      Effect.sync(() => {
        rows.set(ctx.address.id, value)
        ctx.setState(value)
        return value
      })
  }
})

const withHost = <A, E>(
  use: (
    host: ActorHost.ActorHost,
    ask: (id: string, tag: "get" | "set", payload: object) => Effect.Effect<unknown, unknown>
  ) => Effect.Effect<A, E>
) =>
  Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const context = Context.make(ActorStore, MemoryActorStore.make())
        const host = yield* ActorHost.make({ kinds: [Note], context, nodeId: "cold-read-test", maxResident: 100, idleMillis: 600_000 })
        const ask = (id: string, tag: "get" | "set", payload: object) =>
          Effect.gen(function* () {
            const envelope = new LocalEnvelope({ kind: "Note", id }, tag, payload, 10_000)
            yield* host.offer("Note", id, envelope)
            return yield* envelope.await
          })
        return yield* use(host, ask)
      })
    )
  )

const id = (name: string) => `${name}-${Math.random().toString(36).slice(2, 8)}`

describe("cold reads of rebuilt actors", () => {
  it("answers a first read from the rows without an activation, and activates an actor read again", async () => {
    const note = id("once")
    rows.set(note, 7)
    const seen = await withHost((host, ask) =>
      Effect.gen(function* () {
        const first = yield* ask(note, "get", {})
        const afterFirst = host.census()
        const second = yield* ask(note, "get", {})
        const afterSecond = host.census()
        const third = yield* ask(note, "get", {})
        return { first, afterFirst, second, afterSecond, third }
      })
    )
    expect(seen.first).toBe(7)
    expect(seen.afterFirst).toEqual({ resident: 0, leaving: 0, running: 0 })
    expect(seen.second).toBe(7)
    expect(seen.afterSecond.resident).toBe(1)
    expect(seen.third).toBe(7)
    // Read from the rows twice (the cold read, the activation), then from memory.
    expect(rebuilds.get(note)).toBe(2)
  })

  it("answers a read of a resident, loaded actor without an envelope (readNow), and only such a read", async () => {
    const note = id("now")
    rows.set(note, 3)
    const seen = await withHost((host, ask) =>
      Effect.gen(function* () {
        const cold = host.readNow("Note", note, "get", {})
        yield* ask(note, "set", { value: 4 })
        const write = host.readNow("Note", note, "set", { value: 5 })
        const resident = host.readNow("Note", note, "get", {})
        const answer = resident === undefined ? undefined : yield* resident
        yield* host.passivate(() => true, new ActorUnavailable({ address: { kind: "*", id: "*" }, message: "test", reason: "draining" }))
        const passivated = host.readNow("Note", note, "get", {})
        return { cold, write, answer, passivated }
      })
    )
    expect(seen).toEqual({ cold: undefined, write: undefined, answer: 4, passivated: undefined })
    expect(rows.get(note)).toBe(4)
  })

  it("a read after an acknowledged write sees it, whether the writer is still active or not", async () => {
    const note = id("written")
    rows.set(note, 1)
    const seen = await withHost((host, ask) =>
      Effect.gen(function* () {
        const before = yield* ask(note, "get", {})
        yield* ask(note, "set", { value: 2 })
        const active = yield* ask(note, "get", {})
        yield* host.passivate(() => true, new ActorUnavailable({ address: { kind: "*", id: "*" }, message: "test", reason: "draining" }))
        const passivated = yield* ask(note, "get", {})
        return { before, active, passivated, census: host.census() }
      })
    )
    expect(seen).toEqual({ before: 1, active: 2, passivated: 2, census: { resident: 0, leaving: 0, running: 0 } })
  })

  it("keeps declared refusals, and answers unreadable rows as a transient failure", async () => {
    const missing = id("missing")
    const down = id("down")
    rows.set(down, 3)
    const [refused, failed] = await withHost((_host, ask) =>
      Effect.gen(function* () {
        const refused = yield* Effect.flip(ask(missing, "get", {}))
        rowsDown = true
        const failed = yield* Effect.flip(ask(down, "get", {})).pipe(Effect.ensuring(Effect.sync(() => (rowsDown = false))))
        return [refused, failed] as const
      })
    )
    expect(refused).toBeInstanceOf(NoSuchNote)
    expect(failed).toBeInstanceOf(ActorUnavailable)
    expect((failed as ActorUnavailable).reason).toBe("storage")
  })
})
