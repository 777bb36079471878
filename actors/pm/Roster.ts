/**
 * The workspace roster as project management reads it: members with their
 * profiles, guests and their end of access, seats used against the seat
 * limit (guests take no seat; pending invitations of non-guests reserve
 * one). Membership itself is the identity workspace actor's (which also
 * keeps its history); these read it through the identity read module.
 */
import { Effect } from "effect"
import { query } from "../../persistence/Sql.ts"
import { usersByIds, workspaceById } from "../identity/IdentityQueries.ts"
import { reject } from "../../runtime/Rejection.ts"
import { NoFreeSeat } from "./OrganizationErrors.ts"
import type { Role } from "../identity/Workspace.ts"
import type { Change } from "./ChangeLog.ts"
import { change } from "./Changes.ts"
import { configOf } from "./WorkspaceConfig.ts"

export interface RosterEntry {
  readonly userId: string
  readonly email: string
  readonly name: string
  readonly role: Role
  readonly addedAt: string
  readonly guest: boolean
  readonly guestExpiresAt: string | null
}

/** The workspace as identity keeps it (undefined: it does not exist). */
export const storedWorkspace = workspaceById

/** Members (guests whose access ran out left out), with e-mail and name, in the order they joined. */
export const rosterOf = (workspaceId: string) =>
  Effect.gen(function* () {
    const ws = yield* workspaceById(workspaceId)
    if (ws === undefined) return [] as Array<RosterEntry>
    const profiles = yield* usersByIds(ws.members.map((m) => m.userId))
    return ws.members.map(
      (m): RosterEntry => ({
        userId: m.userId,
        email: profiles.get(m.userId)?.email ?? "",
        name: profiles.get(m.userId)?.name ?? "",
        role: m.role,
        addedAt: m.addedAt,
        guest: ws.guests[m.userId] !== undefined,
        guestExpiresAt: ws.guests[m.userId]?.expiresAt ?? null
      })
    )
  })

export const rosterEntry = (workspaceId: string, userId: string) =>
  Effect.flatMap(rosterOf(workspaceId), (roster) => {
    const entry = roster.find((m) => m.userId === userId)
    return entry ? Effect.succeed(entry) : Effect.fail(reject("not_found", "No such member"))
  })

export interface SeatUsage {
  readonly limit: number | null
  readonly members: number
  readonly guests: number
  readonly pendingInvitations: number
  readonly available: number | null
}

export const seatUsage = (workspaceId: string) =>
  Effect.gen(function* () {
    const roster = yield* rosterOf(workspaceId)
    const pending = yield* query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pm_workspace_invitations WHERE workspace_id = $1 AND status = 'pending' AND NOT guest AND expires_at > now()`,
      [workspaceId]
    )
    const limit = (yield* configOf(workspaceId)).seatLimit
    const members = roster.filter((m) => !m.guest).length
    const pendingInvitations = pending[0]!.n
    return {
      limit,
      members,
      guests: roster.length - members,
      pendingInvitations,
      available: limit === null ? null : Math.max(0, limit - members - pendingInvitations)
    } satisfies SeatUsage
  })

/** Fails with 409 when `seats` more non-guest members (or reservations) would pass the seat limit. */
export const requireSeats = (workspaceId: string, seats: number, options: { readonly reserved?: boolean } = {}) =>
  Effect.gen(function* () {
    if (seats <= 0) return
    const usage = yield* seatUsage(workspaceId)
    if (usage.limit === null) return
    // An accepted invitation already held its seat among the pending ones.
    const taken = usage.members + (options.reserved ? usage.pendingInvitations - seats : usage.pendingInvitations)
    if (taken + seats > usage.limit) {
      return yield* new NoFreeSeat({ limit: usage.limit, members: usage.members, pendingInvitations: usage.pendingInvitations })
    }
  })

/** A change of pm's workspace administration (workspace scope; the entity is the invitation, link or workspace concerned). */
export const workspaceChange = (workspaceId: string, type: string, entityId: string, data: Record<string, unknown>, by: string): Change =>
  change({ workspaceId }, type, entityId, data, by)
