/**
 * The join path of the collab server: joiners with an empty state vector are
 * served a cached initial sync and everyone's awareness as one cached update
 * (collab/JoinFrames.ts); cold opens read a snapshot plus a log tail. These
 * check behaviour only: the cache is never stale, and what opens is what was
 * written.
 */
import * as decoding from "lib0/decoding"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Awareness, applyAwarenessUpdate, encodeAwarenessUpdate } from "y-protocols/awareness"
import * as Y from "yjs"
import { isEmptySyncStep1, JoinFrames } from "../../collab/JoinFrames.ts"
import { MessageType } from "../../collab/Protocol.ts"
import { signUp } from "../support/atrium.ts"
import {
  acknowledged,
  addParagraph,
  type CollabAtrium,
  connectEditor,
  eventually,
  startCollabAtrium,
  synced,
  type TestEditor,
  typeText
} from "../support/collabAtrium.ts"

/** The Yjs update a SyncStep2 frame carries (address, Sync, step 2, update). */
const step2Update = (frame: Uint8Array): Uint8Array => {
  const decoder = decoding.createDecoder(frame)
  decoding.readVarString(decoder)
  expect(decoding.readVarUint(decoder)).toBe(MessageType.Sync)
  expect(decoding.readVarUint(decoder)).toBe(1)
  return decoding.readVarUint8Array(decoder)
}

/** The awareness update an Awareness frame carries. */
const awarenessUpdate = (frame: Uint8Array): Uint8Array => {
  const decoder = decoding.createDecoder(frame)
  decoding.readVarString(decoder)
  expect(decoding.readVarUint(decoder)).toBe(MessageType.Awareness)
  return decoding.readVarUint8Array(decoder)
}

/** A joiner's awareness with no state of its own, so it holds exactly what it was sent. */
const joinerAwareness = () => {
  const awareness = new Awareness(new Y.Doc())
  awareness.setLocalState(null)
  return awareness
}

const textOf = (update: Uint8Array) => {
  const doc = new Y.Doc()
  Y.applyUpdate(doc, update)
  return doc.getText("t").toString()
}

describe("JoinFrames", () => {
  it("serves the current state after every update, never a stale one", () => {
    const doc = new Y.Doc()
    const frames = new JoinFrames(doc, "d", new Awareness(doc))
    const text = doc.getText("t")
    text.insert(0, "one")
    expect(textOf(step2Update(frames.initialSync()[1]))).toBe("one")
    // Cached: the same frame while nothing changes.
    expect(frames.initialSync()[1]).toBe(frames.initialSync()[1])
    text.insert(3, " two")
    expect(textOf(step2Update(frames.initialSync()[1]))).toBe("one two")
    text.delete(0, 4)
    expect(textOf(step2Update(frames.initialSync()[1]))).toBe("two")
  })

  it("includes what Yjs holds back for missing dependencies", () => {
    const source = new Y.Doc()
    const first: Array<Uint8Array> = []
    source.on("update", (update: Uint8Array) => first.push(update))
    source.getText("t").insert(0, "a")
    source.getText("t").insert(1, "b")
    const doc = new Y.Doc()
    const frames = new JoinFrames(doc, "d", new Awareness(doc))
    frames.initialSync()
    // The second update alone: held back (its left neighbour is missing), no update event.
    Y.applyUpdate(doc, first[1]!)
    const joiner = new Y.Doc()
    Y.applyUpdate(joiner, step2Update(frames.initialSync()[1]))
    Y.applyUpdate(joiner, first[0]!)
    expect(joiner.getText("t").toString()).toBe("ab")
  })

  it("seeds the initial sync with the state it was loaded from", () => {
    const source = new Y.Doc()
    source.getText("t").insert(0, "stored")
    const state = Y.encodeStateAsUpdate(source)
    const doc = new Y.Doc()
    Y.applyUpdate(doc, state)
    const frames = new JoinFrames(doc, "d", new Awareness(doc), state)
    expect(textOf(step2Update(frames.initialSync()[1]))).toBe("stored")
    doc.getText("t").insert(6, "!")
    expect(textOf(step2Update(frames.initialSync()[1]))).toBe("stored!")
  })

  it("sends a crowd's awareness as one update equal to y-protocols' own", () => {
    const doc = new Y.Doc()
    const awareness = new Awareness(doc)
    awareness.setLocalState(null)
    const frames = new JoinFrames(doc, "d", awareness)
    expect(frames.currentAwareness()).toBeUndefined()
    const peers = Array.from({ length: 200 }, (_, i) => {
      const peer = new Awareness(new Y.Doc())
      peer.setLocalState({ user: { name: `user ${i}` }, cursor: i })
      return peer
    })
    for (const peer of peers) applyAwarenessUpdate(awareness, encodeAwarenessUpdate(peer, [peer.clientID]), "peer")
    const received = joinerAwareness()
    applyAwarenessUpdate(received, awarenessUpdate(frames.currentAwareness()!), "server")
    expect(received.getStates().size).toBe(200)
    // A state changes, one peer leaves: the next joiner sees exactly that.
    peers[0]!.setLocalState({ user: { name: "renamed" } })
    applyAwarenessUpdate(awareness, encodeAwarenessUpdate(peers[0]!, [peers[0]!.clientID]), "peer")
    peers[1]!.setLocalState(null)
    applyAwarenessUpdate(awareness, encodeAwarenessUpdate(peers[1]!, [peers[1]!.clientID]), "peer")
    const later = joinerAwareness()
    applyAwarenessUpdate(later, awarenessUpdate(frames.currentAwareness()!), "server")
    expect(later.getStates().size).toBe(199)
    expect(later.getStates().get(peers[0]!.clientID)).toEqual({ user: { name: "renamed" } })
    expect(later.getStates().has(peers[1]!.clientID)).toBe(false)
    expect([...later.getStates().entries()].sort()).toEqual([...awareness.getStates().entries()].sort())
  })

  it("recognises a SyncStep1 with an empty state vector, and nothing else", () => {
    const frame = (bytes: Array<number>) => new Uint8Array([1, "d".charCodeAt(0), ...bytes])
    expect(isEmptySyncStep1(frame([0, 0, 1, 0]), "d")).toBe(true)
    expect(isEmptySyncStep1(frame([0, 0, 1, 0]), "e")).toBe(false)
    expect(isEmptySyncStep1(frame([0, 0, 3, 1, 5, 2]), "d")).toBe(false)
    expect(isEmptySyncStep1(frame([4, 0, 1, 0]), "d")).toBe(false)
    expect(isEmptySyncStep1(frame([0, 2, 1, 0]), "d")).toBe(false)
  })
})

describe("joining a live document", () => {
  let atrium: CollabAtrium
  let alice: Awaited<ReturnType<typeof signUp>>
  let bob: Awaited<ReturnType<typeof signUp>>
  const editors: Array<TestEditor> = []
  const open = (name: string, token: string, options?: { awareness?: boolean }) => {
    const editor = connectEditor(atrium.collabUrl, name, token, options)
    editors.push(editor)
    return editor
  }
  let counter = 0
  const pageName = () => `join-${Date.now().toString(36)}-${++counter}`

  beforeAll(async () => {
    atrium = await startCollabAtrium()
    alice = await signUp(atrium, "Alice")
    bob = await signUp(atrium, "Bob")
  })

  afterAll(async () => {
    for (const editor of editors) editor.destroy()
    await atrium?.close()
  })

  it("readers joining with nothing while others type converge with them", async () => {
    const name = pageName()
    const writers = [open(name, alice.token), open(name, bob.token)]
    await Promise.all(writers.map((writer) => synced(writer)))
    const readers: Array<TestEditor> = []
    // Count the joins the cached initial sync served (the path under test).
    const original = JoinFrames.prototype.initialSync
    let served = 0
    JoinFrames.prototype.initialSync = function (this: JoinFrames) {
      served++
      return original.call(this)
    }
    // Writers type while readers keep joining, each with an empty state vector (a fresh provider).
    for (let round = 0; round < 15; round++) {
      typeText(writers[round % 2]!, `w${round} `)
      addParagraph(writers[(round + 1) % 2]!, `p${round}`)
      readers.push(open(name, bob.token, { awareness: false }))
      if (round % 3 === 0) await new Promise((resolve) => setTimeout(resolve, 5))
    }
    await Promise.all(writers.map((writer) => acknowledged(writer)))
    await eventually(() => writers[0]!.text() === writers[1]!.text(), "writers converge")
    const expected = writers[0]!.text()
    expect(expected).toContain("w14")
    expect(expected).toContain("p14")
    await Promise.all(readers.map((reader) => synced(reader)))
    JoinFrames.prototype.initialSync = original
    expect(served).toBeGreaterThanOrEqual(readers.length)
    await eventually(() => readers.every((reader) => reader.text() === expected), "every reader converges")
    // A reader joining now, after the last change, gets it too.
    const late = open(name, alice.token, { awareness: false })
    await synced(late)
    await eventually(() => late.text() === expected, "the late reader converges")
  })

  it("a joiner sees the awareness of everyone already there", async () => {
    const name = pageName()
    const crowd = Array.from({ length: 20 }, (_, i) => {
      const editor = open(name, i % 2 === 0 ? alice.token : bob.token)
      editor.provider.setAwarenessField("user", { name: `member ${i}` })
      return editor
    })
    await Promise.all(crowd.map((editor) => synced(editor)))
    const names = (editor: TestEditor) =>
      new Set([...editor.provider.awareness!.getStates().values()].map((state) => (state as { user?: { name?: string } }).user?.name))
    await eventually(() => crowd.every((editor) => names(editor).size >= 20), "the crowd sees itself")
    const joiner = open(name, alice.token)
    await synced(joiner)
    await eventually(
      () => Array.from({ length: 20 }, (_, i) => `member ${i}`).every((n) => names(joiner).has(n)),
      "the joiner sees everyone"
    )
  })

  it("a cold open of a page stored as a snapshot plus a log tail equals its content", async () => {
    const name = pageName()
    const writer = open(name, alice.token)
    await synced(writer)
    for (let i = 0; i < 10; i++) addParagraph(writer, `before ${i}`)
    await acknowledged(writer)
    await atrium.server.compact(name)
    for (let i = 0; i < 5; i++) typeText(writer, ` after ${i}`)
    addParagraph(writer, "tail")
    await acknowledged(writer)
    const expected = writer.text()
    expect(expected).toContain("after 4")
    writer.destroy()
    await eventually(() => !atrium.server.hocuspocus.documents.has(name), "document unloaded")
    const reopened = open(name, bob.token)
    await synced(reopened)
    await eventually(() => reopened.text() === expected, "the reopened page holds everything")
    // And a second joiner of the now-open page (served from the cached initial sync) too.
    const second = open(name, alice.token)
    await synced(second)
    await eventually(() => second.text() === expected, "the second joiner holds everything")
  })
})
