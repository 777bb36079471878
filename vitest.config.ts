import { defineConfig } from "vitest/config"

// vitest 5 calls Map.groupBy / Object.groupBy (Node ≥ 21) and Promise.withResolvers
// (Node ≥ 22) in its main process (reporters, snapshots, watch mode). On Node 20
// a failing test then crashes the reporter ("Map.groupBy is not a function")
// instead of printing the failure, so provide them here: this file is loaded
// in that process before any of them runs.
const groupInto = <K, T>(items: Iterable<T>, keyOf: (item: T, index: number) => K, add: (key: K, item: T) => void) => {
  let index = 0
  for (const item of items) add(keyOf(item, index++), item)
}
const polyfills = {
  Map: Map as unknown as { groupBy?: unknown },
  Object: Object as unknown as { groupBy?: unknown },
  Promise: Promise as unknown as { withResolvers?: unknown }
}
if (typeof polyfills.Map.groupBy !== "function") {
  polyfills.Map.groupBy = <K, T>(items: Iterable<T>, keyOf: (item: T, index: number) => K) => {
    const groups = new Map<K, Array<T>>()
    groupInto(items, keyOf, (key, item) => {
      const group = groups.get(key)
      if (group === undefined) groups.set(key, [item])
      else group.push(item)
    })
    return groups
  }
}
if (typeof polyfills.Object.groupBy !== "function") {
  polyfills.Object.groupBy = <T>(items: Iterable<T>, keyOf: (item: T, index: number) => PropertyKey) => {
    const groups: Record<PropertyKey, Array<T>> = Object.create(null)
    groupInto(items, keyOf, (key, item) => {
      ;(groups[key] ??= []).push(item)
    })
    return groups
  }
}
if (typeof polyfills.Promise.withResolvers !== "function") {
  polyfills.Promise.withResolvers = <T>() => {
    let resolve!: (value: T | PromiseLike<T>) => void
    let reject!: (reason?: unknown) => void
    const promise = new Promise<T>((res, rej) => {
      resolve = res
      reject = rej
    })
    return { promise, resolve, reject }
  }
}

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Every in-process ask goes through its message's codec, as over NATS: a value off its schema fails the test.
    env: { ATRIUM_CHECK_PROTOCOLS: "1" }
  }
})
