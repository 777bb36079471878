/**
 * The collab endpoint and LiveDocuments against real @hocuspocus/provider
 * clients over ws, on one in-process Atrium (PGlite in memory).
 */
import * as encoding from "lib0/encoding"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import WebSocket from "ws"
import * as Y from "yjs"
import type { DocumentContent } from "../../actors/LiveDocuments.ts"
import { CloseCode, PRE_AUTH_LIMITS, SocketAdapter } from "../../collab/SocketAdapter.ts"
import { contentOf, markdownToDoc } from "../../richtext/RichText.ts"
import { Effect } from "effect"
import { signUp } from "../support/atrium.ts"
import {
  acknowledged,
  addParagraph,
  type CollabAtrium,
  connectEditor,
  eventually,
  grant,
  startCollabAtrium,
  synced,
  type TestEditor,
  typeText
} from "../support/collabAtrium.ts"

let atrium: CollabAtrium
let alice: Awaited<ReturnType<typeof signUp>>
let bob: Awaited<ReturnType<typeof signUp>>
const editors: Array<TestEditor> = []
const open = (name: string, token: string, options?: Parameters<typeof connectEditor>[3]) => {
  const editor = connectEditor(atrium.collabUrl, name, token, options)
  editors.push(editor)
  return editor
}
let counter = 0
const pageName = (prefix = "page") => `${prefix}-${Date.now().toString(36)}-${++counter}`

beforeAll(async () => {
  atrium = await startCollabAtrium({}, { COLLAB_MAX_BACKPRESSURE_BYTES: String(1536 * 1024), COLLAB_CHANGE_DEBOUNCE_MS: "100" })
  alice = await signUp(atrium, "Alice")
  bob = await signUp(atrium, "Bob")
})

afterAll(async () => {
  for (const editor of editors) editor.destroy()
  await atrium?.close()
})

/** A raw socket speaking the protocol by hand (for malformed frames). */
const rawSocket = async (): Promise<{ ws: WebSocket; closed: Promise<{ code: number; reason: string }> }> => {
  const ws = new WebSocket(atrium.collabUrl)
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on("close", (code, reason) => resolve({ code, reason: reason.toString() }))
  )
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve())
    ws.once("error", reject)
  })
  return { ws, closed }
}

const frame = (write: (encoder: encoding.Encoder) => void) => {
  const encoder = encoding.createEncoder()
  write(encoder)
  return encoding.toUint8Array(encoder)
}

const authFrame = (name: string, token: string) =>
  frame((e) => {
    encoding.writeVarString(e, name)
    encoding.writeVarUint(e, 2) // Auth
    encoding.writeVarUint(e, 0) // Token
    encoding.writeVarString(e, token)
  })

describe("editing together", () => {
  it("two editors converge, and storage holds what they typed", async () => {
    const name = pageName()
    const a = open(name, alice.token)
    const b = open(name, bob.token)
    await Promise.all([synced(a), synced(b)])
    typeText(a, "hello")
    addParagraph(b, "world")
    await Promise.all([acknowledged(a), acknowledged(b)])
    await eventually(() => a.text() === b.text() && a.text().includes("hello") && a.text().includes("world"), "editors converge")
    const snapshot = await atrium.run(atrium.live.snapshot(name))
    expect(snapshot.text).toBe(a.text())
    expect(snapshot.content.type).toBe("doc")
  })

  it("a late joiner gets the full state", async () => {
    const name = pageName()
    const a = open(name, alice.token)
    await synced(a)
    for (let i = 0; i < 20; i++) addParagraph(a, `line ${i}`)
    await acknowledged(a)
    const late = open(name, bob.token)
    await synced(late)
    await eventually(() => late.text() === a.text(), "late joiner has everything")
    expect(late.text().split("\n")).toHaveLength(20)
  })

  it("a 1 MB paste arrives whole at the other editor and is durable once acknowledged", async () => {
    const name = pageName()
    const a = open(name, alice.token)
    const b = open(name, bob.token)
    await Promise.all([synced(a), synced(b)])
    const paste = "0123456789abcdef".repeat(64 * 1024) // 1 MiB
    addParagraph(a, paste)
    await acknowledged(a)
    await eventually(() => b.text().length === paste.length, "the paste reached the other editor")
    expect(b.text()).toBe(paste)
    // Storage has it even with nobody connected.
    a.destroy()
    b.destroy()
    await eventually(() => !atrium.server.hocuspocus.documents.has(name), "document unloaded")
    const snapshot = await atrium.run(atrium.live.snapshot(name))
    expect(snapshot.text.length).toBe(paste.length)
  })

  it("fans an update out to every reader with one publish, not one send per reader", async () => {
    const name = pageName()
    const writer = open(name, alice.token)
    const readers = Array.from({ length: 30 }, () => open(name, bob.token, { awareness: false }))
    await Promise.all([writer, ...readers].map((editor) => synced(editor)))
    await acknowledged(writer)
    const original = SocketAdapter.prototype.send
    let directFrames = 0
    SocketAdapter.prototype.send = function (this: SocketAdapter, data: Uint8Array) {
      directFrames++
      return original.call(this, data)
    }
    try {
      addParagraph(writer, "to everyone")
      await eventually(() => readers.every((reader) => reader.text() === "to everyone"), "every reader got the update")
      await acknowledged(writer)
    } finally {
      SocketAdapter.prototype.send = original
    }
    // The writer's acknowledgement only: the 30 readers were reached through the document's topic.
    expect(directFrames).toBeLessThan(5)
  })

  it("shares awareness (cursors, names) between editors", async () => {
    const name = pageName()
    const a = open(name, alice.token)
    const b = open(name, bob.token)
    await Promise.all([synced(a), synced(b)])
    a.provider.setAwarenessField("user", { name: "Alice", color: "#f00" })
    await eventually(
      () => [...b.provider.awareness!.getStates().values()].some((state) => (state as { user?: { name?: string } }).user?.name === "Alice"),
      "B sees Alice's presence"
    )
    a.destroy()
    await eventually(
      () =>
        ![...b.provider.awareness!.getStates().values()].some((state) => (state as { user?: { name?: string } }).user?.name === "Alice"),
      "Alice's presence goes when she leaves"
    )
  })

  it("a read-only editor's updates are refused and the document is untouched", async () => {
    const name = pageName()
    grant(bob.userId, name, "read")
    const writer = open(name, alice.token)
    const reader = open(name, bob.token)
    await Promise.all([synced(writer), synced(reader)])
    expect(reader.provider.authorizedScope).toBe("readonly")
    addParagraph(writer, "from the writer")
    await acknowledged(writer)
    await eventually(() => reader.text() === "from the writer", "reader sees the writer")
    addParagraph(reader, "from the reader")
    // The server answers "not applied": the change stays unsynced on the reader.
    await eventually(() => reader.provider.unsyncedChanges > 0, "reader has unsynced changes")
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(reader.provider.unsyncedChanges).toBeGreaterThan(0)
    expect(writer.text()).toBe("from the writer")
    const snapshot = await atrium.run(atrium.live.snapshot(name))
    expect(snapshot.text).toBe("from the writer")
  })
})

describe("read-only readers (served without a Hocuspocus connection)", () => {
  const presenceOf = (editor: TestEditor) =>
    [...editor.provider.awareness!.getStates().values()].map((state) => (state as { user?: { name?: string } }).user?.name)
  /** A page everyone but Alice reads only, with Alice editing it. */
  const pageWithWriter = async () => {
    const name = pageName("ro")
    grant(alice.userId, name, "edit")
    const writer = open(name, alice.token)
    await synced(writer)
    return { name, writer }
  }

  it("a reader syncs, follows the writer, is listed, and the page unloads once everyone left", async () => {
    const { name, writer } = await pageWithWriter()
    addParagraph(writer, "before the reader")
    await acknowledged(writer)
    const reader = open(name, bob.token)
    await synced(reader)
    expect(reader.provider.authorizedScope).toBe("readonly")
    expect(reader.text()).toBe("before the reader")
    // Hocuspocus knows only the writer's connection; the reader is the endpoint's own.
    expect(atrium.server.hocuspocus.documents.get(name)?.connections.size).toBe(1)
    addParagraph(writer, "after the reader")
    await eventually(() => reader.text() === "before the reader\nafter the reader", "the reader follows the writer")
    await eventually(async () => (await atrium.run(atrium.live.editors(name))).length === 2, "both listed")
    writer.destroy()
    await eventually(async () => (await atrium.run(atrium.live.editors(name))).length === 1, "the writer left the list")
    expect(atrium.server.hocuspocus.documents.has(name)).toBe(true)
    reader.destroy()
    await eventually(async () => (await atrium.run(atrium.live.editors(name))).length === 0, "the reader left the list")
    await eventually(() => !atrium.server.hocuspocus.documents.has(name), "the page unloaded")
  })

  it("a reader's presence reaches the editors and goes when it leaves; it sees theirs", async () => {
    const { name, writer } = await pageWithWriter()
    writer.provider.setAwarenessField("user", { name: "Alice" })
    const reader = open(name, bob.token)
    reader.provider.setAwarenessField("user", { name: "Bob" })
    await synced(reader)
    await eventually(() => presenceOf(writer).includes("Bob"), "the writer sees the reader")
    await eventually(() => presenceOf(reader).includes("Alice"), "the reader sees the writer")
    reader.destroy()
    await eventually(() => !presenceOf(writer).includes("Bob"), "the reader's presence goes with it")
  })

  it("a reader that already holds part of the page gets what it misses", async () => {
    const { name, writer } = await pageWithWriter()
    addParagraph(writer, "one")
    await acknowledged(writer)
    const held = Y.encodeStateAsUpdate(writer.doc)
    addParagraph(writer, "two")
    await acknowledged(writer)
    const reader = open(name, bob.token, { state: held })
    await synced(reader)
    await eventually(() => reader.text() === "one\ntwo", "the reader converges")
    // What it held was already there: nothing of it is refused.
    expect(reader.provider.unsyncedChanges).toBe(0)
  })

  it("remove closes a reader with 4404", async () => {
    const name = pageName("ro")
    const reader = open(name, bob.token)
    await synced(reader)
    await atrium.run(atrium.live.remove(name))
    await eventually(() => reader.closes.some((close) => close.code === 4404), "reader closed with 4404")
    reader.destroy()
    await eventually(() => !atrium.server.hocuspocus.documents.has(name), "document unloaded")
  })

  it("one socket reads one page and edits another", async () => {
    const readOnly = pageName("ro")
    const editable = pageName()
    const other = open(editable, alice.token)
    await synced(other)
    addParagraph(other, "seen by the reader")
    await acknowledged(other)
    const editor = open(editable, bob.token)
    const reader = connectEditor(atrium.collabUrl, readOnly, bob.token, { socket: editor.socket })
    editors.push(reader)
    await Promise.all([synced(editor), synced(reader)])
    expect(editor.provider.authorizedScope).toBe("read-write")
    expect(reader.provider.authorizedScope).toBe("readonly")
    addParagraph(editor, "from the shared socket")
    await acknowledged(editor)
    await eventually(() => other.text() === "seen by the reader\nfrom the shared socket", "the edit arrives")
    addParagraph(reader, "refused")
    await eventually(() => reader.provider.unsyncedChanges > 0, "the read-only change stays unsynced")
    expect((await atrium.run(atrium.live.snapshot(readOnly))).text).toBe("")
    // Leaving the read-only page keeps the socket and the other page.
    reader.destroy()
    addParagraph(other, "still live")
    await eventually(() => editor.text().endsWith("still live"), "the shared socket still edits")
    expect(editor.closes).toHaveLength(0)
  })
})

describe("refusals", () => {
  it("a user without rights is refused with 4403", async () => {
    const name = pageName("no")
    const editor = open(name, alice.token)
    await eventually(() => editor.closes.length > 0, "socket closed")
    expect(editor.closes[0]!.code).toBe(4403)
    expect(editor.authFailures).toContain("forbidden")
    expect(atrium.server.hocuspocus.documents.has(name)).toBe(false)
  })

  it("a bad token is refused with 4401, and so is a missing one", async () => {
    const bad = open(pageName(), "not-a-token")
    const missing = open(pageName(), "")
    await eventually(() => bad.closes.length > 0 && missing.closes.length > 0, "sockets closed")
    expect(bad.closes[0]!.code).toBe(4401)
    expect(missing.closes[0]!.code).toBe(4401)
  })

  it("an API key of the user authenticates like a session", async () => {
    // Any principal works: the test DocumentAccess decides by name. An unknown key is refused.
    const editor = open(pageName(), "atr_live_unknownkey0000000000000000")
    await eventually(() => editor.closes.length > 0, "socket closed")
    expect(editor.closes[0]!.code).toBe(4401)
  })

  it("malformed, truncated and unknown frames close only the offending socket", async () => {
    const name = pageName()
    const a = open(name, alice.token)
    const b = open(name, bob.token)
    await Promise.all([synced(a), synced(b)])

    const garbage = await rawSocket()
    garbage.ws.send(authFrame(name, alice.token))
    garbage.ws.send(new Uint8Array([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]))
    expect((await garbage.closed).code).toBe(4400)

    const truncated = await rawSocket()
    truncated.ws.send(authFrame(name, alice.token).subarray(0, 5))
    expect((await truncated.closed).code).toBe(4400)

    const unknown = await rawSocket()
    unknown.ws.send(
      frame((e) => {
        encoding.writeVarString(e, name)
        encoding.writeVarUint(e, 42)
      })
    )
    expect((await unknown.closed).code).toBe(4400)

    const badUpdate = await rawSocket()
    badUpdate.ws.send(authFrame(name, alice.token))
    badUpdate.ws.send(
      frame((e) => {
        encoding.writeVarString(e, name)
        encoding.writeVarUint(e, 0) // Sync
        encoding.writeVarUint(e, 2) // Update
        encoding.writeVarUint8Array(e, new Uint8Array([5, 200, 1, 7, 7, 7]))
      })
    )
    expect((await badUpdate.closed).code).toBe(4400)

    const text = await rawSocket()
    text.ws.send("hello")
    expect((await text.closed).code).toBe(4400)

    // The document and the other sockets are unaffected.
    typeText(a, "still ")
    addParagraph(b, "working")
    await Promise.all([acknowledged(a), acknowledged(b)])
    await eventually(() => a.text() === b.text() && a.text().includes("still") && a.text().includes("working"), "editors converge")
    expect(a.closes).toHaveLength(0)
    expect(b.closes).toHaveLength(0)
  })

  it("a socket that sends more than the limits before authenticating is closed; an authenticated one is not limited", async () => {
    const queryAwareness = (name: string) =>
      frame((e) => {
        encoding.writeVarString(e, name)
        encoding.writeVarUint(e, 3) // QueryAwareness
      })
    // Messages for a document the socket never authenticates on: Hocuspocus would queue them all.
    const chatty = await rawSocket()
    for (let i = 0; i <= PRE_AUTH_LIMITS.messages; i++) chatty.ws.send(queryAwareness("never-authenticated"))
    expect((await chatty.closed).code).toBe(CloseCode.tooMuchBeforeAuth)
    // Documents opened without authenticating.
    const opener = await rawSocket()
    for (let i = 0; i <= PRE_AUTH_LIMITS.documents; i++) opener.ws.send(queryAwareness(`pending-${i}`))
    expect((await opener.closed).code).toBe(CloseCode.tooMuchBeforeAuth)
    // Past authentication, as many messages as it likes.
    const name = pageName()
    const editor = open(name, alice.token)
    await synced(editor)
    const authenticated = await rawSocket()
    const replies: Array<Uint8Array> = []
    authenticated.ws.on("message", (data: Buffer) => replies.push(new Uint8Array(data)))
    authenticated.ws.send(authFrame(name, alice.token))
    await eventually(() => replies.length > 0, "authenticated")
    const syncStep1 = frame((e) => {
      encoding.writeVarString(e, name)
      encoding.writeVarUint(e, 0) // Sync
      encoding.writeVarUint(e, 0) // SyncStep1
      encoding.writeVarUint8Array(e, Y.encodeStateVector(new Y.Doc()))
    })
    const before = replies.length
    for (let i = 0; i <= PRE_AUTH_LIMITS.messages; i++) authenticated.ws.send(syncStep1)
    // Each is answered with the server's SyncStep1 and SyncStep2.
    await eventually(() => replies.length - before >= 2 * (PRE_AUTH_LIMITS.messages + 1), "every SyncStep1 answered")
    expect(authenticated.ws.readyState).toBe(WebSocket.OPEN)
    authenticated.ws.close()
  })
})

describe("LiveDocuments", () => {
  it("replace reaches a connected editor at once and is durable", async () => {
    const name = pageName()
    const editor = open(name, alice.token)
    await synced(editor)
    addParagraph(editor, "typed")
    await acknowledged(editor)
    await atrium.run(atrium.live.replace(name, markdownToDoc("# Title\n\nReplaced **content**\n")))
    await eventually(() => editor.text() === "Title\nReplaced content", "editor sees the replacement")
    const snapshot = await atrium.run(atrium.live.snapshot(name))
    expect(snapshot.markdown).toBe("# Title\n\nReplaced **content**\n")
    expect(snapshot.html).toBe("<h1>Title</h1><p>Replaced <strong>content</strong></p>")
  })

  it("replace, append, snapshot and restore work on a document nobody has open", async () => {
    const name = pageName()
    await atrium.run(atrium.live.replace(name, markdownToDoc("first\n")))
    const first = await atrium.run(atrium.live.snapshot(name))
    await atrium.run(atrium.live.append(name, markdownToDoc("- appended\n")))
    expect((await atrium.run(atrium.live.snapshot(name))).markdown).toBe("first\n\n- appended\n")
    await atrium.run(atrium.live.replace(name, markdownToDoc("second\n")))
    // Restoring the first state is a new change: an editor joining now converges on it.
    await atrium.run(atrium.live.restore(name, first.state))
    const editor = open(name, bob.token)
    await synced(editor)
    await eventually(() => editor.text() === "first", "editor sees the restored content")
    expect((await atrium.run(atrium.live.snapshot(name))).markdown).toBe("first\n")
  })

  it("editors lists who has the document open", async () => {
    const name = pageName()
    expect(await atrium.run(atrium.live.editors(name))).toEqual([])
    const a = open(name, alice.token)
    const b = open(name, bob.token)
    await Promise.all([synced(a), synced(b)])
    await eventually(async () => (await atrium.run(atrium.live.editors(name))).length === 2, "two editors listed")
    const listed = await atrium.run(atrium.live.editors(name))
    expect(listed.map((e) => e.userId).sort()).toEqual([alice.userId, bob.userId].sort())
    expect(listed.find((e) => e.userId === alice.userId)?.name).toBe("Alice")
    a.destroy()
    await eventually(async () => (await atrium.run(atrium.live.editors(name))).length === 1, "one editor left")
  })

  it("onChange listeners get the new content after editors type", async () => {
    const name = pageName()
    const seen: Array<{ name: string; text: string }> = []
    await atrium.run(
      atrium.live.onChange((changed: string, content: DocumentContent) =>
        Effect.sync(() => {
          if (changed === name) seen.push({ name: changed, text: content.text })
        })
      )
    )
    const editor = open(name, alice.token)
    await synced(editor)
    addParagraph(editor, "indexed text")
    await acknowledged(editor)
    await eventually(() => seen.some((entry) => entry.text === "indexed text"), "listener called")
  })

  it("remove deletes the document and closes its editors", async () => {
    const name = pageName()
    const editor = open(name, alice.token)
    await synced(editor)
    addParagraph(editor, "doomed")
    await acknowledged(editor)
    await atrium.run(atrium.live.remove(name))
    await eventually(() => editor.closes.some((close) => close.code === 4404), "editor closed with 4404")
    editor.destroy()
    await eventually(() => !atrium.server.hocuspocus.documents.has(name), "document unloaded")
    expect((await atrium.run(atrium.live.snapshot(name))).text).toBe("")
  })
})

describe("slow readers", () => {
  it("a reader that stops reading is cut off at the backpressure limit, then reconnects, resyncs and converges", async () => {
    const name = pageName()
    const writer = open(name, alice.token, { awareness: false })
    const reader = open(name, bob.token, { awareness: false })
    await Promise.all([synced(writer), synced(reader)])
    const socket = (reader.socket as unknown as { webSocket: WebSocket & { _socket: import("node:net").Socket } }).webSocket
    socket._socket.pause()
    // Each round replaces the page's one paragraph: lots of traffic, a small document (the resync stays below the limit).
    const fragment = contentOf(writer.doc)
    for (let i = 0; i < 40; i++) {
      writer.doc.transact(() => {
        if (fragment.length > 0) fragment.delete(0, fragment.length)
      })
      addParagraph(writer, `${i}:${String(i % 10).repeat(512 * 1024)}`)
      await acknowledged(writer)
    }
    socket._socket.resume()
    await eventually(() => reader.closes.length > 0, "the slow reader was closed", 30_000)
    await eventually(() => reader.text() === writer.text(), "the reader resynced and converged", 30_000)
    expect(writer.closes).toHaveLength(0)
    expect(reader.text().startsWith("39:")).toBe(true)
    // The reader's socket is live again: its edits reach the writer.
    addParagraph(reader, "back")
    await eventually(() => writer.text().endsWith("back"), "the reader edits again")
  })
})

describe("durability of acknowledgements", () => {
  it("a change counts as synced only once it is in the update log", async () => {
    const name = pageName()
    const editor = open(name, alice.token)
    await synced(editor)
    addParagraph(editor, "durable")
    await acknowledged(editor)
    // Whatever the server holds, its log has it: read straight from SQL.
    const { loadMerged } = await import("../../collab/DocumentStore.ts")
    const stored = await atrium.run(loadMerged(name))
    const doc = new Y.Doc()
    Y.applyUpdate(doc, stored!)
    expect(contentOf(doc).toString()).toContain("durable")
  })
})

describe("sockets that never authenticate", () => {
  let quick: CollabAtrium
  beforeAll(async () => {
    // The shortest idle time the options allow.
    quick = await startCollabAtrium({}, { COLLAB_IDLE_SECONDS: "8" })
  })
  afterAll(async () => {
    await quick?.close()
  })

  it("are closed after the idle time (4408), while an authenticated one stays open", async () => {
    const user = await signUp(quick, "Idle")
    const editor = connectEditor(quick.collabUrl, pageName(), user.token)
    editors.push(editor)
    await synced(editor)
    const silent = new WebSocket(quick.collabUrl)
    const closed = new Promise<number>((resolve) => silent.on("close", (code) => resolve(code)))
    expect(await closed).toBe(CloseCode.timeout)
    expect(editor.closes).toHaveLength(0)
  })
})
