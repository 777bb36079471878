/**
 * Argument completion (`completion/complete`) for the prompt and the resource
 * templates: workspace ids the caller may use, the Mondays of the next weeks,
 * wiki space keys and page slugs. Values come from the operations through the
 * pipeline, so they are only what the caller could read anyway.
 */
import { type CompleteResult, ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js"
import { Effect } from "effect"
import { weekOf } from "./Prompts.ts"
import { callOperation, type ResourceCalls } from "./Resources.ts"

/** The protocol's limit on values in one completion. */
const MAX_VALUES = 100
const WEEK = 7 * 86_400_000

export type CompletionRef = { readonly type: "ref/prompt"; readonly name: string } | { readonly type: "ref/resource"; readonly uri: string }

const itemsOf = <A>(reply: { status: number; body: unknown }): ReadonlyArray<A> =>
  reply.status < 300 ? ((reply.body as { items?: ReadonlyArray<A> }).items ?? []) : []

/** The caller's workspaces; a key that may not list workspaces still knows its own (the context's). */
const workspaceIds = (calls: ResourceCalls) =>
  Effect.gen(function* () {
    const listed = yield* callOperation(calls, "pm", "listWorkspaces", {})
    if (listed.status < 300) return itemsOf<{ id: string }>(listed).map((w) => w.id)
    const context = yield* callOperation(calls, "pm", "getContextLite", {})
    return context.status < 300 ? [(context.body as { workspace: { id: string } }).workspace.id] : []
  })

const spaceKeys = (calls: ResourceCalls) =>
  Effect.map(callOperation(calls, "wiki", "discoverWikiSpaces", {}), (reply) => itemsOf<{ key: string }>(reply).map((s) => s.key))

const pageSlugs = (calls: ResourceCalls, spaceKey: string | undefined) =>
  spaceKey === undefined || spaceKey === ""
    ? Effect.succeed([])
    : Effect.map(callOperation(calls, "wiki", "listWikiPagesLite", { params: { spaceKey } }), (reply) =>
        itemsOf<{ slug: string }>(reply).map((p) => p.slug)
      )

/** This week's Monday and the next three, as YYYY-MM-DD. */
const mondays = () => {
  const start = weekOf(new Date()).start.getTime()
  return Array.from({ length: 4 }, (_, index) => new Date(start + index * WEEK).toISOString().slice(0, 10))
}

const candidatesFor = (calls: ResourceCalls, ref: CompletionRef, argument: string, context: Readonly<Record<string, string>>) => {
  const key = ref.type === "ref/prompt" ? `prompt:${ref.name}:${argument}` : `resource:${ref.uri}:${argument}`
  switch (key) {
    case "prompt:planMyWeek:weekOf":
      return Effect.succeed(mondays())
    case "prompt:planMyWeek:workspaceId":
    case "resource:atrium://workspaces/{workspaceId}/context:workspaceId":
      return workspaceIds(calls)
    case "resource:atrium://wiki/{spaceKey}/{pageRef}:spaceKey":
      return spaceKeys(calls)
    case "resource:atrium://wiki/{spaceKey}/{pageRef}:pageRef":
      return pageSlugs(calls, context.spaceKey)
    default:
      return Effect.fail(
        new McpError(
          ErrorCode.InvalidParams,
          ref.type === "ref/prompt" ? `No argument ${argument} of a prompt ${ref.name}` : `No argument ${argument} of a template ${ref.uri}`
        )
      )
  }
}

export const complete = (
  calls: ResourceCalls,
  ref: CompletionRef,
  argument: { readonly name: string; readonly value: string },
  context: Readonly<Record<string, string>>
): Effect.Effect<CompleteResult, McpError, any> =>
  Effect.map(candidatesFor(calls, ref, argument.name, context), (candidates) => {
    const prefix = argument.value.toLowerCase()
    const matching = candidates.filter((candidate) => candidate.toLowerCase().startsWith(prefix))
    return {
      completion: {
        values: matching.slice(0, MAX_VALUES),
        total: matching.length,
        hasMore: matching.length > MAX_VALUES
      }
    }
  })
