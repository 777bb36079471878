/** The update log (group commit, barriers, retries), SQL storage of documents, and frame checks. */
import { Effect, Exit, Layer, Scope } from "effect"
import * as encoding from "lib0/encoding"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { encodeAwarenessUpdate, Awareness } from "y-protocols/awareness"
import * as Y from "yjs"
import * as DocumentStore from "../../collab/DocumentStore.ts"
import { checkClientFrame, MessageType, readHeader } from "../../collab/Protocol.ts"
import { contentOf, docToText, markdownToDoc, docToYFragment, yFragmentToDoc } from "../../richtext/RichText.ts"
import { UpdateLog } from "../../collab/UpdateLog.ts"
import { testPglite } from "../support/atrium.ts"
import type { Sql } from "../../persistence/Sql.ts"

const bytes = (n: number) => new Uint8Array([n])
const tick = () => new Promise((resolve) => setTimeout(resolve, 5))

describe("UpdateLog", () => {
  it("groups the updates of a burst into one write and releases barriers after it", async () => {
    const writes: Array<number> = []
    let release: (() => void) | undefined
    const log = new UpdateLog({
      write: async (entries) => {
        writes.push(entries.length)
        await new Promise<void>((resolve) => {
          release = resolve
        })
      }
    })
    for (let i = 0; i < 10; i++) log.append(i % 2 === 0 ? "a" : "b", bytes(i))
    let aDone = false
    const barrier = log.barrier("a").then(() => {
      aDone = true
    })
    await tick()
    expect(writes).toEqual([10])
    expect(aDone).toBe(false)
    expect(log.pending("a")).toBe(true)
    // Appends during the write wait for the next one.
    log.append("a", bytes(99))
    let laterDone = false
    const later = log.barrier("a").then(() => {
      laterDone = true
    })
    release!()
    await barrier
    expect(aDone).toBe(true)
    await tick()
    expect(laterDone).toBe(false)
    expect(writes).toEqual([10, 1])
    release!()
    await later
    expect(log.pending("a")).toBe(false)
  })

  it("resolves a barrier at once for a document with nothing queued", async () => {
    const log = new UpdateLog({ write: async () => {} })
    let done = false
    await log.barrier("nothing").then(() => {
      done = true
    })
    expect(done).toBe(true)
  })

  it("retries a failed write until it succeeds, holding barriers meanwhile", async () => {
    let attempts = 0
    const failures: Array<number> = []
    const committed: Array<string> = []
    const log = new UpdateLog({
      write: async () => {
        attempts++
        if (attempts < 3) throw new Error("database down")
      },
      failed: (_error, attempt) => failures.push(attempt),
      committed: (entries) => committed.push(...entries.map((entry) => `${entry.name}:${String(entry.tag)}`))
    })
    log.append("doc", bytes(1), "publish")
    await log.barrier("doc")
    expect(attempts).toBe(3)
    expect(failures).toEqual([1, 2])
    expect(committed).toEqual(["doc:publish"])
  })

  it("splits very large backlogs into several batches and flushes everything on close", async () => {
    const sizes: Array<number> = []
    const log = new UpdateLog({ write: async (entries) => void sizes.push(entries.length), maxBatchCount: 3 })
    for (let i = 0; i < 7; i++) log.append("d", bytes(i))
    await log.close()
    expect(sizes).toEqual([3, 3, 1])
    expect(() => log.append("d", bytes(0))).toThrow()
  })
})

describe("DocumentStore", () => {
  let scope: Scope.Closeable
  let run: <A>(effect: Effect.Effect<A, unknown, Sql>) => Promise<A>

  beforeAll(async () => {
    scope = Effect.runSync(Scope.make())
    const context = await Effect.runPromise(Layer.buildWithScope(testPglite, scope))
    run = (effect) => Effect.runPromise(Effect.provideContext(effect, context))
  })
  afterAll(async () => {
    await Effect.runPromise(Scope.close(scope, Exit.void))
  })

  const edit = (doc: Y.Doc, markdown: string) => {
    const updates: Array<Uint8Array> = []
    const listener = (update: Uint8Array) => updates.push(update)
    doc.on("update", listener)
    docToYFragment(markdownToDoc(markdown), contentOf(doc))
    doc.off("update", listener)
    return updates
  }

  const textOf = (state: Uint8Array | undefined) => {
    const doc = new Y.Doc()
    if (state !== undefined) Y.applyUpdate(doc, state)
    return docToText(yFragmentToDoc(contentOf(doc)))
  }

  it("appends updates and loads them back (nothing stored: empty)", async () => {
    expect(await run(DocumentStore.load("none"))).toEqual({ state: undefined, updates: [] })
    const doc = new Y.Doc()
    const updates = [...edit(doc, "one\n"), ...edit(doc, "one\n\ntwo\n")]
    await run(DocumentStore.append(updates.map((update) => ({ name: "d1", update }))))
    const stored = await run(DocumentStore.load("d1"))
    expect(stored.updates).toHaveLength(updates.length)
    expect(stored.updates.map((u) => Array.from(u))).toEqual(updates.map((u) => Array.from(u)))
    expect(textOf(await run(DocumentStore.loadMerged("d1")))).toBe("one\ntwo")
  })

  it("compacts the log into the state, keeping what was appended after", async () => {
    const doc = new Y.Doc()
    const first = edit(doc, "alpha\n")
    await run(DocumentStore.append(first.map((update) => ({ name: "d2", update }))))
    const result = await run(DocumentStore.compact("d2"))
    expect(result.rows).toBe(first.length)
    const afterCompaction = await run(DocumentStore.load("d2"))
    expect(afterCompaction.updates).toHaveLength(0)
    expect(textOf(afterCompaction.state)).toBe("alpha")
    const second = edit(doc, "alpha\n\nbeta\n")
    await run(DocumentStore.append(second.map((update) => ({ name: "d2", update }))))
    expect(textOf(await run(DocumentStore.loadMerged("d2")))).toBe("alpha\nbeta")
    // Compacting with the live copy merges it first.
    edit(doc, "alpha\n\nbeta\n\ngamma\n")
    await run(DocumentStore.compact("d2", Y.encodeStateAsUpdate(doc)))
    const compacted = await run(DocumentStore.load("d2"))
    expect(compacted.updates).toHaveLength(0)
    expect(textOf(compacted.state)).toBe("alpha\nbeta\ngamma")
    expect(await run(DocumentStore.compact("d2"))).toMatchObject({ rows: 0 })
  })

  it("lists crowded logs and removes documents for good", async () => {
    const doc = new Y.Doc()
    const updates = Array.from({ length: 5 }, (_, i) => edit(doc, `line ${i}\n`)).flat()
    await run(DocumentStore.append(updates.map((update) => ({ name: "crowded", update }))))
    expect(await run(DocumentStore.crowded(5, 10))).toContain("crowded")
    expect(await run(DocumentStore.crowded(10_000, 10))).not.toContain("crowded")
    await run(DocumentStore.compact("crowded"))
    await run(DocumentStore.remove("crowded"))
    expect(await run(DocumentStore.load("crowded"))).toEqual({ state: undefined, updates: [] })
  })
})

describe("frame checks", () => {
  const frame = (write: (encoder: encoding.Encoder) => void) => {
    const encoder = encoding.createEncoder()
    write(encoder)
    return encoding.toUint8Array(encoder)
  }
  const doc = new Y.Doc()
  docToYFragment(markdownToDoc("hello\n"), contentOf(doc))
  const update = Y.encodeStateAsUpdate(doc)

  it("accepts what the provider sends", () => {
    const awareness = new Awareness(new Y.Doc())
    awareness.setLocalState({ user: { name: "A" } })
    const frames = [
      frame((e) => {
        encoding.writeVarString(e, "page")
        encoding.writeVarUint(e, MessageType.Auth)
        encoding.writeVarUint(e, 0)
        encoding.writeVarString(e, "token")
        encoding.writeVarString(e, "4.8.0")
      }),
      frame((e) => {
        encoding.writeVarString(e, "page")
        encoding.writeVarUint(e, MessageType.Sync)
        encoding.writeVarUint(e, 0)
        encoding.writeVarUint8Array(e, Y.encodeStateVector(doc))
      }),
      frame((e) => {
        encoding.writeVarString(e, "page")
        encoding.writeVarUint(e, MessageType.Sync)
        encoding.writeVarUint(e, 1)
        encoding.writeVarUint8Array(e, update)
      }),
      frame((e) => {
        encoding.writeVarString(e, "page")
        encoding.writeVarUint(e, MessageType.Awareness)
        encoding.writeVarUint8Array(e, encodeAwarenessUpdate(awareness, [awareness.clientID]))
      }),
      frame((e) => {
        encoding.writeVarString(e, "page")
        encoding.writeVarUint(e, MessageType.QueryAwareness)
      }),
      frame((e) => {
        encoding.writeVarString(e, "page")
        encoding.writeVarUint(e, MessageType.Stateless)
        encoding.writeVarString(e, "{}")
      }),
      frame((e) => {
        encoding.writeVarString(e, "page")
        encoding.writeVarUint(e, MessageType.Close)
      })
    ]
    for (const f of frames) expect(checkClientFrame(f)).toMatchObject({ _tag: "Accept", name: "page" })
    expect(checkClientFrame(new Uint8Array([MessageType.Pong]))).toEqual({ _tag: "Ignore" })
  })

  it("refuses malformed, truncated and unknown frames", () => {
    const valid = frame((e) => {
      encoding.writeVarString(e, "page")
      encoding.writeVarUint(e, MessageType.Sync)
      encoding.writeVarUint(e, 2)
      encoding.writeVarUint8Array(e, update)
    })
    const refusals = [
      new Uint8Array([]),
      new Uint8Array([0xff, 0xff, 0xff]),
      valid.subarray(0, valid.length - 3).slice(),
      frame((e) => {
        encoding.writeVarString(e, "page")
        encoding.writeVarUint(e, 42)
      }),
      frame((e) => {
        encoding.writeVarString(e, "page")
        encoding.writeVarUint(e, MessageType.BroadcastStateless)
        encoding.writeVarString(e, "x")
      }),
      frame((e) => {
        encoding.writeVarString(e, "page")
        encoding.writeVarUint(e, MessageType.Sync)
        encoding.writeVarUint(e, 7)
        encoding.writeVarUint8Array(e, update)
      }),
      frame((e) => {
        encoding.writeVarString(e, "page")
        encoding.writeVarUint(e, MessageType.Sync)
        encoding.writeVarUint(e, 2)
        encoding.writeVarUint8Array(e, new Uint8Array([9, 9, 9]))
      }),
      frame((e) => {
        encoding.writeVarString(e, "page")
        encoding.writeVarUint(e, MessageType.Awareness)
        encoding.writeVarUint8Array(e, new Uint8Array([1, 5, 1, 3, 0x7b]))
      }),
      frame((e) => {
        encoding.writeVarString(e, "")
        encoding.writeVarUint(e, MessageType.QueryAwareness)
      }),
      frame((e) => {
        encoding.writeVarString(e, "x".repeat(2000))
        encoding.writeVarUint(e, MessageType.QueryAwareness)
      }),
      // A session address (Hocuspocus 4's multiplexing): Hocuspocus 3 would open it as another document.
      frame((e) => {
        encoding.writeVarString(e, "page\u0000session")
        encoding.writeVarUint(e, MessageType.Sync)
        encoding.writeVarUint(e, 2)
        encoding.writeVarUint8Array(e, update)
      })
    ]
    for (const f of refusals) expect(checkClientFrame(f)._tag).toBe("Refuse")
  })

  it("reads the address and type of server frames", () => {
    const ack = frame((e) => {
      encoding.writeVarString(e, "page\u0000s1")
      encoding.writeVarUint(e, MessageType.SyncStatus)
      encoding.writeVarUint(e, 1)
    })
    const header = readHeader(ack)!
    expect(header).toMatchObject({ name: "page", type: MessageType.SyncStatus })
    expect(ack[header.bodyOffset]).toBe(1)
    expect(readHeader(new Uint8Array([MessageType.Ping]))).toBeUndefined()
  })
})
