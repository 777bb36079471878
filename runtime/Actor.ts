/**
 * An actor kind: a single-writer aggregate addressed by `(kind, id)`, in the
 * sense of an Orleans grain. Declared once as data; the ActorSystem activates,
 * persists, passivates and routes it. Messages are `Schema`s, so one
 * definition validates, encodes for NATS and documents.
 *
 * Two ways for state to outlive an activation:
 * - persisted: the state is a snapshot written through the ActorStore before
 *   every reply (identity actors);
 * - rebuilt: the state is a read model of relational rows the handlers commit
 *   themselves (pm, wiki). `rebuild(id)` loads it on activation, after a
 *   defect, after `ctx.reload()` and after `ActorSystem.invalidate` (changes
 *   made elsewhere that alter how the aggregate is shown); nothing is written
 *   through the ActorStore.
 */
import type { Effect, Exit, Schema } from "effect"
import type { ActorError } from "./ActorError.ts"
import type { Rejection } from "./Rejection.ts"

export interface ActorAddress {
  readonly kind: string
  readonly id: string
}

export interface ActorContext<State> {
  readonly address: ActorAddress
  /** The activation's current state (loaded from persistence on activation). */
  readonly state: State
  /** Replaces the state; a persisted kind's state is saved before the reply is sent. */
  readonly setState: (next: State) => void
  /** Rebuilt kinds: drop the in-memory state and rebuild it before the next message. */
  readonly reload: () => void
}

export interface MessageSchemas {
  readonly payload: Schema.Top
  readonly success: Schema.Top
  /**
   * The message's domain failures: tagged error classes (a `Schema.Union` of
   * them for several), encoded over NATS like successes. Absent: `Rejection`.
   * Anything else a handler fails with is a defect.
   */
  readonly error?: Schema.Top
}

/** What a message's handler may fail with: its declared errors, else `Rejection` (also for a kind typed loosely, `any`). */
export type MessageError<M> = 0 extends 1 & M ? Rejection : M extends { readonly error: infer E extends Schema.Top } ? E["Type"] : Rejection

export type Handlers<State, Messages extends Record<string, MessageSchemas>, R> = {
  readonly [Tag in keyof Messages]: (
    payload: Messages[Tag]["payload"]["Type"],
    ctx: ActorContext<State>
  ) => Effect.Effect<Messages[Tag]["success"]["Type"], MessageError<Messages[Tag]>, R>
}

/** One message of a group, as `MessageGroup.handle` receives it. */
export type GroupedMessage<Messages extends Record<string, MessageSchemas>> = {
  readonly [Tag in keyof Messages]: { readonly tag: Tag; readonly payload: Messages[Tag]["payload"]["Type"] }
}[keyof Messages]

/**
 * Group commit: messages with one of `tags` that are queued together (up to
 * `max`, default 256) are handled by ONE call of `handle`, in arrival order —
 * e.g. written in one transaction — and each is answered with its own outcome
 * (`handle` returns one per message, in order) once `handle` has finished. A
 * failure of `handle` itself answers all of them. The kind's `readOnly` messages queued
 * among them are answered first; any other message ends the group and is
 * handled after it.
 */
export interface MessageGroup<State, Messages extends Record<string, MessageSchemas>, R> {
  readonly tags: ReadonlyArray<keyof Messages & string>
  readonly max?: number
  readonly handle: (
    messages: ReadonlyArray<GroupedMessage<Messages>>,
    ctx: ActorContext<State>
  ) => Effect.Effect<ReadonlyArray<Exit.Exit<unknown, MessageError<Messages[keyof Messages]>>>, MessageError<Messages[keyof Messages]>, R>
}

export interface ActorKind<State = any, Messages extends Record<string, MessageSchemas> = any, R = any> {
  readonly kind: string
  /** JSON-compatible codec of the state, used to persist it. */
  readonly state: Schema.Codec<State, any>
  /** The state of an actor that was never persisted. */
  readonly initial: (id: string) => State
  /** A rebuilt kind: loads the state from the relational truth instead of the ActorStore (see above). */
  readonly rebuild?: (id: string) => Effect.Effect<State, unknown, R>
  readonly messages: Messages
  readonly handlers: Handlers<State, Messages, R>
  /** Passivate after this long without messages (default: the system's). */
  readonly idleMillis?: number
  /** Mailbox capacity (default: the system's). */
  readonly mailbox?: number
  /**
   * Messages that only read the state (their handlers never call `setState`
   * or mutate it): while the state is loaded they are answered at once, from
   * the state as last committed, instead of queueing behind writes in
   * flight. A write not yet acknowledged is concurrent with them, so either
   * order is linearizable; one acknowledged before they were sent is seen.
   * A rebuilt kind's reads of an actor with no activation are answered from
   * its rebuilt state without activating it; read again soon after, it is
   * activated (see `readCold` in Activation.ts).
   *
   * A read that now and then has a change to make (an expiry it is the first
   * to notice) calls `setState` while answering, synchronously: that answer
   * is dropped and the message queues as a write, run again with its change
   * saved before its reply.
   */
  readonly readOnly?: ReadonlyArray<keyof Messages & string>
  /** Messages handled together (group commit); see `MessageGroup`. */
  readonly group?: MessageGroup<State, Messages, R>
}

export type PayloadOf<K extends ActorKind, Tag extends keyof K["messages"]> = K["messages"][Tag]["payload"]["Type"]
export type SuccessOf<K extends ActorKind, Tag extends keyof K["messages"]> = K["messages"][Tag]["success"]["Type"]
export type ErrorOf<K extends ActorKind, Tag extends keyof K["messages"]> = MessageError<K["messages"][Tag]>

export interface AskOptions {
  readonly timeoutMillis?: number
  /**
   * The write's idempotency key, for a caller that may send the same write
   * again (e.g. after a 503): a repeated key is answered with the first
   * reply, within the retention (see `RequestLog.ts`), instead of being
   * applied twice. The NATS transport keys every remote write itself.
   */
  readonly idempotencyKey?: string
}

/** What a client needs of the ActorSystem (declared here so that kinds can hand out clients without importing it). */
export interface Asker {
  readonly ask: <K extends ActorKind, Tag extends keyof K["messages"] & string>(
    kind: K,
    id: string,
    tag: Tag,
    payload: PayloadOf<K, Tag>,
    options?: AskOptions
  ) => Effect.Effect<SuccessOf<K, Tag>, ErrorOf<K, Tag> | ActorError>
}

/**
 * A typed client of one actor, in the shape of Effect's entity clients: one
 * method per message, `client.vote(payload)`, failing with the message's
 * declared errors or the runtime's `ActorError`.
 */
export type ActorClient<K extends ActorKind, R = never> = {
  readonly [Tag in keyof K["messages"] & string]: (
    payload: PayloadOf<K, Tag>,
    options?: AskOptions
  ) => Effect.Effect<SuccessOf<K, Tag>, ErrorOf<K, Tag> | ActorError, R>
}

/** A kind declared with `Actor(...)`: `Kind.client(system)(id).message(payload)`. */
export interface TypedActorKind<State, Messages extends Record<string, MessageSchemas>, R> extends ActorKind<State, Messages, R> {
  readonly client: (system: Asker) => (id: string) => ActorClient<ActorKind<State, Messages, R>>
}

const clientTarget = Symbol("clientTarget")

/**
 * The constructor of `kind`'s clients over targets of type `T` (what a client
 * asks through, and whom): built once per kind, with one getter per message
 * on its prototype that makes that message's method when it is read. A client
 * is then one small object, however many messages its kind has — clients are
 * made on every request (the workspace kind has dozens of messages, and
 * building each method per client was a closure per message per request).
 * A method read off a client keeps working detached (`Effect.flatMap(x,
 * client.view)`).
 */
export const clientConstructor = <T>(
  kind: ActorKind,
  method: (target: T, tag: string) => (payload: unknown, options?: AskOptions) => unknown
): (new (
  target: T
) => object) => {
  class Client {
    // Under a symbol: no message name can shadow it.
    readonly [clientTarget]: T
    constructor(target: T) {
      this[clientTarget] = target
    }
  }
  for (const tag of Object.keys(kind.messages)) {
    Object.defineProperty(Client.prototype, tag, {
      get(this: Client) {
        return method(this[clientTarget], tag)
      },
      enumerable: true
    })
  }
  return Client
}

const clientOf = <K extends ActorKind>(kind: K) => {
  const Client = clientConstructor<{ readonly system: Asker; readonly id: string }>(
    kind,
    ({ system, id }, tag) =>
      (payload, options) =>
        system.ask(kind, id, tag, payload, options)
  )
  return (system: Asker) =>
    (id: string): ActorClient<K> =>
      // Built from the message names at run time; the mapped type says what each method is.
      new Client({ system, id }) as ActorClient<K>
}

/** The services the handlers of `H` require (the union of their Effects' `R`). */
export type HandlersServices<H> = {
  [Tag in keyof H]: H[Tag] extends (...args: Array<any>) => Effect.Effect<any, any, infer R> ? R : never
}[keyof H]

/**
 * Declares an actor kind with its state type fixed first, so handlers are
 * checked against it. The handlers' requirements (`R`, e.g. the `Sql`
 * service) are inferred from the handlers themselves.
 */
export const Actor =
  <State>() =>
  <const Messages extends Record<string, MessageSchemas>, H extends Handlers<State, Messages, any>>(
    definition: Omit<ActorKind<State, Messages, any>, "handlers"> & { readonly handlers: H }
  ): TypedActorKind<State, Messages, HandlersServices<H>> => {
    // The handlers' requirements are inferred from `H`, which `Handlers<…, any>` only bounds.
    const kind = definition as ActorKind<State, Messages, HandlersServices<H>>
    return { ...kind, client: clientOf(kind) }
  }

/** The services a kind's handlers require (provided by the ActorSystem layer from the context it is built in). */
export type ServicesOf<K> = K extends ActorKind<any, any, infer R> ? R : never
