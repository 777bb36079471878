/**
 * The MCP endpoint through the official SDK client, over real HTTP: tools
 * listed from the registry and bounded by the API key's scopes, tools called
 * by names (getContext, createTask, commentOnTask, relateTasks, the wiki
 * tools), refusals and bad arguments as MCP tool errors, resources, the
 * prompt, JWT callers, and the HTTP edges (401, 405, 413).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js"
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { atriumRegistry } from "../../facade/operations.ts"
import { allowedHostsFromEnv, hostAllowed } from "../../facade/mcp/McpEndpoint.ts"
import { MAX_TOOLS, toolsOf } from "../../facade/mcp/Tools.ts"
import { signUp, startAtrium, type TestServer } from "../support/atrium.ts"

let atrium: TestServer
let owner: Awaited<ReturnType<typeof signUp>>
let workspaceId: string
let fullKey: string
let readerKey: string
const clients: Array<Client> = []

const must = async (method: string, path: string, options: Parameters<TestServer["request"]>[2], status: number) => {
  const response = await atrium.request(method, path, options)
  if (response.status !== status) throw new Error(`${method} ${path}: ${response.status} ${response.text}`)
  return response.body
}

const connect = async (headers: Record<string, string>) => {
  const client = new Client({ name: "atrium-test", version: "1.0.0" })
  await client.connect(new StreamableHTTPClientTransport(new URL(`${atrium.origin}/mcp`), { requestInit: { headers } }))
  clients.push(client)
  // Listing the tools makes the client check every structured result against the tool's output schema.
  await client.listTools()
  return client
}

const call = async (client: Client, name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult

const textOf = (result: CallToolResult) => result.content.map((part) => (part.type === "text" ? part.text : "")).join("\n")

/** A tool error's second part: the error envelope as JSON. */
const envelopeOf = (result: CallToolResult) => {
  const part = result.content[1]
  return JSON.parse(part?.type === "text" ? part.text : "null") as { error: { code: string; message: string }; requestId: string }
}

beforeAll(async () => {
  atrium = await startAtrium()
  owner = await signUp(atrium, "Olivia")
  workspaceId = (await must("POST", "/pm/v1/workspaces", { token: owner.token, body: { name: "Acme" } }, 201)).id
  await must("POST", "/pm/v1/lite/spaces", { token: owner.token, body: { workspaceId, name: "Engineering" } }, 201)
  await must("POST", "/pm/v1/lite/lists", { token: owner.token, body: { workspaceId, space: "Engineering", name: "Backlog" } }, 201)
  await must("POST", "/wiki/v1/spaces", { token: owner.token, body: { workspaceId, name: "Handbook", key: "HB" } }, 201)
  const key = (scopes: Array<string>) =>
    must("POST", "/pm/v1/api-keys", { token: owner.token, body: { workspaceId, name: scopes.join(" "), scopes } }, 201)
  fullKey = (await key(["tasks:read", "tasks:write", "wiki:read", "wiki:write"])).key
  readerKey = (await key(["tasks:read"])).key
})

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()))
  await atrium?.close()
})

describe("tools from the registry", () => {
  it("are the operations marked mcp, at most 20, each with an object input schema from the operation's schemas", () => {
    const tools = toolsOf(atriumRegistry.operations)
    expect(tools.length).toBeGreaterThan(10)
    expect(tools.length).toBeLessThanOrEqual(MAX_TOOLS)
    const createTask = tools.find((tool) => tool.name === "createTask")!
    expect(createTask.operation.operationId).toBe("createTaskLite")
    expect(createTask.inputSchema.required).toEqual(expect.arrayContaining(["list", "name"]))
    // The key's workspace fills workspaceId, so the agent need not know it.
    expect(createTask.inputSchema.required).not.toContain("workspaceId")
    expect(createTask.inputSchema.additionalProperties).toBe(false)
  })

  it("output schemas come from the success reply's schema and hold replies to it", () => {
    const tools = toolsOf(atriumRegistry.operations)
    const validator = new AjvJsonSchemaValidator()
    const task = validator.getValidator(tools.find((tool) => tool.name === "createTask")!.outputSchema!)
    expect(task({ shortId: "T-1" }).valid).toBe(false)
    const example = tools.find((tool) => tool.name === "createTask")!.operation.examples[0]!.response.body
    expect(task(example).valid, JSON.stringify(task(example).errorMessage)).toBe(true)
    for (const tool of tools) {
      const body = tool.operation.examples[0]?.response.body
      if (body === undefined || tool.outputSchema === undefined) continue
      const structured = typeof body === "object" && body !== null && !Array.isArray(body) ? body : { result: body }
      const outcome = validator.getValidator(tool.outputSchema)(structured)
      expect(outcome.valid, `${tool.name}: ${outcome.errorMessage}`).toBe(true)
    }
  })

  it("the catalog shows which operations are tools", async () => {
    const detailed = await must("GET", "/pm/v1/api-catalog/detailed", {}, 200)
    const endpoints = detailed.services.flatMap(
      (service: { endpoints: Array<{ operationId: string; mcpTool?: string }> }) => service.endpoints
    )
    expect(endpoints.find((e: { operationId: string }) => e.operationId === "createTaskLite").mcpTool).toBe("createTask")
    expect(endpoints.find((e: { operationId: string }) => e.operationId === "createTask").mcpTool).toBeUndefined()
    const tag = await must("GET", `/pm/v1/api-catalog/${encodeURIComponent("Context (Lite)")}`, {}, 200)
    expect(tag.operations[0].mcpTool).toBe("getContext")
    const openApi = await must("GET", "/wiki/v1/openapi.json", {}, 200)
    expect(openApi.paths["/v1/lite/spaces/{spaceKey}/pages/{pageRef}/append"].post["x-mcp-tool"]).toBe("appendToWikiPage")
  })
})

describe("an agent with an API key", () => {
  it("lists the tools its scopes allow, with input schemas", async () => {
    const client = await connect({ "x-api-key": fullKey })
    expect(client.getServerVersion()?.name).toBe("atrium")
    const { tools } = await client.listTools()
    const names = tools.map((tool) => tool.name)
    expect(names).toEqual(expect.arrayContaining(["getContext", "searchTasks", "createTask", "updateTask", "searchWiki", "createWikiPage"]))
    const getContext = tools.find((tool) => tool.name === "getContext")!
    expect(getContext.inputSchema.type).toBe("object")
    expect(getContext.outputSchema?.required).toEqual(expect.arrayContaining(["workspace", "spaces", "members"]))
    expect(getContext.annotations?.readOnlyHint).toBe(true)
    expect(tools.find((tool) => tool.name === "createTask")!.annotations?.readOnlyHint).toBe(false)

    const reader = await connect({ "x-api-key": readerKey })
    const readable = (await reader.listTools()).tools.map((tool) => tool.name)
    expect(readable).toContain("getContext")
    expect(readable).not.toContain("createTask")
    expect(readable).not.toContain("searchWiki")
  })

  it("calls getContext and createTask by names, and the task is there over REST", async () => {
    const client = await connect({ "x-api-key": fullKey })
    const context = await call(client, "getContext", {})
    expect(context.isError).toBeFalsy()
    const structured = context.structuredContent as {
      workspace: { id: string }
      spaces: Array<{ name: string; lists: Array<{ name: string }> }>
    }
    expect(structured.workspace.id).toBe(workspaceId)
    expect(structured.spaces[0]!.name).toBe("Engineering")
    expect(JSON.parse(textOf(context)).workspace.id).toBe(workspaceId)

    const created = await call(client, "createTask", {
      space: "engineering",
      list: "backlog",
      name: "Write the MCP docs",
      assigneeEmails: [owner.email],
      priority: "high"
    })
    expect(created.isError, textOf(created)).toBeFalsy()
    const task = created.structuredContent as { shortId: string; list: string; assignees: Array<string>; priority: string }
    expect(task).toMatchObject({ list: "Backlog", assignees: [owner.email], priority: "high" })
    const rest = await must("GET", `/pm/v1/lite/tasks/${task.shortId}?workspaceId=${workspaceId}`, { token: owner.token }, 200)
    expect(rest.name).toBe("Write the MCP docs")

    const updated = await call(client, "updateTask", { taskRef: task.shortId, status: "in progress" })
    expect(updated.isError, textOf(updated)).toBeFalsy()
    expect((updated.structuredContent as { status: string }).status).toBe("in progress")

    const found = await call(client, "searchTasks", { q: "MCP docs", limit: 5 })
    expect((found.structuredContent as { items: Array<{ shortId: string }> }).items.map((t) => t.shortId)).toEqual([task.shortId])

    const other = await call(client, "createTask", { list: "Backlog", name: "Review the MCP docs" })
    const otherRef = (other.structuredContent as { shortId: string }).shortId
    const related = await call(client, "relateTasks", { task: otherRef, type: "blocked by", relatedTask: task.shortId })
    expect(related.isError, textOf(related)).toBeFalsy()
    const comment = await call(client, "commentOnTask", { taskId: otherRef, text: `Ready soon @${owner.email}` })
    expect(comment.isError, textOf(comment)).toBeFalsy()
    const comments = await call(client, "listComments", { taskId: otherRef })
    expect(JSON.stringify(comments.structuredContent)).toContain("Ready soon")
  })

  it("writes and reads the wiki by space key and page slug", async () => {
    const client = await connect({ "x-api-key": fullKey })
    const page = await call(client, "createWikiPage", { spaceKey: "HB", title: "Agents", markdown: "# Agents\n\nThey use **MCP**.\n" })
    expect(page.isError, textOf(page)).toBeFalsy()
    const slug = (page.structuredContent as { slug: string }).slug
    const appended = await call(client, "appendToWikiPage", { spaceKey: "HB", pageRef: slug, markdown: "- one tool per job\n" })
    expect(appended.isError, textOf(appended)).toBeFalsy()
    const read = await call(client, "readWikiPage", { spaceKey: "hb", pageRef: slug })
    const markdown = (read.structuredContent as { markdown: string }).markdown
    expect(markdown).toContain("**MCP**")
    expect(markdown).toContain("one tool per job")
    const spaces = await call(client, "listWikiSpaces", {})
    expect(JSON.stringify(spaces.structuredContent)).toContain('"key":"HB"')
  })

  it("is refused a tool its scopes do not allow, as a tool error carrying the envelope's message", async () => {
    const reader = await connect({ "x-api-key": readerKey })
    const refused = await call(reader, "createTask", { list: "Backlog", name: "Not allowed" })
    expect(refused.isError).toBe(true)
    expect(textOf(refused)).toContain("tasks:write")
    expect(envelopeOf(refused).error.code).toBe("forbidden")
    expect(refused.content[0]).toEqual({ type: "text", text: envelopeOf(refused).error.message })
    const wiki = await call(reader, "searchWiki", { q: "agents" })
    expect(wiki.isError).toBe(true)
    expect(textOf(wiki)).toContain("wiki:read")
  })

  it("stays in the key's workspace: another workspace, even the key owner's, is not found", async () => {
    const other = (await must("POST", "/pm/v1/workspaces", { token: owner.token, body: { name: "Elsewhere" } }, 201)).id
    const client = await connect({ "x-api-key": fullKey })
    const context = await call(client, "getContext", { workspaceId: other })
    expect(context.isError).toBe(true)
    expect(envelopeOf(context).error.code).toBe("not_found")
    const created = await call(client, "createTask", { workspaceId: other, list: "Backlog", name: "Elsewhere" })
    expect(created.isError).toBe(true)
    await expect(client.readResource({ uri: `atrium://workspaces/${other}/context` })).rejects.toThrow(/No such workspace/)
  })

  it("bad arguments are MCP errors naming the field, and the server keeps serving", async () => {
    const client = await connect({ "x-api-key": fullKey })
    const missing = await call(client, "createTask", { list: "Backlog" })
    expect(missing.isError).toBe(true)
    expect(textOf(missing)).toContain("body.name")
    const wrongType = await call(client, "createTask", { list: "Backlog", name: 42 })
    expect(wrongType.isError).toBe(true)
    expect(textOf(wrongType)).toContain("body.name")
    const unknown = await call(client, "createTask", { list: "Backlog", name: "x", colour: "red" })
    expect(unknown.isError).toBe(true)
    expect(textOf(unknown)).toContain("colour")
    const badQuery = await call(client, "searchTasks", { limit: { many: true } })
    expect(badQuery.isError).toBe(true)
    expect(textOf(badQuery)).toContain("limit")
    const unknownName = await call(client, "createTask", { list: "No such list", name: "x" })
    expect(unknownName.isError).toBe(true)
    expect(textOf(unknownName)).toMatch(/No such list|not found/i)
    const nul = await call(client, "createTask", { list: "Backlog", name: "a\u0000b" })
    expect(nul.isError).toBe(true)
    await expect(client.callTool({ name: "noSuchTool", arguments: {} })).rejects.toThrow(/Unknown tool/)
    expect((await call(client, "getContext", {})).isError).toBeFalsy()
  })

  it("reads the workspace context and pages as resources", async () => {
    const client = await connect({ "x-api-key": fullKey })
    const { resources } = await client.listResources()
    const uris = resources.map((resource) => resource.uri)
    expect(uris).toContain("atrium://context")
    const pageUri = uris.find((uri) => uri.startsWith("atrium://wiki/HB/"))!
    expect(pageUri).toBeDefined()
    const page = await client.readResource({ uri: pageUri })
    expect(page.contents[0]).toMatchObject({ mimeType: "text/markdown" })
    expect((page.contents[0] as { text: string }).text).toContain("MCP")
    const context = await client.readResource({ uri: `atrium://workspaces/${workspaceId}/context` })
    expect(JSON.parse((context.contents[0] as { text: string }).text).workspace.id).toBe(workspaceId)
    const { resourceTemplates } = await client.listResourceTemplates()
    expect(resourceTemplates.map((template) => template.uriTemplate)).toContain("atrium://wiki/{spaceKey}/{pageRef}")
    await expect(client.readResource({ uri: "atrium://wiki/HB/no-such-page" })).rejects.toThrow(/no-such-page/)
    await expect(client.readResource({ uri: "https://example.com/" })).rejects.toThrow(/No resource/)

    // Only what the key may read is listed: a wiki-only key sees pages, a tasks-only key only the context.
    const wikiOnly = await must(
      "POST",
      "/pm/v1/api-keys",
      { token: owner.token, body: { workspaceId, name: "wiki", scopes: ["wiki:read"] } },
      201
    )
    const wikiUris = (await (await connect({ "x-api-key": wikiOnly.key })).listResources()).resources.map((r) => r.uri)
    expect(wikiUris).not.toContain("atrium://context")
    expect(wikiUris).toContain(pageUri)
    const taskUris = (await (await connect({ "x-api-key": readerKey })).listResources()).resources.map((r) => r.uri)
    expect(taskUris).toEqual(["atrium://context"])
  })

  it("completes template and prompt arguments from what the caller can read", async () => {
    const client = await connect({ "x-api-key": fullKey })
    const page = { type: "ref/resource" as const, uri: "atrium://wiki/{spaceKey}/{pageRef}" }
    expect((await client.complete({ ref: page, argument: { name: "spaceKey", value: "h" } })).completion.values).toEqual(["HB"])
    const slugs = await client.complete({
      ref: page,
      argument: { name: "pageRef", value: "ag" },
      context: { arguments: { spaceKey: "HB" } }
    })
    expect(slugs.completion.values).toEqual(["agents"])
    const prompt = { type: "ref/prompt" as const, name: "planMyWeek" }
    const weeks = (await client.complete({ ref: prompt, argument: { name: "weekOf", value: "" } })).completion.values
    expect(weeks).toHaveLength(4)
    expect(new Date(`${weeks[0]}T00:00:00Z`).getUTCDay()).toBe(1)
    expect((await client.complete({ ref: prompt, argument: { name: "workspaceId", value: "" } })).completion.values).toEqual([workspaceId])
    await expect(client.complete({ ref: { type: "ref/prompt", name: "other" }, argument: { name: "x", value: "" } })).rejects.toThrow(
      /No argument x/
    )
  })

  it("offers the prompt to plan the week from the caller's tasks", async () => {
    const client = await connect({ "x-api-key": fullKey })
    const { prompts } = await client.listPrompts()
    expect(prompts.map((prompt) => prompt.name)).toEqual(["planMyWeek"])
    const due = new Date(Date.now() + 86_400_000).toISOString()
    await call(client, "createTask", { list: "Backlog", name: "Due tomorrow", assigneeEmails: [owner.email], dueDate: due })
    const prompt = await client.getPrompt({ name: "planMyWeek", arguments: {} })
    const text = (prompt.messages[0]!.content as { text: string }).text
    expect(text).toContain("Write the MCP docs")
    expect(text).toContain(owner.email)
    expect(text).toMatch(/meetings/i)
    await expect(client.getPrompt({ name: "planMyWeek", arguments: { weekOf: "next week" } })).rejects.toThrow(/weekOf/)
  })
})

describe("every tool, from the registry", () => {
  /** The operation's first example as flat tool arguments (made-up ids: most answer 404, none may crash). */
  const exampleArguments = (tool: ReturnType<typeof toolsOf>[number]) => {
    const request = tool.operation.examples[0]?.request
    const { workspaceId: _, ...query } = request?.query ?? {}
    const body = typeof request?.body === "object" && request.body !== null ? (request.body as Record<string, unknown>) : {}
    const { workspaceId: __, ...rest } = body
    return { ...request?.params, ...query, ...rest }
  }
  const junk = (tool: ReturnType<typeof toolsOf>[number]) =>
    Object.fromEntries([...tool.locations.keys()].map((name, index) => [name, [{ nested: true }, -1, "", "\u0000", null][index % 5]]))

  it("answers its example, empty arguments and junk with a result or a tool error, never an internal error", async () => {
    const client = await connect({ "x-api-key": fullKey })
    expect((await client.listTools()).tools.every((tool) => tool.outputSchema?.type === "object")).toBe(true)
    for (const tool of toolsOf(atriumRegistry.operations)) {
      for (const args of [exampleArguments(tool), {}, junk(tool)]) {
        const result = await call(client, tool.name, args)
        const label = `${tool.name}(${JSON.stringify(args).slice(0, 200)}): ${textOf(result).slice(0, 300)}`
        expect(result.content.length, label).toBeGreaterThan(0)
        expect(textOf(result), label).not.toMatch(/^Internal error|^HTTP 5/)
        if (result.isError && result.content.length > 1) expect(envelopeOf(result).error.code, label).not.toBe("internal")
      }
    }
  })
})

describe("a user with a JWT", () => {
  it("works too, with workspaceId defaulting to the user's only workspace", async () => {
    const solo = await signUp(atrium, "Solo")
    const own = (await must("POST", "/pm/v1/workspaces", { token: solo.token, body: { name: "Solo" } }, 201)).id
    await must("POST", "/pm/v1/lite/spaces", { token: solo.token, body: { workspaceId: own, name: "Home" } }, 201)
    await must("POST", "/pm/v1/lite/lists", { token: solo.token, body: { workspaceId: own, space: "Home", name: "Inbox" } }, 201)
    const client = await connect({ authorization: `Bearer ${solo.token}` })
    const names = (await client.listTools()).tools.map((tool) => tool.name)
    expect(names).toContain("createTask")
    const created = await call(client, "createTask", { list: "Inbox", name: "From a session" })
    expect(created.isError, textOf(created)).toBeFalsy()
    expect((created.structuredContent as { space: string }).space).toBe("Home")
    const context = await call(client, "getContext", {})
    expect((context.structuredContent as { you: { email: string } }).you.email).toBe(solo.email)
  })

  it("a user in several workspaces is asked to name one", async () => {
    await must("POST", "/pm/v1/workspaces", { token: owner.token, body: { name: "Second" } }, 201)
    const client = await connect({ authorization: `Bearer ${owner.token}` })
    const unnamed = await call(client, "createTask", { list: "Backlog", name: "Where?" })
    expect(unnamed.isError).toBe(true)
    expect(textOf(unnamed)).toContain("workspaceId")
    const named = await call(client, "createTask", { workspaceId, list: "Backlog", name: "Here" })
    expect(named.isError, textOf(named)).toBeFalsy()
  })
})

describe("HTTP edges", () => {
  const initialize = {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "curl", version: "1" } }
  }
  const headers = { accept: "application/json, text/event-stream" }

  it("MCP_ALLOWED_HOSTS limits the Host and Origin a request may name (DNS rebinding)", () => {
    const allowed = allowedHostsFromEnv({ MCP_ALLOWED_HOSTS: " localhost, 127.0.0.1 ,::1" })
    expect(allowed).toEqual(["localhost", "127.0.0.1", "::1"])
    expect(hostAllowed({ host: "localhost:8080", originHeader: "" }, allowed)).toBe(true)
    expect(hostAllowed({ host: "[::1]:8080", originHeader: "http://127.0.0.1:3000" }, allowed)).toBe(true)
    expect(hostAllowed({ host: "evil.example.com", originHeader: "http://evil.example.com" }, allowed)).toBe(false)
    expect(hostAllowed({ host: "localhost:8080", originHeader: "http://evil.example.com" }, allowed)).toBe(false)
    expect(hostAllowed({ host: "evil.example.com/x", originHeader: "" }, allowed)).toBe(false)
    expect(hostAllowed({ host: "anything.example", originHeader: "" }, allowedHostsFromEnv({}))).toBe(true)
  })

  it("refuses missing and wrong credentials with 401 and the error envelope", async () => {
    const none = await atrium.request("POST", "/mcp", { body: initialize, headers })
    expect(none.status).toBe(401)
    expect(none.body.error.code).toBe("unauthorized")
    const wrong = await atrium.request("POST", "/mcp", { body: initialize, headers, apiKey: "atr_live_nope" })
    expect(wrong.status).toBe(401)
  })

  it("answers a plain JSON POST, refuses GET and DELETE with 405 and oversized bodies with 413", async () => {
    const ok = await atrium.request("POST", "/mcp", { body: initialize, headers, apiKey: fullKey })
    expect(ok.status).toBe(200)
    expect(ok.body.result.serverInfo.name).toBe("atrium")
    expect((await atrium.request("GET", "/mcp", { apiKey: fullKey, headers: { accept: "text/event-stream" } })).status).toBe(405)
    expect((await atrium.request("DELETE", "/mcp", { apiKey: fullKey })).status).toBe(405)
    const big = await atrium.request("POST", "/mcp", { headers, apiKey: fullKey, body: { ...initialize, padding: "x".repeat(1_100_000) } })
    expect(big.status).toBe(413)
    const malformed = await atrium.request("POST", "/mcp", {
      headers: { ...headers, "content-type": "application/json" },
      apiKey: fullKey,
      rawBody: "{"
    })
    expect(malformed.status).toBe(400)
  })
})
