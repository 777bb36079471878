/**
 * The writes that file a wiki space's live events. The wiki's tree changes
 * (pages created, moved, renamed, archived, restored, deleted) and comment
 * changes are committed with their event in the pm change log's transaction
 * (the log every stream replays from, published after COMMIT), filed under
 * the space (scope `wikiSpace`, WikiSpaceStream.ts): `entityId` = the space,
 * `data.pageId` (and `data.commentId`) what changed. Events name ids only —
 * titles and text stay behind each reader's own page rights, which the
 * client applies by re-reading.
 */
import { Effect } from "effect"
import type { Sql, SqlError } from "../../persistence/Sql.ts"
import { type Change, ChangeLog } from "../pm/ChangeLog.ts"

/** One event of a wiki space: `page.created`, `page.moved`, `page.updated`, `page.archived`, `page.restored`, `page.deleted`, `comment.*`. */
export interface WikiEvent {
  readonly workspaceId: string
  readonly spaceId: string
  readonly type: string
  readonly by: string
  readonly pageId: string
  readonly data?: Record<string, unknown>
}

const toChange = (event: WikiEvent): Change => ({
  workspaceId: event.workspaceId,
  scope: "wikiSpace",
  entityId: event.spaceId,
  path: {},
  type: event.type,
  data: { ...event.data, pageId: event.pageId },
  actorId: event.by
})

/** Runs `body` in one transaction with the events it reports (none: nothing filed). */
export const withWikiEvents = <A, E, R>(
  body: Effect.Effect<A, E, R>,
  events: (result: A) => ReadonlyArray<WikiEvent>
): Effect.Effect<A, E | SqlError, R | Sql | ChangeLog> =>
  ChangeLog.use((log) => log.transact(Effect.map(body, (result) => ({ result, changes: events(result).map(toChange) }))))
