/** hub tag "Reporting Resource" (1): meeting analytics of a workspace over a period. */
import { Effect, Schema } from "effect"
import { Instant } from "../../../actors/hub/calendar/CalendarEvent.ts"
import { callDirectory } from "../../../actors/hub/people/CallDirectory.ts"
import { MeetingReport, meetingReport } from "../../../actors/hub/people/MeetingReport.ts"
import { WorkspaceTags } from "../../../actors/hub/people/WorkspaceTags.ts"
import { ActorSystem } from "../../../runtime/ActorSystem.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { workspaceRole } from "../../Access.ts"
import { tagGroup } from "../../Operation.ts"
import { WorkspaceParams } from "../../shared/WorkspaceAccess.ts"
import { reportingResourceExamples } from "./ReportingResource.examples.ts"

const DAY_MS = 86_400_000
const MAX_DAYS = 366

const { operation } = tagGroup("hub", "Reporting Resource", reportingResourceExamples)

export const reportingResourceOperations = [
  operation({
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
