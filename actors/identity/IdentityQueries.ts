/**
 * Reads that cross identity actors (which user has this id, which workspaces
 * is someone in, which key has this hash). They read persisted actor state,
 * which every actor writes before it acknowledges a change.
 */
import { Effect } from "effect"
import { query } from "../../persistence/Sql.ts"
import type { User } from "./Account.ts"

type StateRow<S> = { readonly id: string; readonly state: S }

export interface AccountRecord {
  readonly userId: string
  readonly email: string
  readonly name: string
  readonly createdAt: string
}

export interface WorkspaceRecord {
  readonly id: string
  readonly name: string
  readonly ownerId: string
  readonly members: ReadonlyArray<{ readonly userId: string; readonly role: string; readonly addedAt: string }>
  readonly createdAt: string
  readonly updatedAt: string
}

const toUser = (record: AccountRecord): User => ({
  id: record.userId,
  email: record.email,
  name: record.name,
  createdAt: record.createdAt
})

export const userById = (userId: string) =>
  Effect.map(
      query<StateRow<AccountRecord>>(
        "SELECT id, state FROM actor_state WHERE kind = 'account' AND state->>'userId' = $1",
        [userId]
      ),
      (rows) => (rows[0] ? toUser(rows[0].state) : undefined)
    )

export const usersByIds = (userIds: ReadonlyArray<string>) =>
  Effect.map(
      query<StateRow<AccountRecord>>(
        "SELECT id, state FROM actor_state WHERE kind = 'account' AND state->>'userId' = ANY($1::text[])",
        [userIds]
      ),
      (rows) => new Map(rows.map((row) => [row.state.userId, toUser(row.state)] as const))
    )

/** Workspaces the user belongs to, oldest first. */
export const workspacesOf = (userId: string) =>
  Effect.map(
      query<StateRow<WorkspaceRecord & { exists: boolean }>>(
        `SELECT id, state FROM actor_state
          WHERE kind = 'workspace' AND state->'members' @> jsonb_build_array(jsonb_build_object('userId', $1::text))
          ORDER BY state->>'createdAt', id`,
        [userId]
      ),
      (rows) => rows.filter((row) => row.state.exists).map((row) => row.state)
    )

export const apiKeyIdByHash = (hash: string) =>
  Effect.map(
      query<{ id: string }>("SELECT id FROM actor_state WHERE kind = 'apiKey' AND state->>'hash' = $1", [hash]),
      (rows) => rows[0]?.id
    )

export const apiKeyIdsOfWorkspace = (workspaceId: string) =>
  Effect.map(
      query<{ id: string }>(
        `SELECT id FROM actor_state
          WHERE kind = 'apiKey' AND state->>'workspaceId' = $1 AND (state->>'revokedAt') IS NULL
          ORDER BY state->>'createdAt', id`,
        [workspaceId]
      ),
      (rows) => rows.map((row) => row.id)
    )

export const sessionIdsOf = (userId: string) =>
  Effect.map(
      query<{ id: string; state: { revokedAt: string | null; expiresAt: string } }>(
        "SELECT id, state FROM actor_state WHERE kind = 'session' AND state->>'userId' = $1 ORDER BY state->>'createdAt'",
        [userId]
      ),
      (rows) =>
        rows.filter((row) => row.state.revokedAt === null && Date.parse(row.state.expiresAt) > Date.now()).map((row) => row.id)
    )

/**
 * SQL expression: the `UserRef` JSON (`{id, email, name}`) of the user whose
 * id is the SQL expression `userId`, for reads that present users inside one
 * statement (a task with its assignees). A user without an account yields
 * `{id, email: "", name: ""}`. Only this module knows how accounts are stored.
 */
export const userRefJson = (userId: string): string =>
  `COALESCE((SELECT json_build_object('id', acc.state->>'userId', 'email', acc.state->>'email', 'name', acc.state->>'name')
               FROM actor_state acc WHERE acc.kind = 'account' AND acc.state->>'userId' = ${userId} LIMIT 1),
            json_build_object('id', ${userId}, 'email', '', 'name', ''))`
