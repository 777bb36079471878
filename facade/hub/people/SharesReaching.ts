/** The shares of a workspace that reach a user, directly or through one of their pm teams: call id → the latest such share. */
import { Effect } from "effect"
import { CallShares, type StoredShare } from "../../../actors/hub/people/CallShares.ts"
import { teamMemberRows, teamRows } from "../../../actors/pm/Team.ts"
import { ActorSystem } from "../../../runtime/ActorSystem.ts"

export const sharesReaching = (workspaceId: string, userId: string) =>
  Effect.gen(function* () {
    const state = yield* CallShares.client(yield* ActorSystem)(workspaceId).view({})
    const teams = yield* Effect.orDie(teamRows(workspaceId))
    const rows = teams.length === 0 ? [] : yield* Effect.orDie(teamMemberRows(teams.map((team) => team.id)))
    const mine = new Set(rows.filter((row) => row.userId === userId).map((row) => row.teamId))
    const latest = new Map<number, StoredShare>()
    for (const share of Object.values(state.shares)) {
      const reaches = share.recipient.type === "user" ? share.recipient.id === userId : mine.has(share.recipient.id)
      if (reaches && share.sharedBy !== userId && (latest.get(share.callId)?.createdAt ?? "") < share.createdAt)
        latest.set(share.callId, share)
    }
    return latest as ReadonlyMap<number, StoredShare>
  })
