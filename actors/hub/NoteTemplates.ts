/**
 * A user's note template: it lays out their enhanced notes in every call. A
 * change invalidates the live call actors they take part in, so each
 * regenerates exactly that user's version on its next read.
 */
import { Effect } from "effect"
import { query, Sql } from "../../persistence/Sql.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { HubCall } from "./CallActor.ts"
import type { NoteTemplate } from "./summarizer/VersionInputs.ts"

const invalidateCallsOf = (userId: string) =>
  Effect.gen(function* () {
    const rows = yield* query<{ id: number }>(`SELECT recording_id AS "id" FROM hub_call_participants WHERE user_id = $1`, [userId])
    const actors = yield* ActorSystem
    yield* Effect.forEach(rows, (row) => actors.invalidate(HubCall, String(row.id)), { concurrency: 16, discard: true })
  })

export const setTemplate = (userId: string, template: NoteTemplate | null) =>
  Effect.gen(function* () {
    const sql = yield* Sql
    if (template === null) yield* sql.query(`DELETE FROM hub_note_templates WHERE user_id = $1`, [userId])
    else
      yield* sql.query(
        `INSERT INTO hub_note_templates (user_id, name, sections, updated_at) VALUES ($1, $2, $3, now())
         ON CONFLICT (user_id) DO UPDATE SET name = $2, sections = $3, updated_at = now()`,
        [userId, template.name, template.sections]
      )
    yield* invalidateCallsOf(userId)
  })
