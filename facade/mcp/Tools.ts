/**
 * MCP tools derived from the operation registry: every operation marked
 * `mcp: { tool }` is one tool. Its input schema is the JSON Schema the
 * catalog and OpenAPI derive from the operation's path, query and body
 * `Schema`s, merged into one flat object of arguments; each argument goes
 * back where it came from when the tool is called.
 */
import { describe, type JsonSchema } from "../catalog/Describe.ts"
import { type AnyOperation, successStatus } from "../Operation.ts"
import type { Principal } from "../../actors/identity/Principal.ts"

export type ArgumentLocation = "path" | "query" | "body"

export interface Tool {
  readonly name: string
  readonly title: string
  readonly description: string
  readonly inputSchema: JsonSchema & { readonly type: "object" }
  /** The success reply's schema as structured content; absent when the reply has no body. */
  readonly outputSchema: (JsonSchema & { readonly type: "object" }) | undefined
  readonly operation: AnyOperation
  /** Where each argument goes in the request. */
  readonly locations: ReadonlyMap<string, ArgumentLocation>
  /** The caller's default workspace fills `workspaceId` when the operation needs one and the agent left it out. */
  readonly defaultsWorkspace: ArgumentLocation | undefined
}

/** Agents pick from few tools better than from many (the point of a curated set). */
export const MAX_TOOLS = 20

const WORKSPACE = "workspaceId"
const REF_PREFIX = "#/$defs/"

/** The named definitions `schema` refers to, followed transitively. */
const referencedDefinitions = (schema: unknown, definitions: Readonly<Record<string, JsonSchema>>) => {
  const used: Record<string, JsonSchema> = {}
  const pending = [schema]
  while (pending.length > 0) {
    const text = JSON.stringify(pending.pop())
    for (const [, name] of text.matchAll(/"\$ref":"#\/\$defs\/([^"]+)"/g)) {
      if (name === undefined || used[name] !== undefined || definitions[name] === undefined) continue
      used[name] = definitions[name]
      pending.push(definitions[name])
    }
  }
  return used
}

/**
 * Structured content is a JSON object: an object reply is described as it is (a named one inlined, its
 * definitions kept), any other reply as `{ result }`, matching what ToolCall.resultOf sends.
 */
const outputSchemaOf = (
  reply: JsonSchema | undefined,
  definitions: Readonly<Record<string, JsonSchema>>
): (JsonSchema & { type: "object" }) | undefined => {
  if (reply === undefined) return undefined
  const ref = typeof reply.$ref === "string" && reply.$ref.startsWith(REF_PREFIX) ? reply.$ref.slice(REF_PREFIX.length) : undefined
  const named = ref !== undefined ? definitions[ref] : undefined
  const withDefinitions = (schema: JsonSchema) => {
    const used = referencedDefinitions(schema, definitions)
    return Object.keys(used).length > 0 ? { ...schema, $defs: used } : schema
  }
  if (named?.type === "object") return withDefinitions({ ...named, type: "object" }) as JsonSchema & { type: "object" }
  if (reply.type === "object") return withDefinitions({ ...reply, type: "object" }) as JsonSchema & { type: "object" }
  return withDefinitions({
    type: "object",
    properties: { result: reply },
    required: ["result"],
    additionalProperties: false
  }) as JsonSchema & {
    type: "object"
  }
}

const toolOf = (operation: AnyOperation): Tool => {
  const mcp = operation.mcp!
  const description = describe(operation, REF_PREFIX)
  const properties: Record<string, JsonSchema> = {}
  const required: Array<string> = []
  const locations = new Map<string, ArgumentLocation>()
  const add = (name: string, location: ArgumentLocation, schema: JsonSchema, isRequired: boolean) => {
    if (locations.has(name)) {
      throw new Error(
        `${operation.operationId}: MCP tool ${mcp.tool} has two arguments named ${name} (${locations.get(name)}, ${location})`
      )
    }
    locations.set(name, location)
    properties[name] = schema
    if (isRequired) required.push(name)
  }
  for (const parameter of description.parameters) {
    add(
      parameter.name,
      parameter.in,
      parameter.description ? { ...parameter.schema, description: parameter.description } : parameter.schema,
      parameter.required
    )
  }
  if (operation.upload) throw new Error(`${operation.operationId}: an upload cannot be an MCP tool`)
  if (description.requestBody) {
    const body = description.requestBody.schema as { type?: string; properties?: Record<string, JsonSchema>; required?: Array<string> }
    if (body.type !== "object" || body.properties === undefined) {
      throw new Error(`${operation.operationId}: an MCP tool's body must be an object of named fields`)
    }
    for (const [name, schema] of Object.entries(body.properties)) add(name, "body", schema, (body.required ?? []).includes(name))
  }
  const workspace = locations.get(WORKSPACE)
  const defaultsWorkspace = workspace !== undefined && required.includes(WORKSPACE) ? workspace : undefined
  if (defaultsWorkspace !== undefined) {
    required.splice(required.indexOf(WORKSPACE), 1)
    properties[WORKSPACE] = {
      ...properties[WORKSPACE],
      description: "The workspace; defaults to the API key's workspace (or your only workspace)"
    }
  }
  const definitions = referencedDefinitions(properties, description.schemas)
  return {
    name: mcp.tool,
    title: operation.summary,
    description: mcp.description ?? [operation.summary, operation.description].filter(Boolean).join(". "),
    inputSchema: {
      type: "object",
      properties,
      ...(required.length > 0 ? { required } : {}),
      additionalProperties: false,
      ...(Object.keys(definitions).length > 0 ? { $defs: definitions } : {})
    },
    outputSchema: outputSchemaOf(description.responses[successStatus(operation)]?.schema, description.schemas),
    operation,
    locations,
    defaultsWorkspace
  }
}

/** The tools of a registry, checked: unique names, at most MAX_TOOLS, arguments that map back to one place each. */
export const toolsOf = (operations: ReadonlyArray<AnyOperation>): ReadonlyArray<Tool> => {
  const tools = operations.filter((operation) => operation.mcp !== undefined).map(toolOf)
  if (tools.length > MAX_TOOLS) throw new Error(`${tools.length} operations are MCP tools; at most ${MAX_TOOLS} may be`)
  const names = new Set<string>()
  for (const tool of tools) {
    if (!/^[a-z][A-Za-z0-9]*$/.test(tool.name)) throw new Error(`MCP tool ${tool.name} is not lower camel case`)
    if (names.has(tool.name)) throw new Error(`MCP tool ${tool.name} is declared twice`)
    if (tool.operation.auth === "public") throw new Error(`MCP tool ${tool.name}: a public operation needs no agent`)
    names.add(tool.name)
  }
  return tools
}

/** Whether the caller's credentials pass the pipeline's authorization (auth mode, API-key scopes) for an operation. */
export const mayInvoke = (operation: AnyOperation, principal: Principal): boolean =>
  principal.kind === "apiKey"
    ? operation.auth !== "jwt" && operation.scopes.every((scope) => principal.scopes.includes(scope))
    : operation.auth !== "apiKey"

export const mayCall = (tool: Tool, principal: Principal): boolean => mayInvoke(tool.operation, principal)

/** Annotations telling agents which tools only read. */
export const annotationsOf = (tool: Tool) => ({
  title: tool.title,
  readOnlyHint: tool.operation.method === "GET",
  destructiveHint: tool.operation.method === "DELETE",
  idempotentHint: tool.operation.method !== "POST",
  openWorldHint: false
})
