/**
 * Compactions merge on a worker thread (collab/UpdateMerger.ts): the merge it
 * answers is Y.mergeUpdates's, concurrent merges each get their own, a merge
 * of a malformed update fails alone (the worker serves the next one), and
 * once closed the merger merges on the calling thread.
 */
import { afterEach, describe, expect, it } from "vitest"
import * as Y from "yjs"
import { UpdateMerger } from "../../collab/UpdateMerger.ts"

/** A page typed by `clients` editors in turn, and every keystroke's update. */
const typed = (keystrokes: number, clients = 3) => {
  const docs = Array.from({ length: clients }, () => new Y.Doc())
  const updates: Array<Uint8Array> = []
  for (let i = 0; i < keystrokes; i++) {
    const doc = docs[i % clients]!
    const text = doc.getText("page")
    const heard = (update: Uint8Array) => {
      updates.push(update)
      for (const other of docs) if (other !== doc) Y.applyUpdate(other, update)
    }
    doc.once("update", heard)
    text.insert(text.length, `k${i} `)
  }
  return { doc: docs[0]!, updates }
}

let merger: UpdateMerger | undefined
afterEach(async () => {
  await merger?.close()
  merger = undefined
})

describe("UpdateMerger", () => {
  it("answers what Y.mergeUpdates answers, for merges asked for at once", async () => {
    merger = new UpdateMerger()
    const first = typed(300)
    const second = typed(40, 2)
    const [a, b] = await Promise.all([merger.merge(first.updates), merger.merge(second.updates)])
    expect(Buffer.from(a).equals(Buffer.from(Y.mergeUpdates(first.updates)))).toBe(true)
    expect(Buffer.from(b).equals(Buffer.from(Y.mergeUpdates(second.updates)))).toBe(true)
    const restored = new Y.Doc()
    Y.applyUpdate(restored, a)
    expect(restored.getText("page").toString()).toBe(first.doc.getText("page").toString())
  })

  it("fails a merge of malformed bytes alone and serves the next", async () => {
    merger = new UpdateMerger()
    await expect(merger.merge([new Uint8Array([255, 255, 255, 255, 1, 2, 3]), new Uint8Array([7, 255, 255, 255, 255])])).rejects.toThrow()
    const { updates } = typed(10)
    expect(Buffer.from(await merger.merge(updates)).equals(Buffer.from(Y.mergeUpdates(updates)))).toBe(true)
  })

  it("merges on the calling thread once closed", async () => {
    merger = new UpdateMerger()
    await merger.close()
    const { updates } = typed(5)
    expect(Buffer.from(await merger.merge(updates)).equals(Buffer.from(Y.mergeUpdates(updates)))).toBe(true)
  })
})
