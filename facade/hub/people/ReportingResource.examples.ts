/** Request and response examples of the operations in ReportingResource.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"

const exampleReport = {
  workspaceId: "0b9e4c1a-6f0e-4d5f-9a77-3f7c2f1e8a10",
  from: "2026-11-01T00:00:00.000Z",
  to: "2026-12-01T00:00:00.000Z",
  meetings: 2,
  processedMeetings: 2,
  failedMeetings: 0,
  totalDurationMs: 5_400_000,
  averageDurationMs: 2_700_000,
  totalTalkMs: 5_000_000,
  uniqueParticipants: 2,
  byWeek: [{ weekStart: "2026-11-16", meetings: 2, durationMs: 5_400_000 }],
  speakers: [
    { name: "Alice", userId: "6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f", talkMs: 3_000_000, talkShare: 0.6, meetings: 2 },
    { name: "Bob", userId: "7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d", talkMs: 2_000_000, talkShare: 0.4, meetings: 2 }
  ],
  participants: [
    { userId: "6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f", meetings: 2, durationMs: 5_400_000 },
    { userId: "7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d", meetings: 2, durationMs: 5_400_000 }
  ],
  tags: [{ tagId: "2b3c4d5e-6f70-4a1b-8c2d-3e4f5a6b7c8d", name: "Customer call", meetings: 1 }]
}

export const reportingResourceExamples = examplesById({
  getMeetingReport: [
    {
      name: "november",
      request: { params: { workspaceId: exampleReport.workspaceId }, query: { from: exampleReport.from, to: exampleReport.to } },
      response: { status: 200, body: exampleReport }
    }
  ]
})
