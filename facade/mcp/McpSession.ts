/**
 * The MCP server of one authenticated HTTP request (stateless Streamable
 * HTTP: no session is kept between requests, every request carries its
 * credentials). Tools, resources and the prompt answer through the
 * operation pipeline with the caller's own credentials, so the API key's
 * workspace and scopes bound everything an agent does.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js"
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema
} from "@modelcontextprotocol/sdk/types.js"
import type { Effect } from "effect"
import type { Caller } from "../Invoke.ts"
import type { Principal } from "../../actors/identity/Principal.ts"
import type { Registry } from "../Registry.ts"
import { complete } from "./Completions.ts"
import { getPrompt, prompts } from "./Prompts.ts"
import { listResources, readResource, resourceTemplates } from "./Resources.ts"
import { callTool } from "./ToolCall.ts"
import { annotationsOf, mayCall, type Tool } from "./Tools.ts"

export interface McpSession {
  readonly registry: Registry
  readonly tools: ReadonlyArray<Tool>
  readonly principal: Principal
  readonly caller: Caller
  /** Runs an effect in the server's services (actors, SQL, tokens). */
  readonly run: <A, E>(effect: Effect.Effect<A, E, any>) => Promise<A>
  readonly version: string
}

const instructions =
  "Atrium: project management (spaces, lists, tasks) and a wiki. Start with getContext: it names the spaces, lists, statuses, " +
  "custom fields and members you can use. Tools take names (case-insensitive), short ids (T-42) or ids; people by e-mail. " +
  "Wiki content is Markdown. Every tool acts with your credentials: an API key is bound to one workspace and its scopes."

export const mcpServerFor = (session: McpSession): Server => {
  const server = new Server(
    { name: "atrium", title: "Atrium", version: session.version },
    { capabilities: { tools: { listChanged: false }, resources: {}, prompts: {}, completions: {} }, instructions }
  )
  const byName = new Map(session.tools.map((tool) => [tool.name, tool] as const))
  const calls = { registry: session.registry, caller: session.caller, principal: session.principal }

  // Only what the credentials may call is offered; a call to another tool is still refused by the pipeline (403).
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: session.tools
      .filter((tool) => mayCall(tool, session.principal))
      .map((tool) => ({
        name: tool.name,
        title: tool.title,
        description: tool.description,
        inputSchema: tool.inputSchema,
        ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
        annotations: annotationsOf(tool)
      }))
  }))

  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = byName.get(request.params.name)
    if (tool === undefined) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`)
    return session.run(callTool(session.registry, tool, request.params.arguments ?? {}, session.principal, session.caller))
  })

  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: await session.run(listResources(calls)) }))
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates: [...resourceTemplates] }))
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => session.run(readResource(calls, request.params.uri)))

  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: [...prompts] }))
  server.setRequestHandler(GetPromptRequestSchema, async (request) =>
    session.run(getPrompt(calls, request.params.name, request.params.arguments ?? {}))
  )
  server.setRequestHandler(CompleteRequestSchema, async (request) =>
    session.run(complete(calls, request.params.ref, request.params.argument, request.params.context?.arguments ?? {}))
  )
  return server
}
