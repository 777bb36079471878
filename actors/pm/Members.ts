/**
 * Who may be assigned, mentioned or watch in a workspace: reads of the
 * persisted identity state (workspace members, accounts by e-mail), which the
 * identity actors write before they acknowledge a change.
 */
import { Effect } from "effect"
import { normalizeEmail } from "../Fields.ts"
import { query } from "../../persistence/Sql.ts"
import { reject, type RejectionDetail } from "../../runtime/Rejection.ts"
import type { UserRef } from "./WorkRecords.ts"

/** Members of the workspace: user id → role. */
export const membersOf = (workspaceId: string) =>
  Effect.map(
    query<{ members: ReadonlyArray<{ userId: string; role: string }> | null }>(
      `SELECT state->'members' AS members FROM actor_state WHERE kind = 'workspace' AND id = $1 AND (state->>'exists')::boolean`,
      [workspaceId]
    ),
    (rows) => new Map((rows[0]?.members ?? []).map((m) => [m.userId, m.role] as const))
  )

/** Profiles of users by id (unknown ids are absent). */
export const userRefs = (userIds: ReadonlyArray<string>) =>
  userIds.length === 0
    ? Effect.succeed(new Map<string, UserRef>())
    : Effect.map(
      query<{ id: string; email: string; name: string }>(
        `SELECT state->>'userId' AS id, state->>'email' AS email, state->>'name' AS name
           FROM actor_state WHERE kind = 'account' AND state->>'userId' = ANY($1::text[])`,
        [[...new Set(userIds)]]
      ),
      (rows) => new Map(rows.map((r) => [r.id, r] as const))
    )

/** Registered users by (normalized) e-mail. */
export const usersByEmail = (emails: ReadonlyArray<string>) =>
  emails.length === 0
    ? Effect.succeed(new Map<string, UserRef>())
    : Effect.map(
      query<{ id: string; email: string; name: string }>(
        `SELECT state->>'userId' AS id, state->>'email' AS email, state->>'name' AS name
           FROM actor_state WHERE kind = 'account' AND id = ANY($1::text[]) AND state->>'userId' IS NOT NULL`,
        [[...new Set(emails.map(normalizeEmail))]]
      ),
      (rows) => new Map(rows.map((r) => [r.email, r] as const))
    )

/** Every id must belong to a member of the workspace (400 naming the entry otherwise). */
export const requireMembers = (workspaceId: string, userIds: ReadonlyArray<string>, path: string) =>
  Effect.gen(function* () {
    if (userIds.length === 0) return
    const members = yield* membersOf(workspaceId)
    const details: Array<RejectionDetail> = userIds.flatMap((id, index) => (members.has(id) ? [] : [{ path: `${path}.${index}`, message: "not a member of this workspace" }]))
    if (details.length > 0) return yield* reject("invalid", `Not a member of this workspace: ${userIds.filter((id) => !members.has(id)).join(", ")}`, details)
  })

/**
 * Resolves e-mail addresses to members of the workspace; addresses that are
 * not registered or not members answer 404 naming them.
 */
export const membersByEmail = (workspaceId: string, emails: ReadonlyArray<string>, path: string) =>
  Effect.gen(function* () {
    if (emails.length === 0) return [] as ReadonlyArray<UserRef>
    const users = yield* usersByEmail(emails)
    const members = yield* membersOf(workspaceId)
    const missing = emails.map((email, index) => ({ email, index })).filter(({ email }) => {
      const user = users.get(normalizeEmail(email))
      return user === undefined || !members.has(user.id)
    })
    if (missing.length > 0) {
      return yield* reject(
        "not_found",
        `No member of this workspace has the e-mail ${missing.map((m) => m.email).join(", ")}`,
        missing.map((m) => ({ path: `${path}.${m.index}`, message: `no member with e-mail ${m.email}` }))
      )
    }
    return [...new Map(emails.map((email) => users.get(normalizeEmail(email))!).map((u) => [u.id, u] as const)).values()]
  })
