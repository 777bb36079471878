/** Request and response examples of the operations in Transcription.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { exampleIds, exampleSegments } from "./calls/Examples.ts"

const queued = { id: exampleIds.recordingId, status: "queued", percent: 0, error: null, stage: null, chunks: null }

export const transcriptionResourceExamples = examplesById({
  replaceRecordingTranscript: [
    {
      name: "srt",
      request: {
        params: { recordingId: String(exampleIds.recordingId) },
        body: { transcript: { format: "srt", text: "1\n00:00:00,000 --> 00:00:02,500\nAlice: We need to book the venue by Friday.\n" } }
      },
      response: { status: 202, body: queued }
    }
  ]
})
export const liveTranscriptionResourceExamples = examplesById({
  appendLiveTranscript: [
    {
      name: "append",
      request: {
        params: { callId: String(exampleIds.callId) },
        body: { segments: [{ ...exampleSegments[0], startMs: 20_000, endMs: 24_000 }] }
      },
      response: { status: 202, body: queued }
    },
    {
      name: "audio",
      request: {
        params: { callId: String(exampleIds.callId) },
        body: { audio: { data: "UklGRiQAAABXQVZFZm10IBAAAAABAAEAgD4AAAB9AAACABAAZGF0YQAAAAA=", startMs: 24_000, speaker: "Alice" } }
      },
      response: { status: 202, body: queued }
    }
  ]
})
