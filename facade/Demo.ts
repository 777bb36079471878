/**
 * `npm start -- --demo`: on an empty store, seed something to look at — two
 * users in one workspace (so two browsers can co-edit), a product space with
 * lists and 30 tasks, a wiki space with a few rich-text pages, and an API key
 * for agents — then print where to go (web app, MCP endpoint, logins).
 *
 * Everything is created through the operations themselves (facade/Invoke.ts:
 * the HTTP pipeline without the socket), as a new user would. On a store that
 * already holds the demo users it only prints the logins again; on any other
 * non-empty store it seeds nothing.
 */
import { Effect } from "effect"
import { anyAccount, usersByEmails } from "../actors/identity/IdentityQueries.ts"
import type { SqlError } from "../persistence/Sql.ts"
import type { ActorSystem } from "../runtime/ActorSystem.ts"
import { DEMO_LISTS, DEMO_SPACE, DEMO_WIKI, demoMeetings, demoPages, demoTasks } from "./DemoContent.ts"
import { type Invocation, invokeById } from "./Invoke.ts"
import type { ServiceName } from "./Operation.ts"
import { OperationRegistry, type Registry } from "./Registry.ts"
import { scopes } from "./Scopes.ts"

export const DEMO_EMAIL = "demo@atrium.local"
export const DEMO_SECOND_EMAIL = "ben@atrium.local"
export const DEMO_PASSWORD = "atrium-demo-password"
const DEMO_USERS = [
  { email: DEMO_EMAIL, name: "Ada Demo" },
  { email: DEMO_SECOND_EMAIL, name: "Ben Demo" }
] as const

const DAY = 86_400_000

export interface DemoSeed {
  readonly workspaceId: string
  readonly apiKey: string
}

/** Calls one operation as `token` (a JWT or an API key); anything but success stops the seed with the reply. */
export const caller = (registry: Registry, origin: string) => {
  let counter = 0
  return (service: ServiceName, operationId: string, input: Invocation, token = "") =>
    Effect.flatMap(
      invokeById(registry, service, operationId, input, {
        authorization: token === "" ? "" : `Bearer ${token}`,
        apiKey: "",
        origin,
        requestId: `demo-${++counter}`
      }),
      (reply) =>
        reply.status < 300
          ? Effect.succeed(reply.body as any)
          : Effect.die(new Error(`demo seed: ${operationId} answered ${reply.status} ${JSON.stringify(reply.body)}`))
    )
}

/** Calls one operation by id with its inputs, as `token`; the seed's only way to change anything. */
export type DemoCall = ReturnType<typeof caller>

/** An API key with every scope for the workspace (the Lite operations' agent), minted by `token`. */
export const mintDemoKey = (call: DemoCall, workspaceId: string, token: string) =>
  Effect.map(
    call("pm", "createPmApiKey", { body: { workspaceId, name: "Demo agent key", scopes: Object.keys(scopes) } }, token),
    (created): string => created.key
  )

export interface DemoContentCounts {
  readonly lists: number
  readonly tasks: number
  readonly pages: number
  readonly meetings: number
}

/**
 * Fills a workspace with the demo content: the product space, its lists and
 * tasks (created and assigned in turn by `writers`), the wiki space with its
 * pages and, where the hub's recordings are served, the demo meetings with
 * their transcripts (each writer attends). The generator of `--demo` and of
 * the hub's demo workspaces alike.
 */
export const seedWorkspaceContent = (
  call: DemoCall,
  target: {
    readonly workspaceId: string
    readonly apiKey: string
    readonly writers: ReadonlyArray<{ readonly email: string; readonly token: string }>
  },
  registry: Registry
) =>
  Effect.gen(function* () {
    // Project management, the wiki and the meetings do not depend on each other: seeded side by side.
    const [, , meetings] = yield* Effect.all([seedTasks(call, target), seedPages(call, target), seedMeetings(call, target, registry)], {
      concurrency: "unbounded"
    })
    return { lists: DEMO_LISTS.length, tasks: demoTasks.length, pages: demoPages.length, meetings } satisfies DemoContentCounts
  })

type SeedTarget = Parameters<typeof seedWorkspaceContent>[1]

const seedTasks = (call: DemoCall, { workspaceId, apiKey, writers }: SeedTarget) =>
  Effect.gen(function* () {
    yield* call("pm", "createSpaceLite", { body: { workspaceId, name: DEMO_SPACE } }, apiKey)
    for (const list of DEMO_LISTS) yield* call("pm", "createListLite", { body: { workspaceId, space: DEMO_SPACE, name: list } }, apiKey)
    const context = yield* call("pm", "getContextLite", { query: { workspaceId } }, apiKey)
    const statusesOf = (list: string): ReadonlyArray<string> =>
      context.spaces
        .flatMap(
          (space: { lists: ReadonlyArray<{ name: string; statuses: ReadonlyArray<{ name: string; type: string }> }> }) => space.lists
        )
        .find((candidate: { name: string }) => candidate.name === list)
        .statuses.filter((status: { type: string }) => status.type !== "closed")
        .map((status: { name: string }) => status.name)
    const now = Date.now()
    // Tasks are independent of each other: created a few at a time (a demo is seeded while someone waits for it).
    yield* Effect.forEach(
      demoTasks.entries(),
      ([index, task]) => {
        const statuses = statusesOf(task.list)
        return call(
          "pm",
          "createTaskLite",
          {
            body: {
              workspaceId,
              space: DEMO_SPACE,
              list: task.list,
              name: task.name,
              status: statuses[Math.min(task.stage, statuses.length - 1)],
              priority: task.priority,
              assigneeEmails: [writers[index % writers.length]!.email],
              ...(task.dueInDays !== undefined ? { dueDate: new Date(now + task.dueInDays * DAY).toISOString() } : {}),
              ...(task.estimateMinutes !== undefined ? { timeEstimateMinutes: task.estimateMinutes } : {})
            }
          },
          writers[index % writers.length]!.token
        )
      },
      { concurrency: 6, discard: true }
    )
  })

const seedPages = (call: DemoCall, { workspaceId, apiKey, writers }: SeedTarget) =>
  Effect.gen(function* () {
    yield* call("wiki", "createWikiSpace", { body: { workspaceId, ...DEMO_WIKI } }, writers[0]!.token)
    const slugs = new Map<string, string>()
    for (const page of demoPages) {
      const created = yield* call(
        "wiki",
        "createWikiPageLite",
        {
          params: { spaceKey: DEMO_WIKI.key },
          body: { title: page.title, markdown: page.markdown, ...(page.parent ? { parent: slugs.get(page.parent)! } : {}) }
        },
        apiKey
      )
      slugs.set(page.title, created.slug)
    }
  })

/** The meetings, where the hub's recordings are served (their transcripts become summaries and action items). */
const seedMeetings = (call: DemoCall, { workspaceId, writers }: SeedTarget, registry: Registry) =>
  Effect.gen(function* () {
    let meetings = 0
    if (registry.ofService("hub").some((op) => op.operationId === "createRecording")) {
      for (const meeting of demoMeetings) {
        yield* call(
          "hub",
          "createRecording",
          {
            body: {
              workspaceId,
              name: meeting.name,
              transcript: { format: "segments", segments: meeting.segments },
              attendeeEmails: writers.map((writer) => writer.email)
            }
          },
          writers[0]!.token
        )
        meetings++
      }
    }
    return meetings
  })

/** Seeds the demo; fails (dies) with the refusing reply if any step is refused. */
export const seedDemoData = (origin: string) =>
  Effect.gen(function* () {
    const registry = yield* OperationRegistry
    const call = caller(registry, origin)
    const tokens: Array<string> = []
    for (const user of DEMO_USERS) {
      yield* call("pm", "register", { body: { ...user, password: DEMO_PASSWORD } })
      tokens.push((yield* call("pm", "login", { body: { email: user.email, password: DEMO_PASSWORD } })).accessToken)
    }
    const [ada] = tokens as [string, string]
    const workspaceId: string = (yield* call("pm", "createWorkspace", { body: { name: "Demo workspace" } }, ada)).id
    yield* call("hub", "addHubWorkspaceMember", { params: { workspaceId }, body: { email: DEMO_SECOND_EMAIL, role: "member" } }, ada)
    const apiKey = yield* mintDemoKey(call, workspaceId, ada)
    yield* seedWorkspaceContent(
      call,
      { workspaceId, apiKey, writers: DEMO_USERS.map((user, index) => ({ email: user.email, token: tokens[index]! })) },
      registry
    )
    return { workspaceId, apiKey } satisfies DemoSeed
  })

const logins = () => [
  ...DEMO_USERS.map((user, index) => `  ${index === 0 ? "users     " : "          "} ${user.email} / ${DEMO_PASSWORD}   (${user.name})`)
]

const where = (origin: string) => [
  `  web app    ${origin}/   (sign in as each user in two browsers to edit a page together)`,
  `  MCP        ${origin}/mcp   (Streamable HTTP; header X-API-Key: <the API key>, or Authorization: Bearer <key or JWT>)`
]

/**
 * Seeds on an empty store and says what there is to see; prints the logins again on a demo store.
 * (The pipeline runs handlers needing any service of the server; `main` provides them all.)
 */
export const seedDemo = (origin: string): Effect.Effect<string, SqlError, ActorSystem | OperationRegistry> =>
  Effect.gen(function* () {
    if ((yield* usersByEmails([DEMO_EMAIL])).size > 0) {
      return [
        "Demo: the store is not empty: the demo is already seeded (its API key was printed then; mint another at POST /pm/v1/api-keys).",
        ...logins(),
        ...where(origin)
      ].join("\n")
    }
    if (yield* anyAccount) return "Demo: the store is not empty and holds no demo data; nothing seeded."
    const seed = yield* seedDemoData(origin)
    return [
      "Demo data seeded:",
      ...where(origin),
      ...logins(),
      `  workspace  ${seed.workspaceId} (Demo workspace): space "${DEMO_SPACE}" with lists ${DEMO_LISTS.join(", ")} and ${demoTasks.length} tasks; wiki space ${DEMO_WIKI.key} (${DEMO_WIKI.name}) with ${demoPages.length} pages`,
      `  API key    ${seed.apiKey}   (shown once)`,
      "Try:",
      `  curl -s ${origin}/pm/v1/lite/context -H 'X-API-Key: ${seed.apiKey}'`,
      `  curl -s ${origin}/mcp -H 'X-API-Key: ${seed.apiKey}' -H 'content-type: application/json' -H 'accept: application/json, text/event-stream' \\`,
      `    -d '{"jsonrpc":"2.0","id":1,"method":"tools/list"}'`
    ].join("\n")
  }) as Effect.Effect<string, SqlError, ActorSystem>
