/**
 * Actor kinds used by the runtime tests (in-process, NATS, node processes).
 */
import { Context, Effect, Schema } from "effect"
import { Actor } from "../../runtime/Actor.ts"
import { reject } from "../../runtime/Rejection.ts"

/** Which node handled a message: provided by the system's layer, to prove handlers get their requirements. */
export class NodeInfo extends Context.Service<NodeInfo, { readonly name: string }>()("atrium/test/NodeInfo") {}

/** Per address, how many messages are being handled right now, and the maximum ever seen (must stay 1). */
export const concurrency = { current: new Map<string, number>(), max: new Map<string, number>() }

const CounterState = Schema.Struct({
  count: Schema.Number,
  log: Schema.Array(Schema.String)
})
export type CounterState = typeof CounterState.Type

const Handled = Schema.Struct({ count: Schema.Number, node: Schema.String })

export const Counter = Actor<CounterState>()({
  kind: "Counter",
  state: CounterState,
  initial: () => ({ count: 0, log: [] }),
  messages: {
    Increment: { payload: Schema.Struct({ by: Schema.Number }), success: Handled },
    Get: { payload: Schema.Struct({}), success: CounterState },
    /** Appends a token after yielding, while probing that no other message of this actor runs concurrently. */
    Append: { payload: Schema.Struct({ token: Schema.String }), success: Schema.Number },
    /** Refuses with a Rejection if `count` is above `max` (state unchanged). */
    Guarded: { payload: Schema.Struct({ max: Schema.Number }), success: Schema.Number },
    /** Mutates the state in place (no setState) and then dies: a restart must discard it. */
    Corrupt: { payload: Schema.Struct({}), success: Schema.Number },
    /** Calls setState then throws: the change must not be persisted. */
    SetThenThrow: { payload: Schema.Struct({}), success: Schema.Number },
    /** Sleeps (to fill the mailbox or exceed a timeout). */
    Sleep: { payload: Schema.Struct({ millis: Schema.Number }), success: Schema.Number },
    /** The name of the node hosting the actor. */
    WhoAmI: { payload: Schema.Struct({}), success: Schema.String }
  },
  handlers: {
    Increment: ({ by }, ctx) =>
      Effect.gen(function* () {
        const node = yield* NodeInfo
        const count = ctx.state.count + by
        ctx.setState({ ...ctx.state, count })
        return { count, node: node.name }
      }),
    Get: (_, ctx) => Effect.succeed(ctx.state),
    Append: ({ token }, ctx) =>
      Effect.gen(function* () {
        const key = `${ctx.address.kind}/${ctx.address.id}`
        const now = (concurrency.current.get(key) ?? 0) + 1
        concurrency.current.set(key, now)
        concurrency.max.set(key, Math.max(now, concurrency.max.get(key) ?? 0))
        yield* Effect.yieldNow
        if (token.endsWith("!")) yield* Effect.sleep(1)
        concurrency.current.set(key, now - 1)
        ctx.setState({ ...ctx.state, log: [...ctx.state.log, token] })
        return ctx.state.log.length + 1
      }),
    Guarded: ({ max }, ctx) =>
      Effect.gen(function* () {
        ctx.setState({ ...ctx.state, count: ctx.state.count + 1000 })
        if (ctx.state.count > max) {
          return yield* reject("conflict", `count ${ctx.state.count} is above ${max}`, [{ path: "count", message: "too high" }])
        }
        return ctx.state.count + 1000
      }),
    Corrupt: (_, ctx) =>
      Effect.sync(() => {
        ;(ctx.state as { count: number }).count = -999
        ;(ctx.state.log as Array<string>).push("corrupted")
        throw new Error("boom in Corrupt")
      }),
    SetThenThrow: (_, ctx) =>
      Effect.suspend(() => {
        ctx.setState({ ...ctx.state, count: 424242 })
        return Effect.die(new Error("died after setState"))
      }),
    Sleep: ({ millis }, ctx) => Effect.as(Effect.sleep(millis), ctx.state.count),
    WhoAmI: () => Effect.map(Effect.service(NodeInfo), (n) => n.name)
  }
})
