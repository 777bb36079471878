/**
 * DocumentFanOut flushing a Hocuspocus document's buffered broadcasts, on
 * fake timers (no timing is asserted, only what leaves when): an idle
 * document sends after the current turn, a busy one once per window — one
 * merged update with everything of the window, its awareness changes in one
 * frame — and this node's awareness changes reach peers the same way.
 * Nothing is lost or reordered.
 */
import { Document } from "@hocuspocus/server"
import * as decoding from "lib0/decoding"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { applyAwarenessUpdate, Awareness, encodeAwarenessUpdate } from "y-protocols/awareness"
import * as Y from "yjs"
import { DocumentFanOut } from "../../collab/DocumentFanOut.ts"
import { replaceBroadcast } from "../../collab/HocuspocusInternals.ts"
import { MessageType } from "../../collab/Protocol.ts"

const WINDOW_MS = 100

/** A live document as LiveServer configures it, what it broadcasts, and a reader applying it. */
const live = () => {
  const document = new Document("fan-out", {}, { flushDelay: WINDOW_MS })
  const frames: Array<Uint8Array> = []
  replaceBroadcast(document, (encode) => {
    frames.push(encode(document.name))
  })
  const peers: Array<Array<number>> = []
  const fanOut = new DocumentFanOut(WINDOW_MS, {
    flush: () => document.flush(),
    peerAwareness: (clients) => peers.push(clients)
  })
  document.on("update", () => fanOut.changed())
  document.awareness.on("update", () => fanOut.changed())
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
  return { document, fanOut, peers, receive, type, readerText: () => reader.getText("t").toString(), readerAwareness }
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setImmediate", "clearImmediate", "performance"] })
})
afterEach(() => {
  vi.useRealTimers()
})

describe("DocumentFanOut", () => {
  it("sends an idle document's update after the current turn, alone", () => {
    const { type, receive, readerText } = live()
    type("a")
    expect(receive()).toBe(0) // not inside the turn that made it
    vi.advanceTimersToNextTimer()
    expect(receive()).toBe(1)
    expect(readerText()).toBe("a")
  })

  it("gathers a busy document's updates into one merged update per window, in order", () => {
    const { document, type, receive, readerText } = live()
    type("a")
    vi.advanceTimersToNextTimer() // idle: sent at once
    expect(receive()).toBe(1)
    for (const letter of "bcdefg") {
      type(letter)
      vi.advanceTimersByTime(5)
    }
    expect(receive()).toBe(0) // busy: still within the window of the first send
    vi.advanceTimersByTime(WINDOW_MS)
    expect(receive()).toBe(1)
    expect(readerText()).toBe("abcdefg")
    // Idle again after a quiet window: the next one goes at once.
    vi.advanceTimersByTime(WINDOW_MS * 2)
    type("h")
    vi.advanceTimersToNextTimer()
    expect(receive()).toBe(1)
    expect(readerText()).toBe(document.getText("t").toString())
  })

  it("merges a window's awareness changes into one frame, and this node's into one message to peers", () => {
    const { document, fanOut, peers, receive, readerAwareness } = live()
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
    expect(receive()).toBe(1)
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
    const { fanOut, peers, type } = live()
    fanOut.peerAwareness([1])
    fanOut.close()
    type("b")
    fanOut.peerAwareness([2])
    vi.advanceTimersByTime(WINDOW_MS * 3)
    expect(peers).toEqual([])
  })
})
