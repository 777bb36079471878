/**
 * Wake-ups of background workers: a worker that found nothing to do sleeps
 * until someone signals its topic (the write that gave it work, once that
 * write is committed) or until a long safety poll ends, instead of looking
 * again every few hundred milliseconds. Topics are plain names chosen by the
 * workers' modules; this module knows none of them.
 *
 * A signal is a hint, never the work itself: a spurious one costs a pass that
 * finds nothing, a lost one costs at most the safety poll. That is why one
 * process-wide instance serves every server in the process (tests run several):
 * a signal wakes every listener of its topic, whichever database it serves.
 *
 * Each listener counts the signals it has seen, so a signal that arrives
 * while its worker is busy (between two sleeps) ends the next sleep at once.
 */
import { Context, Effect } from "effect"

export interface Listener {
  /** Until the topic is signalled or `millis` passed; at once if it was signalled since the last sleep ended. */
  readonly sleep: (millis: number) => Effect.Effect<void>
}

export interface WakeupShape {
  /** Wakes every listener of `topic` (a sleeping one now, a busy one when it next sleeps). */
  readonly signal: (topic: string) => void
  /** A listener of `topic`, for one worker loop. */
  readonly listen: (topic: string) => Listener
  /** Wakes every listener of every topic: signals may have been missed (a relay from other nodes reconnected). */
  readonly signalAll: () => void
}

export const make = (): WakeupShape => {
  const generations = new Map<string, number>()
  const sleepers = new Map<string, Set<() => void>>()
  const generation = (topic: string) => generations.get(topic) ?? 0
  const signal = (topic: string) => {
    generations.set(topic, generation(topic) + 1)
    const waiting = sleepers.get(topic)
    if (waiting === undefined) return
    sleepers.delete(topic)
    for (const wake of waiting) wake()
  }
  return {
    signal,
    signalAll: () => {
      for (const topic of new Set([...generations.keys(), ...sleepers.keys()])) signal(topic)
    },
    listen: (topic) => {
      let seen = generation(topic)
      return {
        sleep: (millis) =>
          Effect.callback<void>((resume) => {
            if (generation(topic) !== seen) {
              seen = generation(topic)
              resume(Effect.void)
              return
            }
            let waiting = sleepers.get(topic)
            if (waiting === undefined) {
              waiting = new Set()
              sleepers.set(topic, waiting)
            }
            const wake = () => {
              clearTimeout(timer)
              sleepers.get(topic)?.delete(wake)
              seen = generation(topic)
              resume(Effect.void)
            }
            const timer = setTimeout(wake, Math.max(0, millis))
            waiting.add(wake)
            return Effect.sync(() => {
              clearTimeout(timer)
              sleepers.get(topic)?.delete(wake)
            })
          })
      }
    }
  }
}

const processWide = make()

/** The process's wake-ups (see the module comment for why one instance is shared). */
export const Wakeup = Context.Reference<WakeupShape>("atrium/runtime/Wakeup", { defaultValue: () => processWide })

/**
 * How long a worker with nothing to do sleeps when no signal comes: only work nobody signalled waits this long
 * (a wake-up lost between nodes, a lease a dead node left that no due time covers). Writes on this node signal
 * at once and those of other nodes arrive through the database (persistence/WakeupRelay.ts), so this is a
 * backstop, and each poll costs a query per worker: `WORKER_SAFETY_POLL_MS` sets it (default 120 s).
 */
export const safetyPollMillis = (): number => {
  const configured = Number(process.env.WORKER_SAFETY_POLL_MS)
  return configured > 0 ? configured : 120_000
}

/** The shortest sleep for due work a pass left behind. */
const dueFloorMillis = 50

/** What a worker's pass found: work left over (look again at once), or when its next known work falls due. */
export interface Pass {
  readonly more?: boolean
  /** Epoch milliseconds of the earliest work that is waiting for its time (a retry, a scheduled send). */
  readonly dueAt?: number | undefined
}

export const nothingLeft: Pass = {}
export const moreLeft: Pass = { more: true }

export interface WorkerOptions {
  /**
   * Passes start at least this far apart, however often the topic is
   * signalled: under a stream of writes one pass takes a whole interval's
   * work, while a lone write after a quiet spell is taken at once.
   */
  readonly paceMillis?: number
  /** The longest sleep without a signal (default `safetyPollMillis`). */
  readonly safetyMillis?: number
}

/**
 * A background worker's loop: runs `pass` back to back while it leaves work,
 * else sleeps until `topic` is signalled, its next due work or the safety
 * poll, whichever comes first. Runs until interrupted.
 */
export const runWorker = <E, R>(topic: string, pass: Effect.Effect<Pass, E, R>, options: WorkerOptions = {}): Effect.Effect<never, E, R> =>
  Effect.gen(function* () {
    const listener = (yield* Wakeup).listen(topic)
    const pace = options.paceMillis ?? 0
    const safety = Math.max(options.safetyMillis ?? safetyPollMillis(), pace)
    for (;;) {
      const started = Date.now()
      const outcome = yield* pass
      if (outcome.more === true) continue
      const dueAt = outcome.dueAt
      // Work already due that the pass did not take (held elsewhere) is looked at again soon, not in a spin.
      yield* listener.sleep(dueAt === undefined ? safety : Math.min(safety, Math.max(dueFloorMillis, dueAt - Date.now())))
      const since = Date.now() - started
      if (since < pace) yield* Effect.sleep(pace - since)
    }
  })
