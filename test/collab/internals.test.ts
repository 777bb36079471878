/**
 * The private members of Hocuspocus and Yjs that collab/ relies on, checked
 * on the installed versions: an upgrade that renames, reshapes or rewires one
 * fails here (and stops the server at start), naming the member and the
 * version. Also: a changed member is reported as such, not as something else.
 */
import { Connection, Document, Hocuspocus } from "@hocuspocus/server"
import { afterEach, describe, expect, it } from "vitest"
import * as Y from "yjs"
import * as HocuspocusInternals from "../../collab/HocuspocusInternals.ts"
import * as YjsInternals from "../../collab/YjsInternals.ts"

const restore: Array<() => void> = []
afterEach(() => {
  for (const undo of restore.splice(0)) undo()
})

/** Replaces `owner[name]` until the end of the test. */
const replace = (owner: object, name: string, value: unknown) => {
  const had = Object.getOwnPropertyDescriptor(owner, name)
  Object.defineProperty(owner, name, { value, configurable: true, writable: true })
  restore.push(() => {
    if (had === undefined) Reflect.deleteProperty(owner, name)
    else Object.defineProperty(owner, name, had)
  })
}

const changedHocuspocusMember = () => HocuspocusInternals.findChangedMember()?.message

describe("Hocuspocus internals", () => {
  it("are all as collab/HocuspocusInternals.ts expects on the installed version", () => {
    expect(changedHocuspocusMember()).toBeUndefined()
    expect(() => HocuspocusInternals.checkHocuspocusInternals()).not.toThrow()
    expect(HocuspocusInternals.installedVersion()).toMatch(/^\d+\.\d+\.\d+/)
  })

  it("a renamed private method stops the start, naming it and the version", async () => {
    replace(Document.prototype, "handleUpdate", undefined)
    expect(changedHocuspocusMember()).toBe(
      `@hocuspocus/server ${HocuspocusInternals.installedVersion()}: Document.handleUpdate is not a method any more. ` +
        `Atrium relies on this member through collab/HocuspocusInternals.ts (written against ${HocuspocusInternals.WRITTEN_AGAINST}); ` +
        `adapt that module to this version or pin ${HocuspocusInternals.WRITTEN_AGAINST}.`
    )
  })

  it("an update no longer sent through Document.handleUpdate is caught by behaviour", async () => {
    replace(Document.prototype, "handleUpdate", function (this: Document, _update: Uint8Array, _origin: unknown) {
      return this
    })
    expect(changedHocuspocusMember()).toMatch(/: Document\.handleUpdate is not what sends a document's update to its connections/)
  })

  it("awareness changes no longer reaching Document.handleAwarenessUpdate are caught by behaviour", async () => {
    replace(Document.prototype, "handleAwarenessUpdate", function (this: Document, _changes: unknown, _origin: unknown) {
      return this
    })
    expect(changedHocuspocusMember()).toMatch(
      /: Document\.handleAwarenessUpdate is not what sends awareness changes to a document's connections and records their clients/
    )
  })

  it("a Hocuspocus that stops handing the socket's messages to its handler is caught", async () => {
    replace(Hocuspocus.prototype, "handleConnection", function (this: Hocuspocus, _socket: unknown, _request: unknown) {})
    expect(changedHocuspocusMember()).toMatch(
      /: Hocuspocus\.handleConnection listens to the socket's "" events, not close, message and pong/
    )
  })

  it("a join-path member gone is named", () => {
    replace(Connection.prototype, "sendCurrentAwareness", undefined)
    expect(changedHocuspocusMember()).toMatch(/: Connection\.sendCurrentAwareness is not a method any more/)
  })
})

describe("Yjs internals", () => {
  it("are all as collab/YjsInternals.ts expects on the installed versions", () => {
    expect(YjsInternals.findChangedMember()).toBeUndefined()
    expect(() => YjsInternals.checkYjsInternals()).not.toThrow()
  })

  it("withoutUpdateEvents applies without an update event, then listeners hear the next change", () => {
    const source = new Y.Doc()
    source.getText("t").insert(0, "stored")
    const target = new Y.Doc()
    const heard: Array<Uint8Array> = []
    target.on("update", (update: Uint8Array) => heard.push(update))
    YjsInternals.withoutUpdateEvents(target, () => Y.applyUpdate(target, Y.encodeStateAsUpdate(source)))
    expect(target.getText("t").toString()).toBe("stored")
    expect(heard).toHaveLength(0)
    target.getText("t").insert(0, "!")
    expect(heard).toHaveLength(1)
  })
})
