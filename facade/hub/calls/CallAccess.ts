/**
 * Access to recordings and calls: the caller must be a member of the
 * recording's workspace (an API key: of its own workspace, else 404 as if it
 * did not exist); changes need the member role. The reader's version inputs
 * that live outside the call (workspace prompt, calendar prompt) are
 * gathered here from their actors.
 */
import { Effect, Schema } from "effect"
import { HubCall } from "../../../actors/hub/CallActor.ts"
import { recordingIdOfCall, recordingIdOfUuid } from "../../../actors/hub/CallLookup.ts"
import type { RecordingRecord } from "../../../actors/hub/CallRecords.ts"
import { calendarPromptsOf } from "../../../actors/hub/CalendarPrompts.ts"
import { type Role, Workspace } from "../../../actors/identity/Workspace.ts"
import { Id } from "../../../actors/Fields.ts"
import { ActorSystem } from "../../../runtime/ActorSystem.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { principalOf, workspaceRole } from "../../Access.ts"
import type { RequestContext } from "../../Operation.ts"

/** A positive integer below 2^53 in a path (recording and call ids are 64-bit integers kept in that range). */
export const IntegerId = (description: string) =>
  Schema.FiniteFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER })).annotate({
    description
  })

export const RecordingParams = Schema.Struct({ recordingId: IntegerId("Recording id (64-bit integer)") })
export const CallParams = Schema.Struct({ callId: IntegerId("Call id (integer)") })
export const CallUuidParams = Schema.Struct({ callUuid: Id.annotate({ description: "Call UUID" }) })

export interface CallAccess {
  readonly recordingId: number
  readonly recording: RecordingRecord
  readonly userId: string
  readonly role: Role
}

/** The recording, once the caller may see it (`minimum` role for changes). */
export const onRecording = (context: RequestContext, recordingId: number, minimum: Role = "viewer") =>
  Effect.gen(function* () {
    const principal = yield* principalOf(context)
    const recording = yield* (yield* ActorSystem).ask(HubCall, String(recordingId), "recording", {})
    if (principal.kind === "apiKey" && principal.workspaceId !== recording.workspaceId)
      return yield* reject("not_found", "No such recording")
    const role = yield* workspaceRole(context, recording.workspaceId, minimum).pipe(
      Effect.catchIf(
        (error) => error._tag === "Rejection" && error.code === "not_found",
        () => Effect.fail(reject("not_found", "No such recording"))
      )
    )
    return { recordingId, recording, userId: principal.userId, role } satisfies CallAccess
  })

export const onCall = (context: RequestContext, callId: number, minimum: Role = "viewer") =>
  Effect.flatMap(recordingIdOfCall(callId), (recordingId) => onRecording(context, recordingId, minimum))

export const onCallUuid = (context: RequestContext, callUuid: string, minimum: Role = "viewer") =>
  Effect.flatMap(recordingIdOfUuid(callUuid), (recordingId) => onRecording(context, recordingId, minimum))

/** The reader: who they are, their workspace's custom prompt and their calendar prompt for this call. */
export const readerOf = (access: CallAccess) =>
  Effect.gen(function* () {
    const ws = yield* Workspace.client(yield* ActorSystem)(access.recording.workspaceId).view({ by: access.userId })
    const prompts = yield* calendarPromptsOf(access.recording.calendarEventId, [access.userId])
    return { userId: access.userId, workspacePrompt: ws.settings.customPrompt, calendarPrompt: prompts.get(access.userId) ?? null }
  })

/** The call with the caller's own version. */
export const callView = (access: CallAccess) =>
  Effect.flatMap(readerOf(access), (reader) =>
    Effect.flatMap(ActorSystem, (actors) => actors.ask(HubCall, String(access.recordingId), "view", reader))
  )
