/** Lens Credits Resource (5): a workspace's balance, its ledger, adding or setting credits (admins), and the price list. */
import { Effect, Schema } from "effect"
import { Id, Timestamp } from "../../actors/Fields.ts"
import { LensAccount } from "../../actors/lens/LensAccount.ts"
import { creditsFor, initialCredits, LedgerEntry, ledgerOf } from "../../actors/lens/Metering.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { principalOf, workspaceRole } from "../Access.ts"
import { tagGroup } from "../Operation.ts"
import { orDieSql } from "../pm/WorkAccess.ts"

import { creditsExamples } from "./Credits.examples.ts"
const params = Schema.Struct({ workspaceId: Id })

const Balance = Schema.Struct({ workspaceId: Id, balance: Schema.Number, updatedAt: Timestamp }).annotate({ identifier: "LensCredits" })
const Amount = Schema.Number.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 1_000_000 }))
const Reason = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200))

const balance = (workspaceId: string) =>
  Effect.flatMap(ActorSystem, (actors) =>
    Effect.map(LensAccount.client(actors)(workspaceId).balance({}), (account) => ({ workspaceId, ...account }))
  )

/** Changes the balance as an admin; the account actor commits it with its ledger entry. */
const change = (workspaceId: string, change: { delta: number } | { balance: number }, reason: string, userId: string) =>
  Effect.flatMap(ActorSystem, (actors) =>
    Effect.map(LensAccount.client(actors)(workspaceId).change({ userId, reason, change }), (account) => ({ workspaceId, ...account }))
  )

const { operation } = tagGroup("hub", "Lens Credits Resource", creditsExamples)

export const creditOperations = [
  operation({
    operationId: "getLensCredits",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/lens/credits",
    summary: "The workspace's Lens credit balance",
    auth: "jwt",
    scopes: [],
    params,
    responses: { 200: { description: "Balance", schema: Balance } },
    handler: ({ params }, context) => Effect.flatMap(workspaceRole(context, params.workspaceId), () => balance(params.workspaceId))
  }),
  operation({
    operationId: "addLensCredits",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/lens/credits",
    summary: "Add credits to the workspace's Lens balance (admin)",
    auth: "jwt",
    scopes: [],
    params,
    body: Schema.Struct({ amount: Amount, reason: Schema.optionalKey(Reason) }),
    responses: { 200: { description: "New balance", schema: Balance } },
    handler: ({ params, body }, context) =>
      orDieSql(
        Effect.gen(function* () {
          yield* workspaceRole(context, params.workspaceId, "admin")
          const principal = yield* principalOf(context)
          return yield* change(params.workspaceId, { delta: body.amount }, body.reason ?? "top-up", principal.userId)
        })
      )
  }),
  operation({
    operationId: "setLensCredits",
    method: "PUT",
    path: "/v1/workspaces/{workspaceId}/lens/credits",
    summary: "Set the workspace's Lens balance to an exact amount (admin); the difference is in the ledger",
    auth: "jwt",
    scopes: [],
    params,
    body: Schema.Struct({
      balance: Schema.Number.check(Schema.isInt(), Schema.isBetween({ minimum: 0, maximum: 10_000_000 })),
      reason: Schema.optionalKey(Reason)
    }),
    responses: { 200: { description: "New balance", schema: Balance } },
    handler: ({ params, body }, context) =>
      orDieSql(
        Effect.gen(function* () {
          yield* workspaceRole(context, params.workspaceId, "admin")
          const principal = yield* principalOf(context)
          return yield* change(params.workspaceId, { balance: body.balance }, body.reason ?? "set balance", principal.userId)
        })
      )
  }),
  operation({
    operationId: "listLensCreditLedger",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/lens/credits/ledger",
    summary: "Every change of the Lens balance, newest first: runs deducted, top-ups (admin)",
    auth: "jwt",
    scopes: [],
    params,
    query: Schema.Struct({
      limit: Schema.optionalKey(Schema.FiniteFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 200 }))),
      offset: Schema.optionalKey(Schema.FiniteFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 0, maximum: 1_000_000 })))
    }),
    responses: { 200: { description: "Ledger", schema: Schema.Struct({ items: Schema.Array(LedgerEntry) }) } },
    handler: ({ params, query }, context) =>
      orDieSql(
        Effect.gen(function* () {
          yield* workspaceRole(context, params.workspaceId, "admin")
          return { items: yield* ledgerOf(params.workspaceId, query.limit ?? 50, query.offset ?? 0) }
        })
      )
  }),
  operation({
    operationId: "getLensCreditPrices",
    method: "GET",
    path: "/v1/lens/credits/prices",
    summary: "What Lens runs cost in credits, and what a new workspace starts with",
    auth: "jwt",
    scopes: [],
    responses: {
      200: {
        description: "Prices",
        schema: Schema.Struct({
          localRun: Schema.Number,
          modelPerThousandTokens: Schema.Number,
          minimumModelCall: Schema.Number,
          initialCredits: Schema.Number
        })
      }
    },
    handler: () =>
      Effect.succeed({
        localRun: creditsFor("local", 0),
        modelPerThousandTokens: creditsFor("model", 1000),
        minimumModelCall: creditsFor("model", 1),
        initialCredits: initialCredits()
      })
  })
]
