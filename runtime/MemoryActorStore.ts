/**
 * An ActorStore in memory, for unit tests and benches. Values are stored as
 * JSON text, like a real database would: nothing the store returns aliases an
 * activation's in-memory state (so a handler that mutates its state in place
 * cannot corrupt the "persisted" copy), and non-JSON state fails loudly.
 */
import { Effect, Layer } from "effect"
import type { ActorAddress } from "./Actor.ts"
import { ActorStore, type ActorStoreShape } from "./ActorStore.ts"

export interface MemoryActorStore extends ActorStoreShape {
  /** The decoded JSON stored for an address, or `undefined`. */
  readonly peek: (address: ActorAddress) => unknown
  /** Number of load / save / remove calls per address key (`kind/id`), for assertions. */
  readonly loads: Map<string, number>
  readonly saves: Map<string, number>
  readonly size: () => number
}

const keyOf = (address: ActorAddress) => address.kind + "/" + address.id
const bump = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1)

export const make = (): MemoryActorStore => {
  const rows = new Map<string, string>()
  const loads = new Map<string, number>()
  const saves = new Map<string, number>()
  return {
    load: (address) =>
      Effect.sync(() => {
        const key = keyOf(address)
        bump(loads, key)
        const text = rows.get(key)
        return text === undefined ? undefined : JSON.parse(text)
      }),
    save: (address, encodedState) =>
      Effect.sync(() => {
        const key = keyOf(address)
        bump(saves, key)
        rows.set(key, JSON.stringify(encodedState))
      }),
    remove: (address) => Effect.sync(() => void rows.delete(keyOf(address))),
    peek: (address) => {
      const text = rows.get(keyOf(address))
      return text === undefined ? undefined : JSON.parse(text)
    },
    loads,
    saves,
    size: () => rows.size
  }
}

/** A fresh, empty store per layer build. */
export const layer: Layer.Layer<ActorStore> = Layer.sync(ActorStore, make)

/** Provides a given store (e.g. one shared by two systems in a test, or inspected afterwards). */
export const layerFrom = (store: ActorStoreShape): Layer.Layer<ActorStore> => Layer.succeed(ActorStore, store)
