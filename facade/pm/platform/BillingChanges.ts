/** Plan and seat changes, shared by the workspace's Billing operations and the internal ones: the seats become the identity workspace's member limit. */
import { Effect } from "effect"
import { Billing } from "../../../actors/billing/Billing.ts"
import type { PlanId } from "../../../actors/billing/Plans.ts"
import { Workspace } from "../../../actors/identity/Workspace.ts"
import { ActorSystem } from "../../../runtime/ActorSystem.ts"
import { existingWorkspace } from "./WorkspaceInspection.ts"

export const changePlan = (workspaceId: string, by: string, planId: PlanId, seats: number | undefined) =>
  Effect.gen(function* () {
    const ws = yield* existingWorkspace(workspaceId)
    const actors = yield* ActorSystem
    const members = ws.members.length
    const result = yield* actors.ask(Billing, workspaceId, "changePlan", { by, planId, seats: seats ?? Math.max(members, 1), members })
    yield* Workspace.client(actors)(workspaceId).setLimits({ seats: result.subscription.seats })
    return result
  })

export const changeSeats = (workspaceId: string, by: string, seats: number) =>
  Effect.gen(function* () {
    const ws = yield* existingWorkspace(workspaceId)
    const actors = yield* ActorSystem
    const result = yield* actors.ask(Billing, workspaceId, "setSeats", { by, seats, members: ws.members.length })
    yield* Workspace.client(actors)(workspaceId).setLimits({ seats: result.subscription.seats })
    return result
  })
