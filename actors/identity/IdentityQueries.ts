/**
 * Reads that cross identity actors (which user has this id, who belongs to
 * which workspace, which key has this hash), for the other services. This
 * module is the only place outside the identity actors themselves that
 * reads their persisted state (`actor_state` of kinds account, workspace,
 * apiKey, session), which every actor writes before it acknowledges a
 * change; each read is declared with the schemas of its request and rows.
 *
 * The identity rules that apply to stored state apply here too: a deleted
 * workspace has no members, and a guest whose access ended is no longer one.
 */
import { Effect, Schema } from "effect"
import * as SqlSchema from "../../persistence/SqlSchema.ts"
import { User } from "./Account.ts"
import { GuestAccess, guestAccessEnded, type Member, type Role, WorkspaceState } from "./Workspace.ts"

const Ids = Schema.Array(Schema.String)

// ---------------------------------------------------------------------------
// Accounts (the actor's id is the normalized e-mail; a registered one has a userId)

const USER_COLUMNS = `state->>'userId' AS id, state->>'email' AS email, state->>'name' AS name, state->>'createdAt' AS "createdAt"`

const findUsersByIds = SqlSchema.findAll({
  Request: Ids,
  Result: User,
  execute: (userIds) => [`SELECT ${USER_COLUMNS} FROM actor_state WHERE kind = 'account' AND state->>'userId' = ANY($1::text[])`, [userIds]]
})

const findUsersByEmails = SqlSchema.findAll({
  Request: Ids,
  Result: User,
  execute: (emails) => [
    `SELECT ${USER_COLUMNS} FROM actor_state WHERE kind = 'account' AND id = ANY($1::text[]) AND state->>'userId' IS NOT NULL`,
    [emails]
  ]
})

const findAnyAccount = SqlSchema.findOne({
  Request: Schema.Void,
  Result: Schema.Struct({ id: Schema.String }),
  execute: () => ["SELECT id FROM actor_state WHERE kind = 'account' LIMIT 1", []]
})

export const userById = (userId: string) => Effect.map(findUsersByIds([userId]), (users) => users[0])

/** Users by id (unknown ids are absent). */
export const usersByIds = (userIds: ReadonlyArray<string>) =>
  userIds.length === 0
    ? Effect.succeed(new Map<string, User>())
    : Effect.map(findUsersByIds([...new Set(userIds)]), (users) => new Map(users.map((user) => [user.id, user] as const)))

/** Registered users by normalized e-mail (unknown addresses are absent). */
export const usersByEmails = (emails: ReadonlyArray<string>) =>
  emails.length === 0
    ? Effect.succeed(new Map<string, User>())
    : Effect.map(findUsersByEmails([...new Set(emails)]), (users) => new Map(users.map((user) => [user.email, user] as const)))

/** Whether any account was ever registered (an empty store). */
export const anyAccount = Effect.map(findAnyAccount(undefined), (row) => row !== undefined)

// ---------------------------------------------------------------------------
// Workspaces

const WorkspaceRow = Schema.Struct({
  id: Schema.String,
  name: WorkspaceState.fields.name,
  ownerId: WorkspaceState.fields.ownerId,
  members: WorkspaceState.fields.members,
  guests: Schema.NullOr(Schema.Record(Schema.String, GuestAccess)),
  createdAt: WorkspaceState.fields.createdAt,
  updatedAt: WorkspaceState.fields.updatedAt
})

/** An existing workspace as other services see it: guests whose access ended are left out. */
export interface WorkspaceRecord {
  readonly id: string
  readonly name: string
  readonly ownerId: string
  readonly members: ReadonlyArray<Member>
  /** Members who are guests, with their end of access. */
  readonly guests: Readonly<Record<string, GuestAccess>>
  readonly createdAt: string
  readonly updatedAt: string
}

const WORKSPACE_COLUMNS = `id, state->>'name' AS name, state->>'ownerId' AS "ownerId", state->'members' AS members, state->'guests' AS guests,
  state->>'createdAt' AS "createdAt", state->>'updatedAt' AS "updatedAt"`

const toRecord = (row: typeof WorkspaceRow.Type, at = Date.now()): WorkspaceRecord => {
  const guests = Object.fromEntries(Object.entries(row.guests ?? {}).filter(([, access]) => !guestAccessEnded(access, at)))
  const ended = (userId: string) => row.guests?.[userId] !== undefined && guests[userId] === undefined
  return { ...row, members: row.members.filter((m) => !ended(m.userId)), guests }
}

const findWorkspaces = SqlSchema.findAll({
  Request: Ids,
  Result: WorkspaceRow,
  execute: (ids) => [
    `SELECT ${WORKSPACE_COLUMNS} FROM actor_state WHERE kind = 'workspace' AND id = ANY($1::text[]) AND (state->>'exists')::boolean`,
    [ids]
  ]
})

const findWorkspacesOfMember = SqlSchema.findAll({
  Request: Schema.String,
  Result: WorkspaceRow,
  execute: (userId) => [
    `SELECT ${WORKSPACE_COLUMNS} FROM actor_state
      WHERE kind = 'workspace' AND (state->>'exists')::boolean AND state->'members' @> jsonb_build_array(jsonb_build_object('userId', $1::text))
      ORDER BY state->>'createdAt', id`,
    [userId]
  ]
})

const DeletedWorkspace = Schema.Struct({ id: Schema.String, name: Schema.String, deletedAt: Schema.String })

const findDeletedWorkspacesOf = SqlSchema.findAll({
  Request: Schema.String,
  Result: DeletedWorkspace,
  execute: (ownerId) => [
    `SELECT id, state->>'name' AS name, state->>'deletedAt' AS "deletedAt" FROM actor_state
      WHERE kind = 'workspace' AND state->>'ownerId' = $1 AND state->>'deletedAt' IS NOT NULL AND NOT (state->>'exists')::boolean
      ORDER BY state->>'deletedAt' DESC`,
    [ownerId]
  ]
})

/**
 * A SQL condition, true while the user `userSql` is a member of the workspace `workspaceSql` (both SQL expressions
 * of the caller's query): the workspace exists, lists them, and their guest access, if any, has not ended. For
 * background work done on a member's behalf, which must stop once they leave or are removed.
 */
export const memberNowSql = (workspaceSql: string, userSql: string) =>
  `EXISTS (SELECT 1 FROM actor_state w WHERE w.kind = 'workspace' AND w.id = ${workspaceSql} AND (w.state->>'exists')::boolean
     AND w.state->'members' @> jsonb_build_array(jsonb_build_object('userId', ${userSql}))
     AND NOT COALESCE((w.state->'guests'->${userSql}->>'expiresAt')::timestamptz <= now(), false))`

/** Existing workspaces by id (deleted and unknown ones are absent). */
export const workspacesByIds = (workspaceIds: ReadonlyArray<string>) =>
  workspaceIds.length === 0
    ? Effect.succeed(new Map<string, WorkspaceRecord>())
    : Effect.map(findWorkspaces([...new Set(workspaceIds)]), (rows) => new Map(rows.map((row) => [row.id, toRecord(row)] as const)))

/** The workspace, if it exists. */
export const workspaceById = (workspaceId: string) => Effect.map(workspacesByIds([workspaceId]), (found) => found.get(workspaceId))

/** Members of the workspace: user id → role (empty when it does not exist). */
export const memberRoles = (workspaceId: string) =>
  Effect.map(workspaceById(workspaceId), (ws) => new Map<string, Role>((ws?.members ?? []).map((m) => [m.userId, m.role] as const)))

/** Workspaces the user belongs to, oldest first. */
export const workspacesOf = (userId: string) =>
  Effect.map(findWorkspacesOfMember(userId), (rows) =>
    rows.map((row) => toRecord(row)).filter((ws) => ws.members.some((m) => m.userId === userId))
  )

/** Workspaces the user owns that are deleted (restorable or not), most recently deleted first. */
export const deletedWorkspacesOf = (ownerId: string) => findDeletedWorkspacesOf(ownerId)

// ---------------------------------------------------------------------------
// API keys and sessions

const findApiKeyByHash = SqlSchema.findOne({
  Request: Schema.String,
  Result: Schema.Struct({ id: Schema.String }),
  execute: (hash) => ["SELECT id FROM actor_state WHERE kind = 'apiKey' AND state->>'hash' = $1", [hash]]
})

const findApiKeysOfWorkspace = SqlSchema.findAll({
  Request: Schema.String,
  Result: Schema.Struct({ id: Schema.String }),
  execute: (workspaceId) => [
    `SELECT id FROM actor_state
      WHERE kind = 'apiKey' AND state->>'workspaceId' = $1 AND (state->>'revokedAt') IS NULL
      ORDER BY state->>'createdAt', id`,
    [workspaceId]
  ]
})

const findSessionsOf = SqlSchema.findAll({
  Request: Schema.String,
  Result: Schema.Struct({ id: Schema.String, revokedAt: Schema.NullOr(Schema.String), expiresAt: Schema.String }),
  execute: (userId) => [
    `SELECT id, state->>'revokedAt' AS "revokedAt", state->>'expiresAt' AS "expiresAt" FROM actor_state
      WHERE kind = 'session' AND state->>'userId' = $1 ORDER BY state->>'createdAt'`,
    [userId]
  ]
})

export const apiKeyIdByHash = (hash: string) => Effect.map(findApiKeyByHash(hash), (row) => row?.id)

export const apiKeyIdsOfWorkspace = (workspaceId: string) =>
  Effect.map(findApiKeysOfWorkspace(workspaceId), (rows) => rows.map((row) => row.id))

/** The user's live sessions, oldest first. */
export const sessionIdsOf = (userId: string) =>
  Effect.map(findSessionsOf(userId), (rows) =>
    rows.filter((row) => row.revokedAt === null && Date.parse(row.expiresAt) > Date.now()).map((row) => row.id)
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

// ---------------------------------------------------------------------------
// Platform operator: search and counts across all accounts and workspaces

export const AccountSummary = Schema.Struct({
  id: Schema.String,
  email: Schema.String,
  name: Schema.String,
  createdAt: Schema.String,
  deactivatedAt: Schema.NullOr(Schema.String)
})
export type AccountSummary = typeof AccountSummary.Type

const searchAccounts = SqlSchema.findAll({
  Request: Schema.Struct({ text: Schema.String, deactivated: Schema.NullOr(Schema.Boolean), limit: Schema.Number, offset: Schema.Number }),
  Result: AccountSummary,
  execute: ({ text, deactivated, limit, offset }) => [
    `SELECT ${USER_COLUMNS}, state->>'deactivatedAt' AS "deactivatedAt" FROM actor_state
      WHERE kind = 'account' AND state->>'userId' IS NOT NULL
        AND ($1 = '' OR position($1 in lower(id)) > 0 OR position($1 in lower(state->>'name')) > 0 OR state->>'userId' = $1)
        AND ($2::boolean IS NULL OR (state->>'deactivatedAt' IS NOT NULL) = $2::boolean)
      ORDER BY state->>'createdAt' DESC, id LIMIT $3 OFFSET $4`,
    [text.toLowerCase(), deactivated, limit, offset]
  ]
})

/** Accounts whose e-mail or name contains `text` (or whose id is `text`), newest first. */
export const searchUsers = (text: string, deactivated: boolean | null, limit: number, offset: number) =>
  searchAccounts({ text: text.trim(), deactivated, limit, offset })

/** The account's e-mail (the account actor's id) by user id. */
export const accountEmailOf = (userId: string) => Effect.map(findUsersByIds([userId]), (users) => users[0]?.email)

const PlatformCounts = Schema.Struct({
  users: Schema.Number,
  deactivatedUsers: Schema.Number,
  usersCreatedInWindow: Schema.Number,
  workspaces: Schema.Number,
  deletedWorkspaces: Schema.Number,
  suspendedWorkspaces: Schema.Number,
  workspacesCreatedInWindow: Schema.Number,
  memberships: Schema.Number,
  liveSessions: Schema.Number,
  activeApiKeys: Schema.Number
})

const countPlatform = SqlSchema.findOne({
  Request: Schema.String,
  Result: PlatformCounts,
  execute: (since) => [
    `SELECT
       count(*) FILTER (WHERE kind = 'account' AND state->>'userId' IS NOT NULL)::int AS users,
       count(*) FILTER (WHERE kind = 'account' AND state->>'deactivatedAt' IS NOT NULL)::int AS "deactivatedUsers",
       count(*) FILTER (WHERE kind = 'account' AND state->>'userId' IS NOT NULL AND state->>'createdAt' >= $1)::int AS "usersCreatedInWindow",
       count(*) FILTER (WHERE kind = 'workspace' AND (state->>'exists')::boolean)::int AS workspaces,
       count(*) FILTER (WHERE kind = 'workspace' AND NOT (state->>'exists')::boolean AND state->>'deletedAt' IS NOT NULL)::int AS "deletedWorkspaces",
       count(*) FILTER (WHERE kind = 'workspace' AND (state->>'exists')::boolean AND state ? 'suspension')::int AS "suspendedWorkspaces",
       count(*) FILTER (WHERE kind = 'workspace' AND (state->>'exists')::boolean AND state->>'createdAt' >= $1)::int AS "workspacesCreatedInWindow",
       COALESCE(sum(jsonb_array_length(state->'members')) FILTER (WHERE kind = 'workspace' AND (state->>'exists')::boolean), 0)::int AS memberships,
       count(*) FILTER (WHERE kind = 'session' AND state->>'revokedAt' IS NULL AND state->>'expiresAt' > $2)::int AS "liveSessions",
       count(*) FILTER (WHERE kind = 'apiKey' AND state->>'revokedAt' IS NULL)::int AS "activeApiKeys"
     FROM actor_state WHERE kind IN ('account', 'workspace', 'session', 'apiKey')`,
    [since, new Date().toISOString()]
  ]
})

/** Platform-wide counts; `since` bounds the "created in window" ones. */
export const platformCounts = (since: string) => Effect.map(countPlatform(since), (row) => row!)

const DailyCount = Schema.Struct({ day: Schema.String, users: Schema.Number, workspaces: Schema.Number })

const countDaily = SqlSchema.findAll({
  Request: Schema.String,
  Result: DailyCount,
  execute: (since) => [
    `SELECT substr(state->>'createdAt', 1, 10) AS day,
            count(*) FILTER (WHERE kind = 'account')::int AS users,
            count(*) FILTER (WHERE kind = 'workspace')::int AS workspaces
       FROM actor_state
      WHERE ((kind = 'account' AND state->>'userId' IS NOT NULL) OR (kind = 'workspace' AND state->>'createdAt' <> ''))
        AND state->>'createdAt' >= $1
      GROUP BY 1 ORDER BY 1`,
    [since]
  ]
})

/** Sign-ups and new workspaces per UTC day since `since`. */
export const dailyGrowth = (since: string) => countDaily(since)

const WorkspaceListing = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  ownerId: Schema.String,
  memberCount: Schema.Number,
  suspended: Schema.Boolean,
  createdAt: Schema.String
})

const listAllWorkspaces = SqlSchema.findAll({
  Request: Schema.Struct({ text: Schema.String, limit: Schema.Number, offset: Schema.Number }),
  Result: WorkspaceListing,
  execute: ({ text, limit, offset }) => [
    `SELECT id, state->>'name' AS name, state->>'ownerId' AS "ownerId", jsonb_array_length(state->'members')::int AS "memberCount",
            (state ? 'suspension') AS suspended, state->>'createdAt' AS "createdAt"
       FROM actor_state WHERE kind = 'workspace' AND (state->>'exists')::boolean
        AND ($1 = '' OR position($1 in lower(state->>'name')) > 0 OR id = $1)
      ORDER BY state->>'createdAt' DESC, id LIMIT $2 OFFSET $3`,
    [text.toLowerCase(), limit, offset]
  ]
})

/** Every existing workspace whose name contains `text` (or whose id is `text`), newest first. */
export const allWorkspaces = (text: string, limit: number, offset: number) => listAllWorkspaces({ text: text.trim(), limit, offset })
