/**
 * Lens Microservice Resource (3): the health and configuration of the
 * pipeline's parts. Health is measured, not declared: each part is run on a
 * probe (the router on a question, each retriever on the caller's workspace,
 * the index on the passages found, the model by reaching its base URL).
 */
import { Effect, Schema } from "effect"
import { Id } from "../../actors/Fields.ts"
import { defaultOptions } from "../../actors/lens/Engine.ts"
import { initialCredits } from "../../actors/lens/Metering.ts"
import { rank } from "../../actors/lens/Ranking.ts"
import { retrieve } from "../../actors/lens/Retrievers.ts"
import { routeQuestion } from "../../actors/lens/Router.ts"
import type { SourceType } from "../../actors/lens/Passage.ts"
import { reject } from "../../runtime/Rejection.ts"
import { lensCaller } from "./LensRun.ts"
import { type RequestContext, tagGroup } from "../Operation.ts"

import { microservicesExamples } from "./Microservices.examples.ts"

const PartName = Schema.Literals([
  "router",
  "retriever-transcripts",
  "retriever-tasks",
  "retriever-pages",
  "retriever-integrations",
  "index",
  "synthesis",
  "model"
])
type PartName = typeof PartName.Type

const Part = Schema.Struct({
  name: PartName,
  status: Schema.Literals(["up", "down", "not_configured"]),
  latencyMs: Schema.Number,
  detail: Schema.String
}).annotate({ identifier: "LensMicroservice" })
type Part = typeof Part.Type

const llm = () => ({
  baseUrl: process.env.LLM_BASE_URL ?? null,
  model: process.env.LLM_MODEL ?? null,
  apiKeySet: Boolean(process.env.LLM_API_KEY)
})

const timed = <R>(name: PartName, body: Effect.Effect<{ status: Part["status"]; detail: string }, never, R>) =>
  Effect.suspend(() => {
    const started = performance.now()
    return Effect.map(body, (result): Part => ({ name, ...result, latencyMs: Math.round((performance.now() - started) * 100) / 100 }))
  })

const retrieverProbe = (context: RequestContext, workspaceId: string, source: SourceType) =>
  Effect.flatMap(lensCaller(context, workspaceId), (caller) =>
    Effect.map(retrieve(caller.asker, [source]), (passages) => ({
      status: "up" as const,
      detail: `${passages.length} passages readable by you`
    }))
  )

const probes = (
  context: RequestContext,
  workspaceId: string
): Record<PartName, Effect.Effect<{ status: Part["status"]; detail: string }, any, any>> => ({
  router: Effect.sync(() => {
    const decision = routeQuestion("What is the status of the billing migration?")
    return {
      status: decision.route === "fan_out" ? ("up" as const) : ("down" as const),
      detail: `rules router: probe routed ${decision.route}`
    }
  }),
  "retriever-transcripts": retrieverProbe(context, workspaceId, "transcript"),
  "retriever-tasks": retrieverProbe(context, workspaceId, "task"),
  "retriever-pages": retrieverProbe(context, workspaceId, "page"),
  "retriever-integrations": retrieverProbe(context, workspaceId, "integration"),
  index: Effect.sync(() => {
    const ranked = rank(
      [{ key: "probe", sourceType: "page", sourceId: "probe", title: "Probe", text: "billing migration status" }],
      "billing migration",
      1
    )
    return {
      status: ranked.length === 1 ? ("up" as const) : ("down" as const),
      detail: "BM25 (minisearch) index built per question from readable passages"
    }
  }),
  synthesis: Effect.succeed({ status: "up" as const, detail: "extractive synthesis with numbered citations (local)" }),
  model: Effect.gen(function* () {
    const config = llm()
    if (config.baseUrl === null || config.model === null)
      return { status: "not_configured" as const, detail: "LLM_BASE_URL / LLM_MODEL not set: the local engine answers" }
    const reachable = yield* Effect.tryPromise(() =>
      fetch(`${config.baseUrl!.replace(/\/$/, "")}/models`, { signal: AbortSignal.timeout(3000) })
    ).pipe(
      Effect.map((response) => response.status < 500),
      Effect.orElseSucceed(() => false)
    )
    return { status: reachable ? ("up" as const) : ("down" as const), detail: `${config.model} at ${config.baseUrl}` }
  })
})
const params = Schema.Struct({ workspaceId: Id })

const { operation } = tagGroup("hub", "Lens Microservice Resource", microservicesExamples)

export const microserviceOperations = [
  operation({
    operationId: "listLensMicroservices",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/lens/microservices",
    summary: "Health of every part of the Lens pipeline, probed now in this workspace",
    auth: "jwt",
    scopes: [],
    params,
    responses: { 200: { description: "Parts", schema: Schema.Struct({ items: Schema.Array(Part) }) } },
    handler: ({ params }, context) =>
      Effect.flatMap(lensCaller(context, params.workspaceId), () =>
        Effect.map(
          Effect.forEach(Object.entries(probes(context, params.workspaceId)), ([name, probe]) =>
            timed(name as PartName, Effect.orDie(probe))
          ),
          (items) => ({ items })
        )
      )
  }),
  operation({
    operationId: "getLensMicroservice",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/lens/microservices/{name}",
    summary: "Health of one part of the Lens pipeline",
    auth: "jwt",
    scopes: [],
    params: Schema.Struct({ workspaceId: Id, name: Schema.String }),
    responses: { 200: { description: "The part", schema: Part }, 404: { description: "No such part" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* lensCaller(context, params.workspaceId)
        const all = probes(context, params.workspaceId)
        if (!Object.hasOwn(all, params.name)) {
          return yield* reject("not_found", `No Lens part named ${params.name}`, [
            { path: "path.name", message: `one of ${Object.keys(all).join(", ")}` }
          ])
        }
        return yield* timed(params.name as PartName, Effect.orDie(all[params.name as PartName]))
      })
  }),
  operation({
    operationId: "getLensConfiguration",
    method: "GET",
    path: "/v1/lens/microservices/configuration",
    summary: "How the Lens pipeline is configured: engine, model, grading, agent limits, credits",
    auth: "jwt",
    scopes: [],
    responses: {
      200: {
        description: "Configuration (never the API key itself)",
        schema: Schema.Struct({
          engine: Schema.Literals(["local", "model"]),
          model: Schema.NullOr(Schema.String),
          modelBaseUrl: Schema.NullOr(Schema.String),
          modelApiKeySet: Schema.Boolean,
          minimumCoverage: Schema.Number,
          topK: Schema.Number,
          maxAgentSteps: Schema.Number,
          initialCredits: Schema.Number
        })
      }
    },
    handler: () =>
      Effect.sync(() => {
        const config = llm()
        return {
          // With all three LLM_* set the model routes, grades and writes answers; retrieval and ranking stay local.
          engine: config.baseUrl && config.model && config.apiKeySet ? ("model" as const) : ("local" as const),
          model: config.model,
          modelBaseUrl: config.baseUrl,
          modelApiKeySet: config.apiKeySet,
          minimumCoverage: defaultOptions.minimumCoverage,
          topK: defaultOptions.topK,
          maxAgentSteps: 4,
          initialCredits: initialCredits()
        }
      })
  })
]
