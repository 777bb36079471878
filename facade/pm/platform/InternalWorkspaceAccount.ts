/**
 * pm tag "Internal Workspace Resource", continued: the plan and seats, members
 * added (registered by e-mail when new) and removed, the account export and
 * usage against seats and quota.
 */
import { Effect, Schema } from "effect"
import { Billing, Invoice, Subscription } from "../../../actors/billing/Billing.ts"
import { PlanId } from "../../../actors/billing/Plans.ts"
import { usersByEmails } from "../../../actors/identity/IdentityQueries.ts"
import { AssignableRole, Workspace } from "../../../actors/identity/Workspace.ts"
import { Email, Id, Name, normalizeEmail, Timestamp } from "../../../actors/Fields.ts"
import { ActorSystem } from "../../../runtime/ActorSystem.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { changePlan } from "./BillingChanges.ts"
import { base, declare, lifecycle } from "./InternalLifecycle.ts"
import { provisionUser } from "./InternalServices.ts"
import { asService, audited, WorkspaceIdParams } from "./Shared.ts"
import { inspectWorkspace, OperatorWorkspace } from "./WorkspaceInspection.ts"

export const internalWorkspaceAccountOperations = [
  declare({
    operationId: "setInternalWorkspacePlan",
    method: "PUT",
    path: `${base}/{workspaceId}/plan`,
    summary: "Put a workspace on a plan with a number of seats (at least its members); the seats bound its members",
    params: WorkspaceIdParams,
    body: Schema.Struct({ planId: PlanId, seats: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 5000 }))) }),
    responses: {
      200: {
        description: "The subscription and the invoice for the period",
        schema: Schema.Struct({ subscription: Subscription, invoice: Schema.NullOr(Invoice) })
      },
      409: { description: "Fewer seats than members" }
    },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* asService(context)
        const result = yield* changePlan(params.workspaceId, caller.actor, body.planId, body.seats)
        yield* audited({
          actor: caller.actor,
          action: "billing.plan_set",
          targetType: "workspace",
          targetId: params.workspaceId,
          workspaceId: params.workspaceId,
          data: { ...body }
        })
        return result
      })
  }),
  declare({
    operationId: "addInternalWorkspaceMember",
    method: "POST",
    path: `${base}/{workspaceId}/members`,
    summary: "Add a user (registered by e-mail when new) to a workspace with a role; refused beyond its seats or quota",
    params: WorkspaceIdParams,
    body: Schema.Struct({ email: Email, name: Schema.optionalKey(Name()), role: AssignableRole }),
    responses: {
      200: { description: "The workspace", schema: OperatorWorkspace },
      409: { description: "Already a member, or no seat left" }
    },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const email = normalizeEmail(body.email)
        const known = (yield* Effect.orDie(usersByEmails([email]))).get(email)
        if (known === undefined && body.name === undefined)
          return yield* reject("invalid", "No user with this e-mail: give a name to register them", [
            { path: "body.name", message: "required for a new user" }
          ])
        return yield* lifecycle(
          context,
          params.workspaceId,
          "member.added",
          (actor) =>
            Effect.gen(function* () {
              const { user } = known !== undefined ? { user: known } : yield* provisionUser(email, body.name!)
              yield* Workspace.client(yield* ActorSystem)(params.workspaceId).admit({
                userId: user.id,
                role: body.role,
                via: "internal",
                by: actor
              })
            }),
          { email, role: body.role }
        )
      })
  }),
  declare({
    operationId: "removeInternalWorkspaceMember",
    method: "DELETE",
    path: `${base}/{workspaceId}/members/{userId}`,
    summary: "Remove a member from a workspace (not its owner)",
    params: Schema.Struct({ workspaceId: Id, userId: Id }),
    responses: { 200: { description: "The workspace", schema: OperatorWorkspace }, 404: { description: "No such member" } },
    handler: ({ params }, context) =>
      lifecycle(
        context,
        params.workspaceId,
        "member.removed",
        (_actor, ws) =>
          Effect.gen(function* () {
            return yield* Workspace.client(yield* ActorSystem)(params.workspaceId).removeMember({
              by: ws.ownerId,
              userId: params.userId,
              reason: "internal"
            })
          }),
        { userId: params.userId }
      )
  }),
  declare({
    operationId: "exportInternalWorkspace",
    method: "GET",
    path: `${base}/{workspaceId}/export`,
    summary: "Export a workspace's account data: the workspace, members, limits, quota, usage, subscription and invoices",
    params: WorkspaceIdParams,
    responses: {
      200: {
        description: "The export",
        schema: Schema.Struct({
          exportedAt: Timestamp,
          workspace: OperatorWorkspace,
          subscription: Subscription,
          invoices: Schema.Array(Invoice)
        })
      },
      404: { description: "No such workspace" }
    },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* asService(context)
        const workspace = yield* inspectWorkspace(params.workspaceId)
        const actors = yield* ActorSystem
        const subscription = yield* actors.ask(Billing, params.workspaceId, "subscription", {})
        const invoices = yield* actors.ask(Billing, params.workspaceId, "invoices", {})
        yield* audited({
          actor: caller.actor,
          action: "workspace.exported",
          targetType: "workspace",
          targetId: params.workspaceId,
          workspaceId: params.workspaceId
        })
        return { exportedAt: new Date().toISOString(), workspace, subscription, invoices }
      })
  }),
  declare({
    operationId: "getInternalWorkspaceUsage",
    method: "GET",
    path: `${base}/{workspaceId}/usage`,
    summary: "What a workspace uses against its seats and quota",
    params: WorkspaceIdParams,
    responses: {
      200: {
        description: "Usage",
        schema: Schema.Struct({
          workspaceId: Id,
          usage: OperatorWorkspace.fields.usage,
          limits: OperatorWorkspace.fields.limits,
          quota: OperatorWorkspace.fields.quota,
          overQuota: Schema.Array(Schema.String)
        })
      },
      404: { description: "No such workspace" }
    },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* asService(context)
        const ws = yield* inspectWorkspace(params.workspaceId)
        const over = (
          [
            ["members", ws.usage.members, ws.quota.members],
            ["tasks", ws.usage.tasks, ws.quota.tasks],
            ["storageBytes", ws.usage.storageBytes, ws.quota.storageBytes]
          ] as const
        )
          .filter(([, used, limit]) => limit !== null && used > limit)
          .map(([name]) => name)
        return { workspaceId: ws.id, usage: ws.usage, limits: ws.limits, quota: ws.quota, overQuota: over }
      })
  })
]
