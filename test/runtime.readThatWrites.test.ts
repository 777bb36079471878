/**
 * A `readOnly` message is answered at once from the committed state — unless
 * its handler has a change to make this time (an expiry it is the first to
 * notice): then it queues as a write, runs again through the mailbox, and its
 * change is saved before its reply. The next read is at once again.
 */
import { Context, Effect, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { Actor } from "../runtime/Actor.ts"
import * as ActorHost from "../runtime/ActorHost.ts"
import { ActorStore } from "../runtime/ActorStore.ts"
import { LocalEnvelope } from "../runtime/Envelope.ts"
import * as MemoryActorStore from "../runtime/MemoryActorStore.ts"

const Pass = Schema.Struct({ holder: Schema.NullOr(Schema.String), expiresAt: Schema.Number })

/** A pass held until `expiresAt`; `holder` reads who holds it, and clears an expired pass for good. */
const Turnstile = Actor<typeof Pass.Type>()({
  kind: "Turnstile",
  state: Pass,
  initial: () => ({ holder: null, expiresAt: 0 }),
  readOnly: ["holder"],
  messages: {
    holder: { payload: Schema.Struct({}), success: Schema.NullOr(Schema.String) },
    grant: { payload: Schema.Struct({ holder: Schema.String, expiresAt: Schema.Number }), success: Schema.Void }
  },
  handlers: {
    holder: (_, ctx) => {
      if (ctx.state.holder !== null && ctx.state.expiresAt <= Date.now()) {
        ctx.setState({ holder: null, expiresAt: 0 })
        return Effect.succeed(null)
      }
      return Effect.succeed(ctx.state.holder)
    },
    grant: (pass, ctx) => Effect.sync(() => ctx.setState(pass))
  }
})

describe("a read with a change to make", () => {
  it("is a write that time (through the mailbox, its change saved), and a read at once otherwise", async () => {
    const store = MemoryActorStore.make()
    const gate = "gate-1"
    const seen = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const host = yield* ActorHost.make({
            kinds: [Turnstile],
            context: Context.make(ActorStore, store),
            nodeId: "read-that-writes-test",
            idleMillis: 600_000
          })
          const ask = (tag: "holder" | "grant", payload: object) =>
            Effect.gen(function* () {
              const envelope = new LocalEnvelope({ kind: "Turnstile", id: gate }, tag, payload, 10_000)
              yield* host.offer("Turnstile", gate, envelope)
              return yield* envelope.await
            })
          yield* ask("grant", { holder: "ada", expiresAt: Date.now() + 60_000 })
          const held = host.readNow("Turnstile", gate, "holder", {})
          const heldAnswer = held === undefined ? "queued" : yield* held
          yield* ask("grant", { holder: "bob", expiresAt: Date.now() - 1 })
          const savesBefore = store.saves.get(`Turnstile/${gate}`) ?? 0
          const expired = host.readNow("Turnstile", gate, "holder", {})
          const expiredAsked = yield* ask("holder", {})
          const savesAfter = store.saves.get(`Turnstile/${gate}`) ?? 0
          const after = host.readNow("Turnstile", gate, "holder", {})
          const afterAnswer = after === undefined ? "queued" : yield* after
          return { heldAnswer, expired, expiredAsked, saved: savesAfter - savesBefore, afterAnswer }
        })
      )
    )
    expect(seen).toEqual({ heldAnswer: "ada", expired: undefined, expiredAsked: null, saved: 1, afterAnswer: null })
  })
})
