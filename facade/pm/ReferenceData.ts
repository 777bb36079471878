/**
 * pm tag "Reference Data" (24): the static vocabularies of project management
 * (roles, status types, priorities, custom field types, relationship and view
 * types, notification reasons, colors, time zones, locales, formats…), the
 * same lists the rest of pm validates against. Public (they reveal no
 * workspace data), cacheable: every answer carries an ETag and honours
 * If-None-Match.
 */
import { createHash } from "node:crypto"
import { Effect, Schema } from "effect"
import { type ReferenceSet, referenceSets } from "../../actors/pm/ReferenceData.ts"
import { CloseCode } from "../../streams/StreamSession.ts"
import { type AnyOperation, raw, tagGroup } from "../Operation.ts"
import { scopes as apiKeyScopes } from "../Scopes.ts"
import { referenceDataExamples } from "./ReferenceData.examples.ts"

const tag = "Reference Data"
const service = "pm"

const { operation } = tagGroup(service, tag, referenceDataExamples)

const ScopeInfo = Schema.Struct({ id: Schema.String, description: Schema.String }).annotate({ identifier: "ApiKeyScopeInfo" })
const CloseCodeInfo = Schema.Struct({
  code: Schema.Number,
  name: Schema.String,
  description: Schema.String,
  reconnect: Schema.String
}).annotate({ identifier: "StreamCloseCode" })

const closeCodes = [
  {
    code: CloseCode.malformed,
    name: "malformed",
    description: "A client frame was not valid JSON, too large, binary or not a subscribe/unsubscribe frame",
    reconnect: "Fix the client; reconnecting with the same frames fails again"
  },
  {
    code: CloseCode.unauthorized,
    name: "unauthorized",
    description: "The ticket was missing, unknown, already used or expired",
    reconnect: "Get a new ticket (POST /v1/ws/ticket), then reconnect"
  },
  {
    code: CloseCode.forbidden,
    name: "forbidden",
    description: "The ticket holder is no longer a member of the workspace",
    reconnect: "Do not reconnect"
  },
  {
    code: CloseCode.accessChanged,
    name: "access changed",
    description: "The holder's role or private-space access changed while connected",
    reconnect: "Get a new ticket and reconnect with lastSeq: access is evaluated afresh"
  },
  {
    code: CloseCode.tooManyFrames,
    name: "too many frames",
    description: "More client frames were waiting than the server handles per connection",
    reconnect: "Reconnect and send fewer frames at once"
  },
  {
    code: CloseCode.unavailable,
    name: "unavailable",
    description: "Live updates are temporarily unavailable on this node",
    reconnect: "Reconnect with a new ticket after a short delay, passing lastSeq"
  },
  {
    code: 1001,
    name: "going away",
    description: "The server is shutting down (draining)",
    reconnect: "Reconnect with a new ticket, passing lastSeq: another node (or this one, restarted) serves you"
  },
  {
    code: 1006,
    name: "abnormal",
    description: "The connection dropped without a close frame — also how a client that stopped reading is cut off",
    reconnect: "Reconnect with a new ticket, passing the last seq seen as lastSeq"
  }
]

/** The extra sets served from the facade (they describe the API itself). */
const facadeSets: ReadonlyArray<ReferenceSet> = [
  {
    id: "api-key-scopes",
    name: "API key scopes",
    description: "The scopes an API key can be granted",
    item: ScopeInfo,
    items: () => Object.entries(apiKeyScopes).map(([id, description]) => ({ id, description }))
  },
  {
    id: "stream-close-codes",
    name: "Stream close codes",
    description: "Why the live-update WebSocket was closed, and what to do",
    item: CloseCodeInfo,
    items: () => closeCodes
  }
]

const allSets: ReadonlyArray<ReferenceSet> = [...referenceSets, ...facadeSets]

const cached = (body: unknown) => {
  const json = JSON.stringify(body)
  const etag = `"${createHash("sha256").update(json).digest("base64url").slice(0, 27)}"`
  return raw("application/json; charset=utf-8", json, { etag, "cache-control": "public, max-age=3600" })
}

const operationIdOf = (id: string) =>
  `list${id
    .split("-")
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join("")}`

const SetSummary = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  description: Schema.String,
  count: Schema.Number,
  path: Schema.String
}).annotate({ identifier: "ReferenceDataSet" })

const indexOperation = operation({
  operationId: "listReferenceDataSets",
  method: "GET",
  path: "/v1/reference-data",
  summary: "The reference data sets, with their sizes and where to get them",
  auth: "public",
  scopes: [],
  responses: { 200: { description: "Sets", schema: Schema.Struct({ items: Schema.Array(SetSummary) }) } },
  handler: () =>
    Effect.sync(() =>
      cached({
        items: allSets.map((set) => ({
          id: set.id,
          name: set.name,
          description: set.description,
          count: set.items().length,
          path: `/pm/v1/reference-data/${set.id}`
        }))
      })
    )
})

const setOperation = (set: ReferenceSet): AnyOperation =>
  operation({
    operationId: operationIdOf(set.id),
    method: "GET",
    path: `/v1/reference-data/${set.id}`,
    summary: `${set.name}: ${set.description.charAt(0).toLowerCase()}${set.description.slice(1)}`,
    auth: "public",
    scopes: [],
    responses: { 200: { description: set.name, schema: Schema.Struct({ items: Schema.Array(set.item) }) } },
    examples: [{ name: "list", response: { status: 200, body: { items: set.items().slice(0, 3) } } }],
    handler: () => Effect.sync(() => cached({ items: set.items() }))
  })

export const referenceDataOperations: ReadonlyArray<AnyOperation> = [indexOperation, ...allSets.map(setOperation)]
