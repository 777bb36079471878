/**
 * The fan-out's backlog probe (collab/RotatingSample.ts) looks at a few
 * sockets per change, in turn: every member is seen within size/perCall
 * calls, members joining or leaving between calls are followed, and no call
 * looks at more than `perCall` of them.
 */
import { describe, expect, it } from "vitest"
import { RotatingSample } from "../../collab/RotatingSample.ts"

describe("RotatingSample", () => {
  it("sees every member within size/perCall calls, looking at perCall per call", () => {
    const backlog = new Map<string, number>(Array.from({ length: 100 }, (_, i) => [`socket-${i}`, 0]))
    backlog.set("socket-73", 20_000)
    const sample = new RotatingSample(() => backlog.keys(), 8)
    let looked = 0
    const seen: Array<number> = []
    for (let call = 0; call < 13; call++) {
      seen.push(
        sample.max((socket) => {
          looked++
          return backlog.get(socket)!
        })
      )
    }
    expect(looked).toBe(13 * 8)
    // 73 is the 74th member: the 10th call (members 72–79) finds it, and only that one.
    expect(seen.map((most, call) => (most > 0 ? call : -1)).filter((call) => call >= 0)).toEqual([9])
  })

  it("follows members joining and leaving, and wraps around a collection smaller than perCall", () => {
    const members = new Set(["a", "b"])
    const sample = new RotatingSample(() => members, 4)
    const sizes: Record<string, number> = { a: 1, b: 2, c: 30, d: 4 }
    expect(sample.max((m) => sizes[m]!)).toBe(2)
    members.add("c")
    members.delete("a")
    expect(sample.max((m) => sizes[m]!)).toBe(30)
    members.clear()
    expect(sample.max((m) => sizes[m]!)).toBe(0)
    members.add("d")
    expect(sample.max((m) => sizes[m]!)).toBe(4)
  })
})
