/**
 * Which shard an actor lives in. Every node must compute the same answer for
 * the same address, forever (or shards would move on upgrade), so this is a
 * fixed, dependency-free hash: FNV-1a (32-bit) over the UTF-16 code units of
 * `kind + "\u0000" + id` (the separator keeps `("ab","c")` and `("a","bc")` apart).
 */
import type { ActorAddress } from "./Actor.ts"

export const hashAddress = (kind: string, id: string): number => {
  let h = 0x811c9dc5
  const key = kind + "\u0000" + id
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

/** The shard (0 ≤ shard < shards) that owns `(kind, id)`. */
export const shardOf = (kind: string, id: string, shards: number): number => hashAddress(kind, id) % shards

export const shardOfAddress = (address: ActorAddress, shards: number): number => shardOf(address.kind, address.id, shards)

/** A stable string key for an address (maps, logs). */
export const addressKey = (kind: string, id: string): string => kind + "/" + id
