/**
 * Which shards this node serves, decided only by compare-and-set on a
 * JetStream KV bucket (no consensus of our own):
 *
 * - `shard.<n>` = the owner's node id. Acquired with `kv.create` (fails if the
 *   key exists), renewed with `kv.update(key, value, revision)` (fails if
 *   anyone else wrote it since), released with `kv.delete(key, {previousSeq})`.
 * - `node.<nodeId>` = heartbeat; the live nodes are the heartbeat keys.
 * - Expiry is the bucket's `max_age` (= lease TTL): nats-server 2.9 ignores
 *   per-key TTLs and subject-delete markers, so every write of a key restarts
 *   its TTL and a key that is not rewritten within the TTL vanishes.
 *
 * Safety: a node serves a shard only while `now < validUntil`, where
 * `validUntil = (time the last successful write was SENT) + TTL - safety`.
 * The key cannot expire (and be re-acquired by another node) before
 * sent + TTL, so the old owner stops `safety` millis before anyone else can
 * start. The check is made on every message, and a guard fiber aborts the
 * shard's activations when the deadline passes.
 *
 * Fencing: a lease only says who SHOULD serve; `fence(shard)` (the epoch
 * bump in the database, see `ShardFences.ts`) runs after the key is created
 * and before the shard is served, so the database refuses the writes of the
 * former owner from then on. Until it has succeeded the lease is
 * "acquiring" (renewed, not served); if it fails the key is deleted.
 *
 * Balance: each node aims for ceil(shards / liveNodes). Above it, it releases
 * shards gracefully (stop routing to it, passivate its actors, then delete the
 * lease); below it, it acquires free shards (random order, so nodes starting
 * together don't collide on the same keys). The heartbeat is written before
 * the leases in each round, so a dead node's heartbeat lapses no later than
 * its leases and survivors see the new target as soon as shards free up.
 */
import { JetStreamApiError } from "@nats-io/jetstream"
import { type KV, KvWatchInclude } from "@nats-io/kv"
import { Deferred, Effect, Exit, Queue, type Scope, Semaphore } from "effect"

export interface ShardLeasesConfig {
  readonly kv: KV
  readonly nodeId: string
  readonly shards: number
  readonly leaseTtlMillis: number
  /** Renewal / rebalance period. Default TTL / 3. */
  readonly renewMillis?: number
  /** Stop serving this long before a lease could lapse. Default TTL / 4. */
  readonly safetyMillis?: number
  /** false: a client-only node (no heartbeat, never owns a shard). */
  readonly acquire: boolean
  /** Start serving a shard (subscribe). */
  readonly onServe: (shard: number) => Effect.Effect<void>
  /** Stop serving a shard: gracefully (finish queued messages) or at once (lease lost). Must be idempotent. */
  readonly onStop: (shard: number, graceful: boolean) => Effect.Effect<void>
  /** Takes the shard's fence (bumps its epoch) before it is served; returns the epoch. Absent: unfenced. */
  readonly fence?: (shard: number) => Effect.Effect<number, unknown>
}

export interface ShardLeases {
  /** Hot path: this node holds a valid lease on `shard` and serves it. */
  readonly isServing: (shard: number) => boolean
  /**
   * The lease on `shard` is held and valid, whatever its phase: queued
   * messages may still be processed (also while releasing it gracefully).
   */
  readonly isValid: (shard: number) => boolean
  /** Shards served now. */
  readonly owned: () => ReadonlyArray<number>
  /** Live nodes seen at the last rebalance (including this one). */
  readonly liveNodes: () => number
  /** The fencing epoch acquired for a served shard. */
  readonly epochOf: (shard: number) => number | undefined
  /** Stops serving `shard` at once (its fence says another node owns it) and gives up its lease. */
  readonly forfeit: (shard: number) => Effect.Effect<void>
  /** Drain: stop acquiring, stop serving every shard gracefully, delete the leases and the heartbeat. */
  readonly releaseAll: Effect.Effect<void>
}

interface Lease {
  readonly shard: number
  readonly key: string
  revision: number
  validUntil: number
  /** acquiring (fence being taken) → serving → releasing (passivating) → released (ready to delete) */
  phase: "acquiring" | "serving" | "releasing" | "released"
  epoch: number | undefined
  /** Completed once a graceful stop has finished. */
  readonly stopped: Deferred.Deferred<void>
}

export const shardKey = (shard: number): string => `shard.${shard}`
export const heartbeatKey = (nodeId: string): string => `node.${nodeId}`

const promise = <A>(thunk: () => Promise<A>): Effect.Effect<A, unknown> => Effect.tryPromise({ try: thunk, catch: (error) => error })

/** The server rejected the write (wrong revision, ...): definitive, unlike a timeout. */
const isDefinitive = (error: unknown): boolean => error instanceof JetStreamApiError

const shuffle = <A>(items: Array<A>): Array<A> => {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1))
    ;[items[i], items[j]] = [items[j], items[i]]
  }
  return items
}

export const make = (config: ShardLeasesConfig): Effect.Effect<ShardLeases, never, Scope.Scope> =>
  Effect.gen(function* () {
    const { kv, nodeId, shards } = config
    const ttl = config.leaseTtlMillis
    const renewMillis = config.renewMillis ?? Math.max(10, Math.floor(ttl / 3))
    const safety = config.safetyMillis ?? Math.floor(ttl / 4)
    if (renewMillis + safety >= ttl) {
      return yield* Effect.die(new Error("ShardLeases: renewMillis + safetyMillis must be below leaseTtlMillis"))
    }
    const guardMillis = Math.max(10, Math.min(250, Math.floor(safety / 3)))
    const scope = yield* Effect.scope
    const leases: Array<Lease | undefined> = new Array(shards).fill(undefined)
    // Serializes KV writes of leases: a renewal and a delete of the same key never race.
    const lock = Semaphore.makeUnsafe(1)
    let live = 1
    let draining = false
    let releaseStarted = false
    let stopped = false

    const annotate = Effect.annotateLogs({ node: nodeId })
    const fork = <A, E>(effect: Effect.Effect<A, E>) => Effect.asVoid(Effect.forkIn(effect, scope))

    // Lease validity uses the monotonic clock: a wall-clock jump must not extend a lease.
    const isServing = (shard: number): boolean => {
      const lease = leases[shard]
      return lease !== undefined && lease.phase === "serving" && performance.now() < lease.validUntil
    }

    // Runs inline (not forked): it may run from the layer's finalizer, when the scope no longer accepts forks.
    const lose = (lease: Lease, why: string): Effect.Effect<void> =>
      Effect.suspend(() => {
        if (leases[lease.shard] !== lease) return Effect.void
        leases[lease.shard] = undefined
        lease.phase = "released"
        Deferred.doneUnsafe(lease.stopped, Exit.void)
        return Effect.andThen(
          Effect.logWarning(`lost the lease of shard ${lease.shard}: ${why}; stopped serving it`).pipe(annotate),
          config.onStop(lease.shard, false)
        )
      })

    /**
     * Stops serving gracefully, then deletes the lease at once (peers notice
     * the delete through their KV watch and take the shard without waiting
     * for their next round).
     */
    const stopGracefully = (lease: Lease): Effect.Effect<void> =>
      Effect.suspend(() => {
        if (lease.phase === "acquiring") {
          // Never served: nothing to passivate.
          lease.phase = "released"
          Deferred.doneUnsafe(lease.stopped, Exit.void)
          return lock.withPermit(Effect.suspend(() => (leases[lease.shard] === lease ? remove(lease) : Effect.void)))
        }
        if (lease.phase !== "serving") return Deferred.await(lease.stopped)
        lease.phase = "releasing"
        return config.onStop(lease.shard, true).pipe(
          Effect.ensuring(
            Effect.sync(() => {
              if (lease.phase === "releasing") lease.phase = "released"
            })
          ),
          // Under the lock: never concurrent with a renewal of the same key.
          Effect.ensuring(lock.withPermit(Effect.suspend(() => (leases[lease.shard] === lease ? remove(lease) : Effect.void)))),
          Effect.ensuring(Effect.sync(() => Deferred.doneUnsafe(lease.stopped, Exit.void)))
        )
      })

    // Rebalancing releases in the background: renewals go on while the shard's actors passivate.
    const release = (lease: Lease): Effect.Effect<void> => fork(stopGracefully(lease))

    const renew = (lease: Lease): Effect.Effect<void> => {
      const sent = performance.now()
      return Effect.matchEffect(
        promise(() => kv.update(lease.key, nodeId, lease.revision)),
        {
          onSuccess: (revision) =>
            Effect.sync(() => {
              if (leases[lease.shard] !== lease) return
              lease.revision = revision
              lease.validUntil = sent + ttl - safety
            }),
          // A timeout may still have landed: keep serving until validUntil, the guard stops us then.
          onFailure: (error) =>
            isDefinitive(error)
              ? lose(lease, `renewal refused (${(error as Error).message})`)
              : Effect.logWarning(`renewal of shard ${lease.shard} failed: ${String(error)}`).pipe(annotate)
        }
      )
    }

    const remove = (lease: Lease): Effect.Effect<void> =>
      Effect.andThen(
        Effect.ignore(promise(() => kv.delete(lease.key, { previousSeq: lease.revision }))),
        Effect.sync(() => {
          // Even if the delete failed, we stopped serving: the lease lapses by TTL.
          if (leases[lease.shard] === lease) leases[lease.shard] = undefined
        })
      )

    const acquire = (shard: number): Effect.Effect<void> => {
      const sent = performance.now()
      return Effect.matchEffect(
        promise(() => kv.create(shardKey(shard), nodeId)),
        {
          onFailure: () => Effect.void, // taken by someone else (CAS) or unreachable: try again next round
          onSuccess: (revision) =>
            Effect.suspend(() => {
              const lease: Lease = {
                shard,
                key: shardKey(shard),
                revision,
                validUntil: sent + ttl - safety,
                phase: config.fence === undefined ? "serving" : "acquiring",
                epoch: undefined,
                stopped: Deferred.makeUnsafe()
              }
              leases[shard] = lease
              return config.fence === undefined ? config.onServe(shard) : fork(takeFence(lease, config.fence))
            })
        }
      )
    }

    // Forked: the bump may wait for the former owner's transactions, and renewals must not wait with it.
    const takeFence = (lease: Lease, fence: (shard: number) => Effect.Effect<number, unknown>): Effect.Effect<void> =>
      Effect.matchEffect(fence(lease.shard), {
        onSuccess: (epoch) =>
          Effect.suspend(() => {
            if (leases[lease.shard] !== lease || lease.phase !== "acquiring") return Effect.void
            lease.epoch = epoch
            lease.phase = "serving"
            return config.onServe(lease.shard)
          }),
        onFailure: (error) =>
          Effect.andThen(
            Effect.logWarning(`could not take the fence of shard ${lease.shard}: ${String(error)}; giving the lease up`).pipe(annotate),
            lock.withPermit(Effect.suspend(() => (leases[lease.shard] === lease ? remove(lease) : Effect.void)))
          )
      })

    const listKeys = promise(async () => {
      const keys: Array<string> = []
      for await (const key of await kv.keys()) keys.push(key)
      return keys
    })

    const rebalance = Effect.gen(function* () {
      const listed = yield* Effect.exit(Effect.timeoutOption(listKeys, renewMillis))
      if (listed._tag === "Failure" || listed.value._tag === "None") return
      const nodes = new Set<string>([nodeId])
      const taken = new Set<number>()
      for (const key of listed.value.value) {
        if (key.startsWith("node.")) nodes.add(key.slice(5))
        else if (key.startsWith("shard.")) taken.add(Number(key.slice(6)))
      }
      live = nodes.size
      if (draining) return
      const target = Math.ceil(shards / live)
      const serving = leases.filter((l): l is Lease => l !== undefined && l.phase === "serving")
      const acquiring = leases.filter((l) => l !== undefined && l.phase === "acquiring").length
      if (serving.length + acquiring > target) {
        for (const lease of shuffle(serving).slice(0, Math.max(0, serving.length + acquiring - target))) yield* release(lease)
      } else if (serving.length + acquiring < target) {
        const free: Array<number> = []
        for (let shard = 0; shard < shards; shard++) {
          if (!taken.has(shard) && leases[shard] === undefined) free.push(shard)
        }
        const wanted = shuffle(free).slice(0, target - serving.length - acquiring)
        yield* Effect.forEach(wanted, acquire, { concurrency: 16, discard: true })
      }
    })

    const round = lock.withPermit(
      Effect.suspend(() => {
        if (stopped) return Effect.void
        const heartbeat =
          config.acquire && !draining
            ? Effect.catch(
                promise(() => kv.put(heartbeatKey(nodeId), String(Date.now()))),
                (error) => Effect.logWarning(`heartbeat failed: ${String(error)}`).pipe(annotate)
              )
            : Effect.void
        const held = leases.filter((l): l is Lease => l !== undefined)
        return heartbeat.pipe(
          Effect.andThen(
            Effect.forEach(held, (lease) => (lease.phase === "released" ? remove(lease) : renew(lease)), {
              concurrency: "unbounded",
              discard: true
            })
          ),
          Effect.andThen(config.acquire ? rebalance : Effect.void)
        )
      })
    )

    const guard = Effect.sync(() => performance.now()).pipe(
      Effect.flatMap((now) =>
        Effect.forEach(
          leases.filter((l): l is Lease => l !== undefined && now >= l.validUntil),
          (lease) => lose(lease, "not renewed in time"),
          { discard: true }
        )
      )
    )

    // Rounds run every renewMillis, or sooner when the KV shows a change worth reacting to.
    const wake = yield* Queue.sliding<void>(1)
    const watchChanges = Effect.gen(function* () {
      const watcher = yield* promise(() => kv.watch({ key: ">", include: KvWatchInclude.UpdatesOnly }))
      yield* Effect.addFinalizer(() => Effect.sync(() => watcher.stop()))
      const entries = watcher[Symbol.asyncIterator]()
      const knownNodes = new Set<string>()
      return yield* Effect.forever(
        Effect.flatMap(
          promise(() => entries.next()),
          (next) => {
            if (next.done === true) return Effect.fail("watch ended")
            const { key, operation } = next.value
            // A released lease, a drained node, or a node we have not seen yet: rebalance now.
            const isNode = key.startsWith("node.")
            if (operation !== "PUT" || (isNode && !knownNodes.has(key))) Queue.offerUnsafe(wake, undefined)
            if (isNode) operation === "PUT" ? knownNodes.add(key) : knownNodes.delete(key)
            return Effect.void
          }
        )
      )
    }).pipe(
      Effect.scoped,
      // Only an accelerator: without it, rounds still run every renewMillis.
      Effect.catch((error) => Effect.logWarning(`KV watch stopped: ${String(error)}`).pipe(annotate))
    )

    if (config.acquire) {
      // The first round runs before the layer is up, so a started node already serves its share.
      yield* round
      yield* fork(watchChanges)
      yield* fork(Effect.forever(Effect.andThen(Effect.timeoutOption(Queue.take(wake), renewMillis), round)))
      yield* fork(Effect.forever(Effect.andThen(Effect.sleep(guardMillis), guard)))
    }

    const releaseAllDone = Deferred.makeUnsafe<void>()
    const releaseAll = Effect.suspend(() => {
      if (releaseStarted) return Deferred.await(releaseAllDone)
      releaseStarted = true
      // Set under the lock: no round is acquiring when we take the snapshot below.
      const stopAcquiring = lock.withPermit(
        Effect.sync(() => {
          draining = true
          return leases.filter((l): l is Lease => l !== undefined)
        })
      )
      // Leases keep being renewed by the rounds while the actors passivate.
      return stopAcquiring.pipe(
        Effect.flatMap((held) => Effect.forEach(held, stopGracefully, { concurrency: "unbounded", discard: true })),
        Effect.andThen(
          lock.withPermit(
            Effect.suspend(() => {
              stopped = true
              const remaining = leases.filter((l): l is Lease => l !== undefined)
              return Effect.forEach(remaining, remove, { concurrency: "unbounded", discard: true }).pipe(
                Effect.andThen(config.acquire ? Effect.ignore(promise(() => kv.delete(heartbeatKey(nodeId)))) : Effect.void)
              )
            })
          )
        ),
        Effect.ensuring(Deferred.done(releaseAllDone, Exit.void))
      )
    })

    const isValid = (shard: number): boolean => {
      const lease = leases[shard]
      return lease !== undefined && lease.phase !== "acquiring" && performance.now() < lease.validUntil
    }

    const forfeit = (shard: number): Effect.Effect<void> =>
      Effect.suspend(() => {
        const lease = leases[shard]
        if (lease === undefined) return Effect.void
        // Deleting the key only if it is still ours (previousSeq) lets the fence's owner keep it.
        return Effect.andThen(
          lose(lease, "its fence was taken by another node"),
          lock.withPermit(Effect.ignore(promise(() => kv.delete(lease.key, { previousSeq: lease.revision }))))
        )
      })

    return {
      isServing,
      isValid,
      owned: () => leases.filter((l): l is Lease => l !== undefined && l.phase === "serving").map((l) => l.shard),
      liveNodes: () => live,
      epochOf: (shard) => leases[shard]?.epoch,
      forfeit,
      releaseAll
    } satisfies ShardLeases
  })
