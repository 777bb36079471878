/**
 * Every change in project management goes through the ChangeLog: it is
 * written in the same transaction as the change (so the activity log and the
 * live event stream can never disagree with the data), gets a per-workspace
 * sequence number, and is published to live subscribers — on every node —
 * after the commit.
 *
 * Contract (the implementation is `ChangeLogLive.ts`):
 *   `transact(body)` runs `body` in one SQL transaction; `body` returns its
 *   result and the changes it made; they are appended to the log in that
 *   transaction and published once it commits.
 *   A `transact` inside another joins it (one transaction, one publication
 *   after the outer commit). Don't call it inside a plain `Sql.transaction`:
 *   it cannot see that one and would publish before its COMMIT.
 *   A change that is malformed (empty ids, unknown scope, data not an
 *   object) is a defect: the transaction rolls back.
 */
import { Context, type Effect } from "effect"
import type { Sql, SqlError } from "../../persistence/Sql.ts"

/**
 * `board`: a feedback board's events (entityId = the board), visible to those who may see the board;
 * `wikiSpace`: a wiki space's events (entityId = the space), visible to those who may see the space.
 */
export type ChangeScope = "workspace" | "space" | "list" | "task" | "board" | "wikiSpace"

export interface Notify {
  readonly userId: string
  readonly reason: "assigned" | "mentioned" | "status_changed" | "commented" | "watching" | "due_soon"
  readonly title: string
}

export interface Change {
  readonly workspaceId: string
  /** The narrowest scope the change belongs to; subscribers of enclosing scopes see it too. */
  readonly scope: ChangeScope
  /** Id of the changed entity (task id, list id, …). */
  readonly entityId: string
  /** Ancestors, so a subscription to a space or list sees changes of what it contains. */
  readonly path: { readonly spaceId?: string; readonly listId?: string; readonly taskId?: string }
  /** e.g. `task.created`, `task.updated` (data: the changed fields), `comment.created`, `status.changed`, `sprint.started`. */
  readonly type: string
  readonly data: Record<string, unknown>
  /** Who made the change (user id). */
  readonly actorId: string
  /** Users to notify because of this change. */
  readonly notify?: ReadonlyArray<Notify>
}

export interface ChangeEvent {
  readonly seq: number
  readonly type: string
  readonly workspaceId: string
  readonly scope: ChangeScope
  readonly entityId: string
  readonly path: Change["path"]
  readonly data: Record<string, unknown>
  readonly actorId: string
  readonly at: string
}

export interface ChangeLogShape {
  readonly transact: <A, E, R>(
    body: Effect.Effect<{ readonly result: A; readonly changes: ReadonlyArray<Change> }, E, R>
  ) => Effect.Effect<A, E | SqlError, R | Sql>
}

export class ChangeLog extends Context.Service<ChangeLog, ChangeLogShape>()("atrium/actors/pm/ChangeLog") {}
