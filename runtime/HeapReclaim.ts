/**
 * Giving memory back after a wave of passivations. Passivated actors become garbage that V8 collects only when
 * it next needs room, and a node that goes quiet after a scan over many actors never needs room: its heap (and
 * RSS) stays at the scan's peak. One full collection once the wave is over returns it.
 *
 * Node offers a full collection only as `gc`, which exists when V8 runs with `--expose-gc`. This module is the one
 * place that reaches it: the flag set at run time and `gc` read from a fresh context, checked once when first
 * needed. Without it, reclaiming does nothing and memory comes back when V8 next collects.
 */
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"

let collect: (() => void) | null | undefined

const fullCollection = (): (() => void) | null => {
  if (collect !== undefined) return collect
  const exposed: unknown = Reflect.get(globalThis, "gc")
  if (typeof exposed === "function") return (collect = () => Reflect.apply(exposed, undefined, []))
  setFlagsFromString("--expose-gc")
  const fresh: unknown = runInNewContext("typeof gc === 'function' ? gc : null")
  collect = typeof fresh === "function" ? () => Reflect.apply(fresh, undefined, []) : null
  return collect
}

/**
 * Caps how far the heap grows between full collections: to (1 + percent/100) × what survived the last one
 * (`--heap-growing-percent`, read by V8 at every full collection, so it can be set while running). 0 leaves V8's
 * adaptive factor, which goes up to 4× when collections are cheap next to the allocation rate. For the process's
 * entry point: it holds for every isolate of the process.
 */
export const limitGrowth = (percent: number): void => {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${Math.floor(percent)}`)
}

/** Whether this process can run a full collection (for tests and diagnostics). */
export const available = (): boolean => fullCollection() !== null

/**
 * Counts passivations and collects once a wave of at least `after` is over: when no actor was activated since
 * the last check and none is still stopping. A node under steady load never qualifies (V8 collects as it needs).
 */
export interface HeapReclaim {
  readonly passivated: () => void
  readonly activated: () => void
  /** Called by the host's idle sweep; true when it collected. */
  readonly check: (stillStopping: number) => boolean
}

export const make = (after: number): HeapReclaim => {
  let passivatedSince = 0
  let activatedSinceCheck = false
  return {
    passivated: () => {
      passivatedSince++
    },
    activated: () => {
      activatedSinceCheck = true
    },
    check: (stillStopping) => {
      const quiet = !activatedSinceCheck
      activatedSinceCheck = false
      if (after <= 0 || passivatedSince < after || !quiet || stillStopping > 0) return false
      passivatedSince = 0
      const run = fullCollection()
      if (run === null) return false
      run()
      return true
    }
  }
}
