/**
 * Read-only MCP resources: the workspace context (Context Lite) and wiki pages
 * as Markdown (Pages Lite). Each read is the operation's own request through
 * the pipeline, so it sees exactly what the caller's credentials allow.
 *
 *   atrium://context                              the default workspace's context
 *   atrium://workspaces/{workspaceId}/context     a named workspace's context
 *   atrium://wiki/{spaceKey}/{pageRef}            a page (slug or title) as Markdown
 */
import { ErrorCode, McpError, type ReadResourceResult, type Resource, type ResourceTemplate } from "@modelcontextprotocol/sdk/types.js"
import { Effect } from "effect"
import { type Caller, type Invocation, type InvokeResult, invokeById } from "../Invoke.ts"
import type { ServiceName } from "../Operation.ts"
import type { Principal } from "../../actors/identity/Principal.ts"
import type { Registry } from "../Registry.ts"
import { mayInvoke } from "./Tools.ts"

/** "Resource not found" in the MCP specification. */
const RESOURCE_NOT_FOUND = -32002
/** At most this many pages are listed (the templates reach every page). */
const MAX_LISTED_PAGES = 200

export const CONTEXT_URI = "atrium://context"

export const resourceTemplates: ReadonlyArray<ResourceTemplate> = [
  {
    uriTemplate: "atrium://workspaces/{workspaceId}/context",
    name: "workspace-context",
    title: "Workspace context",
    description: "A workspace as an agent discovers it: spaces, lists, statuses, custom fields, members, short ids",
    mimeType: "application/json"
  },
  {
    uriTemplate: "atrium://wiki/{spaceKey}/{pageRef}",
    name: "wiki-page",
    title: "Wiki page",
    description: "A wiki page as Markdown, by space key and page slug (or exact title)",
    mimeType: "text/markdown"
  }
]

const CONTEXT_OF = /^atrium:\/\/workspaces\/([^/]+)\/context$/
const PAGE = /^atrium:\/\/wiki\/([^/]+)\/([^/]+)$/

export interface ResourceCalls {
  readonly registry: Registry
  readonly caller: Caller
  readonly principal: Principal
}

const call = (calls: ResourceCalls, service: ServiceName, operationId: string, input: Invocation) =>
  invokeById(calls.registry, service, operationId, input, calls.caller)

const ok = (reply: InvokeResult) => reply.status < 300

const failed = (uri: string, reply: InvokeResult): McpError => {
  const message = (reply.body as { error?: { message?: string } } | undefined)?.error?.message ?? `HTTP ${reply.status}`
  return new McpError(reply.status === 404 ? RESOURCE_NOT_FOUND : ErrorCode.InvalidParams, `${uri}: ${message}`, { uri })
}

/** The URI's captured segments, percent-decoded; undefined when it does not match or an escape is malformed. */
const segmentsOf = (pattern: RegExp, uri: string): Array<string> | undefined => {
  const match = pattern.exec(uri)
  if (match === null) return undefined
  try {
    return match.slice(1).map((segment) => decodeURIComponent(segment))
  } catch {
    return undefined
  }
}

const contextResource: Resource = {
  uri: CONTEXT_URI,
  name: "context",
  title: "Workspace context",
  description: "Your workspace: spaces, lists, statuses, custom fields, members, short ids",
  mimeType: "application/json"
}

/** The context resource (when the credentials may read it), then the pages of the wiki spaces the caller can read. */
export const listResources = (calls: ResourceCalls) =>
  Effect.gen(function* () {
    const context = calls.registry.ofService("pm").find((op) => op.operationId === "getContextLite")
    const resources: Array<Resource> = context !== undefined && mayInvoke(context, calls.principal) ? [contextResource] : []
    const spaces = yield* call(calls, "wiki", "discoverWikiSpaces", {})
    if (!ok(spaces)) return resources
    for (const space of (spaces.body as { items?: ReadonlyArray<{ key: string; name: string; workspaceId: string }> }).items ?? []) {
      const outline = yield* call(calls, "wiki", "listWikiPagesLite", {
        params: { spaceKey: space.key },
        query: { workspaceId: space.workspaceId }
      })
      if (!ok(outline)) continue
      for (const page of (outline.body as { items?: ReadonlyArray<{ slug: string; title: string }> }).items ?? []) {
        if (resources.length > MAX_LISTED_PAGES) return resources
        resources.push({
          uri: `atrium://wiki/${encodeURIComponent(space.key)}/${encodeURIComponent(page.slug)}`,
          name: `${space.key}/${page.slug}`,
          title: `${page.title} (${space.name})`,
          mimeType: "text/markdown"
        })
      }
    }
    return resources
  })

export const readResource = (calls: ResourceCalls, uri: string): Effect.Effect<ReadResourceResult, McpError, any> =>
  Effect.gen(function* () {
    const contextOf = uri === CONTEXT_URI ? [] : segmentsOf(CONTEXT_OF, uri)
    if (contextOf !== undefined) {
      const workspaceId = contextOf[0]
      const reply = yield* call(calls, "pm", "getContextLite", workspaceId ? { query: { workspaceId } } : {})
      if (!ok(reply)) return yield* Effect.fail(failed(uri, reply))
      return { contents: [{ uri, mimeType: "application/json", text: JSON.stringify(reply.body, null, 2) }] }
    }
    const page = segmentsOf(PAGE, uri)
    if (page !== undefined) {
      const reply = yield* call(calls, "wiki", "getWikiPageLite", { params: { spaceKey: page[0]!, pageRef: page[1]! } })
      if (!ok(reply)) return yield* Effect.fail(failed(uri, reply))
      return { contents: [{ uri, mimeType: "text/markdown", text: (reply.body as { markdown: string }).markdown }] }
    }
    return yield* Effect.fail(new McpError(RESOURCE_NOT_FOUND, `No resource ${uri}`, { uri }))
  })

export { call as callOperation }
