/**
 * hub tags "Demo Resource" (10) and "Demo User Resource" (1): demo workspaces
 * filled by the same generator as `npm start -- --demo` (facade/Demo.ts:
 * product space, lists, 30 tasks, wiki pages, meetings), created, reset,
 * extended and deleted by their owner; platform admins list and purge the
 * expired ones; a visitor can get a throwaway account with its own demo.
 */
import { randomBytes, randomUUID } from "node:crypto"
import { Effect, Schema } from "effect"
import { Account } from "../../../actors/identity/Account.ts"
import { Workspace } from "../../../actors/identity/Workspace.ts"
import {
  allDemos,
  DemoWorkspace,
  demoById,
  demosCreatedSince,
  demosOf,
  markDemoDeleted,
  markReset,
  recordDemo,
  setDemoExpiry
} from "../../../actors/hub/DemoWorkspaces.ts"
import { Email, Id, Name } from "../../../actors/Fields.ts"
import { ActorSystem } from "../../../runtime/ActorSystem.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { userOf } from "../../Access.ts"
import { AccessTokens } from "../../auth/AccessTokens.ts"
import { examplePair, logIn, TokenPair } from "../../auth/SessionTokens.ts"
import { DEMO_LISTS, DEMO_SPACE, DEMO_WIKI, demoMeetings, demoPages, demoTasks } from "../../DemoContent.ts"
import { operation, type RequestContext } from "../../Operation.ts"
import { requirePlatformAdmin } from "../../PlatformAdmin.ts"

const service = "hub"
const tag = "Demo Resource"
const at = "2026-11-21T12:00:00.000Z"
const DAY = 86_400_000

const ttlDays = () => Number(process.env.DEMO_TTL_DAYS) || 7
/** Throwaway demo accounts per hour (the Demo User Resource is public). */
const demoUsersPerHour = () => Number(process.env.DEMO_USERS_PER_HOUR) || 5
const MAX_DEMOS_PER_USER = 5
const MAX_EXTEND_DAYS = 30

const exampleDemo = {
  id: "8c9d0e1f-2a3b-4c4d-8e5f-6a7b8c9d0e1f",
  workspaceId: "0b9e4c1a-6f0e-4d5f-9a77-3f7c2f1e8a10",
  ownerId: "6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f",
  name: "Demo workspace",
  contents: { lists: 3, tasks: 30, pages: 4, meetings: 3 },
  resets: 0,
  createdAt: at,
  resetAt: null,
  expiresAt: "2026-11-28T12:00:00.000Z",
  expired: false
}
const exampleKey = "atr_live_Xy12ab…"

const SeededDemo = Schema.Struct({
  ...DemoWorkspace.fields,
  apiKey: Schema.String.annotate({ description: "An agent API key for the demo workspace (every scope); shown only now" })
}).annotate({ identifier: "SeededDemoWorkspace" })

const DemoParams = Schema.Struct({ demoId: Id })

/**
 * The generator and the registry it calls through, loaded when first needed:
 * they import every operation, this file among them (a static import would be a cycle).
 */
const generator = Effect.promise(async () => {
  const [demo, operations] = await Promise.all([import("../../Demo.ts"), import("../../operations.ts")])
  return { ...demo, registry: operations.atriumRegistry }
})

/** Creates a workspace as the holder of `token` and fills it with the demo content. */
const seedDemo = (context: RequestContext, token: string, email: string, name: string) =>
  Effect.gen(function* () {
    const { caller, mintDemoKey, seedWorkspaceContent, registry: atriumRegistry } = yield* generator
    const call = caller(atriumRegistry, context.origin)
    const workspace = yield* call("hub", "createHubWorkspace", { body: { name } }, token)
    const workspaceId: string = workspace.id
    const apiKey = yield* mintDemoKey(call, workspaceId, token)
    const contents = yield* seedWorkspaceContent(call, { workspaceId, apiKey, writers: [{ email, token }] }, atriumRegistry)
    return { workspaceId, apiKey, contents }
  })

/** An access token for the calling user's own session, for the seed's calls on their behalf. */
const tokenOf = (context: RequestContext) =>
  Effect.gen(function* () {
    const user = yield* userOf(context)
    const issued = yield* (yield* AccessTokens).issue({
      userId: user.userId,
      email: user.email,
      name: user.name,
      sessionId: user.sessionId
    })
    return { user, token: issued.token }
  })

/** The caller's own demo (others' answer 404). */
const ownDemo = (context: RequestContext, demoId: string) =>
  Effect.gen(function* () {
    const user = yield* userOf(context)
    const demo = yield* demoById(demoId)
    if (demo.ownerId !== user.userId) return yield* reject("not_found", "No such demo workspace")
    return demo
  })

/** Deletes the demo's workspace (already gone: nothing to do). */
const deleteWorkspaceOf = (demo: DemoWorkspace) =>
  Effect.gen(function* () {
    yield* (yield* ActorSystem)
      .ask(Workspace, demo.workspaceId, "delete", { by: demo.ownerId })
      .pipe(Effect.catchTag("Rejection", () => Effect.void))
  })

const removeDemo = (demo: DemoWorkspace) =>
  Effect.gen(function* () {
    yield* deleteWorkspaceOf(demo)
    yield* markDemoDeleted(demo.id)
  })

const expiryFromNow = (days: number) => new Date(Date.now() + days * DAY).toISOString()

const createDemoFor = (
  context: RequestContext,
  token: string,
  owner: { userId: string; email: string },
  name: string,
  origin: "user" | "demo_user"
) =>
  Effect.gen(function* () {
    const seeded = yield* seedDemo(context, token, owner.email, name)
    const demo = yield* recordDemo({
      id: randomUUID(),
      workspaceId: seeded.workspaceId,
      ownerId: owner.userId,
      name,
      origin,
      contents: seeded.contents,
      expiresAt: expiryFromNow(ttlDays())
    })

    return { ...demo, apiKey: seeded.apiKey }
  })

const ContentDescription = Schema.Struct({
  space: Schema.String,
  lists: Schema.Array(Schema.String),
  tasks: Schema.Array(Schema.Struct({ list: Schema.String, name: Schema.String, priority: Schema.String })),
  wikiSpace: Schema.Struct({ key: Schema.String, name: Schema.String }),
  pages: Schema.Array(Schema.String),
  meetings: Schema.Array(Schema.String)
}).annotate({ identifier: "DemoContent" })

export const demoResourceOperations = [
  operation({
    service,
    tag,
    operationId: "createDemoWorkspace",
    method: "POST",
    path: "/v1/demo/workspaces",
    summary: "Create a demo workspace filled with realistic tasks, wiki pages and meetings; the caller owns it",
    description: `It expires after DEMO_TTL_DAYS (default 7) days; at most ${MAX_DEMOS_PER_USER} live demos per user.`,
    auth: "jwt",
    scopes: [],
    body: Schema.Struct({ name: Schema.optionalKey(Name(100)) }),
    responses: { 201: { description: "Created and seeded", schema: SeededDemo }, 409: { description: "Too many demos" } },
    examples: [
      {
        name: "create",
        request: { body: { name: "Demo workspace" } },
        response: { status: 201, body: { ...exampleDemo, apiKey: exampleKey } }
      }
    ],
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
    service,
    tag,
    operationId: "listDemoWorkspaces",
    method: "GET",
    path: "/v1/demo/workspaces",
    summary: "The caller's demo workspaces",
    auth: "jwt",
    scopes: [],
    responses: { 200: { description: "Demos", schema: Schema.Struct({ items: Schema.Array(DemoWorkspace) }) } },
    examples: [{ name: "mine", response: { status: 200, body: { items: [exampleDemo] } } }],
    handler: (_request, context) =>
      Effect.gen(function* () {
        const user = yield* userOf(context)
        return { items: yield* demosOf(user.userId) }
      })
  }),
  operation({
    service,
    tag,
    operationId: "getDemoWorkspace",
    method: "GET",
    path: "/v1/demo/workspaces/{demoId}",
    summary: "One of the caller's demo workspaces",
    auth: "jwt",
    scopes: [],
    params: DemoParams,
    responses: { 200: { description: "The demo", schema: DemoWorkspace }, 404: { description: "No such demo" } },
    examples: [{ name: "get", request: { params: { demoId: exampleDemo.id } }, response: { status: 200, body: exampleDemo } }],
    handler: ({ params }, context) => ownDemo(context, params.demoId)
  }),
  operation({
    service,
    tag,
    operationId: "resetDemoWorkspace",
    method: "POST",
    path: "/v1/demo/workspaces/{demoId}/reset",
    summary: "Start the demo over: a freshly seeded workspace replaces the current one (which is deleted)",
    description: "The demo keeps its id and expiry; `workspaceId` changes, and a new agent API key is returned.",
    auth: "jwt",
    scopes: [],
    params: DemoParams,
    responses: { 200: { description: "Reseeded", schema: SeededDemo } },
    examples: [
      {
        name: "reset",
        request: { params: { demoId: exampleDemo.id } },
        response: { status: 200, body: { ...exampleDemo, resets: 1, resetAt: at, apiKey: exampleKey } }
      }
    ],
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
    service,
    tag,
    operationId: "deleteDemoWorkspace",
    method: "DELETE",
    path: "/v1/demo/workspaces/{demoId}",
    summary: "Delete a demo and its workspace",
    auth: "jwt",
    scopes: [],
    params: DemoParams,
    responses: { 204: { description: "Deleted" } },
    examples: [{ name: "delete", request: { params: { demoId: exampleDemo.id } }, response: { status: 204 } }],
    handler: ({ params }, context) => Effect.flatMap(ownDemo(context, params.demoId), removeDemo)
  }),
  operation({
    service,
    tag,
    operationId: "extendDemoWorkspace",
    method: "POST",
    path: "/v1/demo/workspaces/{demoId}/extend",
    summary: "Keep a demo longer: it expires `days` days from now",
    auth: "jwt",
    scopes: [],
    params: DemoParams,
    body: Schema.Struct({ days: Schema.Number.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: MAX_EXTEND_DAYS })) }),
    responses: { 200: { description: "Extended", schema: DemoWorkspace } },
    examples: [
      {
        name: "extend",
        request: { params: { demoId: exampleDemo.id }, body: { days: 14 } },
        response: { status: 200, body: { ...exampleDemo, expiresAt: "2026-12-05T12:00:00.000Z" } }
      }
    ],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const demo = yield* ownDemo(context, params.demoId)
        return yield* setDemoExpiry(demo.id, expiryFromNow(body.days))
      })
  }),
  operation({
    service,
    tag,
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
    examples: [
      {
        name: "mint",
        request: { params: { demoId: exampleDemo.id } },
        response: { status: 201, body: { workspaceId: exampleDemo.workspaceId, apiKey: exampleKey } }
      }
    ],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const demo = yield* ownDemo(context, params.demoId)
        const { token } = yield* tokenOf(context)
        const { caller, mintDemoKey, registry } = yield* generator
        const apiKey = yield* mintDemoKey(caller(registry, context.origin), demo.workspaceId, token)
        return { workspaceId: demo.workspaceId, apiKey }
      })
  }),
  operation({
    service,
    tag,
    operationId: "getDemoContent",
    method: "GET",
    path: "/v1/demo/content",
    summary: "What a demo workspace is seeded with: the space, lists, tasks, wiki pages and meetings",
    auth: "jwt",
    scopes: [],
    responses: { 200: { description: "The generator's content", schema: ContentDescription } },
    examples: [
      {
        name: "content",
        response: {
          status: 200,
          body: {
            space: DEMO_SPACE,
            lists: [...DEMO_LISTS],
            tasks: demoTasks.slice(0, 1).map((t) => ({ list: t.list, name: t.name, priority: t.priority })),
            wikiSpace: { key: DEMO_WIKI.key, name: DEMO_WIKI.name },
            pages: demoPages.slice(0, 1).map((p) => p.title),
            meetings: demoMeetings.slice(0, 1).map((m) => m.name)
          }
        }
      }
    ],
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
    service,
    tag,
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
    examples: [
      {
        name: "expired",
        request: { query: { expired: "true" } },
        response: { status: 200, body: { items: [{ ...exampleDemo, expired: true }] } }
      }
    ],
    handler: ({ query }, context) =>
      Effect.gen(function* () {
        yield* requirePlatformAdmin(context)
        return { items: yield* allDemos({ expiredOnly: query.expired === "true", limit: query.limit ?? 100 }) }
      })
  }),
  operation({
    service,
    tag,
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
    examples: [{ name: "purge", response: { status: 200, body: { purged: 2 } } }],
    handler: (_request, context) =>
      Effect.gen(function* () {
        yield* requirePlatformAdmin(context)
        const expired = yield* allDemos({ expiredOnly: true, limit: 500 })
        yield* Effect.forEach(expired, removeDemo, { discard: true })
        return { purged: expired.length }
      })
  }),
  operation({
    service,
    tag: "Demo User Resource",
    operationId: "createDemoUser",
    method: "POST",
    path: "/v1/demo/users",
    summary: "Try Atrium without signing up: a throwaway account with its own seeded demo workspace, logged in",
    description: "The password is shown only now. Limited per hour for the whole server (DEMO_USERS_PER_HOUR, default 5): 429 beyond.",
    auth: "public",
    scopes: [],
    body: Schema.Struct({ name: Schema.optionalKey(Name(100)) }),
    responses: {
      201: {
        description: "Created, logged in, seeded",
        schema: Schema.Struct({ email: Email, password: Schema.String, session: TokenPair, demo: SeededDemo }).annotate({
          identifier: "DemoUser"
        })
      },
      429: { description: "Too many demo accounts this hour" }
    },
    examples: [
      {
        name: "try",
        request: { body: { name: "Visitor" } },
        response: {
          status: 201,
          body: {
            email: "demo-q3k9x2@demo.atrium.local",
            password: "Xy3kQm9b2fA7cD4eF6gH8iJ0",
            session: { ...examplePair, user: { ...examplePair.user, email: "demo-q3k9x2@demo.atrium.local", name: "Visitor" } },
            demo: { ...exampleDemo, apiKey: exampleKey }
          }
        }
      }
    ],
    handler: ({ body }, context) =>
      Effect.gen(function* () {
        if ((yield* demosCreatedSince("demo_user", 3_600_000)) >= demoUsersPerHour())
          return yield* reject("rate_limited", "Too many demo accounts were created this hour; try again later")
        const email = `demo-${randomBytes(6).toString("hex")}@demo.atrium.local`
        const password = randomBytes(18).toString("base64url")
        const name = body.name?.trim() ?? "Demo visitor"
        yield* (yield* ActorSystem).ask(Account, email, "register", { name, password })
        const session = yield* logIn(email, password)
        const demo = yield* createDemoFor(context, session.accessToken, { userId: session.user.id, email }, "Demo workspace", "demo_user")
        return { email, password, session, demo }
      })
  })
]
