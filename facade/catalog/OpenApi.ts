/** An OpenAPI 3.1 document per service at `{base}/v1/openapi.json`, derived from the registry. */
import { createHash } from "node:crypto"
import { Effect, Schema } from "effect"
import * as IdempotencyKey from "../IdempotencyKey.ts"
import { essenceOf, isJsonMediaType, raw, type ServiceName, tagGroup } from "../Operation.ts"
import type { Registry } from "../Registry.ts"
import { describe, errorEnvelopeSchema, type JsonSchema } from "./Describe.ts"
import { serviceNames, services } from "./Services.ts"

const Json = Schema.Record(Schema.String, Schema.Unknown)

/** The document's outline; its parts are JSON Schema and OpenAPI objects as openApiDocument builds them. */
const OpenApiDocument = Schema.Struct({
  openapi: Schema.Literal("3.1.0"),
  info: Schema.Struct({ title: Schema.String, version: Schema.String, description: Schema.String }),
  servers: Schema.Array(Schema.Struct({ url: Schema.String })),
  tags: Schema.Array(Schema.Struct({ name: Schema.String, description: Schema.optionalKey(Schema.String) })),
  paths: Schema.Record(Schema.String, Schema.Record(Schema.String, Json)),
  components: Schema.Struct({
    schemas: Schema.Record(Schema.String, Json),
    parameters: Schema.Record(Schema.String, Json),
    securitySchemes: Schema.Record(Schema.String, Json)
  })
}).annotate({ identifier: "OpenApiDocument" })

const securitySchemes = {
  bearer: { type: "http", scheme: "bearer", description: "A JWT from POST /pm/v1/auth/login, or an API key (pm, wiki, feedback)" },
  apiKey: { type: "apiKey", in: "header", name: "X-API-Key", description: "An API key (hub)" }
}

const securityOf = (auth: string) => (auth === "public" ? [] : auth === "jwt" ? [{ bearer: [] }] : [{ bearer: [] }, { apiKey: [] }])

/** One entry per media type: JSON ones take the schema, text is a string, anything else opaque bytes. */
const contentOf = (contentTypes: ReadonlyArray<string>, schema: JsonSchema | undefined) =>
  Object.fromEntries(
    contentTypes.map((contentType) => [
      contentType,
      isJsonMediaType(contentType) && schema ? { schema } : essenceOf(contentType).startsWith("text/") ? { schema: { type: "string" } } : {}
    ])
  )

export const openApiDocument = (registry: Registry, service: ServiceName, origin: string) => {
  const info = services[service]
  const schemas: Record<string, unknown> = { ErrorEnvelope: errorEnvelopeSchema }
  const paths: Record<string, Record<string, unknown>> = {}
  for (const op of registry.ofService(service)) {
    const description = describe(op, "#/components/schemas/")
    Object.assign(schemas, description.schemas)
    const responses: Record<string, unknown> = {}
    for (const [status, response] of Object.entries(description.responses)) {
      responses[status] = {
        description: response.description,
        ...(response.contentTypes ? { content: contentOf(response.contentTypes, response.schema) } : {})
      }
    }
    responses["4XX"] = { description: "Error", content: { "application/json": { schema: { $ref: "#/components/schemas/ErrorEnvelope" } } } }
    responses["5XX"] = {
      description: "Unavailable or internal error",
      content: { "application/json": { schema: { $ref: "#/components/schemas/ErrorEnvelope" } } }
    }
    const examples = Object.fromEntries(
      op.examples
        .filter((e) => e.request?.body !== undefined)
        .map((e) => [e.name, { summary: e.summary ?? e.name, value: e.request!.body }])
    )
    ;(paths[op.path] ??= {})[op.method.toLowerCase()] = {
      operationId: op.operationId,
      tags: [op.tag],
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      security: securityOf(op.auth),
      ...(op.scopes.length > 0 ? { "x-scopes": op.scopes } : {}),
      ...(op.mcp ? { "x-mcp-tool": op.mcp.tool } : {}),
      parameters: IdempotencyKey.appliesTo(op)
        ? [...description.parameters, { $ref: "#/components/parameters/IdempotencyKey" }]
        : description.parameters,
      ...(description.requestBody
        ? {
            requestBody: {
              required: true,
              content: Object.fromEntries(
                description.requestBody.contentTypes.map((contentType) => [
                  contentType,
                  {
                    schema: description.requestBody!.schema,
                    ...(Object.keys(examples).length > 0 ? { examples } : {})
                  }
                ])
              )
            }
          }
        : {}),
      responses
    }
  }
  return {
    openapi: "3.1.0",
    info: { title: `Atrium ${info.name}`, version: "1.0.0", description: info.description },
    servers: [{ url: `${origin}${info.basePath}` }],
    tags: info.tags.map((t) => ({ name: t.tag, ...(t.description ? { description: t.description } : {}) })),
    paths,
    components: { schemas, parameters: { IdempotencyKey: IdempotencyKey.parameter }, securitySchemes }
  }
}

export const openApiRoutes = (registry: () => Registry) => {
  const cache = new Map<string, ReturnType<typeof raw>>()
  return serviceNames.map((service) =>
    tagGroup(service, services[service].tags[0]!.tag).operation({
      operationId: "getOpenApiDocument",
      method: "GET",
      path: "/v1/openapi.json",
      summary: `OpenAPI 3.1 document of the ${services[service].name} service`,
      auth: "public",
      scopes: [],
      responses: { 200: { description: "OpenAPI document", schema: OpenApiDocument } },
      examples: [],
      handler: (_request, context) =>
        Effect.sync(() => {
          const key = `${service}|${context.origin}`
          let hit = cache.get(key)
          if (hit === undefined) {
            const body = JSON.stringify(openApiDocument(registry(), service, context.origin))
            hit = raw("application/json; charset=utf-8", body, { etag: `"${createHash("sha1").update(body).digest("base64url")}"` })
            cache.set(key, hit)
          }
          return hit
        })
    })
  )
}
