/**
 * Creating a recording: its row (with the transcript), its participants (the
 * creator and the attendees who are members of the workspace) and its
 * processing job, in one transaction; the call actor takes over from there.
 * The recording id comes from the database (bigserial), so the row is written
 * before the actor that will own it exists.
 */
import { randomUUID } from "node:crypto"
import { Effect } from "effect"
import { usersByEmails } from "../identity/IdentityQueries.ts"
import { Sql } from "../../persistence/Sql.ts"
import { normalizeEmail } from "../Fields.ts"
import type { Attendee } from "./CallRecords.ts"
import { jobQueued } from "./JobWakeups.ts"
import type { Segment } from "./Transcript.ts"

export interface NewRecording {
  readonly workspaceId: string
  readonly createdBy: string
  readonly name: string
  readonly segments: ReadonlyArray<Segment>
  readonly attendeeEmails: ReadonlyArray<string>
  /** The members of the workspace (attendees among them become participants). */
  readonly memberIds: ReadonlySet<string>
  readonly calendarEventId: string | null
}

export const createRecording = (recording: NewRecording) =>
  Effect.gen(function* () {
    const emails = [...new Set(recording.attendeeEmails.map(normalizeEmail))]
    const users = yield* usersByEmails(emails)
    const attendees: Array<Attendee> = emails.map((email) => {
      const user = users.get(email)
      return { email, name: user?.name ?? null, userId: user && recording.memberIds.has(user.id) ? user.id : null }
    })
    const participants = [...new Set([recording.createdBy, ...attendees.flatMap((a) => (a.userId ? [a.userId] : []))])]
    const sql = yield* Sql
    const created = yield* sql.transaction(
      Effect.gen(function* () {
        const [row] = yield* sql.query<{ id: number; callId: number; callUuid: string }>(
          `INSERT INTO hub_recordings (call_uuid, workspace_id, name, created_by, attendees, calendar_event_id, status, segments)
           VALUES ($1, $2, $3, $4, $5, $6, 'queued', $7) RETURNING id, call_id AS "callId", call_uuid AS "callUuid"`,
          [
            randomUUID(),
            recording.workspaceId,
            recording.name,
            recording.createdBy,
            attendees,
            recording.calendarEventId,
            recording.segments
          ]
        )
        yield* sql.query(`INSERT INTO hub_call_participants (recording_id, user_id) SELECT $1, unnest($2::text[])`, [row!.id, participants])
        yield* sql.query(`INSERT INTO hub_recording_jobs (recording_id, kind, state) VALUES ($1, 'process', 'queued')`, [row!.id])
        return { id: Number(row!.id), callId: Number(row!.callId), callUuid: row!.callUuid, status: "queued" as const }
      })
    )
    yield* jobQueued
    return created
  })
