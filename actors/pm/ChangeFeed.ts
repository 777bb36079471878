/**
 * The ChangeFeed carries committed pm changes to whoever streams them live,
 * on this node and, in a cluster, on every other node. This node's listeners
 * get a batch synchronously when it is published (right after COMMIT); with a
 * NATS URL each batch also goes out on `<prefix>.pm.events.<workspaceId>`.
 *
 * Core NATS delivers at most once, so the feed is a hint, not the record: the
 * record is the event log. Every batch names the workspace's last seq, and a
 * listener that sees a gap reads it from the log (`EventLog.readRange`); a
 * batch too large for one NATS message travels without its events for the
 * same reason. After a reconnect listeners are told to re-check everything.
 */
import { connect, type NatsConnection } from "@nats-io/transport-node"
import { Context, Effect, Layer } from "effect"
import type { LoggedEvent, NotificationRecord } from "./EventLog.ts"
import { logError } from "../../runtime/Log.ts"

export interface FeedBatch {
  readonly workspaceId: string
  /** The workspace's seq after this batch. */
  readonly lastSeq: number
  /** Consecutive events ending at `lastSeq`; absent when the batch was shipped as a bare tick. */
  readonly events?: ReadonlyArray<LoggedEvent>
  readonly notifications?: ReadonlyArray<NotificationRecord>
}

export interface FeedListener {
  readonly batch: (batch: FeedBatch) => void
  /** The cluster link was down: batches may have been lost, re-check what you track. */
  readonly reconnected: () => void
}

export interface ChangeFeedShape {
  /** Hands committed batches to this node's listeners and ships them to the other nodes. Never fails. */
  readonly publish: (batches: ReadonlyArray<FeedBatch>) => void
  readonly listen: (listener: FeedListener) => () => void
  /** Whether batches cross nodes (a NATS URL was configured). */
  readonly clustered: boolean
}

export class ChangeFeed extends Context.Service<ChangeFeed, ChangeFeedShape>()("atrium/actors/pm/ChangeFeed") {}

/** Larger batches travel as a tick (workspace and last seq); receivers read the events from the log. */
const MAX_SHIPPED_BYTES = 256 * 1024

const subjectToken = (id: string) => id.replace(/[^A-Za-z0-9_-]/g, "_")
export const subjectOf = (prefix: string, workspaceId: string) => `${prefix}.pm.events.${subjectToken(workspaceId)}`

const isBatch = (value: unknown): value is FeedBatch => {
  const batch = value as FeedBatch
  return (
    typeof value === "object" &&
    value !== null &&
    typeof batch.workspaceId === "string" &&
    typeof batch.lastSeq === "number" &&
    (batch.events === undefined || Array.isArray(batch.events)) &&
    (batch.notifications === undefined || Array.isArray(batch.notifications))
  )
}

const makeLocal = () => {
  const listeners = new Set<FeedListener>()
  const deliver = (batch: FeedBatch) => {
    for (const listener of listeners) {
      try {
        listener.batch(batch)
      } catch (error) {
        logError("pm change feed", "listener failed", error)
      }
    }
  }
  const reconnected = () => {
    for (const listener of listeners) listener.reconnected()
  }
  const listen = (listener: FeedListener) => {
    listeners.add(listener)
    return () => {
      listeners.delete(listener)
    }
  }
  return { deliver, reconnected, listen }
}

export interface ChangeFeedOptions {
  readonly natsUrl: string | undefined
  readonly natsPrefix: string
}

export const layer = (options: ChangeFeedOptions): Layer.Layer<ChangeFeed> =>
  Layer.effect(
    ChangeFeed,
    Effect.gen(function* () {
      const local = makeLocal()
      if (options.natsUrl === undefined) {
        return ChangeFeed.of({
          clustered: false,
          listen: local.listen,
          publish: (batches) => batches.forEach(local.deliver)
        })
      }
      const url = options.natsUrl
      const nc: NatsConnection = yield* Effect.acquireRelease(
        Effect.promise(() => connect({ servers: url, noEcho: true, maxReconnectAttempts: -1, name: "atrium-pm-change-feed" })),
        (nc) => Effect.promise(() => nc.drain().catch(() => nc.close()))
      )
      nc.subscribe(`${options.natsPrefix}.pm.events.*`, {
        callback: (error, msg) => {
          if (error !== null) return
          let batch: unknown
          try {
            batch = msg.json()
          } catch {
            return
          }
          if (isBatch(batch)) local.deliver(batch)
        }
      })
      void (async () => {
        for await (const status of nc.status()) if (status.type === "reconnect") local.reconnected()
      })().catch(() => {})
      const ship = (batch: FeedBatch) => {
        let body = JSON.stringify(batch)
        if (body.length > MAX_SHIPPED_BYTES) body = JSON.stringify({ workspaceId: batch.workspaceId, lastSeq: batch.lastSeq })
        try {
          nc.publish(subjectOf(options.natsPrefix, batch.workspaceId), body)
        } catch (error) {
          // Closed or draining: the other nodes' periodic check reads it from the log.
          logError("pm change feed", "cannot ship a batch over NATS", error)
        }
      }
      return ChangeFeed.of({
        clustered: true,
        listen: local.listen,
        publish: (batches) => {
          for (const batch of batches) {
            local.deliver(batch)
            ship(batch)
          }
        }
      })
    })
  )
