/**
 * kill -9 in the middle of a transcription: after a restart on the same data
 * directory the job resumes from the last finished chunk — the chunks the
 * engine had answered are not sent again — and the transcript is whole.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { jsonClient } from "../support/atrium.ts"
import { type CollabProcess, freePort, signUpAt, startCollabProcess } from "../support/collabProcess.ts"
import { espeakAvailable, fakeOpenAiEngine, type Line, singleTrackWav, speak, wordsOf } from "./support/speech.ts"

const SCRIPT: ReadonlyArray<Line> = [
  "The quarterly planning starts next Monday at nine.",
  "Please bring the numbers for the support backlog.",
  "The backlog grew by twenty percent since March.",
  "Most new tickets are about invoices and exports.",
  "Then the invoice export should be our first fix.",
  "I agree, and the export guide needs a rewrite too.",
  "Let us give the guide to the documentation team.",
  "They can start on it after the release on Friday.",
  "Who talks to the finance team about the invoices?",
  "I will meet finance on Wednesday afternoon.",
  "Good, then we meet again next Monday to decide.",
  "Thanks everyone, that is all for today."
].map((text, index) => ({ speaker: (index % 2) as 0 | 1, text }))

const dataDir = mkdtempSync(path.join(tmpdir(), "atrium-stt-resume-"))
let node: CollabProcess | undefined
afterAll(async () => {
  await node?.kill()
  rmSync(dataDir, { recursive: true, force: true })
})

const progressOf = async (origin: string, token: string, recordingId: number) =>
  (await jsonClient(origin)("GET", `/hub/v1/recordings/${recordingId}/progress`, { token })).body

const until = async <A>(what: string, probe: () => Promise<A | undefined>, timeoutMs = 120_000): Promise<A> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

describe.skipIf(!espeakAvailable())("transcription after kill -9", () => {
  it("resumes from the last finished chunk", async () => {
    const speech = speak(SCRIPT)
    const engine = await fakeOpenAiEngine(speech, [speech.mixed], true)
    // The first three chunks are answered; the fourth never is (the node dies waiting).
    engine.plan = (n) => (n <= 3 ? "answer" : "hang")
    const env = async () => ({
      PORT: String(await freePort()),
      DATA_DIR: dataDir,
      STT_BASE_URL: engine.url,
      STT_CHUNK_SECONDS: "12",
      STT_PARALLELISM: "1"
    })
    try {
      node = await startCollabProcess(await env())
      const request = jsonClient(node.origin)
      const alice = await signUpAt(node.origin, "Alice")
      const ws = await request("POST", "/pm/v1/workspaces", { token: alice.token, body: { name: "Planning" } })
      const created = await request("POST", "/hub/v1/recordings", {
        token: alice.token,
        body: { workspaceId: ws.body.id, name: "Planning" }
      })
      expect(created.status, created.text).toBe(202)
      const recordingId = created.body.id as number
      const upload = await request("PUT", `/hub/v1/recordings/${recordingId}/media`, {
        token: alice.token,
        rawBody: singleTrackWav(speech),
        headers: { "content-type": "audio/wav" }
      })
      expect(upload.status, upload.text).toBe(202)
      const total = await until("three chunks done and the fourth sent", async () => {
        const progress = await progressOf(node!.origin, alice.token, recordingId)
        if (progress.status === "failed") throw new Error(progress.error)
        return progress.chunks?.done === 3 && engine.requests.length === 4 ? (progress.chunks.total as number) : undefined
      })
      expect(total).toBeGreaterThan(4)
      await node.kill()

      const answeredBefore = engine.requests.slice(0, 3).map((r) => (typeof r.heard === "string" ? r.heard : Math.round(r.heard.offsetMs)))
      engine.plan = () => "answer"
      node = await startCollabProcess(await env())
      const settled = await until("the resumed job to finish", async () => {
        const progress = await progressOf(node!.origin, alice.token, recordingId)
        return progress.status === "ready" || progress.status === "failed" ? progress : undefined
      })
      expect(settled.status, settled.error).toBe("ready")
      const sentAfter = engine.requests.slice(4).map((r) => (typeof r.heard === "string" ? r.heard : Math.round(r.heard.offsetMs)))
      // Only the chunks not finished before the kill: the one in flight and the rest.
      expect(sentAfter).toHaveLength(total - 3)
      for (const offset of answeredBefore) expect(sentAfter).not.toContain(offset)

      const transcript = await jsonClient(node.origin)("GET", `/hub/v1/calls/${created.body.callId}/transcript`, { token: alice.token })
      expect(wordsOf(transcript.body.segments.map((s: { text: string }) => s.text))).toEqual(wordsOf(SCRIPT.map((line) => line.text)))
    } finally {
      await engine.close()
    }
  }, 300_000)
})
