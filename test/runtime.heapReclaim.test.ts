/**
 * HeapReclaim (runtime/HeapReclaim.ts): one full collection once a wave of passivations is over, so a node that
 * goes quiet after touching many actors gives their memory back.
 */
import { describe, expect, it } from "vitest"
import * as HeapReclaim from "../runtime/HeapReclaim.ts"

describe("heap reclaim after passivations", () => {
  it("can run a full collection in this process", () => {
    expect(HeapReclaim.available()).toBe(true)
  })

  it("collects once the wave reaches its size, no actor was activated since the last check and none is stopping", () => {
    const reclaim = HeapReclaim.make(3)
    reclaim.passivated()
    reclaim.passivated()
    expect(reclaim.check(0)).toBe(false) // too few
    reclaim.passivated()
    reclaim.activated()
    expect(reclaim.check(0)).toBe(false) // an activation since the last check: still busy
    expect(reclaim.check(1)).toBe(false) // one still stopping
    expect(reclaim.check(0)).toBe(true)
    expect(reclaim.check(0)).toBe(false) // the count starts again
  })

  it("returns the memory of released objects", async () => {
    const reclaim = HeapReclaim.make(1)
    const released = (() => {
      const garbage = Array.from({ length: 2_000 }, (_, i) => Array.from({ length: 500 }, () => i))
      return new WeakRef(garbage[0]!)
    })()
    // A WeakRef keeps its target for the rest of the turn that made it.
    await new Promise((resolve) => setImmediate(resolve))
    reclaim.passivated()
    expect(reclaim.check(0)).toBe(true)
    expect(released.deref()).toBeUndefined()
  })

  it("never collects when switched off", () => {
    const reclaim = HeapReclaim.make(0)
    for (let i = 0; i < 10_000; i++) reclaim.passivated()
    expect(reclaim.check(0)).toBe(false)
  })
})
