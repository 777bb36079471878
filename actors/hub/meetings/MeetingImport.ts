/**
 * Turns a meeting's transcript (from a vendor or the bot provider) into a hub
 * recording through the recordings pipeline: attendees who are members
 * become participants, and with a calendar occurrence each participant's
 * series and occurrence prompts steer their own version.
 */
import { Effect } from "effect"
import { Workspace } from "../../identity/Workspace.ts"
import { ActorSystem } from "../../../runtime/ActorSystem.ts"
import { createRecording } from "../RecordingWrites.ts"
import { parseTranscript, type TranscriptInput } from "../Transcript.ts"

export interface MeetingToImport {
  readonly workspaceId: string
  readonly createdBy: string
  readonly name: string
  readonly transcript: TranscriptInput
  readonly attendeeEmails: ReadonlyArray<string>
  readonly occurrenceId: string | null
}

export const importMeeting = (meeting: MeetingToImport) =>
  Effect.gen(function* () {
    const segments = yield* parseTranscript(meeting.transcript)
    const ws = yield* Workspace.client(yield* ActorSystem)(meeting.workspaceId).inspect({})
    return yield* Effect.orDie(
      createRecording({
        workspaceId: meeting.workspaceId,
        createdBy: meeting.createdBy,
        name: meeting.name.slice(0, 300) || "Meeting",
        segments,
        attendeeEmails: [...new Set(meeting.attendeeEmails)].slice(0, 200),
        memberIds: new Set(ws.members.map((member) => member.userId)),
        calendarEventId: meeting.occurrenceId
      })
    )
  })
