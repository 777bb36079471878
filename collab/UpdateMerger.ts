/**
 * Merges Yjs updates (`Y.mergeUpdates`) on a worker thread. A compaction
 * merges a document's state with the hundreds of rows logged since: 10–30 ms
 * for a page of 130 KB and 500 keystrokes, long enough that every editor
 * typing meanwhile would see the others' keystrokes late. The merge is pure
 * (bytes in, bytes out), so it runs beside the event loop; the worker starts
 * on the first merge and stays (unreferenced) until `close`.
 *
 * The worker is a short script evaluated in place (no file of its own to
 * bundle or transpile) that loads Yjs's CommonJS build, resolved from this
 * module; only bytes cross, so its Yjs being another copy does not matter.
 */
import { createRequire } from "node:module"
import { Worker } from "node:worker_threads"
import * as Y from "yjs"

interface Pending {
  readonly resolve: (merged: Uint8Array) => void
  readonly reject: (error: Error) => void
}

type Reply = { readonly id: number; readonly merged: Uint8Array } | { readonly id: number; readonly error: string }

const workerSource = (yjsPath: string) => `
const { parentPort } = require("node:worker_threads")
const Y = require(${JSON.stringify(yjsPath)})
parentPort.on("message", ({ id, parts }) => {
  try {
    const merged = Y.mergeUpdates(parts)
    parentPort.postMessage({ id, merged }, [merged.buffer])
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.stack || error) })
  }
})
`

export class UpdateMerger {
  private worker: Worker | undefined
  private readonly pending = new Map<number, Pending>()
  private nextId = 0
  private closed = false

  /** The merge of `parts`, as `Y.mergeUpdates` makes it (on this thread once closed). */
  merge(parts: ReadonlyArray<Uint8Array>): Promise<Uint8Array> {
    if (this.closed) return Promise.resolve(Y.mergeUpdates([...parts]))
    const worker = this.started()
    const id = this.nextId++
    return new Promise<Uint8Array>((resolve, reject) => {
      this.pending.set(id, { resolve, reject })
      worker.postMessage({ id, parts })
    })
  }

  /** Stops the worker; merges asked for meanwhile fail, later ones run on this thread. */
  async close(): Promise<void> {
    this.closed = true
    const worker = this.worker
    this.worker = undefined
    if (worker !== undefined) await worker.terminate()
    this.failAll(new Error("the update merger closed"))
  }

  private started(): Worker {
    if (this.worker !== undefined) return this.worker
    const worker = new Worker(workerSource(createRequire(import.meta.url).resolve("yjs")), { eval: true })
    worker.unref()
    worker.on("message", (reply: Reply) => {
      const waiting = this.pending.get(reply.id)
      if (waiting === undefined) return
      this.pending.delete(reply.id)
      if ("error" in reply) waiting.reject(new Error(reply.error))
      else waiting.resolve(reply.merged)
    })
    // A worker that fails takes its merges with it; the next merge starts another.
    const lost = (error: Error) => {
      if (this.worker === worker) this.worker = undefined
      this.failAll(error)
    }
    worker.on("error", lost)
    worker.on("exit", (code) => lost(new Error(`the update merger's worker exited (${code})`)))
    this.worker = worker
    return worker
  }

  private failAll(error: Error): void {
    for (const waiting of this.pending.values()) waiting.reject(error)
    this.pending.clear()
  }
}
