/**
 * hub tags "Transcription Resource" (1) and "Live Transcription Resource" (1):
 * replace a recording's transcript with an imported one (JSON segments, WebVTT,
 * SRT), or append segments live to a call in progress. Either way every
 * version is regenerated; a transcript that does not parse changes nothing.
 */
import { Effect, Schema } from "effect"
import { HubCall } from "../../actors/hub/CallActor.ts"
import { transcribeLive } from "../../actors/hub/speech/LiveAudio.ts"
import { parseTranscript, Segment, TranscriptInput } from "../../actors/hub/Transcript.ts"
import { reject } from "../../runtime/Rejection.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { tagGroup } from "../Operation.ts"
import { CallParams, onCall, onRecording, RecordingParams } from "./calls/CallAccess.ts"

import { Progress, progressOf } from "./calls/RecordingDto.ts"
import { transcriptionResourceExamples, liveTranscriptionResourceExamples } from "./Transcription.examples.ts"

const LiveAudioInput = Schema.Struct({
  data: Schema.String.check(Schema.isMinLength(4), Schema.isPattern(/^[A-Za-z0-9+/]+={0,2}$/)).annotate({
    description: "The audio piece, base64 (WAV, WebM/Opus, MP3, …)"
  }),
  startMs: Schema.Number.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(0)).annotate({
    description: "Where the piece starts in the call"
  }),
  speaker: Schema.optionalKey(Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200))).annotate({
    description: "Who speaks in it (one participant's track); else the engine's speaker labels"
  })
}).annotate({ identifier: "LiveAudio" })

const transcriptionResourceTag = tagGroup("hub", "Transcription Resource", transcriptionResourceExamples)
const liveTranscriptionResourceTag = tagGroup("hub", "Live Transcription Resource", liveTranscriptionResourceExamples)

export const transcriptionOperations = [
  transcriptionResourceTag.operation({
    operationId: "replaceRecordingTranscript",
    method: "PUT",
    path: "/v1/recordings/{recordingId}/transcript",
    summary: "Replace the recording's transcript with an imported one (JSON segments, WebVTT or SRT); every version is regenerated",
    auth: "both",
    scopes: ["recordings:write"],
    params: RecordingParams,
    body: Schema.Struct({ transcript: TranscriptInput }),
    responses: {
      202: { description: "Stored and queued", schema: Progress },
      400: { description: "Broken transcript (the message names the cue and the problem)" },
      409: { description: "Being processed" },
      413: { description: "Too large" }
    },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        yield* onRecording(context, params.recordingId, "member")
        const segments = yield* parseTranscript(body.transcript)
        return progressOf(
          yield* (yield* ActorSystem).ask(HubCall, String(params.recordingId), "writeSegments", { segments, append: false })
        )
      })
  }),
  liveTranscriptionResourceTag.operation({
    operationId: "appendLiveTranscript",
    method: "POST",
    path: "/v1/calls/{callId}/live-transcript",
    summary:
      "Append live transcript segments, or a piece of audio to transcribe, to a call in progress (after its last segment); its versions follow",
    description:
      "Send `segments` (text already transcribed) or `audio` (base64 of a short audio piece in any format ffmpeg reads, placed at `startMs` of the call): audio goes through the configured speech engine (STT_BASE_URL) at once; without one the answer is 409.",
    auth: "both",
    scopes: ["recordings:write"],
    params: CallParams,
    body: Schema.Struct({
      segments: Schema.optionalKey(Schema.Array(Segment).check(Schema.isMinLength(1), Schema.isMaxLength(500))),
      audio: Schema.optionalKey(LiveAudioInput)
    }),
    responses: {
      202: { description: "Appended; versions are regenerated", schema: Progress },
      400: {
        description:
          "Neither or both of segments and audio; segments overlap, go back in time or have negative timestamps; audio not readable"
      },
      409: { description: "Audio sent but no transcription engine is configured" },
      502: { description: "The transcription engine failed or refused the audio" }
    },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const access = yield* onCall(context, params.callId, "member")
        const { segments: given, audio } = body
        if ((given === undefined) === (audio === undefined))
          return yield* reject("invalid", "Send either segments or audio", [
            { path: "body", message: "expected exactly one of segments, audio" }
          ])
        const segments =
          given ??
          (audio === undefined
            ? []
            : yield* transcribeLive({ bytes: Buffer.from(audio.data, "base64"), startMs: audio.startMs, speaker: audio.speaker ?? null }))
        if (segments.length === 0) return progressOf(yield* (yield* ActorSystem).ask(HubCall, String(access.recordingId), "recording", {}))
        return progressOf(yield* (yield* ActorSystem).ask(HubCall, String(access.recordingId), "writeSegments", { segments, append: true }))
      })
  })
]
