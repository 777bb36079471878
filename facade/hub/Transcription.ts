/**
 * hub tags "Transcription Resource" (1) and "Live Transcription Resource" (1):
 * replace a recording's transcript with an imported one (JSON segments, WebVTT,
 * SRT), or append segments live to a call in progress. Either way every
 * version is regenerated; a transcript that does not parse changes nothing.
 */
import { Effect, Schema } from "effect"
import { HubCall } from "../../actors/hub/CallActor.ts"
import { parseTranscript, Segment, TranscriptInput } from "../../actors/hub/Transcript.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { tagGroup } from "../Operation.ts"
import { CallParams, onCall, onRecording, RecordingParams } from "./calls/CallAccess.ts"

import { Progress, progressOf } from "./calls/RecordingDto.ts"
import { transcriptionResourceExamples, liveTranscriptionResourceExamples } from "./Transcription.examples.ts"

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
    summary: "Append live transcript segments to a call in progress (after its last segment); its versions follow",
    auth: "both",
    scopes: ["recordings:write"],
    params: CallParams,
    body: Schema.Struct({ segments: Schema.Array(Segment).check(Schema.isMinLength(1), Schema.isMaxLength(500)) }),
    responses: {
      202: { description: "Appended; versions are regenerated", schema: Progress },
      400: { description: "Segments overlap, go back in time or have negative timestamps" }
    },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const access = yield* onCall(context, params.callId, "member")
        return progressOf(
          yield* (yield* ActorSystem).ask(HubCall, String(access.recordingId), "writeSegments", { segments: body.segments, append: true })
        )
      })
  })
]
