/** Request and response examples of the operations in Recordings.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { exampleIds, exampleSegments } from "./calls/Examples.ts"
import { exampleRecording } from "./calls/RecordingDto.ts"

export const params = { recordingId: String(exampleIds.recordingId) }

const exampleSigned = {
  url: "http://localhost:8080/hub/v1/media/1/audio?expires=1795000000&signature=3q2-7w",
  expiresAt: "2026-11-21T12:10:00.000Z"
}

const exampleProgress = { id: 1, status: "processing", percent: 58, error: null, stage: "transcribing", chunks: { done: 3, total: 7 } }

export const recordingsExamples = examplesById({
  createRecording: [
    {
      name: "segments",
      request: {
        body: {
          workspaceId: exampleIds.workspaceId,
          name: "Launch review",
          transcript: { format: "segments", segments: exampleSegments },
          attendeeEmails: ["bob@example.com"]
        }
      },
      response: { status: 202, body: { id: 1, callId: 1, callUuid: exampleIds.callUuid, status: "queued" } }
    },
    {
      name: "webvtt",
      request: {
        body: {
          workspaceId: exampleIds.workspaceId,
          name: "Standup",
          transcript: { format: "vtt", text: "WEBVTT\n\n00:00:00.000 --> 00:00:03.000\n<v Alice>I'll update the roadmap by Monday.\n" }
        }
      },
      response: { status: 202, body: { id: 2, callId: 2, callUuid: "6e1d7b2f-3c4a-4d5e-9f0a-b1c2d3e4f5a6", status: "queued" } }
    }
  ],
  listRecordings: [
    {
      name: "list",
      request: { query: { workspaceId: exampleIds.workspaceId } },
      response: { status: 200, body: { items: [exampleRecording], nextBefore: null } }
    }
  ],
  getRecording: [{ name: "get", request: { params }, response: { status: 200, body: exampleRecording } }],
  getRecordingProgress: [{ name: "progress", request: { params }, response: { status: 200, body: exampleProgress } }],
  getRecordingAudioUrl: [{ name: "audio", request: { params }, response: { status: 200, body: exampleSigned } }],
  getRecordingVideoUrl: [
    {
      name: "video",
      request: { params },
      response: { status: 200, body: { ...exampleSigned, url: exampleSigned.url.replace("audio", "video") } }
    }
  ],
  uploadRecordingMedia: [
    {
      name: "upload",
      request: { params },
      response: { status: 202, body: { id: 1, status: "queued", percent: 0, error: null, stage: null, chunks: null } }
    }
  ],
  deleteRecording: [{ name: "delete", request: { params }, response: { status: 204 } }]
})
