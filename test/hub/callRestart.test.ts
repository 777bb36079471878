/**
 * Processing survives a restart: a job left running by a process that died
 * resumes in the next one; a job interrupted too often, or a recording left
 * processing without a job, fails with a message saying so. Never stuck.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { MAX_ATTEMPTS } from "../../actors/hub/Processing.ts"
import { signUp, startAtrium, type TestServer } from "../support/atrium.ts"
import { record, settled, workspaceWith } from "./support/calls.ts"

const dataDir = mkdtempSync(path.join(tmpdir(), "atrium-hub-restart-"))
let atrium: TestServer | undefined
afterAll(async () => {
  await atrium?.close()
  rmSync(dataDir, { recursive: true, force: true })
})

describe("processing across a restart", () => {
  it("resumes interrupted jobs, fails those interrupted too often, and leaves nothing processing", async () => {
    atrium = await startAtrium({ dataDir })
    const alice = await signUp(atrium, "Alice")
    const workspaceId = await workspaceWith(atrium, alice, [])
    const [resumed, exhausted, orphan] = [
      await record(atrium, alice.token, workspaceId),
      await record(atrium, alice.token, workspaceId),
      await record(atrium, alice.token, workspaceId)
    ]
    for (const r of [resumed, exhausted, orphan]) await settled(atrium, alice.token, r.id)
    // What a process killed mid-way leaves behind: jobs it had claimed (lease still running), versions not yet written.
    await atrium.sql(`UPDATE hub_recordings SET status = 'processing', percent = 40 WHERE id = ANY($1)`, [
      [resumed.id, exhausted.id, orphan.id]
    ])
    await atrium.sql(`DELETE FROM hub_call_versions WHERE recording_id = $1`, [resumed.id])
    await atrium.sql(
      `INSERT INTO hub_recording_jobs (recording_id, kind, state, attempts, lease_until) VALUES ($1, 'process', 'running', 1, now() + interval '1 hour'),
       ($2, 'process', 'running', $3, now() + interval '1 hour')`,
      [resumed.id, exhausted.id, MAX_ATTEMPTS]
    )
    await atrium.close()

    atrium = await startAtrium({ dataDir })
    const login = await atrium.request("POST", "/pm/v1/auth/login", { body: { email: alice.email, password: alice.password } })
    const token = login.body.accessToken as string
    expect(await settled(atrium, token, resumed.id)).toMatchObject({ status: "ready", percent: 100 })
    const call = await atrium.request("GET", `/hub/v1/calls/${resumed.callId}`, { token })
    expect(call.body.summary.length).toBeGreaterThan(0)

    const failed = await settled(atrium, token, exhausted.id)
    expect(failed.status).toBe("failed")
    expect(failed.error).toContain(`interrupted ${MAX_ATTEMPTS} times`)
    const lost = await settled(atrium, token, orphan.id)
    expect(lost).toMatchObject({ status: "failed", error: expect.stringContaining("interrupted") })
    expect(await atrium.sql(`SELECT recording_id FROM hub_recording_jobs`)).toEqual([])

    // A failed recording can be reprocessed.
    expect((await atrium.request("POST", `/hub/v1/recordings/${exhausted.id}/reprocess`, { token })).status).toBe(202)
    expect((await settled(atrium, token, exhausted.id)).status).toBe("ready")
  })
})
