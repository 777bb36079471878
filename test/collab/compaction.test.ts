/**
 * When a live document's log is folded into its stored state: a compaction
 * that is due waits for a pause in the editing (COLLAB_COMPACT_QUIET_MS), as
 * it holds up the event loop while it runs, unless the log has grown twenty
 * times past COLLAB_COMPACT_ROWS; and what it folds is the whole page.
 */
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Sql } from "../../persistence/Sql.ts"
import { signUp } from "../support/atrium.ts"
import {
  acknowledged,
  type CollabAtrium,
  connectEditor,
  eventually,
  startCollabAtrium,
  synced,
  type TestEditor,
  typeText
} from "../support/collabAtrium.ts"

const COMPACT_ROWS = 3
const QUIET_MS = 300

describe("compaction of a live document", () => {
  let atrium: CollabAtrium
  let token: string
  const editors: Array<TestEditor> = []
  let counter = 0
  const pageName = () => `compact-${Date.now().toString(36)}-${++counter}`

  /** The document's log rows and whether it has a compacted state. */
  const stored = (name: string) =>
    atrium.run(
      Sql.use((sql) =>
        Effect.all({
          rows: Effect.map(
            sql.query<{ n: number }>("select count(*)::int as n from collab_updates where name = $1", [name]),
            (r) => r[0]!.n
          ),
          compacted: Effect.map(
            sql.query<{ state: Uint8Array | null }>("select state from collab_documents where name = $1", [name]),
            (r) => r[0]?.state != null
          )
        })
      )
    )

  beforeAll(async () => {
    atrium = await startCollabAtrium({}, { COLLAB_COMPACT_ROWS: String(COMPACT_ROWS), COLLAB_COMPACT_QUIET_MS: String(QUIET_MS) })
    token = (await signUp(atrium, "Alice")).token
  })

  afterAll(async () => {
    for (const editor of editors) editor.destroy()
    await atrium?.close()
  })

  const open = async (name: string) => {
    const editor = connectEditor(atrium.collabUrl, name, token)
    editors.push(editor)
    await synced(editor)
    return editor
  }

  it("waits while people type, and folds the whole page once they pause", async () => {
    const name = pageName()
    const editor = await open(name)
    // Typing faster than the quiet time, well past the row threshold but under twenty times it.
    for (let i = 0; i < 4 * COMPACT_ROWS; i++) {
      typeText(editor, ` k${i}`)
      await acknowledged(editor)
      await new Promise((resolve) => setTimeout(resolve, QUIET_MS / 8))
    }
    const whileTyping = await stored(name)
    expect(whileTyping.compacted).toBe(false)
    expect(whileTyping.rows).toBeGreaterThanOrEqual(4 * COMPACT_ROWS)
    await eventually(async () => (await stored(name)).rows === 0, "the log folded into the state after the pause")
    expect((await stored(name)).compacted).toBe(true)
    const text = editor.text()
    expect(text).toContain(`k${4 * COMPACT_ROWS - 1}`)
    editor.destroy()
    await eventually(() => !atrium.server.hocuspocus.documents.has(name), "document unloaded")
    const reopened = await open(name)
    await eventually(() => reopened.text() === text, "the reopened page holds every keystroke")
  })

  it("compacts at once when the log has grown twenty times past the threshold, typing or not", async () => {
    const name = pageName()
    const editor = await open(name)
    let compactedAt: number | undefined
    for (let i = 0; i < 20 * COMPACT_ROWS + 40 && compactedAt === undefined; i++) {
      typeText(editor, ` k${i}`)
      await acknowledged(editor)
      if ((await stored(name)).compacted) compactedAt = i
      await new Promise((resolve) => setTimeout(resolve, QUIET_MS / 8))
    }
    // Typing never paused for QUIET_MS, yet the page was compacted, once its log reached twenty times the threshold.
    expect(compactedAt).toBeGreaterThanOrEqual(20 * COMPACT_ROWS - 1)
  })
})
