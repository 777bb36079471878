/**
 * Coalesced fan-out (DocumentFanOut) with the window forced long: merging a
 * window's updates and awareness into one frame never drops or reorders
 * anything. Real @hocuspocus/provider clients over ws, one in-process Atrium.
 * (Acknowledged updates surviving kill -9 under a long window: durability.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { signUp } from "../support/atrium.ts"
import {
  acknowledged,
  addParagraph,
  type CollabAtrium,
  connectEditor,
  eventually,
  startCollabAtrium,
  synced,
  type TestEditor
} from "../support/collabAtrium.ts"

/** Long enough that every burst below spans several windows and each window holds many updates. */
const WINDOW_MS = 300

let atrium: CollabAtrium
let token: string
const editors: Array<TestEditor> = []
const open = (name: string, options?: { awareness?: boolean }) => {
  const editor = connectEditor(atrium.collabUrl, name, token, options)
  editors.push(editor)
  return editor
}
let counter = 0
const pageName = () => `coalesce-${Date.now().toString(36)}-${++counter}`
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const lines = (editor: TestEditor) =>
  editor
    .text()
    .split("\n")
    .filter((line) => line !== "")

beforeAll(async () => {
  atrium = await startCollabAtrium({ dataDir: "memory://" }, { COLLAB_COALESCE_MS: String(WINDOW_MS), COLLAB_SEND_BUDGET: "200" })
  token = (await signUp(atrium, "Coalescer")).token
})

afterAll(async () => {
  for (const editor of editors) editor.destroy()
  await atrium?.close()
})

describe("coalesced fan-out", () => {
  it("merges a busy document's updates: a reader gets fewer frames than updates were written, and the same content", async () => {
    const name = pageName()
    const writer = open(name, { awareness: false })
    const reader = open(name, { awareness: false })
    await Promise.all([synced(writer), synced(reader)])
    let frames = 0
    reader.doc.on("update", (_update: Uint8Array, origin: unknown) => {
      if (origin !== null) frames++
    })
    // 20 connections and a send budget of 200 writes a second (60 per window): a window's first three updates go
    // at once, the rest of the burst leaves as one merged frame per window.
    const watchers = Array.from({ length: 18 }, () => open(name, { awareness: false }))
    await Promise.all(watchers.map((watcher) => synced(watcher)))
    const UPDATES = 60
    for (let i = 0; i < UPDATES; i++) {
      addParagraph(writer, `w-${i}`)
      await pause(5)
    }
    await acknowledged(writer)
    await eventually(() => reader.text() === writer.text(), "the reader has every update")
    expect(lines(reader)).toEqual(Array.from({ length: UPDATES }, (_, i) => `w-${i}`))
    expect(frames).toBeGreaterThan(0)
    expect(frames).toBeLessThan(UPDATES / 2)
  })

  it("20 providers typing concurrently converge on every line", async () => {
    const name = pageName()
    const typists = Array.from({ length: 20 }, () => open(name, { awareness: false }))
    await Promise.all(typists.map((editor) => synced(editor)))
    const PER_EDITOR = 25
    await Promise.all(
      typists.map(async (editor, i) => {
        for (let n = 0; n < PER_EDITOR; n++) {
          addParagraph(editor, `e${i}-${n}`)
          await pause(3 + (i % 5))
        }
      })
    )
    await Promise.all(typists.map((editor) => acknowledged(editor)))
    const expected = typists.flatMap((_, i) => Array.from({ length: PER_EDITOR }, (_, n) => `e${i}-${n}`)).sort()
    await eventually(() => typists.every((editor) => editor.text() === typists[0]!.text()), "all 20 editors converge", 60_000)
    expect([...lines(typists[0]!)].sort()).toEqual(expected)
    // Each editor's own lines stay in the order typed.
    for (let i = 0; i < typists.length; i++) {
      expect(lines(typists[0]!).filter((line) => line.startsWith(`e${i}-`))).toEqual(
        Array.from({ length: PER_EDITOR }, (_, n) => `e${i}-${n}`)
      )
    }
    // And a fresh reader sees the same.
    const late = open(name, { awareness: false })
    await synced(late)
    expect(late.text()).toBe(typists[0]!.text())
  }, 120_000)

  it("a reader joining mid-burst converges", async () => {
    const name = pageName()
    const writer = open(name, { awareness: false })
    await synced(writer)
    let late: TestEditor | undefined
    for (let i = 0; i < 120; i++) {
      addParagraph(writer, `b-${i}`)
      if (i === 60) late = open(name, { awareness: false })
      await pause(4)
    }
    await acknowledged(writer)
    await synced(late!)
    await eventually(() => late!.text() === writer.text(), "the late reader converges")
    expect(lines(late!)).toEqual(Array.from({ length: 120 }, (_, i) => `b-${i}`))
  })

  it("awareness of 200 users converges", async () => {
    const name = pageName()
    const users = Array.from({ length: 200 }, () => open(name))
    await Promise.all(users.map((editor) => synced(editor)))
    for (const [i, editor] of users.entries()) editor.provider.setAwarenessField("user", { name: `u${i}`, cursor: 0 })
    // Then everyone moves once more, within the same windows.
    for (const [i, editor] of users.entries()) editor.provider.setAwarenessField("user", { name: `u${i}`, cursor: i + 1 })
    const seesEveryone = (editor: TestEditor) => {
      const states = [...editor.provider.awareness!.getStates().values()]
      const cursors = new Map(states.flatMap((state) => (state.user ? [[state.user.name as string, state.user.cursor as number]] : [])))
      return cursors.size === 200 && users.every((_, i) => cursors.get(`u${i}`) === i + 1)
    }
    await eventually(() => users.every(seesEveryone), "every user sees all 200 final states", 90_000)
    // One leaves: everyone else sees it go.
    const leaving = users[7]!
    const leavingId = leaving.doc.clientID
    leaving.destroy()
    await eventually(
      () => users.every((editor) => editor === leaving || !editor.provider.awareness!.getStates().has(leavingId)),
      "everyone sees the user leave",
      60_000
    )
  }, 180_000)
})
