/**
 * The ActorSystem service: `ask` an actor and await its reply. Two transports
 * implement it — in-process (the embedded default) and NATS (sharded, leases
 * in a JetStream KV bucket) — see `InProcessTransport.ts` and `NatsTransport.ts`.
 *
 * Handlers' requirements (`R` of their Effects, e.g. the `Sql` service) are
 * NOT provided by callers of `ask`: each transport layer captures the Context
 * it is built in and runs every handler in it, with the ActorSystem itself
 * added (actors ask and invalidate other actors). So provide `ActorStore` and
 * the handlers' services to the system's layer:
 *
 * ```ts
 * layerNats([Account, Workspace], { url, prefix: "atrium" }).pipe(
 *   Layer.provide(SqlActorStore.layer),
 *   Layer.provideMerge(Database.layer)
 * )
 * ```
 */
import { Context, type Effect } from "effect"
import { type ActorClient, type ActorKind, type Asker, clientConstructor } from "./Actor.ts"

export type { AskOptions } from "./Actor.ts"

/** `ask` fails with the message's declared errors (`Rejection` if it declares none) or an `ActorError`. */
export interface ActorSystemShape extends Asker {
  /** This node's id (unique per process). */
  readonly nodeId: string
  /**
   * Tells the live activation of a rebuilt kind, wherever it lives, that its
   * state is stale (changes made elsewhere alter how it is shown): it rebuilds
   * before its next message. Completes once the owning node has marked it;
   * starts no activation. Used after the commit, before the writer replies.
   */
  readonly invalidate: (kind: { readonly kind: string }, id: string) => Effect.Effect<void>
  /** Stop taking new messages, finish queued ones, passivate every activation (state saved). */
  readonly drain: Effect.Effect<void>
}

export class ActorSystem extends Context.Service<ActorSystem, ActorSystemShape>()("atrium/runtime/ActorSystem") {}

/**
 * `kind`'s client for `id` that asks through the ActorSystem in context
 * (`clientIn(Board)(id).vote(payload)` requires `ActorSystem`), for callers
 * that do not hold the system.
 */
export const clientIn = <K extends ActorKind>(kind: K) => {
  const Client = clientConstructor<string>(
    kind,
    (id, tag) => (payload, options) => ActorSystem.use((system) => system.ask(kind, id, tag, payload, options))
  )
  // Built from the message names at run time; the mapped type says what each method is.
  return (id: string): ActorClient<K, ActorSystem> => new Client(id) as ActorClient<K, ActorSystem>
}
