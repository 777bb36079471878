/**
 * Every member of Yjs (and of lib0's Observable, which Y.Doc extends) that
 * Atrium relies on beyond Yjs's documented API, and the only place that
 * reaches them. `checkYjsInternals()` runs when a LiveServer is built: it
 * checks each one on the installed versions, by behaviour, and throws naming
 * the member and the versions when one changed (also
 * test/collab/internals.test.ts). Written against yjs 13.6.33, lib0 0.2.120.
 *
 * - `Doc._observers` (lib0 Observable's listener map): Yjs encodes a
 *   transaction's update only when an "update" listener exists, so a
 *   document loaded from storage is applied with its update listeners set
 *   aside for a moment (`withoutUpdateEvents`): nobody is connected yet, and
 *   encoding the whole document once more would serve nobody.
 * - `Doc.store.pendingStructs` / `pendingDs`: what Yjs holds back until the
 *   updates it depends on arrive. Logged too, so an acknowledged update is
 *   durable even if what it waits for never comes; a cached full-state frame
 *   is stale once they change (an encoded state includes them).
 */
import { createRequire } from "node:module"
import * as Y from "yjs"

export const WRITTEN_AGAINST = "yjs 13.6.33, lib0 0.2.120"

export const installedVersions = (): string => {
  const require = createRequire(import.meta.url)
  const version = (name: string) => {
    try {
      return (require(`${name}/package.json`) as { version: string }).version
    } catch {
      return "unknown"
    }
  }
  return `yjs ${version("yjs")}, lib0 ${version("lib0")}`
}

/** Listener sets by event name; lib0 declares the map public, by convention private (underscore). */
const observersOf = (document: Y.Doc): Map<string, unknown> => document._observers

/** Runs `apply` on `document` with its "update" listeners away: Yjs then encodes no update for it. */
export const withoutUpdateEvents = (document: Y.Doc, apply: () => void): void => {
  const observers = observersOf(document)
  const listeners = observers.get("update")
  observers.delete("update")
  try {
    apply()
  } finally {
    if (listeners !== undefined) observers.set("update", listeners)
  }
}

/** What `document` holds back (structs whose dependencies are missing, deletions of unknown items), as V2 updates. */
export interface Pending {
  readonly structs: Uint8Array | undefined
  readonly deletes: Uint8Array | undefined
}

export const pendingOf = (document: Y.Doc): Pending => ({
  structs: document.store.pendingStructs?.update,
  deletes: document.store.pendingDs ?? undefined
})

// ---------------------------------------------------------------- checks

class InternalsChanged extends Error {
  constructor(versions: string, member: string, expected: string) {
    super(
      `${versions}: ${member} ${expected}. Atrium relies on it through collab/YjsInternals.ts (written against ` +
        `${WRITTEN_AGAINST}); adapt that module to these versions or pin the ones it was written against.`
    )
    this.name = "YjsInternalsChanged"
  }
}

const behaviour = (): [string, string] | undefined => {
  const source = new Y.Doc()
  const target = new Y.Doc()
  try {
    const observers: unknown = Reflect.get(target, "_observers")
    if (!(observers instanceof Map)) return ["Doc._observers", "is not a Map of listeners by event name"]
    let updates = 0
    target.on("update", () => updates++)
    source.getText("t").insert(0, "a")
    withoutUpdateEvents(target, () => Y.applyUpdate(target, Y.encodeStateAsUpdate(source)))
    if (updates !== 0) return ["Doc._observers", "no longer holds the update listeners Yjs emits to"]
    if (target.getText("t").toString() !== "a") return ["Doc._observers", "removed for a moment stops updates from applying"]
    if (!(observers.get("update") instanceof Set)) return ["Doc._observers", "is not restored as it was"]
    // "c" without "b": held back until "b" arrives.
    const text = source.getText("t")
    const beforeB = Y.encodeStateVector(source)
    text.insert(1, "b")
    const onlyB = Y.encodeStateAsUpdate(source, beforeB)
    const beforeC = Y.encodeStateVector(source)
    text.insert(2, "c")
    Y.applyUpdate(target, Y.encodeStateAsUpdate(source, beforeC))
    if (!(pendingOf(target).structs instanceof Uint8Array)) {
      return ["StructStore.pendingStructs", "does not hold back an update whose dependency is missing"]
    }
    Y.applyUpdate(target, onlyB)
    if (pendingOf(target).structs !== undefined || target.getText("t").toString() !== "abc") {
      return ["StructStore.pendingStructs", "is not cleared once the missing dependency arrives"]
    }
    if (!("pendingDs" in target.store)) return ["StructStore.pendingDs", "is gone"]
    return updates > 0 ? undefined : ["Doc._observers", "restored does not deliver updates to its listeners"]
  } finally {
    source.destroy()
    target.destroy()
  }
}

/** The first member that is not as this module expects on the installed versions, as the error to stop with. */
export const findChangedMember = (): Error | undefined => {
  const problem = behaviour()
  return problem === undefined ? undefined : new InternalsChanged(installedVersions(), problem[0], problem[1])
}

let checked = false

/** Throws (naming the member and the versions) unless Yjs behaves as this module relies on. Runs once. */
export const checkYjsInternals = (): void => {
  if (checked) return
  const changed = findChangedMember()
  if (changed !== undefined) throw changed
  checked = true
}
