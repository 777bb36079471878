/**
 * Who may be assigned, mentioned or watch in a workspace: pm's view of the
 * identity workspace's members and of accounts, read through the identity
 * read module (which the identity actors write before they acknowledge a
 * change).
 */
import { Effect } from "effect"
import { normalizeEmail } from "../Fields.ts"
import type { User } from "../identity/Account.ts"
import { memberRoles, usersByEmails, usersByIds } from "../identity/IdentityQueries.ts"
import { reject } from "../../runtime/Rejection.ts"
import { NotWorkspaceMembers } from "./PmErrors.ts"
import type { UserRef } from "./WorkRecords.ts"

/** Members of the workspace: user id → role. */
export const membersOf = memberRoles

const refOf = (user: User): UserRef => ({ id: user.id, email: user.email, name: user.name })
const refs = <K>(users: ReadonlyMap<K, User>) => new Map([...users].map(([key, user]) => [key, refOf(user)] as const))

/** Profiles of users by id (unknown ids are absent). */
export const userRefs = (userIds: ReadonlyArray<string>) => Effect.map(usersByIds(userIds), refs)

/** Registered users by (normalized) e-mail. */
export const usersByEmail = (emails: ReadonlyArray<string>) => Effect.map(usersByEmails(emails.map(normalizeEmail)), refs)

/** The refusal of the ids in `userIds` (given at `path`) that are not in `members`; undefined when all are. */
export const notMembers = (members: { readonly has: (userId: string) => boolean }, userIds: ReadonlyArray<string>, path: string) => {
  const outside = userIds.flatMap((id, index) => (members.has(id) ? [] : [{ id, field: `${path}.${index}` }]))
  return outside.length === 0
    ? undefined
    : new NotWorkspaceMembers({ userIds: outside.map((o) => o.id), fields: outside.map((o) => o.field) })
}

/** Every id must belong to a member of the workspace (400 naming the entry otherwise). */
export const requireMembers = (workspaceId: string, userIds: ReadonlyArray<string>, path: string) =>
  Effect.gen(function* () {
    if (userIds.length === 0) return
    const refusal = notMembers(yield* membersOf(workspaceId), userIds, path)
    if (refusal !== undefined) return yield* refusal
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
    const missing = emails
      .map((email, index) => ({ email, index }))
      .filter(({ email }) => {
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
