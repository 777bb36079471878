/**
 * The vendor call tags, declared once for the three meeting vendors through
 * the workspace's connection of that kind (Integrations; token decrypted per
 * request, never shown): "Videomeet Call Resource", "Workchat Call Resource"
 * and "Suite Call Resource". The vendor's meetings (list, get, transcript),
 * importing one as a hub recording for a calendar occurrence, linking a
 * meeting to an occurrence, and a recording bot for a meeting's join URL.
 */
import { Effect, Schema } from "effect"
import { stopProviderBot } from "../../../actors/hub/meetings/BotProvider.ts"
import { isFinished, linkKey, MeetingBot, MeetingBots, MeetingLink } from "../../../actors/hub/meetings/MeetingBots.ts"
import { importMeeting } from "../../../actors/hub/meetings/MeetingImport.ts"
import {
  fetchTranscript,
  getMeeting,
  listMeetings,
  type MeetingVendor,
  type VendorMeeting,
  vendorName
} from "../../../actors/hub/meetings/MeetingVendors.ts"
import { parseTranscript, Segment } from "../../../actors/hub/Transcript.ts"
import { ActorSystem } from "../../../runtime/ActorSystem.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { principalOf, workspaceRole } from "../../Access.ts"
import { type AnyOperation, tagGroup } from "../../Operation.ts"
import { exampleIds } from "../calls/Examples.ts"
import {
  exampleAt,
  exampleBot,
  exampleOccurrenceId,
  FutureInstant,
  joinTimeOf,
  OccurrenceRef,
  occurrenceOf,
  scheduleBot,
  WorkspaceParams,
  withImportClaim
} from "./MeetingShared.ts"
import { connected, Imported, linksOf, MeetingParams, MeetingView } from "./VendorCallShapes.ts"

type Operation = "list" | "get" | "transcript" | "import" | "link" | "unlink" | "links" | "startBot" | "stopBot"

interface VendorSpec {
  readonly vendor: MeetingVendor
  readonly tag: string
  /** The operation-id stem: `list<Stem>Meetings`. */
  readonly stem: string
  readonly operations: ReadonlyArray<Operation>
  readonly example: { readonly meetingId: string; readonly title: string; readonly joinUrl: string }
}

export const vendorCallOperations = (spec: VendorSpec): ReadonlyArray<AnyOperation> => {
  const { vendor, tag, stem, example } = spec
  const { operation } = tagGroup("hub", tag)
  const base = `/v1/workspaces/{workspaceId}/${vendor}`
  const params = { workspaceId: exampleIds.workspaceId }
  const meetingParams = { ...params, meetingId: example.meetingId }
  const exampleMeeting = {
    id: example.meetingId,
    title: example.title,
    startAt: "2026-12-01T10:00:00.000Z",
    endAt: "2026-12-01T10:30:00.000Z",
    joinUrl: example.joinUrl,
    attendeeEmails: ["bob@example.com"]
  }
  const exampleLink = {
    vendor,
    meetingId: example.meetingId,
    title: example.title,
    occurrenceId: exampleOccurrenceId,
    recordingId: null,
    linkedBy: exampleIds.userId,
    updatedAt: exampleAt
  }
  const exampleVendorBot = { ...exampleBot, meetingUrl: example.joinUrl, meeting: { vendor, meetingId: example.meetingId } }
  const viewOf = (meeting: VendorMeeting, links: Record<string, MeetingLink>) => ({
    ...meeting,
    occurrenceId: links[linkKey(vendor, meeting.id)]?.occurrenceId ?? null,
    recordingId: links[linkKey(vendor, meeting.id)]?.recordingId ?? null
  })
  const activeBotOf = (workspaceId: string, meetingId: string) =>
    Effect.gen(function* () {
      const state = yield* (yield* ActorSystem).ask(MeetingBots, workspaceId, "view", {})
      const bot = Object.values(state.bots).find(
        (candidate) => candidate.meeting?.vendor === vendor && candidate.meeting.meetingId === meetingId && !isFinished(candidate.status)
      )
      return bot ?? (yield* reject("not_found", "No bot is on its way to this meeting"))
    })

  const all: Record<Operation, AnyOperation> = {
    list: operation({
      operationId: `list${stem}Meetings`,
      method: "GET",
      path: `${base}/meetings`,
      summary: `The ${vendor} meetings of the workspace's connection, newest first, with their calendar occurrence and recording`,
      auth: "both",
      scopes: ["recordings:read"],
      params: WorkspaceParams,
      responses: {
        200: { description: "Meetings", schema: Schema.Struct({ items: Schema.Array(MeetingView) }) },
        409: { description: "No connection of this kind" },
        502: { description: "The vendor failed" }
      },
      examples: [
        {
          name: "list",
          request: { params },
          response: { status: 200, body: { items: [{ ...exampleMeeting, occurrenceId: exampleOccurrenceId, recordingId: null }] } }
        }
      ],
      handler: ({ params }, context) =>
        Effect.gen(function* () {
          const { connection, token } = yield* connected(context, params.workspaceId, vendor, "viewer")
          const meetings = yield* listMeetings(connection, token)
          const links = yield* linksOf(params.workspaceId)
          return { items: meetings.map((meeting) => viewOf(meeting, links)) }
        })
    }),
    get: operation({
      operationId: `get${stem}Meeting`,
      method: "GET",
      path: `${base}/meetings/{meetingId}`,
      summary: `One ${vendor} meeting, with its calendar occurrence and recording`,
      auth: "both",
      scopes: ["recordings:read"],
      params: MeetingParams,
      responses: { 200: { description: "The meeting", schema: MeetingView }, 404: { description: "The vendor does not know it" } },
      examples: [
        {
          name: "get",
          request: { params: meetingParams },
          response: { status: 200, body: { ...exampleMeeting, occurrenceId: exampleOccurrenceId, recordingId: null } }
        }
      ],
      handler: ({ params }, context) =>
        Effect.gen(function* () {
          const { connection, token } = yield* connected(context, params.workspaceId, vendor, "viewer")
          return viewOf(yield* getMeeting(connection, token, params.meetingId), yield* linksOf(params.workspaceId))
        })
    }),
    transcript: operation({
      operationId: `get${stem}MeetingTranscript`,
      method: "GET",
      path: `${base}/meetings/{meetingId}/transcript`,
      summary: `The ${vendor} meeting's transcript as segments, before importing it`,
      auth: "both",
      scopes: ["recordings:read"],
      params: MeetingParams,
      responses: {
        200: {
          description: "Transcript",
          schema: Schema.Struct({ meetingId: Schema.String, segments: Schema.Array(Segment) })
        },
        409: { description: "No transcript yet" }
      },
      examples: [
        {
          name: "transcript",
          request: { params: meetingParams },
          response: {
            status: 200,
            body: { meetingId: example.meetingId, segments: [{ speaker: "Alice", startMs: 0, endMs: 4200, text: "Welcome everyone." }] }
          }
        }
      ],
      handler: ({ params }, context) =>
        Effect.gen(function* () {
          const { connection, token } = yield* connected(context, params.workspaceId, vendor, "viewer")
          const transcript = yield* fetchTranscript(connection, token, params.meetingId)
          const segments = yield* Effect.mapError(parseTranscript(transcript), (problem) =>
            reject("bad_gateway", `${vendorName(connection)} answered a broken transcript: ${problem.message}`)
          )
          return { meetingId: params.meetingId, segments }
        })
    }),
    import: operation({
      operationId: `import${stem}Recording`,
      method: "POST",
      path: `${base}/meetings/{meetingId}/import`,
      summary: `Import the ${vendor} meeting's transcript as a hub recording, for its calendar occurrence`,
      description:
        "The occurrence is `occurrenceId`, else the one the meeting is linked to: each participant's series and occurrence prompts then steer their version. The meeting's attendees who are members become participants. A meeting is imported once (409 after).",
      auth: "both",
      scopes: ["recordings:write"],
      params: MeetingParams,
      body: Schema.Struct({
        occurrenceId: Schema.optionalKey(OccurrenceRef),
        name: Schema.optionalKey(Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(300)))
      }),
      responses: {
        202: { description: "Imported; processing follows", schema: Imported },
        409: { description: "Already imported, no transcript yet, or no connection" },
        502: { description: "The vendor failed" }
      },
      examples: [
        {
          name: "import",
          request: { params: meetingParams, body: { occurrenceId: exampleOccurrenceId } },
          response: {
            status: 202,
            body: { recordingId: 1, callId: 1, callUuid: exampleIds.callUuid, status: "queued", link: { ...exampleLink, recordingId: 1 } }
          }
        }
      ],
      handler: ({ params, body }, context) =>
        Effect.gen(function* () {
          const { connection, token } = yield* connected(context, params.workspaceId, vendor, "member")
          const principal = yield* principalOf(context)
          const links = yield* linksOf(params.workspaceId)
          const current = links[linkKey(vendor, params.meetingId)]
          if (current?.recordingId != null) return yield* reject("conflict", `Already imported as recording ${current.recordingId}`)
          const ref = body.occurrenceId ?? current?.occurrenceId ?? null
          const occurrence = ref === null ? null : yield* occurrenceOf(context, ref)
          return yield* withImportClaim(
            params.workspaceId,
            linkKey(vendor, params.meetingId),
            Effect.gen(function* () {
              const meeting = yield* getMeeting(connection, token, params.meetingId)
              const transcript = yield* fetchTranscript(connection, token, params.meetingId)
              const created = yield* importMeeting({
                workspaceId: params.workspaceId,
                createdBy: principal.userId,
                name: body.name ?? meeting.title,
                transcript,
                attendeeEmails: [...meeting.attendeeEmails, ...(occurrence?.attendeeEmails ?? [])],
                occurrenceId: occurrence?.occurrenceId ?? null
              })
              const link = yield* (yield* ActorSystem).ask(MeetingBots, params.workspaceId, "recordImport", {
                vendor,
                meetingId: params.meetingId,
                title: meeting.title,
                occurrenceId: occurrence?.occurrenceId ?? null,
                recordingId: created.id,
                by: principal.userId
              })
              return { recordingId: created.id, callId: created.callId, callUuid: created.callUuid, status: created.status, link }
            })
          )
        })
    }),
    link: operation({
      operationId: `link${stem}Meeting`,
      method: "PUT",
      path: `${base}/meetings/{meetingId}/link`,
      summary: `Link the ${vendor} meeting to a calendar occurrence (its import and bot recordings then belong to it)`,
      auth: "both",
      scopes: ["recordings:write"],
      params: MeetingParams,
      body: Schema.Struct({ occurrenceId: OccurrenceRef }),
      responses: { 200: { description: "Linked", schema: MeetingLink }, 404: { description: "No such meeting or occurrence" } },
      examples: [
        {
          name: "link",
          request: { params: meetingParams, body: { occurrenceId: exampleOccurrenceId } },
          response: { status: 200, body: exampleLink }
        }
      ],
      handler: ({ params, body }, context) =>
        Effect.gen(function* () {
          const { connection, token } = yield* connected(context, params.workspaceId, vendor, "member")
          const occurrence = yield* occurrenceOf(context, body.occurrenceId)
          const meeting = yield* getMeeting(connection, token, params.meetingId)
          return yield* (yield* ActorSystem).ask(MeetingBots, params.workspaceId, "link", {
            vendor,
            meetingId: params.meetingId,
            title: meeting.title,
            occurrenceId: occurrence.occurrenceId,
            by: (yield* principalOf(context)).userId
          })
        })
    }),
    unlink: operation({
      operationId: `unlink${stem}Meeting`,
      method: "DELETE",
      path: `${base}/meetings/{meetingId}/link`,
      summary: `Unlink the ${vendor} meeting from its calendar occurrence`,
      auth: "both",
      scopes: ["recordings:write"],
      params: MeetingParams,
      responses: { 200: { description: "Unlinked", schema: MeetingLink }, 404: { description: "Not linked" } },
      examples: [
        { name: "unlink", request: { params: meetingParams }, response: { status: 200, body: { ...exampleLink, occurrenceId: null } } }
      ],
      handler: ({ params }, context) =>
        Effect.gen(function* () {
          yield* workspaceRole(context, params.workspaceId, "member")
          return yield* (yield* ActorSystem).ask(MeetingBots, params.workspaceId, "unlink", { vendor, meetingId: params.meetingId })
        })
    }),
    links: operation({
      operationId: `list${stem}MeetingLinks`,
      method: "GET",
      path: `${base}/links`,
      summary: `The ${vendor} meetings linked to calendar occurrences or imported, newest change first`,
      auth: "both",
      scopes: ["recordings:read"],
      params: WorkspaceParams,
      responses: { 200: { description: "Links", schema: Schema.Struct({ items: Schema.Array(MeetingLink) }) } },
      examples: [{ name: "links", request: { params }, response: { status: 200, body: { items: [exampleLink] } } }],
      handler: ({ params }, context) =>
        Effect.gen(function* () {
          yield* workspaceRole(context, params.workspaceId)
          const links = Object.values(yield* linksOf(params.workspaceId))
          return { items: links.filter((link) => link.vendor === vendor).sort((a, b) => b.updatedAt.localeCompare(a.updatedAt)) }
        })
    }),
    startBot: operation({
      operationId: `start${stem}Bot`,
      method: "POST",
      path: `${base}/meetings/{meetingId}/bot`,
      summary: `Send a recording bot to the ${vendor} meeting's join URL; its recording is imported for the linked occurrence`,
      auth: "both",
      scopes: ["recordings:write"],
      params: MeetingParams,
      body: Schema.Struct({ joinAt: Schema.optionalKey(FutureInstant) }),
      responses: {
        201: { description: "Scheduled", schema: MeetingBot },
        409: { description: "No join URL, no bot provider, or a bot is already on its way" },
        502: { description: "The vendor or the bot provider failed" }
      },
      examples: [{ name: "start", request: { params: meetingParams, body: {} }, response: { status: 201, body: exampleVendorBot } }],
      handler: ({ params, body }, context) =>
        Effect.gen(function* () {
          const { connection, token } = yield* connected(context, params.workspaceId, vendor, "member")
          const principal = yield* principalOf(context)
          const meeting = yield* getMeeting(connection, token, params.meetingId)
          if (meeting.joinUrl === null) return yield* reject("conflict", `${vendorName(connection)} gives no join URL for this meeting`)
          const occurrenceId = (yield* linksOf(params.workspaceId))[linkKey(vendor, meeting.id)]?.occurrenceId ?? null
          return yield* scheduleBot({
            workspaceId: params.workspaceId,
            userId: principal.userId,
            meetingUrl: meeting.joinUrl,
            title: meeting.title,
            occurrenceId,
            meeting: { vendor, meetingId: params.meetingId },
            attendeeEmails: meeting.attendeeEmails,
            joinAt: joinTimeOf(body.joinAt, meeting.startAt),
            botName: "Atrium Notetaker"
          })
        })
    }),
    stopBot: operation({
      operationId: `stop${stem}Bot`,
      method: "DELETE",
      path: `${base}/meetings/{meetingId}/bot`,
      summary: `Call off the bot on its way to (or in) the ${vendor} meeting`,
      auth: "both",
      scopes: ["recordings:write"],
      params: MeetingParams,
      responses: { 200: { description: "Cancelled", schema: MeetingBot }, 404: { description: "No bot on its way" } },
      examples: [
        { name: "stop", request: { params: meetingParams }, response: { status: 200, body: { ...exampleVendorBot, status: "cancelled" } } }
      ],
      handler: ({ params }, context) =>
        Effect.gen(function* () {
          yield* workspaceRole(context, params.workspaceId, "member")
          const bot = yield* activeBotOf(params.workspaceId, params.meetingId)
          yield* stopProviderBot(bot.providerBotId, bot.status !== "scheduled")
          return yield* (yield* ActorSystem).ask(MeetingBots, params.workspaceId, "cancelBot", { botId: bot.id })
        })
    })
  }
  return spec.operations.map((name) => all[name])
}
