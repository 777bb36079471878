/**
 * pm tag "Internal Workspace Resource" (14): the workspace lifecycle for the
 * platform's other services (provisioning, billing, support tooling), with
 * an internal key: list, provision, inspect, rename, suspend, resume,
 * delete, restore, transfer ownership, set the plan, add and remove members,
 * export and usage. Changes that the identity workspace makes "by" someone
 * are made on behalf of its owner; every change is in the platform audit.
 */
import { Effect, Schema } from "effect"
import { Billing, Invoice, Subscription } from "../../actors/billing/Billing.ts"
import { PlanId } from "../../actors/billing/Plans.ts"
import { allWorkspaces, usersByEmails } from "../../actors/identity/IdentityQueries.ts"
import { AssignableRole, Workspace } from "../../actors/identity/Workspace.ts"
import { Email, Id, Name, normalizeEmail, Timestamp } from "../../actors/Fields.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { reject } from "../../runtime/Rejection.ts"
import { operation } from "../Operation.ts"
import { setSuspension } from "./AdminWorkspaces.ts"
import { changePlan } from "./BillingChanges.ts"
import { provisionUser } from "./InternalServices.ts"
import { asService, at, audited, ids, INTERNAL_NOTE, Paging, WorkspaceIdParams } from "./Shared.ts"
import { exampleOperatorWorkspace, existingWorkspace, inspectWorkspace, OperatorWorkspace } from "./WorkspaceInspection.ts"

const tag = "Internal Workspace Resource"
const service = "pm"
const base = "/v1/internal/workspaces"
const params = { workspaceId: ids.workspace }
const Reason = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(500))

const Listed = Schema.Struct({
  id: Id,
  name: Schema.String,
  ownerId: Id,
  memberCount: Schema.Number,
  suspended: Schema.Boolean,
  createdAt: Timestamp
}).annotate({ identifier: "InternalWorkspaceListing" })

/** An internal change on the workspace's behalf, then the workspace as it now is. */
const lifecycle = <A, E, R>(
  context: Parameters<typeof asService>[0],
  workspaceId: string,
  action: string,
  change: (actor: string, ws: { ownerId: string; members: ReadonlyArray<{ userId: string }> }) => Effect.Effect<A, E, R>,
  data: Record<string, unknown> = {}
) =>
  Effect.gen(function* () {
    const caller = yield* asService(context)
    const ws = yield* existingWorkspace(workspaceId)
    yield* change(caller.actor, ws)
    yield* audited({ actor: caller.actor, action, targetType: "workspace", targetId: workspaceId, workspaceId, data })
    return yield* inspectWorkspace(workspaceId)
  })

const declare = <P extends Schema.Top | undefined, Q extends Schema.Top | undefined, B extends Schema.Top | undefined, R>(
  definition: Omit<Parameters<typeof operation<P, Q, B, R>>[0], "service" | "tag" | "auth" | "scopes" | "description"> & {
    description?: string
  }
) =>
  operation<P, Q, B, R>({
    ...definition,
    service,
    tag,
    auth: "public",
    scopes: [],
    description: `${INTERNAL_NOTE}${definition.description ? ` ${definition.description}` : ""}`
  })

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
    examples: [
      {
        name: "all",
        request: { query: { q: "Acme" } },
        response: {
          status: 200,
          body: {
            items: [{ id: ids.workspace, name: "Acme", ownerId: ids.owner, memberCount: 3, suspended: false, createdAt: at }],
            limit: 50,
            offset: 0
          }
        }
      }
    ],
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
    examples: [
      {
        name: "provision",
        request: { body: { name: "Acme", ownerEmail: "alice@example.com", ownerName: "Alice", planId: "team", seats: 10 } },
        response: { status: 201, body: { workspace: exampleOperatorWorkspace, ownerCreated: false } }
      }
    ],
    handler: ({ body }, context) =>
      Effect.gen(function* () {
        const caller = yield* asService(context)
        const { user, created } = yield* provisionUser(body.ownerEmail, body.ownerName)
        const workspaceId = crypto.randomUUID()
        yield* (yield* ActorSystem).ask(Workspace, workspaceId, "create", { by: user.id, name: body.name })
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
    examples: [{ name: "read", request: { params }, response: { status: 200, body: exampleOperatorWorkspace } }],
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
    examples: [
      {
        name: "rename",
        request: { params, body: { name: "Acme Inc." } },
        response: { status: 200, body: { ...exampleOperatorWorkspace, name: "Acme Inc." } }
      }
    ],
    handler: ({ params, body }, context) =>
      lifecycle(
        context,
        params.workspaceId,
        "workspace.renamed",
        (_actor, ws) =>
          Effect.gen(function* () {
            return yield* (yield* ActorSystem).ask(Workspace, params.workspaceId, "rename", { by: ws.ownerId, name: body.name })
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
    examples: [
      {
        name: "suspend",
        request: { params, body: { reason: "Unpaid invoices" } },
        response: {
          status: 200,
          body: { ...exampleOperatorWorkspace, status: "suspended", suspension: { at, by: "internal:billing", reason: "Unpaid invoices" } }
        }
      }
    ],
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
    examples: [{ name: "resume", request: { params }, response: { status: 200, body: exampleOperatorWorkspace } }],
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
    examples: [
      {
        name: "delete",
        request: { params },
        response: { status: 200, body: { ...exampleOperatorWorkspace, status: "deleted", deletedAt: at } }
      }
    ],
    handler: ({ params }, context) =>
      lifecycle(context, params.workspaceId, "workspace.deleted", (actor, ws) =>
        Effect.gen(function* () {
          const actors = yield* ActorSystem
          yield* actors.ask(Workspace, params.workspaceId, "resume", { by: actor })
          yield* actors.ask(Workspace, params.workspaceId, "delete", { by: ws.ownerId })
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
    examples: [{ name: "restore", request: { params }, response: { status: 200, body: exampleOperatorWorkspace } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* asService(context)
        const actors = yield* ActorSystem
        const ws = yield* actors.ask(Workspace, params.workspaceId, "inspect", {})
        if (ws.exists) return yield* reject("conflict", "The workspace is not deleted")
        yield* actors.ask(Workspace, params.workspaceId, "restore", { by: ws.ownerId })
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
    examples: [
      { name: "transfer", request: { params, body: { userId: ids.member } }, response: { status: 200, body: exampleOperatorWorkspace } }
    ],
    handler: ({ params, body }, context) =>
      lifecycle(
        context,
        params.workspaceId,
        "workspace.ownership_transferred",
        (_actor, ws) =>
          Effect.gen(function* () {
            return yield* (yield* ActorSystem).ask(Workspace, params.workspaceId, "transferOwnership", {
              by: ws.ownerId,
              userId: body.userId
            })
          }),
        { to: body.userId }
      )
  }),
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
    examples: [
      {
        name: "team",
        request: { params, body: { planId: "team", seats: 10 } },
        response: {
          status: 200,
          body: {
            subscription: {
              planId: "team",
              seats: 10,
              status: "active",
              cancelAtPeriodEnd: false,
              currentPeriodStart: at,
              currentPeriodEnd: "2026-12-21T12:00:00.000Z",
              contact: { email: null, companyName: null, taxId: null, address: null },
              updatedAt: at
            },
            invoice: null
          }
        }
      }
    ],
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
    examples: [
      {
        name: "add",
        request: { params, body: { email: "bob@example.com", name: "Bob", role: "member" } },
        response: { status: 200, body: exampleOperatorWorkspace }
      }
    ],
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
              yield* (yield* ActorSystem).ask(Workspace, params.workspaceId, "admit", {
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
    examples: [
      { name: "remove", request: { params: { ...params, userId: ids.member } }, response: { status: 200, body: exampleOperatorWorkspace } }
    ],
    handler: ({ params }, context) =>
      lifecycle(
        context,
        params.workspaceId,
        "member.removed",
        (_actor, ws) =>
          Effect.gen(function* () {
            return yield* (yield* ActorSystem).ask(Workspace, params.workspaceId, "removeMember", {
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
    examples: [
      {
        name: "export",
        request: { params },
        response: {
          status: 200,
          body: {
            exportedAt: at,
            workspace: exampleOperatorWorkspace,
            subscription: {
              planId: "free",
              seats: null,
              status: "active",
              cancelAtPeriodEnd: false,
              currentPeriodStart: null,
              currentPeriodEnd: null,
              contact: { email: null, companyName: null, taxId: null, address: null },
              updatedAt: null
            },
            invoices: []
          }
        }
      }
    ],
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
    examples: [
      {
        name: "usage",
        request: { params },
        response: {
          status: 200,
          body: {
            workspaceId: ids.workspace,
            usage: exampleOperatorWorkspace.usage,
            limits: exampleOperatorWorkspace.limits,
            quota: exampleOperatorWorkspace.quota,
            overQuota: []
          }
        }
      }
    ],
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
