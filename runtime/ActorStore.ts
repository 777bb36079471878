/**
 * Where activations load and save their state. The runtime only knows this
 * interface; `persistence/SqlActorStore.ts` implements it on the Sql service.
 *
 * Saves are conditional: an activation saves with the version it loaded (0
 * when there was none) and the store refuses (`StaleState`) if the stored
 * version moved on meanwhile, so a delayed save of an owner that lost its
 * shard never overwrites the next owner's acknowledged state.
 */
import { Context, Data, Effect } from "effect"
import type { ActorAddress } from "./Actor.ts"

/** A failure of the store itself (a database error); `isTransient` tells whether retrying may succeed. */
export interface StoreFailure {
  readonly _tag: string
  readonly message: string
}

/** The stored version is not the one the activation loaded: someone else saved the actor since. */
export class StaleState extends Data.TaggedError("StaleState")<{ readonly address: ActorAddress; readonly expected: number }> {
  override get message(): string {
    return `${this.address.kind}/${this.address.id} was saved by someone else since version ${this.expected}`
  }
}

export interface StoredState {
  /** The encoded (JSON) state. */
  readonly state: unknown
  /** 1 after the first save, +1 per save. */
  readonly version: number
}

export interface ActorStoreShape {
  /** The stored state and its version, or `undefined` if the actor was never saved. */
  readonly load: (address: ActorAddress) => Effect.Effect<StoredState | undefined, StoreFailure>
  /** Saves if the stored version is still `expected` (0: never saved); returns the new version. */
  readonly save: (address: ActorAddress, encodedState: unknown, expected: number) => Effect.Effect<number, StoreFailure | StaleState>
  readonly remove: (address: ActorAddress) => Effect.Effect<void, StoreFailure>
}

export class ActorStore extends Context.Service<ActorStore, ActorStoreShape>()("atrium/runtime/ActorStore") {}

const Transient = Symbol.for("atrium/runtime/Transient")

/**
 * Marks failures that say "the store did not answer" (connection lost, a
 * timeout, the server shutting down) as opposed to a bug: the runtime and the
 * facade answer them 503 + Retry-After instead of 500. Stores set it on their
 * error values (`persistence/Sql.ts` does).
 */
export const transientMarker: typeof Transient = Transient

export const isTransient = (u: unknown): boolean =>
  typeof u === "object" && u !== null && (u as { [Transient]?: unknown })[Transient] === true

/** A failure of a store (e.g. `persistence/Sql.ts`'s SqlError): it carries the marker, transient or not. */
export interface StoreFailure {
  readonly [Transient]: boolean
}

const isStoreFailure = (u: unknown): u is StoreFailure => typeof u === "object" && u !== null && Transient in u
const isNoStoreFailure = <E>(e: E): e is Exclude<E, StoreFailure> => !isStoreFailure(e)

/**
 * A store's failures become defects: never the caller's fault (a transient
 * one is still answered 503 + Retry-After by the facade, a bug 500).
 */
export const orDieStore = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, Exclude<E, StoreFailure>, R> =>
  Effect.catch(effect, (e) => (isNoStoreFailure(e) ? Effect.fail(e) : Effect.die(e)))
