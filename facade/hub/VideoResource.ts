/**
 * hub tag "Video Resource" (7): a recording's media: what it is (duration,
 * size, streams), its preview frames as signed URLs, clips (highlights with
 * the transcript said in them, cut from the video on download), and the
 * download route every signed URL points at (no credentials: the signature
 * and its expiry are the credential; tampered or expired → 403).
 */
import { Effect, Schema } from "effect"
import { readFile } from "../../actors/Files.ts"
import { HubCall } from "../../actors/hub/CallActor.ts"
import { addClip, Clip, clipOf, clipsOf, removeClip, withTranscript } from "../../actors/hub/Clips.ts"
import { cut } from "../../actors/hub/Media.ts"
import { extensionOf, originalKey } from "../../actors/hub/Processing.ts"
import { signedUrl, verifySigned } from "../../actors/hub/SignedUrls.ts"
import { Id, Name, Timestamp } from "../../actors/Fields.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { reject } from "../../runtime/Rejection.ts"
import { raw, tagGroup } from "../Operation.ts"
import { onRecording, RecordingParams } from "./calls/CallAccess.ts"

import { mediaSummary, MediaSummary } from "./calls/RecordingDto.ts"
import { videoResourceExamples } from "./VideoResource.examples.ts"
const read = ["recordings:read"]
const write = ["recordings:write"]
const ClipParams = Schema.Struct({ recordingId: RecordingParams.fields.recordingId, clipId: Id })
const SignedUrl = Schema.Struct({ url: Schema.String, expiresAt: Timestamp }).annotate({ identifier: "SignedUrl" })
const Frame = Schema.Struct({ index: Schema.Number, atMs: Schema.Number, url: Schema.String, expiresAt: Timestamp }).annotate({
  identifier: "PreviewFrame"
})

const recordingOf = (recordingId: number) =>
  Effect.flatMap(ActorSystem, (actors) => actors.ask(HubCall, String(recordingId), "recording", {}))

/** The bytes behind a signed asset name: audio, video, frame-N, clip-<id>. */
const assetBytes = (recordingId: number, asset: string) =>
  Effect.gen(function* () {
    const recording = yield* recordingOf(recordingId)
    const media = recording.media
    const blob = (key: string | null | undefined) =>
      key
        ? Effect.flatMap(readFile(key), (found) => (found ? Effect.succeed(found) : Effect.fail(reject("not_found", "The file is gone"))))
        : Effect.fail(reject("not_found", "No such file"))
    if (asset === "audio") return yield* blob(media?.audioKey)
    if (asset === "video") return yield* blob(media?.hasVideo ? originalKey(recordingId) : null)
    const frame = /^frame-(\d+)$/.exec(asset)
    if (frame) return yield* blob(media?.frames[Number(frame[1])]?.key)
    const clip = /^clip-([0-9a-f-]{36})$/.exec(asset)
    if (clip && media !== null) {
      const found = yield* clipOf(recordingId, clip[1]!)
      const original = yield* blob(originalKey(recordingId))
      const bytes = yield* cut(original.bytes, extensionOf(media.contentType), found.startMs, found.endMs).pipe(
        Effect.mapError((error) => reject("conflict", `The clip could not be cut: ${error.message}`))
      )
      return { info: { ...original.info, size: bytes.length }, bytes }
    }
    return yield* reject("not_found", "No such file")
  })

const { operation } = tagGroup("hub", "Video Resource", videoResourceExamples)

export const videoResourceOperations = [
  operation({
    operationId: "downloadRecordingMedia",
    method: "GET",
    path: "/v1/media/{recordingId}/{asset}",
    summary: "Download a recording's audio, video, preview frame or clip through a signed URL (no credentials)",
    description:
      "Only reachable through the URLs the signed-URL operations give: `expires` and `signature` are checked; tampered or expired → 403.",
    auth: "public",
    scopes: [],
    params: Schema.Struct({
      recordingId: RecordingParams.fields.recordingId,
      asset: Schema.String.check(Schema.isPattern(/^(?:audio|video|frame-\d{1,3}|clip-[0-9a-f-]{36})$/))
    }),
    query: Schema.Struct({
      expires: Schema.FiniteFromString.check(Schema.isInt()),
      signature: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(100))
    }),
    responses: {
      200: { description: "The file", contentType: ["audio/mpeg", "image/jpeg", "video/*", "audio/*"] },
      403: { description: "Tampered or expired link" }
    },
    handler: ({ params, query }) =>
      Effect.gen(function* () {
        yield* verifySigned(params.recordingId, params.asset, query.expires, query.signature)
        const file = yield* assetBytes(params.recordingId, params.asset)
        return raw(file.info.contentType, file.bytes, { "cache-control": "private, max-age=300" })
      })
  }),
  operation({
    operationId: "getRecordingMediaInfo",
    method: "GET",
    path: "/v1/recordings/{recordingId}/media",
    summary: "The recording's media file: type, size, duration, audio/video streams, frame count",
    auth: "both",
    scopes: read,
    params: RecordingParams,
    responses: { 200: { description: "Media", schema: MediaSummary }, 404: { description: "No media uploaded" } },
    handler: ({ params }, context) =>
      Effect.flatMap(onRecording(context, params.recordingId), (access) => {
        const media = mediaSummary(access.recording)
        return media ? Effect.succeed(media) : Effect.fail(reject("not_found", "This recording has no media file"))
      })
  }),
  operation({
    operationId: "listRecordingFrames",
    method: "GET",
    path: "/v1/recordings/{recordingId}/frames",
    summary: "The recording's preview frames, each with a short-lived signed URL",
    auth: "both",
    scopes: read,
    params: RecordingParams,
    responses: {
      200: { description: "Frames in time order (empty without video)", schema: Schema.Struct({ items: Schema.Array(Frame) }) }
    },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const access = yield* onRecording(context, params.recordingId)
        const frames = access.recording.media?.frames ?? []
        const items = yield* Effect.forEach(frames, (frame, index) =>
          Effect.map(signedUrl(context.origin, params.recordingId, `frame-${index}`), (signed) => ({ index, atMs: frame.atMs, ...signed }))
        )
        return { items }
      })
  }),
  operation({
    operationId: "createRecordingClip",
    method: "POST",
    path: "/v1/recordings/{recordingId}/clips",
    summary: "Mark a clip (highlight) of the recording: a titled time range",
    auth: "both",
    scopes: write,
    params: RecordingParams,
    body: Schema.Struct({
      title: Name(200),
      startMs: Schema.Number.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(0)),
      endMs: Schema.Number.check(Schema.isInt(), Schema.isGreaterThan(0))
    }),
    responses: { 201: { description: "The clip", schema: Clip }, 400: { description: "End before start, or beyond the recording" } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const access = yield* onRecording(context, params.recordingId, "member")
        if (body.endMs <= body.startMs)
          return yield* reject("invalid", "A clip ends after it starts", [{ path: "body.endMs", message: "must be after startMs" }])
        const segments = yield* (yield* ActorSystem).ask(HubCall, String(params.recordingId), "transcript", {})
        const length = Math.max(access.recording.media?.durationMs ?? 0, segments.at(-1)?.endMs ?? 0)
        if (body.startMs >= length)
          return yield* reject("invalid", `The clip starts after the recording ends (${length} ms)`, [
            { path: "body.startMs", message: "beyond the recording" }
          ])
        const row = yield* addClip(params.recordingId, access.userId, {
          title: body.title.trim(),
          startMs: body.startMs,
          endMs: Math.min(body.endMs, length)
        })
        return withTranscript(row, segments)
      })
  }),
  operation({
    operationId: "listRecordingClips",
    method: "GET",
    path: "/v1/recordings/{recordingId}/clips",
    summary: "The recording's clips in time order, with what was said in each",
    auth: "both",
    scopes: read,
    params: RecordingParams,
    responses: { 200: { description: "Clips", schema: Schema.Struct({ items: Schema.Array(Clip) }) } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* onRecording(context, params.recordingId)
        const segments = yield* (yield* ActorSystem).ask(HubCall, String(params.recordingId), "transcript", {})
        return { items: (yield* clipsOf(params.recordingId)).map((row) => withTranscript(row, segments)) }
      })
  }),
  operation({
    operationId: "getRecordingClipUrl",
    method: "GET",
    path: "/v1/recordings/{recordingId}/clips/{clipId}/url",
    summary: "A short-lived signed URL to download the clip, cut from the recording's media",
    auth: "both",
    scopes: read,
    params: ClipParams,
    responses: { 200: { description: "Signed URL", schema: SignedUrl }, 404: { description: "No such clip, or no media to cut it from" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const access = yield* onRecording(context, params.recordingId)
        yield* clipOf(params.recordingId, params.clipId)
        if (access.recording.media === null) return yield* reject("not_found", "The recording has no media to cut the clip from")
        return yield* signedUrl(context.origin, params.recordingId, `clip-${params.clipId}`)
      })
  }),
  operation({
    operationId: "deleteRecordingClip",
    method: "DELETE",
    path: "/v1/recordings/{recordingId}/clips/{clipId}",
    summary: "Delete a clip",
    auth: "both",
    scopes: write,
    params: ClipParams,
    responses: { 204: { description: "Deleted" } },
    handler: ({ params }, context) =>
      Effect.andThen(onRecording(context, params.recordingId, "member"), removeClip(params.recordingId, params.clipId))
  })
]
