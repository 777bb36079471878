/** The shapes of the catalog's four tiers, as they are served (Catalog.ts builds them, Describe.ts the operation parts). */
import { Schema } from "effect"

const JsonSchema = Schema.Record(Schema.String, Schema.Unknown).annotate({ description: "A JSON Schema (2020-12)" })

export const CatalogTagList = Schema.Struct({
  title: Schema.String,
  hint: Schema.String,
  authentication: Schema.String,
  catalogUrl: Schema.String,
  services: Schema.Array(
    Schema.Struct({
      name: Schema.String,
      description: Schema.String,
      baseUrl: Schema.String,
      tagCount: Schema.Number,
      tags: Schema.Array(Schema.Struct({ tag: Schema.String, description: Schema.String, operationCount: Schema.Number }))
    })
  )
}).annotate({ identifier: "CatalogTagList", description: "The services of a catalog with their tags and operation counts." })

export const CatalogEndpoints = Schema.Struct({
  catalogUrl: Schema.String,
  services: Schema.Array(
    Schema.Struct({
      name: Schema.String,
      baseUrl: Schema.String,
      endpoints: Schema.Array(
        Schema.Struct({
          method: Schema.String,
          path: Schema.String,
          summary: Schema.String,
          operationId: Schema.String,
          tag: Schema.String,
          mcpTool: Schema.optionalKey(Schema.String.annotate({ description: "The MCP tool (POST /mcp) that calls this operation" }))
        })
      )
    })
  )
}).annotate({ identifier: "CatalogEndpoints", description: "Every endpoint of a catalog with method, path and summary." })

const Parameter = Schema.Struct({
  name: Schema.String,
  in: Schema.Literals(["path", "query"]),
  required: Schema.Boolean,
  description: Schema.optionalKey(Schema.String),
  schema: JsonSchema
})

export const CatalogTagDetail = Schema.Struct({
  tag: Schema.String,
  services: Schema.Array(Schema.Struct({ service: Schema.String, description: Schema.String })),
  operationCount: Schema.Number,
  operations: Schema.Array(
    Schema.Struct({
      service: Schema.String,
      operationId: Schema.String,
      method: Schema.String,
      path: Schema.String,
      summary: Schema.String,
      description: Schema.optionalKey(Schema.String),
      auth: Schema.Literals(["public", "jwt", "apiKey", "both"]),
      scopes: Schema.Array(Schema.String),
      parameters: Schema.Array(Parameter),
      requestBody: Schema.optionalKey(
        Schema.Struct({ contentTypes: Schema.Array(Schema.String), schema: JsonSchema, maxBytes: Schema.optionalKey(Schema.Number) })
      ),
      responses: Schema.Record(
        Schema.String,
        Schema.Struct({
          description: Schema.String,
          contentTypes: Schema.optionalKey(Schema.Array(Schema.String)),
          schema: Schema.optionalKey(JsonSchema)
        })
      ),
      errors: Schema.Struct({ schema: JsonSchema }),
      exampleNames: Schema.Array(Schema.String),
      mcpTool: Schema.optionalKey(Schema.String.annotate({ description: "The MCP tool (POST /mcp) that calls this operation" }))
    })
  ),
  schemas: Schema.Record(Schema.String, JsonSchema)
}).annotate({
  identifier: "CatalogTagDetail",
  description: "One tag's operations: parameters, request and response schemas, auth mode and scopes."
})

export const CatalogExamples = Schema.Struct({
  tag: Schema.String,
  examples: Schema.Array(
    Schema.Struct({
      service: Schema.String,
      operationId: Schema.String,
      name: Schema.String,
      summary: Schema.optionalKey(Schema.String),
      request: Schema.Struct({
        method: Schema.String,
        path: Schema.String,
        query: Schema.optionalKey(Schema.Record(Schema.String, Schema.String)),
        body: Schema.optionalKey(Schema.Unknown)
      }),
      response: Schema.Struct({ status: Schema.Number, body: Schema.optionalKey(Schema.Unknown) })
    })
  )
}).annotate({ identifier: "CatalogExamples", description: "Request and response examples of one tag." })
