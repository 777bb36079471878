/**
 * Typed messages: a kind declares each message's domain errors as tagged
 * classes; its client fails with exactly them (or an ActorError), in process
 * and across the NATS codec.
 */
import { Effect, Exit, Layer, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { MemberLimitReached } from "../actors/identity/IdentityErrors.ts"
import { UserStanding } from "../actors/identity/UserStanding.ts"
import { Workspace } from "../actors/identity/Workspace.ts"
import { fromFailure } from "../facade/HttpError.ts"
import { Actor } from "../runtime/Actor.ts"
import { ActorStore } from "../runtime/ActorStore.ts"
import { ActorSystem } from "../runtime/ActorSystem.ts"
import { layerInProcess } from "../runtime/InProcessTransport.ts"
import * as MemoryActorStore from "../runtime/MemoryActorStore.ts"
import * as MessageCodec from "../runtime/MessageCodec.ts"
import { Rejection, reject } from "../runtime/Rejection.ts"

class EntryNotFound extends Schema.TaggedError<EntryNotFound>()("EntryNotFound", { key: Schema.String }) {
  override get message() {
    return `No entry ${this.key}`
  }
}
class LedgerClosed extends Schema.TaggedError<LedgerClosed>()("LedgerClosed", {}) {}

const Ledger = Actor<{ readonly entries: ReadonlyArray<string>; readonly closed: boolean }>()({
  kind: "Ledger",
  state: Schema.Struct({ entries: Schema.Array(Schema.String), closed: Schema.Boolean }),
  initial: () => ({ entries: [], closed: false }),
  messages: {
    add: { payload: Schema.Struct({ entry: Schema.String }), success: Schema.Number, error: LedgerClosed },
    get: { payload: Schema.Struct({ key: Schema.String }), success: Schema.String, error: EntryNotFound },
    close: { payload: Schema.Struct({}), success: Schema.Void },
    legacy: { payload: Schema.Struct({}), success: Schema.Void }
  },
  readOnly: ["get"],
  handlers: {
    add: ({ entry }, ctx) =>
      ctx.state.closed
        ? Effect.fail(new LedgerClosed())
        : Effect.sync(() => {
            const entries = [...ctx.state.entries, entry]
            ctx.setState({ ...ctx.state, entries })
            return entries.length
          }),
    get: ({ key }, ctx) => {
      const found = ctx.state.entries.find((e) => e === key)
      return found === undefined ? Effect.fail(new EntryNotFound({ key })) : Effect.succeed(found)
    },
    close: (_, ctx) => Effect.sync(() => ctx.setState({ ...ctx.state, closed: true })),
    legacy: () => Effect.fail(reject("conflict", "undeclared messages still refuse with a Rejection"))
  }
})

const layer = layerInProcess([Ledger], { checkProtocols: true }).pipe(Layer.provide(Layer.succeed(ActorStore, MemoryActorStore.make())))
const run = <A, E>(effect: Effect.Effect<A, E, ActorSystem>) => Effect.runPromise(Effect.scoped(Effect.provide(effect, layer)))

describe("typed actor messages", () => {
  it("a client answers successes and each message's declared errors as their classes", async () => {
    const outcome = await run(
      Effect.gen(function* () {
        const ledger = Ledger.client(yield* ActorSystem)("l-1")
        const added = yield* ledger.add({ entry: "a" })
        const found = yield* ledger.get({ key: "a" })
        const missing = yield* Effect.flip(ledger.get({ key: "b" }))
        yield* ledger.close({})
        const closed = yield* Effect.flip(ledger.add({ entry: "c" }))
        const legacy = yield* Effect.flip(ledger.legacy({}))
        return { added, found, missing, closed, legacy }
      })
    )
    expect(outcome.added).toBe(1)
    expect(outcome.found).toBe("a")
    expect(outcome.missing).toBeInstanceOf(EntryNotFound)
    expect(outcome.missing).toMatchObject({ _tag: "EntryNotFound", key: "b", message: "No entry b" })
    expect(outcome.closed).toBeInstanceOf(LedgerClosed)
    expect(outcome.legacy).toBeInstanceOf(Rejection)
  })

  it("declared errors cross the NATS codec as their classes, and a Rejection still does", async () => {
    const address = { kind: "Ledger", id: "l-2" }
    const codec = MessageCodec.codecFor(Ledger, "get")!
    const roundTrip = (error: unknown) =>
      Effect.runPromise(
        Effect.flip(MessageCodec.decodeReply(address, codec, 0, MessageCodec.encodeOutcome(address, codec, Exit.fail(error as Rejection))))
      )
    const declared = await roundTrip(new EntryNotFound({ key: "x" }))
    expect(declared).toBeInstanceOf(EntryNotFound)
    expect(declared).toMatchObject({ key: "x", message: "No entry x" })
    expect(await roundTrip(reject("invalid", "bad payload"))).toBeInstanceOf(Rejection)
    // Another message's error is no declared error of this one: a defect, not a value.
    expect(await roundTrip(new LedgerClosed())).toMatchObject({ _tag: "ActorDefect" })
  })

  it("a message that never fails (error: Schema.Never) still carries a Rejection; a domain error keeps its message and details", async () => {
    const address = { kind: "workspace", id: "w-1" }
    const roundTrip = <A>(codec: MessageCodec.MessageCodec, error: A) =>
      Effect.runPromise(
        Effect.flip(MessageCodec.decodeReply(address, codec, 0, MessageCodec.encodeOutcome(address, codec, Exit.fail(error as Rejection))))
      )
    const never = MessageCodec.codecFor(UserStanding, "active")!
    expect(await roundTrip(never, reject("invalid", "bad payload"))).toBeInstanceOf(Rejection)
    const full = await roundTrip(MessageCodec.codecFor(Workspace, "addMember")!, new MemberLimitReached({ limit: 3 }))
    expect(full).toBeInstanceOf(MemberLimitReached)
    expect(fromFailure(full)).toMatchObject({
      status: 409,
      code: "conflict",
      message: "The workspace has reached its limit of 3 members; add seats or raise the quota first",
      details: [{ path: "seats", message: "limit of 3 members reached" }]
    })
  })
})

// Compile-time checks (tsc runs over test/): a handler may fail only with its message's declared errors.
export const undeclared = Actor<null>()({
  kind: "Undeclared",
  state: Schema.Null,
  initial: () => null,
  messages: { add: { payload: Schema.Struct({}), success: Schema.Void, error: LedgerClosed } },
  handlers: {
    // @ts-expect-error EntryNotFound is not among add's declared errors
    add: () => Effect.fail(new EntryNotFound({ key: "k" }))
  }
})
// @ts-expect-error the client has no message the kind does not declare
export const unknownMessage = (system: Parameters<typeof Ledger.client>[0]) => Ledger.client(system)("l").remove({})
