/**
 * pm tag "Internal Workspace Resource" (14): the workspace lifecycle for the
 * platform's other services (provisioning, billing, support tooling), with
 * an internal key: list, provision, inspect, rename, suspend, resume,
 * delete, restore and transfer ownership here; plan, members, export and
 * usage in InternalWorkspaceAccount.ts. Changes the identity workspace makes
 * "by" someone are made on behalf of its owner; every change is audited.
 */
import { Effect, Schema } from "effect"
import { allWorkspaces } from "../../../actors/identity/IdentityQueries.ts"
import { Workspace } from "../../../actors/identity/Workspace.ts"
import { Email, Id, Name, Timestamp } from "../../../actors/Fields.ts"
import { PlanId } from "../../../actors/billing/Plans.ts"
import { ActorSystem } from "../../../runtime/ActorSystem.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { setSuspension } from "./AdminWorkspaces.ts"
import { changePlan } from "./BillingChanges.ts"
import { base, declare, lifecycle } from "./InternalLifecycle.ts"
import { provisionUser } from "./InternalServices.ts"
import { asService, audited, Paging, WorkspaceIdParams } from "./Shared.ts"
import { existingWorkspace, inspectWorkspace, OperatorWorkspace } from "./WorkspaceInspection.ts"

const Reason = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(500))

const Listed = Schema.Struct({
  id: Id,
  name: Schema.String,
  ownerId: Id,
  memberCount: Schema.Number,
  suspended: Schema.Boolean,
  createdAt: Timestamp
}).annotate({ identifier: "InternalWorkspaceListing" })

export const internalWorkspacesOperations = [
  declare({
    operationId: "listInternalWorkspaces",
    method: "GET",
    path: base,
    summary: "Every workspace (name or id filter), newest first",
    query: Schema.Struct({ q: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(200))), ...Paging }),
    responses: {
      200: {
        description: "Workspaces",
        schema: Schema.Struct({ items: Schema.Array(Listed), limit: Schema.Number, offset: Schema.Number })
      }
    },
    handler: ({ query }, context) =>
      Effect.gen(function* () {
        yield* asService(context)
        const limit = query.limit ?? 50
        const offset = query.offset ?? 0
        return { items: yield* Effect.orDie(allWorkspaces(query.q ?? "", limit, offset)), limit, offset }
      })
  }),
  declare({
    operationId: "provisionInternalWorkspace",
    method: "POST",
    path: base,
    summary: "Provision a workspace for an owner (registered by e-mail when new), optionally on a plan",
    body: Schema.Struct({
      name: Name(),
      ownerEmail: Email,
      ownerName: Name(),
      planId: Schema.optionalKey(PlanId),
      seats: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 5000 })))
    }),
    responses: {
      201: { description: "Provisioned", schema: Schema.Struct({ workspace: OperatorWorkspace, ownerCreated: Schema.Boolean }) }
    },
    handler: ({ body }, context) =>
      Effect.gen(function* () {
        const caller = yield* asService(context)
        const { user, created } = yield* provisionUser(body.ownerEmail, body.ownerName)
        const workspaceId = crypto.randomUUID()
        yield* Workspace.client(yield* ActorSystem)(workspaceId).create({ by: user.id, name: body.name })
        if (body.planId !== undefined) yield* changePlan(workspaceId, caller.actor, body.planId, body.seats)
        yield* audited({
          actor: caller.actor,
          action: "workspace.provisioned",
          targetType: "workspace",
          targetId: workspaceId,
          workspaceId,
          data: { ownerId: user.id, planId: body.planId ?? null }
        })
        return { workspace: yield* inspectWorkspace(workspaceId), ownerCreated: created }
      })
  }),
  declare({
    operationId: "getInternalWorkspace",
    method: "GET",
    path: `${base}/{workspaceId}`,
    summary: "A workspace with owner, members, suspension, limits, quota and usage (deleted ones too)",
    params: WorkspaceIdParams,
    responses: { 200: { description: "The workspace", schema: OperatorWorkspace }, 404: { description: "No such workspace" } },
    handler: ({ params }, context) => Effect.flatMap(asService(context), () => inspectWorkspace(params.workspaceId))
  }),
  declare({
    operationId: "renameInternalWorkspace",
    method: "PATCH",
    path: `${base}/{workspaceId}`,
    summary: "Rename a workspace",
    params: WorkspaceIdParams,
    body: Schema.Struct({ name: Name() }),
    responses: { 200: { description: "The workspace", schema: OperatorWorkspace }, 404: { description: "No such workspace" } },
    handler: ({ params, body }, context) =>
      lifecycle(
        context,
        params.workspaceId,
        "workspace.renamed",
        (_actor, ws) =>
          Effect.gen(function* () {
            return yield* Workspace.client(yield* ActorSystem)(params.workspaceId).rename({ by: ws.ownerId, name: body.name })
          }),
        { name: body.name }
      )
  }),
  declare({
    operationId: "suspendInternalWorkspace",
    method: "POST",
    path: `${base}/{workspaceId}/suspend`,
    summary: "Suspend a workspace: its members are refused, with the reason, until it is resumed",
    params: WorkspaceIdParams,
    body: Schema.Struct({ reason: Reason }),
    responses: { 200: { description: "The workspace", schema: OperatorWorkspace }, 404: { description: "No such workspace" } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* asService(context)
        yield* existingWorkspace(params.workspaceId)
        yield* setSuspension(params.workspaceId, caller.actor, true, body.reason)
        return yield* inspectWorkspace(params.workspaceId)
      })
  }),
  declare({
    operationId: "resumeInternalWorkspace",
    method: "POST",
    path: `${base}/{workspaceId}/resume`,
    summary: "Resume a suspended workspace",
    params: WorkspaceIdParams,
    responses: { 200: { description: "The workspace", schema: OperatorWorkspace }, 404: { description: "No such workspace" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* asService(context)
        yield* existingWorkspace(params.workspaceId)
        yield* setSuspension(params.workspaceId, caller.actor, false, undefined)
        return yield* inspectWorkspace(params.workspaceId)
      })
  }),
  declare({
    operationId: "deleteInternalWorkspace",
    method: "DELETE",
    path: `${base}/{workspaceId}`,
    summary: "Delete a workspace (restorable for 30 days); a suspended one is resumed first",
    params: WorkspaceIdParams,
    responses: { 200: { description: "The workspace, deleted", schema: OperatorWorkspace }, 404: { description: "No such workspace" } },
    handler: ({ params }, context) =>
      lifecycle(context, params.workspaceId, "workspace.deleted", (actor, ws) =>
        Effect.gen(function* () {
          const actors = yield* ActorSystem
          yield* Workspace.client(actors)(params.workspaceId).resume({ by: actor })
          yield* Workspace.client(actors)(params.workspaceId).delete({ by: ws.ownerId })
        })
      )
  }),
  declare({
    operationId: "restoreInternalWorkspace",
    method: "POST",
    path: `${base}/{workspaceId}/restore`,
    summary: "Restore a deleted workspace (within 30 days of its deletion)",
    params: WorkspaceIdParams,
    responses: {
      200: { description: "The workspace", schema: OperatorWorkspace },
      404: { description: "No deleted workspace with this id" }
    },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* asService(context)
        const actors = yield* ActorSystem
        const ws = yield* Workspace.client(actors)(params.workspaceId).inspect({})
        if (ws.exists) return yield* reject("conflict", "The workspace is not deleted")
        yield* Workspace.client(actors)(params.workspaceId).restore({ by: ws.ownerId })
        yield* audited({
          actor: caller.actor,
          action: "workspace.restored",
          targetType: "workspace",
          targetId: params.workspaceId,
          workspaceId: params.workspaceId
        })
        return yield* inspectWorkspace(params.workspaceId)
      })
  }),
  declare({
    operationId: "transferInternalWorkspaceOwnership",
    method: "POST",
    path: `${base}/{workspaceId}/transfer-ownership`,
    summary: "Make another member the owner (the previous owner becomes an admin)",
    params: WorkspaceIdParams,
    body: Schema.Struct({ userId: Id }),
    responses: { 200: { description: "The workspace", schema: OperatorWorkspace }, 400: { description: "Not a member" } },
    handler: ({ params, body }, context) =>
      lifecycle(
        context,
        params.workspaceId,
        "workspace.ownership_transferred",
        (_actor, ws) =>
          Effect.gen(function* () {
            return yield* Workspace.client(yield* ActorSystem)(params.workspaceId).transferOwnership({
              by: ws.ownerId,
              userId: body.userId
            })
          }),
        { to: body.userId }
      )
  })
]
