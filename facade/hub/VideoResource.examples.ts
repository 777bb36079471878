/** Request and response examples of the operations in VideoResource.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { exampleIds } from "./calls/Examples.ts"

const params = { recordingId: String(exampleIds.recordingId) }

const clipParams = { ...params, clipId: exampleIds.clipId }

const exampleClip = {
  id: exampleIds.clipId,
  recordingId: exampleIds.recordingId,
  title: "Login bug decision",
  startMs: 4300,
  endMs: 19000,
  transcript: "Bob: The beta feedback was positive but login errors are still the top complaint.",
  createdBy: exampleIds.userId,
  createdAt: "2026-11-21T12:20:00.000Z"
}

export const videoResourceExamples = examplesById({
  downloadRecordingMedia: [
    {
      name: "audio",
      request: { params: { ...params, asset: "audio" }, query: { expires: "1795000000", signature: "3q2-7w" } },
      response: { status: 200 }
    }
  ],
  getRecordingMediaInfo: [
    {
      name: "media",
      request: { params },
      response: {
        status: 200,
        body: {
          contentType: "video/mp4",
          size: 48213,
          durationMs: 2000,
          hasAudio: true,
          hasVideo: true,
          width: 320,
          height: 240,
          frameCount: 4
        }
      }
    }
  ],
  listRecordingFrames: [
    {
      name: "frames",
      request: { params },
      response: {
        status: 200,
        body: {
          items: [
            {
              index: 0,
              atMs: 0,
              url: "http://localhost:8080/hub/v1/media/1/frame-0?expires=1795000000&signature=3q2-7w",
              expiresAt: "2026-11-21T12:10:00.000Z"
            }
          ]
        }
      }
    }
  ],
  createRecordingClip: [
    {
      name: "clip",
      request: { params, body: { title: "Login bug decision", startMs: 4300, endMs: 19000 } },
      response: { status: 201, body: exampleClip }
    }
  ],
  listRecordingClips: [{ name: "list", request: { params }, response: { status: 200, body: { items: [exampleClip] } } }],
  getRecordingClipUrl: [
    {
      name: "url",
      request: { params: clipParams },
      response: {
        status: 200,
        body: {
          url: `http://localhost:8080/hub/v1/media/1/clip-${exampleIds.clipId}?expires=1795000000&signature=3q2-7w`,
          expiresAt: "2026-11-21T12:10:00.000Z"
        }
      }
    }
  ],
  deleteRecordingClip: [{ name: "delete", request: { params: clipParams }, response: { status: 204 } }]
})
