/**
 * Media: a tiny video generated with ffmpeg at test time is uploaded, its
 * audio and preview frames are extracted, and every download goes through a
 * signed URL (tampered or expired → 403). Clips are cut from the video.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { signedUrl } from "../../actors/hub/SignedUrls.ts"
import { signUp, startAtrium, type TestServer } from "../support/atrium.ts"
import { record, settled, tinyVideo, type User, workspaceWith } from "./support/calls.ts"

let atrium: TestServer
let alice: User
let workspaceId: string
let recording: { id: number; callId: number; callUuid: string }

const download = (url: string) => fetch(url)

beforeAll(async () => {
  atrium = await startAtrium()
  alice = await signUp(atrium, "Alice")
  workspaceId = await workspaceWith(atrium, alice, [])
  // The media file follows the transcript at once, while the recording is still queued or processing.
  recording = await record(atrium, alice.token, workspaceId)
  const upload = await atrium.request("PUT", `/hub/v1/recordings/${recording.id}/media`, {
    token: alice.token,
    rawBody: tinyVideo(),
    headers: { "content-type": "video/mp4" }
  })
  expect(upload.status).toBe(202)
  expect((await settled(atrium, alice.token, recording.id)).status).toBe("ready")
})
afterAll(() => atrium?.close())

describe("recording media", () => {
  it("extracts audio and frames with ffmpeg and describes the media", async () => {
    const media = await atrium.request("GET", `/hub/v1/recordings/${recording.id}/media`, { token: alice.token })
    expect(media.body).toMatchObject({ contentType: "video/mp4", hasAudio: true, hasVideo: true, width: 160, height: 120 })
    expect(media.body.durationMs).toBeGreaterThan(1500)
    expect(media.body.frameCount).toBeGreaterThan(0)
  })

  it("serves audio, video and frames through signed URLs", async () => {
    const audio = await atrium.request("GET", `/hub/v1/recordings/${recording.id}/audio-url`, { token: alice.token })
    expect(audio.status).toBe(200)
    expect(Date.parse(audio.body.expiresAt)).toBeGreaterThan(Date.now())
    const audioFile = await download(audio.body.url)
    expect(audioFile.status).toBe(200)
    expect(audioFile.headers.get("content-type")).toBe("audio/mpeg")
    expect((await audioFile.arrayBuffer()).byteLength).toBeGreaterThan(1000)

    const video = await atrium.request("GET", `/hub/v1/recordings/${recording.id}/video-url`, { token: alice.token })
    const videoFile = await download(video.body.url)
    expect(videoFile.headers.get("content-type")).toBe("video/mp4")

    const frames = await atrium.request("GET", `/hub/v1/recordings/${recording.id}/frames`, { token: alice.token })
    expect(frames.body.items.length).toBeGreaterThan(0)
    const frame = await download(frames.body.items[0].url)
    expect(frame.headers.get("content-type")).toBe("image/jpeg")
    const bytes = new Uint8Array(await frame.arrayBuffer())
    expect([bytes[0], bytes[1]]).toEqual([0xff, 0xd8])
  })

  it("refuses tampered and expired links with 403", async () => {
    const { url } = (await atrium.request("GET", `/hub/v1/recordings/${recording.id}/audio-url`, { token: alice.token })).body
    const tampered = [
      url.replace(/signature=([^&]+)/, (_: string, s: string) => `signature=${s.startsWith("A") ? "B" : "A"}${s.slice(1)}`),
      url.replace(/expires=(\d+)/, (_: string, e: string) => `expires=${Number(e) + 3600}`),
      url.replace("/audio?", "/video?"),
      url.replace(`/media/${recording.id}/`, `/media/${recording.id + 1}/`)
    ]
    for (const link of tampered) expect((await download(link)).status, link).toBe(403)
    const expired = (await atrium.run(signedUrl(atrium.origin, recording.id, "audio", -5))) as { url: string }
    const reply = await download(expired.url)
    expect(reply.status).toBe(403)
    expect(((await reply.json()) as { error: { message: string } }).error.message).toContain("expired")
  })

  it("cuts clips from the video and keeps what was said in them", async () => {
    const clip = await atrium.request("POST", `/hub/v1/recordings/${recording.id}/clips`, {
      token: alice.token,
      body: { title: "Launch plan", startMs: 0, endMs: 1000 }
    })
    expect(clip.status).toBe(201)
    expect(clip.body.transcript).toContain("launch plan")
    const listed = await atrium.request("GET", `/hub/v1/recordings/${recording.id}/clips`, { token: alice.token })
    expect(listed.body.items.map((c: any) => c.id)).toEqual([clip.body.id])
    const url = await atrium.request("GET", `/hub/v1/recordings/${recording.id}/clips/${clip.body.id}/url`, { token: alice.token })
    const file = await download(url.body.url)
    expect(file.status).toBe(200)
    expect(file.headers.get("content-type")).toBe("video/mp4")
    const backwards = await atrium.request("POST", `/hub/v1/recordings/${recording.id}/clips`, {
      token: alice.token,
      body: { title: "Backwards", startMs: 900, endMs: 100 }
    })
    expect(backwards.status).toBe(400)
    expect(backwards.body.error.details[0].path).toBe("body.endMs")
    expect(
      (await atrium.request("DELETE", `/hub/v1/recordings/${recording.id}/clips/${clip.body.id}`, { token: alice.token })).status
    ).toBe(204)
    expect((await download(url.body.url)).status).toBe(404)
  })

  it("refuses media whose bytes are not of the declared type", async () => {
    const fake = await atrium.request("PUT", `/hub/v1/recordings/${recording.id}/media`, {
      token: alice.token,
      rawBody: new TextEncoder().encode("this is not a video at all, just text"),
      headers: { "content-type": "video/mp4" }
    })
    expect(fake.status).toBe(415)
    const wrongType = await atrium.request("PUT", `/hub/v1/recordings/${recording.id}/media`, {
      token: alice.token,
      rawBody: new TextEncoder().encode("hello"),
      headers: { "content-type": "text/plain" }
    })
    expect(wrongType.status).toBe(415)
  })

  it("deletes a recording with its media", async () => {
    const { url } = (await atrium.request("GET", `/hub/v1/recordings/${recording.id}/audio-url`, { token: alice.token })).body
    expect((await atrium.request("DELETE", `/hub/v1/recordings/${recording.id}`, { token: alice.token })).status).toBe(204)
    expect((await atrium.request("GET", `/hub/v1/calls/${recording.callId}`, { token: alice.token })).status).toBe(404)
    expect((await download(url)).status).toBe(404)
  })
})
