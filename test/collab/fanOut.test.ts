/**
 * DocumentFanOut's window, on fake timers (no timing is asserted, only what
 * leaves when): an idle document sends after the current turn, a busy one
 * gathers a window's updates into one merged update and its awareness
 * changes into one call with each client once; nothing is lost or reordered.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import * as Y from "yjs"
import { DocumentFanOut } from "../../collab/DocumentFanOut.ts"

const WINDOW_MS = 100

/** A writer whose every insert is one update. */
const writer = () => {
  const doc = new Y.Doc()
  const updates: Array<Uint8Array> = []
  doc.on("update", (update: Uint8Array) => updates.push(update))
  return {
    type: (text: string) => {
      doc.getText("t").insert(doc.getText("t").length, text)
      return updates[updates.length - 1]!
    },
    text: () => doc.getText("t").toString()
  }
}

const recorder = () => {
  const updates: Array<Uint8Array> = []
  const awareness: Array<Array<number>> = []
  const peers: Array<Array<number>> = []
  const fanOut = new DocumentFanOut(WINDOW_MS, {
    update: (update) => updates.push(update),
    awareness: (clients) => awareness.push(clients),
    peerAwareness: (clients) => peers.push(clients)
  })
  const reader = new Y.Doc()
  const text = () => {
    for (const update of updates.splice(0)) Y.applyUpdate(reader, update)
    return reader.getText("t").toString()
  }
  return { fanOut, updates, awareness, peers, text }
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setImmediate", "clearImmediate", "performance"] })
})
afterEach(() => {
  vi.useRealTimers()
})

describe("DocumentFanOut", () => {
  it("sends an idle document's update after the current turn, alone", () => {
    const { fanOut, updates } = recorder()
    const w = writer()
    fanOut.update(w.type("a"))
    expect(updates.length).toBe(0) // not inside the turn that logged it
    vi.advanceTimersToNextTimer()
    expect(updates.length).toBe(1)
  })

  it("gathers a busy document's updates into one merged update per window, in order", () => {
    const { fanOut, updates, text } = recorder()
    const w = writer()
    fanOut.update(w.type("a"))
    vi.advanceTimersToNextTimer() // idle: sent at once
    expect(updates.length).toBe(1)
    expect(text()).toBe("a")
    for (const letter of "bcdefg") {
      fanOut.update(w.type(letter))
      vi.advanceTimersByTime(5)
    }
    expect(updates.length).toBe(0) // busy: still within the window of the first send
    vi.advanceTimersByTime(WINDOW_MS)
    expect(updates.length).toBe(1)
    expect(text()).toBe(w.text())
    // Idle again after a quiet window: the next one goes at once.
    vi.advanceTimersByTime(WINDOW_MS * 2)
    fanOut.update(w.type("h"))
    vi.advanceTimersToNextTimer()
    expect(updates.length).toBe(1)
    expect(text()).toBe(w.text())
  })

  it("merges a window's awareness changes, each client once, for readers and peers", () => {
    const { fanOut, awareness, peers } = recorder()
    fanOut.awareness([1])
    vi.advanceTimersToNextTimer()
    expect(awareness).toEqual([[1]])
    fanOut.awareness([1, 2])
    fanOut.awareness([2, 3])
    fanOut.peerAwareness([2])
    fanOut.peerAwareness([2, 3])
    vi.advanceTimersByTime(WINDOW_MS)
    expect(awareness.slice(1).map((clients) => [...clients].sort())).toEqual([[1, 2, 3]])
    expect(peers.map((clients) => [...clients].sort())).toEqual([[2, 3]])
  })

  it("sends nothing once closed (the document unloaded)", () => {
    const { fanOut, updates } = recorder()
    const w = writer()
    fanOut.update(w.type("a"))
    fanOut.close()
    fanOut.update(w.type("b"))
    vi.advanceTimersByTime(WINDOW_MS * 3)
    expect(updates.length).toBe(0)
  })
})
