/**
 * DocumentFanOut coalescing a Hocuspocus document's broadcasts (routed to it
 * as LiveServer routes them), on
 * fake timers (no timing is asserted, only what leaves when): a document
 * sends after the current turn — a lone change, a small group's keystrokes —
 * until it is busy (what it sent at once within a window cost its send
 * budget, or a reader backed up), then once per window while it stays
 * busy — one merged update
 * with everything of the window, its awareness changes in one frame — and
 * this node's awareness changes reach peers the same way. Nothing is lost or
 * reordered.
 */
import { Document, OutgoingMessage } from "@hocuspocus/server"
import * as decoding from "lib0/decoding"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { applyAwarenessUpdate, Awareness, encodeAwarenessUpdate } from "y-protocols/awareness"
import * as Y from "yjs"
import { defaultCollabOptions } from "../../collab/CollabOptions.ts"
import { DocumentFanOut } from "../../collab/DocumentFanOut.ts"
import { checkHocuspocusInternals, routeBroadcasts } from "../../collab/HocuspocusInternals.ts"
import { MessageType } from "../../collab/Protocol.ts"

const WINDOW_MS = 100
/** Socket writes per window these tests give a document (a budget of 640 a second over 100 ms). */
const SEND_BUDGET = 64

/** A live document as LiveServer configures it, what it broadcasts, and a reader applying it. */
const live = (connections: number, sendBudget = (SEND_BUDGET * 1000) / WINDOW_MS) => {
  // Patches the prototype whose broadcast handlers a document binds when it is built.
  checkHocuspocusInternals()
  const document = new Document("fan-out", {})
  const frames: Array<Uint8Array> = []
  const peers: Array<Array<number>> = []
  const readerSocket = { buffered: 0, connections }
  const fanOut = new DocumentFanOut(WINDOW_MS, sendBudget, {
    update: (update) => frames.push(new OutgoingMessage(document.name).createSyncMessage().writeUpdate(update).toUint8Array()),
    awareness: (clients) =>
      frames.push(new OutgoingMessage(document.name).createAwarenessUpdateMessage(document.awareness, clients).toUint8Array()),
    peerAwareness: (clients) => peers.push(clients),
    connections: () => readerSocket.connections,
    mostBuffered: () => readerSocket.buffered
  })
  routeBroadcasts(document, { update: (update) => fanOut.update(update), awareness: (clients) => fanOut.awareness(clients) })
  const reader = new Y.Doc()
  const readerAwareness = new Awareness(reader)
  /** Applies what was broadcast since the last call; returns how many frames it was. */
  const receive = () => {
    const received = frames.splice(0)
    for (const frame of received) {
      const decoder = decoding.createDecoder(frame)
      decoding.readVarString(decoder)
      const type = decoding.readVarUint(decoder)
      if (type === MessageType.Sync) {
        decoding.readVarUint(decoder) // update step
        Y.applyUpdate(reader, decoding.readVarUint8Array(decoder))
      } else if (type === MessageType.Awareness) applyAwarenessUpdate(readerAwareness, decoding.readVarUint8Array(decoder), "server")
    }
    return received.length
  }
  const type = (text: string) => document.getText("t").insert(document.getText("t").length, text)
  return { document, fanOut, peers, receive, type, readerText: () => reader.getText("t").toString(), readerAwareness, readerSocket }
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setImmediate", "clearImmediate", "performance"] })
})
afterEach(() => {
  vi.useRealTimers()
})

describe("DocumentFanOut", () => {
  it("sends an idle document's update at once, and what follows it in the same turn as one frame after the turn", () => {
    const { type, receive, readerText } = live(8)
    type("a")
    expect(receive()).toBe(1) // inside the turn that made it
    expect(readerText()).toBe("a")
    type("b")
    type("c")
    expect(receive()).toBe(0)
    vi.advanceTimersByTime(0) // the turn ends
    expect(receive()).toBe(1)
    expect(readerText()).toBe("abc")
    vi.advanceTimersByTime(0)
    expect(receive()).toBe(0)
    // The next turn's first change goes out at once again.
    type("d")
    expect(receive()).toBe(1)
    expect(readerText()).toBe("abcd")
  })

  it("sends a small group's keystrokes at once, even three in one window", () => {
    // 3 editors and 5 readers: 8 connections, so the budget allows 8 frames at once per window.
    const { type, receive, readerText } = live(8)
    for (let round = 0; round < 5; round++) {
      for (const [letter, gap] of [
        ["a", 10],
        ["b", 10],
        ["c", 130]
      ] as const) {
        type(letter)
        vi.advanceTimersByTime(0) // the turn ends
        expect(receive()).toBe(1)
        vi.advanceTimersByTime(gap)
      }
    }
    expect(readerText()).toBe("abc".repeat(5))
  })

  it("with the default budget, sends each update of a page read by 1,000 and written 50 times a second at once", () => {
    const { type, receive, readerText } = live(1000, defaultCollabOptions.sendBudget)
    for (const letter of "abcdefghij") {
      type(letter)
      vi.advanceTimersByTime(0) // the turn ends
      expect(receive()).toBe(1)
      vi.advanceTimersByTime(20)
    }
    expect(readerText()).toBe("abcdefghij")
  })

  it("waits from a window's second change on when one frame already costs the budget (a page read by many)", () => {
    const { type, receive, readerText } = live(SEND_BUDGET * 16)
    type("a")
    vi.advanceTimersByTime(0)
    expect(receive()).toBe(1)
    type("b")
    vi.advanceTimersByTime(5)
    type("c")
    vi.advanceTimersByTime(5)
    expect(receive()).toBe(0)
    vi.advanceTimersByTime(WINDOW_MS)
    expect(receive()).toBe(1)
    expect(readerText()).toBe("abc")
  })

  it("gathers a busy document's updates into one merged update per window, in order, until a window gathers one", () => {
    // Budget for two frames at once per window.
    const { document, type, receive, readerText } = live(SEND_BUDGET / 2)
    type("a")
    vi.advanceTimersToNextTimer() // sent at once
    type("b")
    vi.advanceTimersToNextTimer() // the window's second: at once too
    expect(receive()).toBe(2)
    for (const letter of "cdefg") {
      type(letter)
      vi.advanceTimersByTime(5)
    }
    expect(receive()).toBe(0) // busy: more than two changes within the window of the first send
    vi.advanceTimersByTime(WINDOW_MS)
    expect(receive()).toBe(1)
    expect(readerText()).toBe("abcdefg")
    // Still busy: the next window gathers as well, one frame for all of it.
    for (const letter of "hijk") {
      type(letter)
      vi.advanceTimersByTime(10)
    }
    expect(receive()).toBe(0)
    vi.advanceTimersByTime(WINDOW_MS)
    expect(receive()).toBe(1)
    expect(readerText()).toBe("abcdefghijk")
    // A window that gathers one change ends the busy spell: the next goes at once, even within that window.
    type("l")
    vi.advanceTimersByTime(WINDOW_MS)
    expect(receive()).toBe(1)
    type("m")
    vi.advanceTimersByTime(0)
    expect(receive()).toBe(1)
    // Quiet for a window: at once as well.
    vi.advanceTimersByTime(WINDOW_MS * 2)
    type("n")
    vi.advanceTimersToNextTimer()
    expect(receive()).toBe(1)
    expect(readerText()).toBe(document.getText("t").toString())
  })

  it("gathers over the window as soon as a reader's socket is backed up, even for a lone change", () => {
    const { type, receive, readerText, readerSocket } = live(8)
    readerSocket.buffered = 64 * 1024
    type("a")
    vi.advanceTimersByTime(0)
    expect(receive()).toBe(0)
    type("b")
    vi.advanceTimersByTime(WINDOW_MS)
    expect(receive()).toBe(1)
    expect(readerText()).toBe("ab")
    // Drained and quiet again: at once.
    readerSocket.buffered = 0
    vi.advanceTimersByTime(WINDOW_MS * 2)
    type("c")
    vi.advanceTimersByTime(0)
    expect(receive()).toBe(1)
  })

  it("merges a window's awareness changes into one frame, and this node's into one message to peers", () => {
    const { document, fanOut, peers, receive, readerAwareness } = live(SEND_BUDGET / 2)
    const writer = new Awareness(new Y.Doc())
    const other = new Awareness(new Y.Doc())
    const relay = (awareness: Awareness) =>
      awareness.on("update", ({ added, updated, removed }: { added: number[]; updated: number[]; removed: number[] }) => {
        applyAwarenessUpdate(document.awareness, encodeAwarenessUpdate(awareness, [...added, ...updated, ...removed]), "connection")
      })
    relay(writer)
    relay(other)
    writer.setLocalState({ cursor: 1 })
    vi.advanceTimersToNextTimer()
    other.setLocalState({ cursor: 6 })
    vi.advanceTimersToNextTimer()
    expect(receive()).toBe(2) // the window's first two changes, at once
    writer.setLocalState({ cursor: 2 })
    other.setLocalState({ cursor: 7 })
    writer.setLocalState({ cursor: 3 })
    fanOut.peerAwareness([writer.clientID])
    fanOut.peerAwareness([writer.clientID, other.clientID])
    vi.advanceTimersByTime(WINDOW_MS)
    expect(receive()).toBe(1)
    expect(readerAwareness.getStates().get(writer.clientID)).toEqual({ cursor: 3 })
    expect(readerAwareness.getStates().get(other.clientID)).toEqual({ cursor: 7 })
    expect(peers.map((clients) => [...clients].sort())).toEqual([[writer.clientID, other.clientID].sort()])
  })

  it("sends nothing to peers once closed (the document unloaded)", () => {
    const { fanOut, peers, type } = live(8)
    type("a") // goes out at once: what follows in this turn waits for its end
    fanOut.peerAwareness([1])
    fanOut.close()
    type("b")
    fanOut.peerAwareness([2])
    vi.advanceTimersByTime(WINDOW_MS * 3)
    expect(peers).toEqual([])
  })
})
