/**
 * `npm start -- --demo`: on an empty store, seed something to look at — two
 * users in one workspace (so two browsers can co-edit), a product space with
 * lists and 30 tasks, a completed and a running sprint, a wiki space with a
 * few rich-text pages, the recorded meetings with each user's own notes, a
 * calendar series with prompts, a public feedback board with requests, votes,
 * comments and a released milestone, and an API key for agents — then print
 * where to go (web app, MCP endpoint, logins).
 *
 * Everything is created through the operations themselves (facade/Invoke.ts:
 * the HTTP pipeline without the socket), as a new user would; only the
 * sprints are then moved to the days they stand for (SprintTimeline.ts), since
 * the operations stamp every change now. On a store that
 * already holds the demo users it only prints the logins again; on any other
 * non-empty store it seeds nothing.
 */
import { Effect } from "effect"
import { anyAccount, usersByEmails } from "../actors/identity/IdentityQueries.ts"
import { placeSprintInPast } from "../actors/pm/SprintTimeline.ts"
import type { ActorSystem } from "../runtime/ActorSystem.ts"
import {
  DEMO_BOARD,
  DEMO_LISTS,
  DEMO_QUESTIONS,
  DEMO_SERIES,
  DEMO_SPACE,
  DEMO_SPRINTS,
  DEMO_WIKI,
  demoMeetings,
  demoNotes,
  demoPages,
  DEMO_EMAIL,
  DEMO_PASSWORD,
  DEMO_SECOND_EMAIL,
  DEMO_USERS,
  demoTasks
} from "./DemoContent.ts"
import { type Invocation, invokeById } from "./Invoke.ts"
import type { ServiceName } from "./Operation.ts"
import { OperationRegistry, type Registry } from "./Registry.ts"
import { scopes } from "./Scopes.ts"

const DAY = 86_400_000
const HOUR = 3_600_000

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
 * tasks (created and assigned in turn by `writers`) and its sprints, the wiki
 * space with its pages, the public feedback board and, where the hub's
 * recordings are served, the demo meetings with their transcripts (each
 * writer attends, with their own notes; the bug triage belongs to a calendar
 * series with prompts). The generator of `--demo` and of the hub's demo
 * workspaces alike.
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
    // Project management, the wiki, the board and the meetings do not depend on each other: seeded side by side.
    const [, , , meetings] = yield* Effect.all(
      [
        Effect.flatMap(seedTasks(call, target), (tasks) => seedSprints(call, target, tasks)),
        seedPages(call, target),
        seedBoard(call, target),
        seedMeetings(call, target, registry)
      ],
      { concurrency: "unbounded" }
    )
    return { lists: DEMO_LISTS.length, tasks: demoTasks.length, pages: demoPages.length, meetings } satisfies DemoContentCounts
  })

type SeedTarget = Parameters<typeof seedWorkspaceContent>[1]

const seedTasks = (call: DemoCall, { workspaceId, apiKey, writers }: SeedTarget) =>
  Effect.gen(function* () {
    const space = yield* call("pm", "createSpaceLite", { body: { workspaceId, name: DEMO_SPACE } }, apiKey)
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
    const finishedStatus = (list: string): string =>
      context.spaces
        .flatMap(
          (space: { lists: ReadonlyArray<{ name: string; statuses: ReadonlyArray<{ name: string; type: string }> }> }) => space.lists
        )
        .find((candidate: { name: string }) => candidate.name === list)
        .statuses.find((status: { type: string }) => status.type === "done" || status.type === "closed").name
    // Tasks are independent of each other: created a few at a time (a demo is seeded while someone waits for it).
    const created: ReadonlyArray<{ id: string; name: string; list: string }> = yield* Effect.forEach(
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
      { concurrency: 6 }
    )
    return { spaceId: space.id as string, created, finishedStatus }
  })

/** Plans `names` into a new sprint of the space and starts it; `finished` are then moved to the list's finished status. */
const runSprint = (
  call: DemoCall,
  { workspaceId, apiKey }: SeedTarget,
  { spaceId, created, finishedStatus }: SeededTasks,
  sprint: (typeof DEMO_SPRINTS)[keyof typeof DEMO_SPRINTS]
) =>
  Effect.gen(function* () {
    const now = Date.now()
    const planned = yield* call(
      "pm",
      "createSprint",
      {
        params: { spaceId },
        body: {
          name: sprint.name,
          goal: sprint.goal,
          startDate: new Date(now).toISOString(),
          endDate: new Date(now + 14 * DAY).toISOString()
        }
      },
      apiKey
    )
    const task = (name: string) => created.find((candidate) => candidate.name === name)!
    yield* call(
      "pm",
      "addSprintTasks",
      { params: { sprintId: planned.id }, body: { taskIds: sprint.tasks.map((name) => task(name).id) } },
      apiKey
    )
    yield* call("pm", "startSprint", { params: { sprintId: planned.id } }, apiKey)
    for (const [name] of sprint.finished) {
      const { id, list } = task(name)
      yield* call("pm", "updateTaskLite", { params: { taskRef: id }, body: { workspaceId, status: finishedStatus(list) } }, apiKey)
    }
    return planned.id as string
  })

/**
 * Moves a seeded sprint to the days it stands for (the operations stamp everything now): started
 * `startedDaysAgo`, each finished task done on its day, a completed one ended on its end date.
 */
const placeInPast = (sprintId: string, { created }: SeededTasks, sprint: (typeof DEMO_SPRINTS)[keyof typeof DEMO_SPRINTS], now: number) => {
  // 08:00 UTC of its first day (burndown days are UTC days): counted from the time of day instead, a seed run late
  // in the evening would put each finished task on the next day's point.
  const startedAt = Math.floor(now / DAY) * DAY - sprint.startedDaysAgo * DAY + 8 * HOUR
  const idOf = (name: string) => created.find((candidate) => candidate.name === name)!.id
  // Like a refused operation, a failure here stops the seed.
  return Effect.orDie(
    placeSprintInPast(sprintId, {
      startedAt,
      // A few hours into its day, so the day's point of the burndown counts it (never later than now).
      finishedAt: new Map(sprint.finished.map(([name, day]) => [idOf(name), Math.min(startedAt + day * DAY + 3 * HOUR, now - 60_000)]))
    })
  )
}

type SeededTasks = Effect.Success<ReturnType<typeof seedTasks>>

/**
 * Sprint 11 run and completed (velocity's first point), then Sprint 12 running with tasks done on
 * different days (the burndown steps down below the ideal line); both then placed on their days.
 */
const seedSprints = (call: DemoCall, target: SeedTarget, tasks: SeededTasks) =>
  Effect.gen(function* () {
    const previous = yield* runSprint(call, target, tasks, DEMO_SPRINTS.previous)
    yield* call("pm", "completeSprint", { params: { sprintId: previous }, body: { unfinished: "backlog" } }, target.apiKey)
    const current = yield* runSprint(call, target, tasks, DEMO_SPRINTS.current)
    const now = Date.now()
    yield* placeInPast(previous, tasks, DEMO_SPRINTS.previous, now)
    yield* placeInPast(current, tasks, DEMO_SPRINTS.current, now)
  })

/** The public board's slug: one per workspace (hub demo workspaces each get their own board). */
export const demoBoardSlug = (workspaceId: string) => `ideas-${workspaceId.slice(0, 8)}`

/**
 * The public feedback board: categories, requests (each posted by a writer,
 * filed in its category and status), votes and comments by the writers, and
 * a released milestone shipping two requests with its article and a
 * published changelog entry.
 */
const seedBoard = (call: DemoCall, { workspaceId, writers }: SeedTarget) =>
  Effect.gen(function* () {
    const owner = writers[0]!.token
    const board = yield* call(
      "feedback",
      "createBoard",
      {
        body: {
          workspaceId,
          name: DEMO_BOARD.name,
          slug: demoBoardSlug(workspaceId),
          visibility: "public",
          description: DEMO_BOARD.description
        }
      },
      owner
    )
    const categories = new Map<string, string>()
    for (const [position, name] of DEMO_BOARD.categories.entries()) {
      const category = yield* call("feedback", "createCategory", { params: { boardId: board.id }, body: { name, position } }, owner)
      categories.set(name, category.id)
    }
    const statuses: ReadonlyArray<{ id: string; name: string }> = (yield* call(
      "feedback",
      "listStatuses",
      { params: { boardId: board.id } },
      owner
    )).items
    const requests = new Map<string, string>()
    // One at a time: their short ids follow the list, and each one's status, votes and comments follow it.
    for (const [index, request] of DEMO_BOARD.requests.entries()) {
      const created = yield* call(
        "feedback",
        "createFeatureRequest",
        {
          params: { boardId: board.id },
          body: { title: request.title, description: request.description, categoryId: categories.get(request.category)! }
        },
        writers[index % writers.length]!.token
      )
      requests.set(request.title, created.id)
    }
    yield* Effect.forEach(
      DEMO_BOARD.requests,
      (request) =>
        Effect.gen(function* () {
          const featureRequestId = requests.get(request.title)!
          if (request.status !== undefined) {
            const statusId = statuses.find((status) => status.name === request.status)!.id
            yield* call("feedback", "changeFeatureRequestStatus", { params: { featureRequestId }, body: { statusId } }, owner)
          }
          for (const voter of new Set(request.voters.map((v) => Math.min(v, writers.length - 1)))) {
            yield* call("feedback", "voteFeatureRequest", { params: { featureRequestId } }, writers[voter]!.token)
          }
          for (const [writer, text] of request.comments) {
            const by = writers[Math.min(writer, writers.length - 1)]!.token
            yield* call("feedback", "createFeatureRequestComment", { params: { featureRequestId }, body: { body: text } }, by)
          }
        }),
      { discard: true }
    )
    const milestone = yield* call(
      "feedback",
      "createMilestone",
      { params: { boardId: board.id }, body: { name: DEMO_BOARD.milestone.name, date: new Date().toISOString().slice(0, 10) } },
      owner
    )
    for (const title of DEMO_BOARD.milestone.requests) {
      yield* call(
        "feedback",
        "addMilestoneFeatureRequest",
        { params: { milestoneId: milestone.id }, body: { featureRequestId: requests.get(title)! } },
        owner
      )
    }
    yield* call(
      "feedback",
      "putMilestoneArticle",
      { params: { milestoneId: milestone.id }, body: { markdown: DEMO_BOARD.milestone.article } },
      owner
    )
    yield* call("feedback", "updateMilestone", { params: { milestoneId: milestone.id }, body: { released: true } }, owner)
    yield* call(
      "feedback",
      "createChangelogEntry",
      {
        params: { boardId: board.id },
        body: {
          ...DEMO_BOARD.changelog,
          state: "published",
          milestoneId: milestone.id,
          featureRequestIds: DEMO_BOARD.milestone.requests.map((title) => requests.get(title)!)
        }
      },
      owner
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

/**
 * The calendar series of the bug triage (organized by the first writer, the
 * others invited) and each writer's prompts on its first occurrence; answers
 * that occurrence's id.
 */
const seedSeries = (call: DemoCall, writers: SeedTarget["writers"]) =>
  Effect.gen(function* () {
    // The first occurrence was a week ago today (the recorded triage), then weekly.
    const start = new Date(Math.floor((Date.now() - 7 * DAY) / 3_600_000) * 3_600_000)
    const event = yield* call(
      "hub",
      "createCalendarEvent",
      {
        body: {
          title: DEMO_SERIES.title,
          description: DEMO_SERIES.description,
          start: start.toISOString(),
          end: new Date(start.getTime() + DEMO_SERIES.minutes * 60_000).toISOString(),
          recurrence: DEMO_SERIES.recurrence,
          attendeeEmails: writers.slice(1).map((writer) => writer.email)
        }
      },
      writers[0]!.token
    )
    const listed = yield* call(
      "hub",
      "listCalendarEvents",
      { query: { from: start.toISOString(), to: new Date(start.getTime() + DAY).toISOString() } },
      writers[0]!.token
    )
    const occurrenceId: string = listed.items.find((item: { eventId?: string; occurrenceId: string }) =>
      item.occurrenceId.startsWith(`${event.id}_`)
    ).occurrenceId
    for (const [index, writer] of writers.entries()) {
      // The first writer: an occurrence prompt alone; the others: a series and an occurrence prompt, combined.
      if (index > 0)
        yield* call("hub", "setSeriesPrompt", { params: { occurrenceId }, body: { prompt: DEMO_SERIES.seriesPrompt } }, writer.token)
      const prompt = DEMO_SERIES.occurrencePrompt[Math.min(index, 1)]!
      yield* call("hub", "setOccurrencePrompt", { params: { occurrenceId }, body: { prompt } }, writer.token)
    }
    return occurrenceId
  })

/**
 * The meetings, where the hub's recordings are served (their transcripts
 * become summaries and action items); each writer attends and writes their
 * own notes, so each reads their own version of every call.
 */
const seedMeetings = (call: DemoCall, { workspaceId, writers }: SeedTarget, registry: Registry) =>
  Effect.gen(function* () {
    let meetings = 0
    if (!registry.ofService("hub").some((op) => op.operationId === "createRecording")) return meetings
    const occurrenceId = yield* seedSeries(call, writers)
    for (const meeting of demoMeetings) {
      const recording = yield* call(
        "hub",
        "createRecording",
        {
          body: {
            workspaceId,
            name: meeting.name,
            transcript: { format: "segments", segments: meeting.segments },
            attendeeEmails: writers.map((writer) => writer.email),
            ...(meeting.name === DEMO_SERIES.meeting ? { calendarEventId: occurrenceId } : {})
          }
        },
        writers[0]!.token
      )
      for (const [index, writer] of writers.entries()) {
        const notes = demoNotes[meeting.name]?.[Math.min(index, 1)]
        if (notes !== undefined)
          yield* call("hub", "updateMyCallNotes", { params: { callId: recording.callId }, body: { notes } }, writer.token)
      }
      meetings++
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
 * (The pipeline runs handlers needing any service of the server; `main` provides them all.) A database
 * failure while seeding ends the start: there is no caller to answer, only the operator to tell.
 */
export const seedDemo = (origin: string): Effect.Effect<string, never, ActorSystem | OperationRegistry> =>
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
      `  sprints    "${DEMO_SPRINTS.previous.name}" completed, "${DEMO_SPRINTS.current.name}" running (burndown, velocity)`,
      `  meetings   ${demoMeetings.map((m) => `"${m.name}"`).join(", ")}: each user reads their own notes and version; "${DEMO_SERIES.meeting}" is a calendar series with prompts`,
      `  feedback   ${origin}/feedback/v1/public/boards/${demoBoardSlug(seed.workspaceId)}   (public board "${DEMO_BOARD.name}": requests, votes, comments, roadmap, a released milestone)`,
      `  Lens       ask ${DEMO_QUESTIONS.map((q) => `"${q}"`).join(", ")}`,
      `  API key    ${seed.apiKey}   (shown once)`,
      "Try:",
      `  curl -s ${origin}/pm/v1/lite/context -H 'X-API-Key: ${seed.apiKey}'`,
      `  curl -s ${origin}/mcp -H 'X-API-Key: ${seed.apiKey}' -H 'content-type: application/json' -H 'accept: application/json, text/event-stream' \\`,
      `    -d '{"jsonrpc":"2.0","id":1,"method":"tools/list"}'`
    ].join("\n")
  }).pipe(Effect.orDie) as Effect.Effect<string, never, ActorSystem>
