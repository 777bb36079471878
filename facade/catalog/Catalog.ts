/**
 * The public catalog: four tiers (tag list, detailed endpoint list, one tag's
 * full detail, one tag's examples) at `{hub}/v1/api-catalog…` for the hub and
 * `{pm}/v1/api-catalog…` for pm, wiki and feedback. Everything is derived from
 * the registry — operation counts included — and nothing reveals workspace
 * data. Documents are computed once (the registry is fixed at startup) and
 * served with an ETag.
 */
import { createHash } from "node:crypto"
import { Effect, Schema } from "effect"
import { reject } from "../../runtime/Rejection.ts"
import { type AnyOperation, raw, type ServiceName, tagGroup } from "../Operation.ts"
import { fullPath, type Registry } from "../Registry.ts"
import { CatalogEndpoints, CatalogExamples, CatalogTagDetail, CatalogTagList } from "./CatalogDocuments.ts"
import { describe, errorEnvelopeSchema } from "./Describe.ts"
import { services } from "./Services.ts"

type CatalogScope = "hub" | "pm"

const scopeServices: Record<CatalogScope, ReadonlyArray<ServiceName>> = {
  hub: ["hub"],
  pm: ["pm", "wiki", "feedback"]
}

const json = (value: unknown) => {
  const body = JSON.stringify(value)
  return raw("application/json; charset=utf-8", body, {
    etag: `"${createHash("sha1").update(body).digest("base64url")}"`,
    "cache-control": "public, max-age=60"
  })
}

const examplePath = (op: AnyOperation, params: Record<string, string> | undefined) =>
  fullPath(op).replace(/\{(\w+)\}/g, (whole, name: string) => (params?.[name] !== undefined ? encodeURIComponent(params[name]) : whole))

export const makeCatalog = (registry: () => Registry) => {
  const ops = (scope: CatalogScope) => registry().operations.filter((op) => scopeServices[scope].includes(op.service))
  const tagsOf = (scope: CatalogScope) => scopeServices[scope].flatMap((service) => services[service].tags.map((t) => t.tag))

  const tagList = (scope: CatalogScope, origin: string) => ({
    title: scope === "hub" ? "Atrium workspace hub API catalog" : "Atrium project management, wiki and feedback board API catalog",
    hint:
      `GET ${origin}/${scope}/v1/api-catalog lists tags; /detailed lists every endpoint with method, path and summary; ` +
      "/{tag} gives one tag's parameters, request and response schemas, auth mode and scopes; " +
      "/{tag}/examples gives request and response examples (filter with ?operationId= and ?name=). Tag names are URL-encoded.",
    authentication:
      scope === "hub"
        ? "The catalog needs no authentication. Data endpoints take a JWT (Authorization: Bearer <token>) or an API key (X-API-Key: <key>); API keys see only their workspace and the operations their scopes allow."
        : "The catalog needs no authentication. Data endpoints take Authorization: Bearer <JWT or API key>; obtain a JWT from POST /pm/v1/auth/login. Public wiki operations need none.",
    catalogUrl: `${origin}/${scope}/v1/api-catalog`,
    services: scopeServices[scope].map((service) => {
      const info = services[service]
      const serviceOps = registry().ofService(service)
      return {
        name: info.name,
        description: info.description,
        baseUrl: `${origin}${info.basePath}`,
        tagCount: info.tags.length,
        tags: info.tags.map(({ tag, description }) => ({
          tag,
          description,
          operationCount: serviceOps.filter((op) => op.tag === tag).length
        }))
      }
    })
  })

  const detailed = (scope: CatalogScope, origin: string) => ({
    catalogUrl: `${origin}/${scope}/v1/api-catalog`,
    services: scopeServices[scope].map((service) => ({
      name: services[service].name,
      baseUrl: `${origin}${services[service].basePath}`,
      endpoints: registry()
        .ofService(service)
        .map((op) => ({
          method: op.method,
          path: fullPath(op),
          summary: op.summary,
          operationId: op.operationId,
          tag: op.tag,
          ...(op.mcp ? { mcpTool: op.mcp.tool } : {})
        }))
    }))
  })

  const findTag = (scope: CatalogScope, requested: string) => {
    const known = tagsOf(scope)
    const tag = known.find((t) => t === requested) ?? known.find((t) => t.toLowerCase() === requested.toLowerCase())
    return tag === undefined
      ? Effect.fail(reject("not_found", `No tag "${requested}" in this catalog`, [{ path: "path.tag", message: "unknown tag" }]))
      : Effect.succeed(tag)
  }

  const tagDetail = (scope: CatalogScope, tag: string) => {
    const schemas: Record<string, unknown> = { ErrorEnvelope: errorEnvelopeSchema }
    const tagOps = ops(scope).filter((op) => op.tag === tag)
    const descriptions = scopeServices[scope].flatMap((service) =>
      services[service].tags.filter((t) => t.tag === tag).map((t) => ({ service, description: t.description }))
    )
    return {
      tag,
      services: descriptions,
      operationCount: tagOps.length,
      operations: tagOps.map((op) => {
        const description = describe(op, "#/schemas/")
        Object.assign(schemas, description.schemas)
        return {
          service: op.service,
          operationId: op.operationId,
          method: op.method,
          path: fullPath(op),
          summary: op.summary,
          ...(op.description ? { description: op.description } : {}),
          auth: op.auth,
          scopes: op.scopes,
          parameters: description.parameters,
          ...(description.requestBody ? { requestBody: description.requestBody } : {}),
          responses: description.responses,
          errors: { schema: { $ref: "#/schemas/ErrorEnvelope" } },
          exampleNames: op.examples.map((e) => e.name),
          ...(op.mcp ? { mcpTool: op.mcp.tool } : {})
        }
      }),
      schemas
    }
  }

  const examples = (scope: CatalogScope, tag: string, operationId: string | undefined, name: string | undefined) => {
    const list = ops(scope)
      .filter((op) => op.tag === tag && (operationId === undefined || op.operationId === operationId))
      .flatMap((op) =>
        op.examples
          .filter((example) => name === undefined || example.name === name)
          .map((example) => ({
            service: op.service,
            operationId: op.operationId,
            name: example.name,
            ...(example.summary ? { summary: example.summary } : {}),
            request: {
              method: op.method,
              path: examplePath(op, example.request?.params),
              ...(example.request?.query ? { query: example.request.query } : {}),
              ...(example.request?.body !== undefined ? { body: example.request.body } : {})
            },
            response: example.response
          }))
      )
    return { tag, examples: list }
  }

  const cache = new Map<string, ReturnType<typeof json>>()
  const cached = (key: string, build: () => unknown) => {
    let hit = cache.get(key)
    if (hit === undefined) cache.set(key, (hit = json(build())))
    return hit
  }

  const TagParams = Schema.Struct({ tag: Schema.String.check(Schema.isMaxLength(200)) })
  const ExampleQuery = Schema.Struct({
    operationId: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(200))),
    name: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(200)))
  })
  const ok = (description: string, schema: Schema.Top) => ({ 200: { description, schema }, 404: { description: "Unknown tag" } })

  const tiers = (scope: CatalogScope, service: ServiceName, tag: string, ids: [string, string, string, string]) => {
    const { operation } = tagGroup(service, tag)
    return [
      operation({
        operationId: ids[0],
        method: "GET",
        path: "/v1/api-catalog",
        summary:
          scope === "hub"
            ? "List the hub's tags with operation counts"
            : "List the tags of project management, wiki and feedback board, grouped by service",
        auth: "public",
        scopes: [],
        responses: { 200: { description: "Tag list", schema: CatalogTagList } },
        examples: [{ name: "tag-list", response: { status: 200 } }],
        handler: (_request, context) => Effect.sync(() => cached(`${scope}|list|${context.origin}`, () => tagList(scope, context.origin)))
      }),
      operation({
        operationId: ids[1],
        method: "GET",
        path: "/v1/api-catalog/detailed",
        summary: "List every endpoint with method, path and summary",
        auth: "public",
        scopes: [],
        responses: { 200: { description: "All endpoints", schema: CatalogEndpoints } },
        examples: [{ name: "detailed", response: { status: 200 } }],
        handler: (_request, context) =>
          Effect.sync(() => cached(`${scope}|detailed|${context.origin}`, () => detailed(scope, context.origin)))
      }),
      operation({
        operationId: ids[2],
        method: "GET",
        path: "/v1/api-catalog/{tag}",
        summary: "Full detail of one tag: parameters, request and response schemas, auth mode and scopes",
        auth: "public",
        scopes: [],
        params: TagParams,
        responses: ok("Tag detail", CatalogTagDetail),
        examples: [{ name: "tag-detail", request: { params: { tag: "Workspaces" } }, response: { status: 200 } }],
        handler: ({ params }) =>
          Effect.map(findTag(scope, params.tag), (found) => cached(`${scope}|tag|${found}`, () => tagDetail(scope, found)))
      }),
      operation({
        operationId: ids[3],
        method: "GET",
        path: "/v1/api-catalog/{tag}/examples",
        summary: "Request and response examples of one tag (filter with operationId and name)",
        auth: "public",
        scopes: [],
        params: TagParams,
        query: ExampleQuery,
        responses: ok("Examples", CatalogExamples),
        examples: [
          { name: "examples-of-tag", request: { params: { tag: "Workspaces" } }, response: { status: 200 } },
          {
            name: "one-example",
            request: { params: { tag: "Workspace Settings" }, query: { operationId: "getWorkspaceSettings" } },
            response: { status: 200 }
          }
        ],
        handler: ({ params, query }) =>
          Effect.gen(function* () {
            const found = yield* findTag(scope, params.tag)
            const result = examples(scope, found, query.operationId, query.name)
            if ((query.operationId !== undefined || query.name !== undefined) && result.examples.length === 0) {
              return yield* reject("not_found", "No example matches the filter", [
                { path: query.operationId !== undefined ? "query.operationId" : "query.name", message: "no such example in this tag" }
              ])
            }
            return cached(`${scope}|examples|${found}|${query.operationId ?? ""}|${query.name ?? ""}`, () => result)
          })
      })
    ]
  }

  return {
    /** The hub's "Reference Data" tag: its four catalog endpoints. */
    hubOperations: tiers("hub", "hub", "Reference Data", [
      "getApiCatalog",
      "getApiCatalogDetailed",
      "getApiCatalogTag",
      "getApiCatalogTagExamples"
    ]),
    /** The pm catalog: served, but not an operation of any pm tag. */
    pmRoutes: tiers("pm", "pm", "Reference Data", [
      "getPmApiCatalog",
      "getPmApiCatalogDetailed",
      "getPmApiCatalogTag",
      "getPmApiCatalogTagExamples"
    ])
  }
}
