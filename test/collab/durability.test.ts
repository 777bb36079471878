/**
 * `kill -9` of a server while 20 editors type: after a restart on the same
 * storage every insert the server had acknowledged is there, and every
 * editor converges. Runs on PGlite (a data directory) always, and on
 * PostgreSQL when it is reachable (required with ATRIUM_REQUIRE_SERVICES=1);
 * once more on PGlite with the fan-out window forced long (COLLAB_COALESCE_MS),
 * so that coalesced broadcasts are in flight when the server dies.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { checkPostgres, createTestDatabase, type TestDatabase } from "../support/database.ts"
import { addParagraph, connectEditor, eventually, synced, type TestEditor } from "../support/collabAtrium.ts"
import { type CollabProcess, freePort, signUpAt, startCollabProcess } from "../support/collabProcess.ts"

const EDITORS = 20
const FILLER = "lorem ipsum dolor sit amet ".repeat(300)

const cleanups: Array<() => Promise<void>> = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {})
})

const killWhileTyping = async (env: Record<string, string>) => {
  const port = await freePort()
  const nodeEnv = { ...env, PORT: String(port) }
  let node: CollabProcess = await startCollabProcess(nodeEnv)
  cleanups.push(() => node.kill())
  const user = await signUpAt(node.origin, "Typist")
  const name = `durable-${Date.now().toString(36)}`

  const editors: Array<TestEditor> = []
  cleanups.push(async () => {
    for (const editor of editors) editor.destroy()
  })
  const typed = new Array<number>(EDITORS).fill(0)
  const acked = new Array<number>(EDITORS).fill(0)
  let counting = true
  for (let i = 0; i < EDITORS; i++) {
    const editor = connectEditor(node.collabUrl, name, user.token, { awareness: false })
    editor.provider.on("unsyncedChanges", ({ number }: { number: number }) => {
      // The server acknowledges a connection's updates in order: all but the last `number` typed are durable.
      if (counting) acked[i] = Math.max(acked[i]!, typed[i]! - number)
    })
    editors.push(editor)
  }
  await Promise.all(editors.map((editor) => synced(editor)))

  let typing = true
  const typists = editors.map(async (editor, i) => {
    while (typing) {
      typed[i]!++
      // Some bulk, so that the log is nearly always writing when the server dies.
      addParagraph(editor, `e${i}-${typed[i]} ${FILLER}`)
      await new Promise((resolve) => setTimeout(resolve, 10 + (i % 7)))
    }
  })
  await eventually(() => acked.reduce((a, b) => a + b, 0) >= 400, "editors got acknowledgements", 60_000)
  await node.kill()
  counting = false
  typing = false
  await Promise.all(typists)
  for (const editor of editors) editor.socket.disconnect()
  const acknowledged = acked.reduce((a, b) => a + b, 0)
  const total = typed.reduce((a, b) => a + b, 0)

  node = await startCollabProcess(nodeEnv)
  // What the restarted server holds, before any editor resyncs: every acknowledged insert.
  const checker = connectEditor(node.collabUrl, name, user.token, { awareness: false })
  editors.push(checker)
  await synced(checker)
  const lines = new Set(
    checker
      .text()
      .split("\n")
      .map((line) => line.split(" ")[0])
  )
  const missing: Array<string> = []
  for (let i = 0; i < EDITORS; i++) {
    for (let n = 1; n <= acked[i]!; n++) if (!lines.has(`e${i}-${n}`)) missing.push(`e${i}-${n}`)
  }
  expect(missing).toEqual([])

  // The editors come back and everyone converges on every insert typed (acknowledged or not).
  for (const editor of editors) editor.socket.connect()
  await eventually(
    () =>
      editors.every((editor) => editor.provider.isSynced && editor.text() === checker.text()) &&
      checker.text().split("\n").length === total,
    "all editors converge",
    60_000
  )
  return { acknowledged, total }
}

describe("kill -9 while 20 editors type", () => {
  it("PGlite: every acknowledged insert survives and editors converge", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "atrium-collab-kill-"))
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }))
    const { acknowledged, total } = await killWhileTyping({ DATA_DIR: dataDir })
    expect(acknowledged).toBeGreaterThanOrEqual(400)
    expect(total).toBeGreaterThanOrEqual(acknowledged)
  }, 240_000)

  it("PGlite, fan-out coalesced over a long window: every acknowledged insert survives and editors converge", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "atrium-collab-kill-"))
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }))
    const { acknowledged, total } = await killWhileTyping({ DATA_DIR: dataDir, COLLAB_COALESCE_MS: "250" })
    expect(acknowledged).toBeGreaterThanOrEqual(400)
    expect(total).toBeGreaterThanOrEqual(acknowledged)
  }, 240_000)

  it("PostgreSQL: every acknowledged insert survives and editors converge", async (context) => {
    if (!(await checkPostgres("collab durability on PostgreSQL"))) return context.skip()
    const database: TestDatabase = await createTestDatabase()
    cleanups.push(() => database.drop())
    const { acknowledged } = await killWhileTyping({ DATABASE_URL: database.url })
    expect(acknowledged).toBeGreaterThanOrEqual(400)
  }, 240_000)
})
