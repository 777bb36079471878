/**
 * Ai Flow Function Resource (2) and Ai Method Resource (1): the named,
 * versioned prompt flows the hub runs (meeting summary, action items,
 * enhanced notes), listed and invocable on a call's transcript or on given
 * segments. They run the hub's own summarizer (local, or the configured
 * model), are metered like every Lens run, and answer 402 without credits.
 */
import { Effect, Schema } from "effect"
import { HubCall } from "../../actors/hub/CallActor.ts"
import { Summarizer } from "../../actors/hub/summarizer/Summarizer.ts"
import { ActionItem } from "../../actors/hub/summarizer/VersionContent.ts"
import { inputsOf } from "../../actors/hub/summarizer/VersionInputs.ts"
import { checkSegments, Segment } from "../../actors/hub/Transcript.ts"
import { Id } from "../../actors/Fields.ts"
import { charge, requireCredits } from "../../actors/lens/LensAccount.ts"
import { tokensOf } from "../../actors/lens/Metering.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { reject } from "../../runtime/Rejection.ts"
import { principalOf, workspaceRole } from "../Access.ts"
import { onCall } from "../hub/calls/CallAccess.ts"
import { tagGroup } from "../Operation.ts"
import { orDieSql } from "../pm/WorkAccess.ts"

import { flows } from "./Flows.ts"
import { aiFlowFunctionResourceExamples, aiMethodResourceExamples } from "./AiFlows.examples.ts"

const FlowInfo = Schema.Struct({
  name: Schema.String,
  version: Schema.Number,
  description: Schema.String,
  output: Schema.Array(Schema.String)
}).annotate({
  identifier: "AiFlowFunction"
})

const FlowResult = Schema.Struct({
  flow: Schema.String,
  version: Schema.Number,
  engine: Schema.String,
  summary: Schema.optionalKey(Schema.String),
  keyPoints: Schema.optionalKey(Schema.Array(Schema.String)),
  actionItems: Schema.optionalKey(Schema.Array(ActionItem)),
  enhancedNotes: Schema.optionalKey(Schema.String)
}).annotate({ identifier: "AiFlowResult" })

const RunBody = Schema.Struct({
  workspaceId: Id,
  version: Schema.optionalKey(Schema.Number.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 1000 }))),
  callId: Schema.optionalKey(Schema.Number.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }))),
  segments: Schema.optionalKey(Schema.Array(Segment).check(Schema.isMinLength(1), Schema.isMaxLength(5000))),
  prompt: Schema.optionalKey(Schema.NullOr(Schema.String.check(Schema.isMaxLength(4000)))),
  meetingDate: Schema.optionalKey(Schema.String.check(Schema.isPattern(/^\d{4}-\d{2}-\d{2}$/, { expected: "YYYY-MM-DD" })))
})

const flowNamed = (name: string, version: number | undefined) => {
  const flow = flows.find((f) => f.name === name && (version === undefined || f.version === version))
  return flow
    ? Effect.succeed(flow)
    : Effect.fail(
        reject("not_found", `No AI flow ${name}${version ? ` version ${version}` : ""}`, [
          { path: "path.name", message: `one of ${flows.map((f) => f.name).join(", ")}` }
        ])
      )
}

const aiFlowFunctionResourceTag = tagGroup("hub", "Ai Flow Function Resource", aiFlowFunctionResourceExamples)
const aiMethodResourceTag = tagGroup("hub", "Ai Method Resource", aiMethodResourceExamples)

export const aiFlowOperations = [
  aiFlowFunctionResourceTag.operation({
    operationId: "listAiFlowFunctions",
    method: "GET",
    path: "/v1/ai/flows",
    summary: "The named, versioned prompt flows the hub runs",
    auth: "jwt",
    scopes: [],
    responses: { 200: { description: "Flows", schema: Schema.Struct({ items: Schema.Array(FlowInfo) }) } },
    handler: () => Effect.succeed({ items: flows })
  }),
  aiFlowFunctionResourceTag.operation({
    operationId: "runAiFlowFunction",
    method: "POST",
    path: "/v1/ai/flows/{name}/run",
    summary: "Run a flow on a call's transcript (`callId`) or on given `segments`; metered, 402 without credits",
    auth: "jwt",
    scopes: [],
    params: Schema.Struct({ name: Schema.String }),
    body: RunBody,
    responses: {
      200: { description: "The flow's output", schema: FlowResult },
      402: { description: "No Lens credits left" },
      404: { description: "No such flow or call" }
    },
    handler: ({ params, body }, context) =>
      orDieSql(
        Effect.gen(function* () {
          const flow = yield* flowNamed(params.name, body.version)
          yield* workspaceRole(context, body.workspaceId)
          const principal = yield* principalOf(context)
          if ((body.callId === undefined) === (body.segments === undefined)) {
            return yield* reject("invalid", "Give either callId or segments", [
              { path: "body.segments", message: "exactly one of callId and segments" }
            ])
          }
          let segments: ReadonlyArray<Segment>
          if (body.callId !== undefined) {
            const access = yield* onCall(context, body.callId)
            if (access.recording.workspaceId !== body.workspaceId) return yield* reject("not_found", "No such call")
            segments = yield* (yield* ActorSystem).ask(HubCall, String(access.recordingId), "transcript", {})
          } else segments = yield* checkSegments(body.segments!, "body.segments")
          yield* requireCredits(body.workspaceId)
          const summarizer = yield* Summarizer
          const started = performance.now()
          const content = yield* summarizer
            .generate({
              segments,
              inputs: inputsOf(null, { callPrompt: body.prompt ?? null, calendarPrompt: null, notes: null }, null),
              meetingDate: body.meetingDate ?? new Date().toISOString().slice(0, 10)
            })
            .pipe(Effect.mapError((error) => reject("bad_gateway", `The summarizer failed: ${error.message}`)))
          const result = {
            flow: flow.name,
            version: flow.version,
            engine: summarizer.name,
            ...Object.fromEntries(flow.output.map((key) => [key, content[key]]))
          }
          yield* charge(body.workspaceId, [
            {
              userId: principal.userId,
              engine: summarizer.name === "local" ? "local" : "model",
              purpose: `flow:${flow.name}`,
              model: summarizer.name === "local" ? null : summarizer.name,
              promptTokens: segments.reduce((sum, s) => sum + tokensOf(s.text), 0),
              completionTokens: tokensOf(JSON.stringify(result)),
              durationMs: performance.now() - started
            }
          ])
          return result
        })
      )
  }),
  aiMethodResourceTag.operation({
    operationId: "listAiMethods",
    method: "GET",
    path: "/v1/ai/methods",
    summary: "The AI methods (flow name and version) each hub output is generated with, and the engine running them",
    auth: "jwt",
    scopes: [],
    responses: {
      200: {
        description: "Methods",
        schema: Schema.Struct({
          engine: Schema.String,
          items: Schema.Array(Schema.Struct({ output: Schema.String, flow: Schema.String, version: Schema.Number }))
        })
      }
    },
    handler: () =>
      Effect.map(Summarizer.use(Effect.succeed), (summarizer) => ({
        engine: summarizer.name,
        items: flows.flatMap((flow) => flow.output.map((output) => ({ output, flow: flow.name, version: flow.version })))
      }))
  })
]
