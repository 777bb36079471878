/**
 * hub tag "Test Resource" (8): try a connection before relying on it, and see
 * what happened. A signed test delivery to a webhook URL, a vendor's "who am
 * I" call with a token, a bot provider's and a language-model provider's
 * listing with their keys, a test mail through the outbox. Each run is
 * recorded (status, latency, error; never the secret) and listable. Workspace
 * admins run them; secrets are used for the one call and not kept.
 */
import { randomUUID } from "node:crypto"
import { Effect, Schema } from "effect"
import { sendMail } from "../../../actors/hub/Mail.ts"
import { probe, type ProbeOutcome } from "../../../actors/hub/Probe.ts"
import { clearTestRuns, recordTestRun, TestKind, TestRun, testRun, testRunsOf } from "../../../actors/hub/TestRuns.ts"
import { webhookHeaders } from "../../../actors/webhooks/StandardWebhooks.ts"
import { Id } from "../../../actors/Fields.ts"
import { principalOf, userOf, workspaceRole } from "../../Access.ts"
import { type RequestContext, tagGroup } from "../../Operation.ts"
import { WorkspaceParams } from "../../shared/WorkspaceAccess.ts"
import { testResourceExamples } from "./TestResource.examples.ts"

const Url = Schema.String.check(Schema.isMaxLength(2000), Schema.isPattern(/^https?:\/\/\S+$/, { expected: "an http(s) URL" }))
const Secret = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(4000))

/** The vendors the hub connects to, and the call each answers with the token's own account. */
export const integrationVendors = {
  tracker: { method: "GET", path: "/rest/api/3/myself", name: ["displayName", "emailAddress"] },
  taskapp: { method: "GET", path: "/api/1.0/users/me", name: ["data.name", "data.email"] },
  tablebase: { method: "GET", path: "/v0/meta/whoami", name: ["email", "id"] },
  docspace: { method: "GET", path: "/wiki/rest/api/user/current", name: ["displayName", "email"] },
  chatapp: { method: "POST", path: "/api/auth.test", name: ["user", "team"] },
  workchat: { method: "GET", path: "/v1.0/me", name: ["displayName", "mail"] },
  videomeet: { method: "GET", path: "/v2/users/me", name: ["display_name", "email"] },
  suite: { method: "GET", path: "/oauth2/v3/userinfo", name: ["name", "email"] }
} as const satisfies Record<string, { method: "GET" | "POST"; path: string; name: ReadonlyArray<string> }>
export type IntegrationVendor = keyof typeof integrationVendors
const Vendor = Schema.Literals(Object.keys(integrationVendors) as [IntegrationVendor, ...Array<IntegrationVendor>])

const pick = (json: unknown, path: string): unknown =>
  path
    .split(".")
    .reduce<unknown>(
      (value, key) => (value !== null && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined),
      json
    )

const joinUrl = (base: string, path: string) => base.replace(/\/+$/, "") + path

/** Admins only; the run is recorded under the caller. */
const asAdmin = (context: RequestContext, workspaceId: string) =>
  Effect.gen(function* () {
    yield* workspaceRole(context, workspaceId, "admin")
    return yield* principalOf(context)
  })

const record = (
  workspaceId: string,
  createdBy: string,
  kind: TestKind,
  target: string,
  outcome: Pick<ProbeOutcome, "ok" | "status" | "latencyMs" | "error">,
  detail: Record<string, unknown>
) =>
  recordTestRun({
    workspaceId,
    createdBy,
    kind,
    target,
    ok: outcome.ok,
    status: outcome.status,
    latencyMs: outcome.latencyMs,
    error: outcome.error,
    detail
  })

const RunParams = Schema.Struct({ workspaceId: Id, runId: Id })
const runResponses = { 201: { description: "The test ran; `ok` says whether it passed", schema: TestRun } }

const { operation } = tagGroup("hub", "Test Resource", testResourceExamples)

export const testResourceOperations = [
  operation({
    operationId: "testWebhookDelivery",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/tests/webhook",
    summary: "Send a test.ping delivery to a webhook URL (signed like real deliveries when a secret is given) and report the answer",
    description:
      "Signed with Standard Webhooks headers (webhook-id, webhook-timestamp, webhook-signature) from `secret` (whsec_…). Passes on a 2xx.",
    auth: "jwt",
    scopes: [],
    params: WorkspaceParams,
    body: Schema.Struct({ url: Url, secret: Schema.optionalKey(Secret) }),
    responses: runResponses,
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const principal = yield* asAdmin(context, params.workspaceId)
        const id = `msg_${randomUUID()}`
        const payload = JSON.stringify({ type: "test.ping", id, workspaceId: params.workspaceId, sentAt: new Date().toISOString() })
        const signing = body.secret ? webhookHeaders(body.secret, id, Math.floor(Date.now() / 1000), payload) : { "webhook-id": id }
        const outcome = yield* probe({
          method: "POST",
          url: body.url,
          headers: { "content-type": "application/json", ...signing },
          body: payload
        })
        return yield* record(params.workspaceId, principal.userId, "webhook", body.url, outcome, {
          event: "test.ping",
          signed: body.secret !== undefined,
          responseExcerpt: outcome.excerpt
        })
      })
  }),
  operation({
    operationId: "testIntegrationConnection",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/tests/integration",
    summary: "Check a vendor connection: call the vendor's own-account endpoint at its base URL with the token",
    description: `Per vendor: ${Object.entries(integrationVendors)
      .map(([vendor, call]) => `${vendor} ${call.method} ${call.path}`)
      .join("; ")}. Passes on a 2xx (chatapp: also \`ok: true\`); reports the account the token belongs to.`,
    auth: "jwt",
    scopes: [],
    params: WorkspaceParams,
    body: Schema.Struct({ vendor: Vendor, baseUrl: Url, accessToken: Secret }),
    responses: runResponses,
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const principal = yield* asAdmin(context, params.workspaceId)
        const call = integrationVendors[body.vendor]
        const url = joinUrl(body.baseUrl, call.path)
        const outcome = yield* probe({
          method: call.method,
          url,
          headers: { authorization: `Bearer ${body.accessToken}`, accept: "application/json" }
        })
        // A chat app answers 200 with ok:false for a bad token.
        const refused = body.vendor === "chatapp" && outcome.ok && pick(outcome.json, "ok") !== true
        const account = call.name.map((path) => pick(outcome.json, path)).find((value) => typeof value === "string" && value !== "")
        const result = refused
          ? { ...outcome, ok: false, error: `vendor refused: ${String(pick(outcome.json, "error") ?? "not ok")}` }
          : outcome
        return yield* record(params.workspaceId, principal.userId, "integration", url, result, {
          vendor: body.vendor,
          account: result.ok ? (account ?? null) : null
        })
      })
  }),
  operation({
    operationId: "testBotProvider",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/tests/bot-provider",
    summary: "Check a meeting-bot provider: list its bots with the API key and report the answer",
    description: "Calls GET {baseUrl}/api/v1/bot/?page_size=1 with `Authorization: Token <apiKey>`; passes on a 2xx.",
    auth: "jwt",
    scopes: [],
    params: WorkspaceParams,
    body: Schema.Struct({ baseUrl: Url, apiKey: Secret }),
    responses: runResponses,
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const principal = yield* asAdmin(context, params.workspaceId)
        const url = joinUrl(body.baseUrl, "/api/v1/bot/?page_size=1")
        const outcome = yield* probe({ method: "GET", url, headers: { authorization: `Token ${body.apiKey}`, accept: "application/json" } })
        const count = pick(outcome.json, "count")
        return yield* record(params.workspaceId, principal.userId, "bot_provider", url, outcome, {
          bots: typeof count === "number" ? count : null
        })
      })
  }),
  operation({
    operationId: "testLlmProvider",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/tests/llm-provider",
    summary: "Check an OpenAI-compatible model provider: list its models and whether `model` is among them",
    description: "Calls GET {baseUrl}/models (baseUrl usually ends in /v1). With `model`, passes only when it is listed.",
    auth: "jwt",
    scopes: [],
    params: WorkspaceParams,
    body: Schema.Struct({
      baseUrl: Url,
      apiKey: Schema.optionalKey(Secret),
      model: Schema.optionalKey(Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200)))
    }),
    responses: runResponses,
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const principal = yield* asAdmin(context, params.workspaceId)
        const url = joinUrl(body.baseUrl, "/models")
        const outcome = yield* probe({
          method: "GET",
          url,
          headers: { accept: "application/json", ...(body.apiKey ? { authorization: `Bearer ${body.apiKey}` } : {}) }
        })
        const data = pick(outcome.json, "data")
        const ids = Array.isArray(data) ? data.map((entry) => pick(entry, "id")).filter((id) => typeof id === "string") : []
        const listed = body.model === undefined ? null : ids.includes(body.model)
        const result = outcome.ok && listed === false ? { ...outcome, ok: false, error: `model ${body.model} is not offered` } : outcome
        return yield* record(params.workspaceId, principal.userId, "llm_provider", url, result, { models: ids.length, modelListed: listed })
      })
  }),
  operation({
    operationId: "testEmailDelivery",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/tests/email",
    summary: "Send a test mail to the caller through the configured SMTP server and report whether it was taken",
    auth: "jwt",
    scopes: [],
    params: WorkspaceParams,
    responses: runResponses,
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* asAdmin(context, params.workspaceId)
        const user = yield* userOf(context)
        const started = performance.now()
        const mail = yield* Effect.orDie(
          sendMail({
            to: user.email,
            userId: user.userId,
            kind: "test",
            subject: "Atrium test mail",
            text: `This is a test mail from Atrium, sent at ${new Date().toISOString()} to check the mail settings.`
          })
        )
        const outcome = {
          ok: mail.status === "sent",
          status: null,
          latencyMs: Math.round(performance.now() - started),
          error: mail.status === "sent" ? null : (mail.lastError ?? mail.status)
        }
        return yield* record(params.workspaceId, user.userId, "email", user.email, outcome, { mailStatus: mail.status, mailId: mail.id })
      })
  }),
  operation({
    operationId: "listTestRuns",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/tests/runs",
    summary: "The workspace's connection tests, newest first (admins)",
    auth: "both",
    scopes: ["integrations:read"],
    params: WorkspaceParams,
    query: Schema.Struct({
      kind: Schema.optionalKey(TestKind),
      limit: Schema.optionalKey(Schema.FiniteFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 200 })))
    }),
    responses: { 200: { description: "Runs", schema: Schema.Struct({ items: Schema.Array(TestRun) }) } },
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        yield* asAdmin(context, params.workspaceId)
        return { items: yield* testRunsOf(params.workspaceId, { ...(query.kind ? { kind: query.kind } : {}), limit: query.limit ?? 50 }) }
      })
  }),
  operation({
    operationId: "getTestRun",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/tests/runs/{runId}",
    summary: "One connection test and its outcome (admins)",
    auth: "both",
    scopes: ["integrations:read"],
    params: RunParams,
    responses: { 200: { description: "The run", schema: TestRun }, 404: { description: "No such run" } },
    handler: ({ params }, context) => Effect.flatMap(asAdmin(context, params.workspaceId), () => testRun(params.workspaceId, params.runId))
  }),
  operation({
    operationId: "clearTestRuns",
    method: "DELETE",
    path: "/v1/workspaces/{workspaceId}/tests/runs",
    summary: "Forget the workspace's connection test history (admins)",
    auth: "jwt",
    scopes: [],
    params: WorkspaceParams,
    responses: { 200: { description: "Cleared", schema: Schema.Struct({ deleted: Schema.Number }) } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* asAdmin(context, params.workspaceId)
        return { deleted: yield* clearTestRuns(params.workspaceId) }
      })
  })
]
