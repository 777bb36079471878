/**
 * hub tag "Demo Resource" (10): demo workspaces filled by the same generator as
 * `npm start -- --demo` (facade/Demo.ts: product space, lists, 30 tasks, wiki
 * pages, meetings), created, reset, extended and deleted by their owner, with
 * agent keys; platform admins list and purge the expired ones.
 */
import { Effect, Schema } from "effect"
import { allDemos, DemoWorkspace, demosOf, markReset, setDemoExpiry } from "../../../actors/hub/DemoWorkspaces.ts"
import { Id, Name } from "../../../actors/Fields.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { userOf } from "../../Access.ts"
import { DEMO_LISTS, DEMO_SPACE, DEMO_WIKI, demoMeetings, demoPages, demoTasks } from "../../DemoContent.ts"
import { caller, mintDemoKey } from "../../Demo.ts"
import { tagGroup } from "../../Operation.ts"
import { OperationRegistry } from "../../Registry.ts"
import { requirePlatformAdmin } from "../../PlatformAdmin.ts"
import {
  createDemoFor,
  DemoParams,
  expiryFromNow,
  MAX_DEMOS_PER_USER,
  MAX_EXTEND_DAYS,
  ownDemo,
  removeDemo,
  SeededDemo,
  seedDemo,
  tokenOf,
  deleteWorkspaceOf
} from "./DemoSeeding.ts"
import { demoResourceExamples } from "./DemoResource.examples.ts"

const ContentDescription = Schema.Struct({
  space: Schema.String,
  lists: Schema.Array(Schema.String),
  tasks: Schema.Array(Schema.Struct({ list: Schema.String, name: Schema.String, priority: Schema.String })),
  wikiSpace: Schema.Struct({ key: Schema.String, name: Schema.String }),
  pages: Schema.Array(Schema.String),
  meetings: Schema.Array(Schema.String)
}).annotate({ identifier: "DemoContent" })

const { operation } = tagGroup("hub", "Demo Resource", demoResourceExamples)

export const demoResourceOperations = [
  operation({
    operationId: "createDemoWorkspace",
    method: "POST",
    path: "/v1/demo/workspaces",
    summary: "Create a demo workspace filled with realistic tasks, wiki pages and meetings; the caller owns it",
    description: `It expires after DEMO_TTL_DAYS (default 7) days; at most ${MAX_DEMOS_PER_USER} live demos per user.`,
    auth: "jwt",
    scopes: [],
    body: Schema.Struct({ name: Schema.optionalKey(Name(100)) }),
    responses: { 201: { description: "Created and seeded", schema: SeededDemo }, 409: { description: "Too many demos" } },
    handler: ({ body }, context) =>
      Effect.gen(function* () {
        const { user, token } = yield* tokenOf(context)
        const live = (yield* demosOf(user.userId)).filter((demo) => !demo.expired)
        if (live.length >= MAX_DEMOS_PER_USER)
          return yield* reject("conflict", `At most ${MAX_DEMOS_PER_USER} demo workspaces per user; delete one first`)
        return yield* createDemoFor(context, token, user, body.name?.trim() ?? "Demo workspace", "user")
      })
  }),
  operation({
    operationId: "listDemoWorkspaces",
    method: "GET",
    path: "/v1/demo/workspaces",
    summary: "The caller's demo workspaces",
    auth: "jwt",
    scopes: [],
    responses: { 200: { description: "Demos", schema: Schema.Struct({ items: Schema.Array(DemoWorkspace) }) } },
    handler: (_request, context) =>
      Effect.gen(function* () {
        const user = yield* userOf(context)
        return { items: yield* demosOf(user.userId) }
      })
  }),
  operation({
    operationId: "getDemoWorkspace",
    method: "GET",
    path: "/v1/demo/workspaces/{demoId}",
    summary: "One of the caller's demo workspaces",
    auth: "jwt",
    scopes: [],
    params: DemoParams,
    responses: { 200: { description: "The demo", schema: DemoWorkspace }, 404: { description: "No such demo" } },
    handler: ({ params }, context) => ownDemo(context, params.demoId)
  }),
  operation({
    operationId: "resetDemoWorkspace",
    method: "POST",
    path: "/v1/demo/workspaces/{demoId}/reset",
    summary: "Start the demo over: a freshly seeded workspace replaces the current one (which is deleted)",
    description: "The demo keeps its id and expiry; `workspaceId` changes, and a new agent API key is returned.",
    auth: "jwt",
    scopes: [],
    params: DemoParams,
    responses: { 200: { description: "Reseeded", schema: SeededDemo } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const demo = yield* ownDemo(context, params.demoId)
        const { user, token } = yield* tokenOf(context)
        const seeded = yield* seedDemo(context, token, user.email, demo.name)
        yield* deleteWorkspaceOf(demo)
        const updated = yield* markReset(demo.id, seeded.workspaceId, seeded.contents)
        return { ...updated, apiKey: seeded.apiKey }
      })
  }),
  operation({
    operationId: "deleteDemoWorkspace",
    method: "DELETE",
    path: "/v1/demo/workspaces/{demoId}",
    summary: "Delete a demo and its workspace",
    auth: "jwt",
    scopes: [],
    params: DemoParams,
    responses: { 204: { description: "Deleted" } },
    handler: ({ params }, context) => Effect.flatMap(ownDemo(context, params.demoId), removeDemo)
  }),
  operation({
    operationId: "extendDemoWorkspace",
    method: "POST",
    path: "/v1/demo/workspaces/{demoId}/extend",
    summary: "Keep a demo longer: it expires `days` days from now",
    auth: "jwt",
    scopes: [],
    params: DemoParams,
    body: Schema.Struct({ days: Schema.Number.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: MAX_EXTEND_DAYS })) }),
    responses: { 200: { description: "Extended", schema: DemoWorkspace } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const demo = yield* ownDemo(context, params.demoId)
        return yield* setDemoExpiry(demo.id, expiryFromNow(body.days))
      })
  }),
  operation({
    operationId: "createDemoApiKey",
    method: "POST",
    path: "/v1/demo/workspaces/{demoId}/api-key",
    summary: "Mint another agent API key (every scope) for a demo workspace",
    auth: "jwt",
    scopes: [],
    params: DemoParams,
    responses: {
      201: {
        description: "Minted (shown only now)",
        schema: Schema.Struct({ workspaceId: Id, apiKey: Schema.String }).annotate({ identifier: "DemoApiKey" })
      }
    },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const demo = yield* ownDemo(context, params.demoId)
        const { token } = yield* tokenOf(context)
        const registry = yield* OperationRegistry
        const apiKey = yield* mintDemoKey(caller(registry, context.origin), demo.workspaceId, token)
        return { workspaceId: demo.workspaceId, apiKey }
      })
  }),
  operation({
    operationId: "getDemoContent",
    method: "GET",
    path: "/v1/demo/content",
    summary: "What a demo workspace is seeded with: the space, lists, tasks, wiki pages and meetings",
    auth: "jwt",
    scopes: [],
    responses: { 200: { description: "The generator's content", schema: ContentDescription } },
    handler: (_request, context) =>
      Effect.map(userOf(context), () => ({
        space: DEMO_SPACE,
        lists: [...DEMO_LISTS],
        tasks: demoTasks.map((t) => ({ list: t.list, name: t.name, priority: t.priority })),
        wikiSpace: { key: DEMO_WIKI.key, name: DEMO_WIKI.name },
        pages: demoPages.map((p) => p.title),
        meetings: demoMeetings.map((m) => m.name)
      }))
  }),
  operation({
    operationId: "listAllDemoWorkspaces",
    method: "GET",
    path: "/v1/demo/admin/workspaces",
    summary: "Every live demo workspace, or only the expired ones (platform admins)",
    auth: "jwt",
    scopes: [],
    query: Schema.Struct({
      expired: Schema.optionalKey(Schema.Literals(["true", "false"])),
      limit: Schema.optionalKey(Schema.FiniteFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 500 })))
    }),
    responses: {
      200: { description: "Demos", schema: Schema.Struct({ items: Schema.Array(DemoWorkspace) }) },
      403: { description: "Not a platform admin" }
    },
    handler: ({ query }, context) =>
      Effect.gen(function* () {
        yield* requirePlatformAdmin(context)
        return { items: yield* allDemos({ expiredOnly: query.expired === "true", limit: query.limit ?? 100 }) }
      })
  }),
  operation({
    operationId: "purgeExpiredDemoWorkspaces",
    method: "POST",
    path: "/v1/demo/admin/purge",
    summary: "Delete every expired demo and its workspace (platform admins)",
    auth: "jwt",
    scopes: [],
    responses: {
      200: { description: "Purged", schema: Schema.Struct({ purged: Schema.Number }) },
      403: { description: "Not a platform admin" }
    },
    handler: (_request, context) =>
      Effect.gen(function* () {
        yield* requirePlatformAdmin(context)
        const expired = yield* allDemos({ expiredOnly: true, limit: 500 })
        yield* Effect.forEach(expired, removeDemo, { discard: true })
        return { purged: expired.length }
      })
  })
]
