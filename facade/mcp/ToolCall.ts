/**
 * One MCP tool call: the agent's flat arguments are put back where the
 * operation takes them (path, query, body), the request runs through the
 * HTTP pipeline (facade/Invoke.ts), and the reply becomes an MCP tool result:
 * the JSON reply as structured content, or an error (`isError`) carrying the
 * error envelope's message and the fields it names.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js"
import { Effect } from "effect"
import { workspacesOf } from "../../actors/identity/IdentityQueries.ts"
import { type Caller, type Invocation, invoke, type InvokeResult } from "../Invoke.ts"
import type { Principal } from "../../actors/identity/Principal.ts"
import type { Registry } from "../Registry.ts"
import type { Tool } from "./Tools.ts"

/** An argument the tool cannot take: answered as a tool error naming it, before any request is made. */
class BadArgument {
  constructor(readonly message: string) {}
}

/** Path and query values are text on the wire; numbers and booleans are written as such. */
const asText = (name: string, value: unknown): string => {
  if (typeof value === "string") return value
  if (typeof value === "number" || typeof value === "boolean") return String(value)
  throw new BadArgument(`Invalid ${name}: expected a string`)
}

const invocationOf = (tool: Tool, args: Readonly<Record<string, unknown>>): Invocation => {
  const params: Record<string, string> = {}
  const query: Record<string, string> = {}
  const body: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(args)) {
    const location = tool.locations.get(name)
    if (location === undefined)
      throw new BadArgument(`Unknown argument ${name}; ${tool.name} takes ${[...tool.locations.keys()].join(", ")}`)
    if (value === undefined) continue
    if (location === "path") params[name] = asText(name, value)
    else if (location === "query") query[name] = asText(name, value)
    else body[name] = value
  }
  for (const [name, location] of tool.locations) {
    if (location === "path" && (params[name] === undefined || params[name] === "")) throw new BadArgument(`Missing argument ${name}`)
  }
  return { params, query, ...(tool.operation.body !== undefined ? { body } : {}) }
}

/** The workspace a call means when the agent names none: the API key's, else the user's only one. */
const defaultWorkspace = (principal: Principal) =>
  principal.kind === "apiKey"
    ? Effect.succeed<string | undefined>(principal.workspaceId)
    : Effect.map(Effect.orDie(workspacesOf(principal.userId)), (mine) => (mine.length === 1 ? mine[0]!.id : undefined))

const withDefaultWorkspace = (tool: Tool, args: Readonly<Record<string, unknown>>, principal: Principal) =>
  tool.defaultsWorkspace === undefined || args.workspaceId !== undefined
    ? Effect.succeed(args)
    : Effect.map(defaultWorkspace(principal), (workspaceId) => (workspaceId === undefined ? args : { ...args, workspaceId }))

interface Envelope {
  readonly error: { readonly code: string; readonly message: string; readonly details?: ReadonlyArray<{ path: string; message: string }> }
  readonly requestId: string
}

const isEnvelope = (body: unknown): body is Envelope =>
  typeof body === "object" && body !== null && typeof (body as Envelope).error?.message === "string"

/**
 * A tool error: the message for the agent, then the error envelope as JSON (code, fields, request id). Not as
 * structured content, which clients check against the tool's output schema (the success reply's).
 */
export const toolError = (message: string, envelope?: Envelope): CallToolResult => ({
  isError: true,
  content: [{ type: "text", text: message }, ...(envelope ? [{ type: "text" as const, text: JSON.stringify(envelope) }] : [])]
})

/** The reply as a tool result: structured content must be an object, so any other JSON value is `{ result }`. */
export const resultOf = (reply: InvokeResult): CallToolResult => {
  if (reply.status >= 400) {
    if (!isEnvelope(reply.body)) return toolError(`HTTP ${reply.status}`)
    const { message, details } = reply.body.error
    const lines = [message, ...(details ?? []).map((detail) => `- ${detail.path}: ${detail.message}`)]
    return toolError(lines.join("\n"), reply.body)
  }
  if (reply.body === undefined) return { content: [{ type: "text", text: "Done" }], structuredContent: {} }
  const structured =
    typeof reply.body === "object" && reply.body !== null && !Array.isArray(reply.body)
      ? (reply.body as Record<string, unknown>)
      : { result: reply.body }
  return { content: [{ type: "text", text: JSON.stringify(reply.body) }], structuredContent: structured }
}

export const callTool = (
  registry: Registry,
  tool: Tool,
  args: Readonly<Record<string, unknown>>,
  principal: Principal,
  caller: Caller
): Effect.Effect<CallToolResult, never, any> =>
  Effect.gen(function* () {
    const complete = yield* withDefaultWorkspace(tool, args, principal)
    let invocation: Invocation
    try {
      invocation = invocationOf(tool, complete)
    } catch (error) {
      if (error instanceof BadArgument) return toolError(error.message)
      throw error
    }
    return resultOf(yield* invoke(registry, tool.operation, invocation, caller))
  })
