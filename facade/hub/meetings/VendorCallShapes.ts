/** The vendor call operations' shapes and lookups: path parameters, replies, the caller's connection of a vendor, the workspace's meeting links. */
import { Effect, Schema } from "effect"
import { activeOf, tokenOf } from "../../../actors/hub/connections/Connections.ts"
import { MeetingBots, MeetingLink } from "../../../actors/hub/meetings/MeetingBots.ts"
import { type MeetingVendor, VendorMeeting } from "../../../actors/hub/meetings/MeetingVendors.ts"
import { Id } from "../../../actors/Fields.ts"
import { ActorSystem } from "../../../runtime/ActorSystem.ts"
import { workspaceRole } from "../../Access.ts"
import type { RequestContext } from "../../Operation.ts"

export const MeetingId = Schema.String.check(
  Schema.isMinLength(1),
  Schema.isMaxLength(200),
  Schema.isPattern(/^[A-Za-z0-9._~:@=+-]+$/, { expected: "a vendor meeting id" })
)
export const MeetingParams = Schema.Struct({ workspaceId: Id, meetingId: MeetingId })

export const MeetingView = Schema.Struct({
  ...VendorMeeting.fields,
  occurrenceId: Schema.NullOr(Schema.String),
  recordingId: Schema.NullOr(Schema.Number)
}).annotate({ identifier: "VendorMeetingView" })
export const Imported = Schema.Struct({
  recordingId: Schema.Number,
  callId: Schema.Number,
  callUuid: Id,
  status: Schema.Literals(["queued", "processing", "ready", "failed"]),
  link: MeetingLink
}).annotate({ identifier: "VendorMeetingImport" })

/** The workspace's connection of the vendor and its token, for the caller with at least `minimum`. */
export const connected = (context: RequestContext, workspaceId: string, vendor: MeetingVendor, minimum: "viewer" | "member") =>
  Effect.gen(function* () {
    yield* workspaceRole(context, workspaceId, minimum)
    const connection = yield* activeOf(workspaceId, vendor)
    return { connection, token: yield* tokenOf(connection.id) }
  })

export const linksOf = (workspaceId: string) =>
  Effect.gen(function* () {
    return (yield* (yield* ActorSystem).ask(MeetingBots, workspaceId, "view", {})).links
  })
