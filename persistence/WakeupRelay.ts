/**
 * Wake-ups across the nodes of one PostgreSQL database. A write that gives
 * background workers work signals this node's workers after its COMMIT
 * (`wakeAfterCommit`); the relay then sends the topic to the other nodes with
 * NOTIFY, and each node LISTENs and signals its own workers, so work queued
 * on one node is taken by another at once rather than at its safety poll.
 *
 * A wake-up is a hint (runtime/Wakeup.ts), so the relay may merge and drop:
 * announcements of one topic within a short window go out as one NOTIFY, a
 * failed NOTIFY is forgotten, and each time the relay (re)subscribes it wakes
 * every topic, since it may have missed some meanwhile.
 *
 * The relay owns its listening connection: one connection that only LISTENs,
 * opened again (with backoff, for as long as it takes) whenever it closes or
 * a LISTEN fails or goes unanswered. postgres.js's own `listen` re-subscribes
 * from inside its connection's close handler and drops the failure of that
 * attempt (`.catch(() => {})`), so a node could go on without hearing
 * wake-ups, its workers running on their safety poll only.
 *
 * Its connections are its own (apart from the pool, which may be replaced
 * when the database stops answering), and never fetch array types (see
 * PostgresSql.ts: a connection closed while postgres.js fetches them is an
 * unhandled rejection); NOTIFY and LISTEN need none.
 */
import { randomUUID } from "node:crypto"
import postgres from "postgres"
import type { WakeupShape } from "../runtime/Wakeup.ts"

declare module "postgres" {
  interface Options<T extends Record<string, postgres.PostgresType>> {
    /**
     * Called with each NOTIFY a connection of this client receives. postgres.js 3.4.9 reads this option
     * (connection.js `NotificationResponse`; its own `listen` passes it) but does not declare it.
     */
    onnotify?: ((channel: string, payload: string) => void) | undefined
  }
}

/** The NOTIFY channel; its payload is `<sender> <topic>`. */
export const channel = "atrium_wakeup"

/** Announcements of one topic within this window share one NOTIFY. */
const windowMillis = 20

/**
 * How long a LISTEN (with the connection it opens) may go unanswered before that connection is given up and
 * another is opened: a database that answers at all answers it at once, a stalled path never does.
 */
const listenLimitMillis = 5000

/** Wait before the first retry of a lost subscription, doubled per failed attempt up to `retryCapMillis`. */
const retryBaseMillis = 100
const retryCapMillis = 5000

export interface WakeupRelay {
  /** Sends `topic` to the other nodes, soon. */
  readonly announce: (topic: string) => void
  readonly close: () => Promise<void>
}

type Client = postgres.Sql<Record<string, postgres.PostgresType>>

/** Listens on `url` and relays its wake-ups into `wakeup`; resolves once the first LISTEN is in place, rejects if it fails. */
export const open = async (url: string, wakeup: WakeupShape): Promise<WakeupRelay> => {
  const sender = randomUUID()
  const common = { onnotice: () => {}, fetch_types: false, connection: { application_name: "atrium-wakeup" } }
  const notifier: Client = postgres(url, { ...common, max: 1, idle_timeout: 0 })
  let closing = false
  /** The client of the subscription in place or being made; a close or failure of any other is old news. */
  let listener: Client | undefined
  let failures = 0
  let retryTimer: ReturnType<typeof setTimeout> | undefined

  const received = (name: string, payload: string) => {
    if (name !== channel) return
    const space = payload.indexOf(" ")
    if (space > 0 && payload.slice(0, space) !== sender) wakeup.signal(payload.slice(space + 1))
  }

  /** Gives up `client`'s subscription (it closed, or its LISTEN failed) and subscribes again after a backoff. */
  const lost = (client: Client) => {
    if (closing || client !== listener) return
    listener = undefined
    void client.end({ timeout: 0 }).catch(() => {})
    const backoff = Math.min(retryCapMillis, retryBaseMillis * 2 ** failures)
    failures++
    retryTimer = setTimeout(
      () => {
        retryTimer = undefined
        subscribe().catch(() => {}) // a failure was handled by `lost` already
      },
      backoff * (0.5 + Math.random() / 2)
    )
  }

  /** Opens a listening connection; on success every topic is woken (wake-ups sent meanwhile were not heard). */
  const subscribe = async (): Promise<void> => {
    if (closing) return
    const client: Client = postgres(url, {
      ...common,
      max: 1,
      idle_timeout: 0,
      max_lifetime: null,
      onnotify: received,
      onclose: () => lost(client)
    })
    listener = client
    let timer: ReturnType<typeof setTimeout> | undefined
    try {
      await Promise.race([
        client.unsafe(`LISTEN ${channel}`),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`LISTEN ${channel} was not answered within ${listenLimitMillis} ms`)),
            listenLimitMillis
          )
        })
      ])
    } catch (cause) {
      lost(client)
      throw cause
    } finally {
      clearTimeout(timer)
    }
    // Closed under the LISTEN's answer: the close already scheduled the next attempt.
    if (client !== listener) return
    failures = 0
    wakeup.signalAll()
  }

  try {
    await subscribe()
  } catch (cause) {
    closing = true
    clearTimeout(retryTimer)
    await Promise.all([listener?.end({ timeout: 0 }), notifier.end({ timeout: 0 })]).catch(() => {})
    throw cause
  }

  const pending = new Set<string>()
  let flushTimer: ReturnType<typeof setTimeout> | undefined
  const flush = () => {
    flushTimer = undefined
    for (const topic of pending) notifier.notify(channel, `${sender} ${topic}`).catch(() => {})
    pending.clear()
  }
  return {
    announce: (topic) => {
      pending.add(topic)
      flushTimer ??= setTimeout(flush, windowMillis)
    },
    close: async () => {
      closing = true
      clearTimeout(flushTimer)
      clearTimeout(retryTimer)
      await Promise.all([listener?.end({ timeout: 5 }), notifier.end({ timeout: 5 })])
    }
  }
}
