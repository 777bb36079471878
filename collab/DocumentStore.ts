/**
 * Where collaborative documents live in SQL: a compacted state per document
 * (`collab_documents`) and the log of updates appended since
 * (`collab_updates`). Reads take the state and the log tail in one statement
 * (one snapshot, so a concurrent compaction can't hide rows); compaction
 * merges the rows it read into the state and deletes exactly those rows, in
 * one transaction holding the document row's lock, so two nodes compacting
 * at once never lose an update.
 */
import { Effect } from "effect"
import * as Y from "yjs"
import { Sql, type SqlError } from "../persistence/Sql.ts"

export interface StoredDocument {
  /** The compacted state, if any. */
  readonly state: Uint8Array | undefined
  /** Updates appended after it, oldest first. */
  readonly updates: ReadonlyArray<Uint8Array>
}

export interface AppendEntry {
  readonly name: string
  readonly update: Uint8Array
}

const bytes = (value: unknown): Uint8Array => (value instanceof Uint8Array ? value : new Uint8Array(0))

/** The stored state and log tail of `name` (both empty for a document never written). */
export const load = (name: string): Effect.Effect<StoredDocument, SqlError, Sql> =>
  Effect.gen(function* () {
    const sql = yield* Sql
    const rows = yield* sql.query<{ kind: number; id: number | string; data: Uint8Array | null }>(
      `select 0 as kind, 0::bigint as id, state as data from collab_documents where name = $1
       union all
       select 1 as kind, id, "update" as data from collab_updates where name = $1
       order by kind, id`,
      [name]
    )
    let state: Uint8Array | undefined
    const updates: Array<Uint8Array> = []
    for (const row of rows) {
      if (row.kind === 0) state = row.data === null ? undefined : bytes(row.data)
      else updates.push(bytes(row.data))
    }
    return { state, updates }
  })

/** The whole stored document as one update (state and log merged), or undefined when nothing is stored. */
export const loadMerged = (name: string): Effect.Effect<Uint8Array | undefined, SqlError, Sql> =>
  Effect.map(load(name), (stored) => {
    const parts = [...(stored.state ? [stored.state] : []), ...stored.updates]
    return parts.length === 0 ? undefined : parts.length === 1 ? parts[0] : Y.mergeUpdates(parts)
  })

/**
 * Appends updates in one statement (one commit on PostgreSQL, whatever the
 * count): the batch travels as one JSON parameter, so the prepared statement
 * is the same for every batch size.
 */
export const append = (entries: ReadonlyArray<AppendEntry>): Effect.Effect<void, SqlError, Sql> =>
  entries.length === 0
    ? Effect.void
    : Sql.use((sql) =>
        sql.query(
          `insert into collab_updates (name, "update")
         select r.value->>'n', decode(r.value->>'u', 'base64')
         from jsonb_array_elements($1::jsonb) with ordinality as r(value, ord)
         order by r.ord`,
          [
            entries.map((entry) => ({
              n: entry.name,
              u: Buffer.from(entry.update.buffer, entry.update.byteOffset, entry.update.byteLength).toString("base64")
            }))
          ]
        )
      ).pipe(Effect.asVoid)

export interface Compaction {
  /** Log rows folded into the state. */
  readonly rows: number
  /** Size of the new state, bytes. */
  readonly bytes: number
}

/** How a compaction merges its parts (`Y.mergeUpdates`); a live server hands it to a worker (UpdateMerger). */
export type Merge = (parts: ReadonlyArray<Uint8Array>) => Effect.Effect<Uint8Array>

const mergeHere: Merge = (parts) => Effect.sync(() => Y.mergeUpdates([...parts]))

/**
 * Folds the log of `name` into its state. `live` (the document as loaded in
 * memory here, already garbage-collected) is merged first so its compact form
 * wins over the log's; rows it lacks (another node's) are merged too.
 */
export const compact = (name: string, live?: Uint8Array, merge: Merge = mergeHere): Effect.Effect<Compaction, SqlError, Sql> =>
  Sql.use((sql) =>
    sql.transaction(
      Effect.gen(function* () {
        yield* sql.query("insert into collab_documents (name, state) values ($1, null) on conflict (name) do nothing", [name])
        const locked = yield* sql.query<{ state: Uint8Array | null }>("select state from collab_documents where name = $1 for update", [
          name
        ])
        const rows = yield* sql.query<{ id: number | string; update: Uint8Array }>(
          `select id, "update" from collab_updates where name = $1 order by id`,
          [name]
        )
        if (rows.length === 0) return { rows: 0, bytes: locked[0]?.state?.byteLength ?? 0 }
        const parts: Array<Uint8Array> = []
        if (live !== undefined) parts.push(live)
        if (locked[0]?.state) parts.push(bytes(locked[0].state))
        for (const row of rows) parts.push(bytes(row.update))
        const state = yield* merge(parts)
        yield* sql.query("update collab_documents set state = $2, compacted_at = now() where name = $1", [name, state])
        // Exactly the rows read: a row committed meanwhile (with a lower id, even) stays in the log.
        yield* sql.query(`delete from collab_updates where id in (select (jsonb_array_elements_text($1::jsonb))::bigint)`, [
          rows.map((row) => String(row.id))
        ])
        return { rows: rows.length, bytes: state.byteLength }
      })
    )
  )

/** Deletes the document and its log for good. */
export const remove = (name: string): Effect.Effect<void, SqlError, Sql> =>
  Sql.use((sql) =>
    sql.transaction(
      Effect.gen(function* () {
        yield* sql.query("delete from collab_updates where name = $1", [name])
        yield* sql.query("delete from collab_documents where name = $1", [name])
      })
    )
  )

/** Documents whose log has grown past `minRows` rows (left by a crashed node, or never compacted). */
export const crowded = (minRows: number, limit: number): Effect.Effect<ReadonlyArray<string>, SqlError, Sql> =>
  Effect.map(
    Sql.use((sql) =>
      sql.query<{ name: string }>("select name from collab_updates group by name having count(*) >= $1 order by count(*) desc limit $2", [
        minRows,
        limit
      ])
    ),
    (rows) => rows.map((row) => row.name)
  )
