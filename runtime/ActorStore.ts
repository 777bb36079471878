/**
 * Where activations load and save their state. The runtime only knows this
 * interface; `persistence/SqlActorStore.ts` implements it on the Sql service.
 */
import { Context, type Effect } from "effect"
import type { ActorAddress } from "./Actor.ts"
import type { SqlError } from "../persistence/Sql.ts"

export interface ActorStoreShape {
  /** The encoded (JSON) state, or `undefined` if the actor was never saved. */
  readonly load: (address: ActorAddress) => Effect.Effect<unknown | undefined, SqlError>
  readonly save: (address: ActorAddress, encodedState: unknown) => Effect.Effect<void, SqlError>
  readonly remove: (address: ActorAddress) => Effect.Effect<void, SqlError>
}

export class ActorStore extends Context.Service<ActorStore, ActorStoreShape>()("atrium/runtime/ActorStore") {}
