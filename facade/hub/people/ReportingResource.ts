/** hub tag "Reporting Resource" (1): meeting analytics of a workspace over a period. */
import { Effect, Schema } from "effect"
import { Instant } from "../../../actors/hub/calendar/CalendarEvent.ts"
import { callDirectory } from "../../../actors/hub/people/CallDirectory.ts"
import { MeetingReport, meetingReport } from "../../../actors/hub/people/MeetingReport.ts"
import { WorkspaceTags } from "../../../actors/hub/people/WorkspaceTags.ts"
import { ActorSystem } from "../../../runtime/ActorSystem.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { workspaceRole } from "../../Access.ts"
import { operation } from "../../Operation.ts"
import { WorkspaceParams } from "../../shared/WorkspaceAccess.ts"

const DAY_MS = 86_400_000
const MAX_DAYS = 366

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

export const reportingResourceOperations = [
  operation({
    service: "hub",
    tag: "Reporting Resource",
    operationId: "getMeetingReport",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/reports/meetings",
    summary: "Meeting analytics of the workspace: meetings, duration, talk time per speaker, participants, by week and by tag",
    description:
      "`from` defaults to 30 days before `to`, `to` to now; a period spans at most 366 days. Talk time comes from the transcripts' speaker turns.",
    auth: "both",
    scopes: ["recordings:read"],
    params: WorkspaceParams,
    query: Schema.Struct({ from: Schema.optionalKey(Instant), to: Schema.optionalKey(Instant) }),
    responses: { 200: { description: "The report", schema: MeetingReport } },
    examples: [
      {
        name: "november",
        request: { params: { workspaceId: exampleReport.workspaceId }, query: { from: exampleReport.from, to: exampleReport.to } },
        response: { status: 200, body: exampleReport }
      }
    ],
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        yield* workspaceRole(context, params.workspaceId)
        const to = query.to === undefined ? Date.now() : Date.parse(query.to)
        const from = query.from === undefined ? to - 30 * DAY_MS : Date.parse(query.from)
        if (Number.isNaN(from) || Number.isNaN(to) || to <= from)
          return yield* reject("invalid", "The period must run forward", [{ path: "query.to", message: "must be after from" }])
        if (to - from > MAX_DAYS * DAY_MS)
          return yield* reject("invalid", `A period spans at most ${MAX_DAYS} days`, [
            { path: "query.to", message: `more than ${MAX_DAYS} days after from` }
          ])
        const calls = yield* callDirectory().callsIn(params.workspaceId, from, to)
        const { tags, callTags } = yield* (yield* ActorSystem).ask(WorkspaceTags, params.workspaceId, "view", {})
        return meetingReport(params.workspaceId, from, to, calls, (callId) =>
          (callTags[String(callId)] ?? []).flatMap((id) => (tags[id] ? [tags[id]!] : []))
        )
      })
  })
]
