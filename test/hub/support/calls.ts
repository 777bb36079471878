/** Helpers for the hub call tests: a workspace with members, recordings that wait until processed, fake vendor servers. */
import { execFileSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import path from "node:path"
import type { signUp, TestAtrium } from "../../support/atrium.ts"

export type User = Awaited<ReturnType<typeof signUp>>

export const segments = [
  { speaker: "Alice", startMs: 0, endMs: 4000, text: "Welcome everyone, today we review the launch plan for the mobile app." },
  {
    speaker: "Bob",
    startMs: 4100,
    endMs: 9000,
    text: "The beta feedback was positive but login errors are still the top complaint from customers."
  },
  { speaker: "Alice", startMs: 9100, endMs: 13000, text: "I'll send the revised launch timeline by Friday." },
  { speaker: "Carol", startMs: 13100, endMs: 18000, text: "Bob, can you fix the login bug before the release?" },
  {
    speaker: "Bob",
    startMs: 18100,
    endMs: 23000,
    text: "Yes. The budget for marketing is still open and we need to decide the pricing tiers."
  },
  {
    speaker: "Dan",
    startMs: 23100,
    endMs: 28000,
    text: "Pricing should stay simple with two tiers, and the enterprise tier needs single sign-on."
  },
  { speaker: "Alice", startMs: 28100, endMs: 33000, text: "We need to book the venue for the launch party next week." }
]

/** A workspace owned by `owner` with `members` added as members. */
export const workspaceWith = async (atrium: TestAtrium, owner: User, members: ReadonlyArray<User>) => {
  const ws = await atrium.request("POST", "/pm/v1/workspaces", { token: owner.token, body: { name: "Meetings" } })
  for (const member of members) {
    const added = await atrium.request("POST", `/pm/v1/workspaces/${ws.body.id}/members`, {
      token: owner.token,
      body: { email: member.email, role: "member" }
    })
    if (added.status >= 300) throw new Error(added.text)
  }
  return ws.body.id as string
}

export const apiKey = async (atrium: TestAtrium, user: User, workspaceId: string, scopes: ReadonlyArray<string>) => {
  const key = await atrium.request("POST", "/pm/v1/api-keys", { token: user.token, body: { workspaceId, name: "test", scopes } })
  if (key.status !== 201) throw new Error(key.text)
  return key.body.key as string
}

/** Polls the recording's progress until it is ready or failed. */
export const settled = async (atrium: TestAtrium, token: string, recordingId: number) => {
  for (let i = 0; i < 400; i++) {
    const progress = await atrium.request("GET", `/hub/v1/recordings/${recordingId}/progress`, { token })
    if (progress.body?.status === "ready" || progress.body?.status === "failed") return progress.body
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`recording ${recordingId} never settled`)
}

export const record = async (atrium: TestAtrium, token: string, workspaceId: string, extra: Record<string, unknown> = {}) => {
  const created = await atrium.request("POST", "/hub/v1/recordings", {
    token,
    body: { workspaceId, name: "Launch review", transcript: { format: "segments", segments }, ...extra }
  })
  if (created.status !== 202) throw new Error(created.text)
  return created.body as { id: number; callId: number; callUuid: string; status: string }
}

/** A tiny video (1 s test pattern with a tone), generated with ffmpeg at test time. */
export const tinyVideo = (): Uint8Array => {
  const dir = mkdtempSync(path.join(tmpdir(), "atrium-video-"))
  try {
    const file = path.join(dir, "tiny.mp4")
    execFileSync("ffmpeg", [
      "-v",
      "error",
      "-f",
      "lavfi",
      "-i",
      "testsrc=size=160x120:rate=10:duration=2",
      "-f",
      "lavfi",
      "-i",
      "sine=frequency=440:duration=2",
      "-c:v",
      "libx264",
      "-pix_fmt",
      "yuv420p",
      "-c:a",
      "aac",
      "-shortest",
      "-movflags",
      "+faststart",
      file
    ])
    return new Uint8Array(readFileSync(file))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

export interface FakeRequest {
  readonly method: string
  readonly url: string
  readonly headers: IncomingMessage["headers"]
  readonly body: any
}

/** A local HTTP server answering with `handler`; it records every request. */
export const fakeServer = async (handler: (request: FakeRequest, response: ServerResponse) => void) => {
  const requests: Array<FakeRequest> = []
  const server = createServer((req, res) => {
    let text = ""
    req.on("data", (chunk) => (text += chunk))
    req.on("end", () => {
      const request = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: text ? JSON.parse(text) : undefined }
      requests.push(request)
      handler(request, res)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

export const json = (response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  response.writeHead(status, { "content-type": "application/json", ...headers })
  response.end(JSON.stringify(body))
}
