/**
 * An ActorStore in memory, for unit tests and benches. Values are stored as
 * JSON text, like a real database would: nothing the store returns aliases an
 * activation's in-memory state (so a handler that mutates its state in place
 * cannot corrupt the "persisted" copy), and non-JSON state fails loudly.
 * Saves are conditional on the version, as in `SqlActorStore`.
 */
import { Effect, Layer } from "effect"
import type { ActorAddress } from "./Actor.ts"
import { ActorStore, type ActorStoreShape, StaleState } from "./ActorStore.ts"

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
  const rows = new Map<string, { readonly text: string; readonly version: number }>()
  const loads = new Map<string, number>()
  const saves = new Map<string, number>()
  return {
    load: (address) =>
      Effect.sync(() => {
        const key = keyOf(address)
        bump(loads, key)
        const row = rows.get(key)
        return row === undefined ? undefined : { state: JSON.parse(row.text), version: row.version }
      }),
    save: (address, encodedState, expected) =>
      Effect.suspend(() => {
        const key = keyOf(address)
        bump(saves, key)
        const version = rows.get(key)?.version ?? 0
        if (version !== expected) return Effect.fail(new StaleState({ address, expected }))
        rows.set(key, { text: JSON.stringify(encodedState), version: version + 1 })
        return Effect.succeed(version + 1)
      }),
    remove: (address) => Effect.sync(() => void rows.delete(keyOf(address))),
    peek: (address) => {
      const row = rows.get(keyOf(address))
      return row === undefined ? undefined : JSON.parse(row.text)
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
