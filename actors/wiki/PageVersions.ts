/**
 * Page versions: what a page looked like at a moment (title, content, and
 * the whole Yjs state a restore replays), numbered per page from 1. Taken on
 * creation with content, on every REST change of the content, on an explicit
 * save, on a restore, and periodically while people edit live.
 */
import { randomUUID } from "node:crypto"
import { Effect, Schema } from "effect"
import type { DocumentSnapshot } from "../LiveDocuments.ts"
import { query } from "../../persistence/Sql.ts"
import { iso } from "./WikiQueries.ts"
import type { ProseMirrorJson } from "./WikiViews.ts"

export const VersionReason = Schema.Literals(["created", "edited", "saved", "restored", "autosaved"]).annotate({
  description:
    "created: first content; edited: changed through the API; saved: saved explicitly; restored: an older version brought back; autosaved: live editing"
})
export type VersionReason = typeof VersionReason.Type

export const VersionRecord = Schema.Struct({
  id: Schema.String,
  pageId: Schema.String,
  number: Schema.Number,
  title: Schema.String,
  reason: VersionReason,
  label: Schema.NullOr(Schema.String),
  restoredFrom: Schema.NullOr(Schema.String),
  authorId: Schema.NullOr(Schema.String),
  contributors: Schema.Array(Schema.String),
  characters: Schema.Number,
  createdAt: Schema.String
})
export type VersionRecord = typeof VersionRecord.Type

/** A version as operations answer it. */
export const WikiPageVersionView = VersionRecord.annotate({ identifier: "WikiPageVersion" })

export interface VersionContent {
  readonly record: VersionRecord
  readonly content: ProseMirrorJson
  readonly text: string
  readonly markdown: string
  readonly state: Uint8Array
}

const COLUMNS =
  "id, page_id, number, title, reason, label, restored_from, author_id, contributors, length(content_text) AS characters, created_at"

const toRecord = (row: Record<string, any>): VersionRecord => ({
  id: row.id,
  pageId: row.page_id,
  number: Number(row.number),
  title: row.title,
  reason: row.reason,
  label: row.label ?? null,
  restoredFrom: row.restored_from ?? null,
  authorId: row.author_id ?? null,
  contributors: Array.isArray(row.contributors) ? row.contributors : [],
  characters: Number(row.characters ?? 0),
  createdAt: iso(row.created_at)
})

/** JSON with keys sorted (jsonb does not keep key order), to compare documents. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, v) =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, (v as Record<string, unknown>)[k]])
        )
      : v
  )

export const latestVersion = (pageId: string) =>
  Effect.map(
    query<Record<string, any>>(`SELECT ${COLUMNS}, content FROM wiki_page_versions WHERE page_id = $1 ORDER BY number DESC LIMIT 1`, [
      pageId
    ]),
    (rows) => (rows[0] ? { record: toRecord(rows[0]), content: rows[0].content as unknown } : undefined)
  )

export interface Capture {
  readonly pageId: string
  readonly workspaceId: string
  readonly title: string
  readonly snapshot: DocumentSnapshot
  readonly reason: VersionReason
  readonly authorId: string | null
  readonly contributors?: ReadonlyArray<string>
  readonly label?: string | null
  readonly restoredFrom?: string | null
  /** Skip when title and content equal the latest version's (periodic and API captures). */
  readonly onlyIfChanged: boolean
}

/** Records a version; `undefined` when skipped because nothing changed. */
export const captureVersion = (capture: Capture) =>
  Effect.gen(function* () {
    const latest = yield* latestVersion(capture.pageId)
    if (
      capture.onlyIfChanged &&
      latest !== undefined &&
      latest.record.title === capture.title &&
      canonical(latest.content) === canonical(capture.snapshot.content)
    )
      return undefined
    const rows = yield* query<Record<string, any>>(
      `INSERT INTO wiki_page_versions
         (id, page_id, workspace_id, number, title, content, content_text, markdown, state, reason, label, restored_from, author_id, contributors)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
       RETURNING ${COLUMNS}`,
      [
        randomUUID(),
        capture.pageId,
        capture.workspaceId,
        (latest?.record.number ?? 0) + 1,
        capture.title,
        capture.snapshot.content,
        capture.snapshot.text,
        capture.snapshot.markdown,
        Buffer.from(capture.snapshot.state),
        capture.reason,
        capture.label ?? null,
        capture.restoredFrom ?? null,
        capture.authorId,
        [...new Set([...(capture.authorId ? [capture.authorId] : []), ...(capture.contributors ?? [])])]
      ]
    )
    return toRecord(rows[0]!)
  })

export const versionsOf = (pageId: string, limit: number, beforeNumber: number | null) =>
  Effect.map(
    query<Record<string, any>>(
      `SELECT ${COLUMNS} FROM wiki_page_versions WHERE page_id = $1 AND ($2::int IS NULL OR number < $2::int) ORDER BY number DESC LIMIT $3`,
      [pageId, beforeNumber, limit]
    ),
    (rows) => rows.map(toRecord)
  )

export const versionContent = (pageId: string, versionId: string) =>
  Effect.map(
    query<Record<string, any>>(
      `SELECT ${COLUMNS}, content, content_text, markdown, state FROM wiki_page_versions WHERE page_id = $1 AND id = $2`,
      [pageId, versionId]
    ),
    (rows): VersionContent | undefined =>
      rows[0]
        ? {
            record: toRecord(rows[0]),
            content: rows[0].content as ProseMirrorJson,
            text: rows[0].content_text,
            markdown: rows[0].markdown,
            state: new Uint8Array(rows[0].state)
          }
        : undefined
  )

export const versionCount = (pageId: string) =>
  Effect.map(query<{ count: number }>("SELECT count(*)::int AS count FROM wiki_page_versions WHERE page_id = $1", [pageId]), (rows) =>
    Number(rows[0]?.count ?? 0)
  )
