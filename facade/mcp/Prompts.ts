/**
 * The MCP prompt "planMyWeek": plan the caller's week from their open tasks
 * (Search Lite: assigned to them, due this week, overdue or undated) and
 * their meetings. Atrium has no calendar or meeting records yet, so the
 * prompt says so and asks the agent to get the meetings from the user.
 */
import { ErrorCode, type GetPromptResult, McpError, type Prompt } from "@modelcontextprotocol/sdk/types.js"
import { Effect } from "effect"
import { callOperation, type ResourceCalls } from "./Resources.ts"

export const PLAN_MY_WEEK = "planMyWeek"

export const prompts: ReadonlyArray<Prompt> = [
  {
    name: PLAN_MY_WEEK,
    title: "Plan my week",
    description: "Plan my week from my tasks and meetings",
    arguments: [
      { name: "weekOf", description: "Any day of the week to plan (YYYY-MM-DD); this week when absent", required: false },
      { name: "workspaceId", description: "The workspace; the API key's (or your only one) when absent", required: false }
    ]
  }
]

interface Task {
  readonly shortId: string
  readonly name: string
  readonly status: string
  readonly priority: string | null
  readonly dueDate: string | null
  readonly timeEstimateMinutes: number | null
  readonly space: string
  readonly list: string
}

const DAY = 86_400_000

/** Monday 00:00 UTC of the week holding `day`, and the Monday after. */
export const weekOf = (day: Date) => {
  const midnight = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate())
  const monday = midnight - ((day.getUTCDay() + 6) % 7) * DAY
  return { start: new Date(monday), end: new Date(monday + 7 * DAY) }
}

const line = (task: Task) =>
  `- ${task.shortId} ${task.name} [${task.status}${task.priority ? `, ${task.priority}` : ""}${task.dueDate ? `, due ${task.dueDate.slice(0, 10)}` : ""}` +
  `${task.timeEstimateMinutes ? `, ~${task.timeEstimateMinutes} min` : ""}] (${task.space} / ${task.list})`

const section = (title: string, tasks: ReadonlyArray<Task>) => `${title}:\n${tasks.length === 0 ? "- none" : tasks.map(line).join("\n")}`

const failure = (reply: { status: number; body: unknown }) =>
  new McpError(
    ErrorCode.InvalidParams,
    (reply.body as { error?: { message?: string } } | undefined)?.error?.message ?? `The tasks could not be read (HTTP ${reply.status})`
  )

export const getPrompt = (
  calls: ResourceCalls,
  name: string,
  args: Readonly<Record<string, string>>
): Effect.Effect<GetPromptResult, McpError, any> =>
  Effect.gen(function* () {
    if (name !== PLAN_MY_WEEK) return yield* Effect.fail(new McpError(ErrorCode.InvalidParams, `No prompt named ${name}`))
    const day = args.weekOf === undefined ? new Date() : new Date(`${args.weekOf}T00:00:00Z`)
    if (Number.isNaN(day.getTime()) || (args.weekOf !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(args.weekOf))) {
      return yield* Effect.fail(new McpError(ErrorCode.InvalidParams, "Invalid weekOf: expected a date YYYY-MM-DD"))
    }
    const week = weekOf(day)
    const workspace: Record<string, string> = args.workspaceId ? { workspaceId: args.workspaceId } : {}
    const context = yield* callOperation(calls, "pm", "getContextLite", { query: workspace })
    if (context.status >= 300) return yield* Effect.fail(failure(context))
    const { you, workspace: ws } = context.body as { you: { email: string; name: string }; workspace: { id: string; name: string } }
    const search = yield* callOperation(calls, "pm", "searchTasksLite", {
      query: { workspaceId: ws.id, assigneeEmail: you.email, includeClosed: "false", limit: "100" }
    })
    if (search.status >= 300) return yield* Effect.fail(failure(search))
    const tasks = (search.body as { items: ReadonlyArray<Task> }).items
    const due = (task: Task) => (task.dueDate === null ? undefined : Date.parse(task.dueDate))
    const overdue = tasks.filter((task) => (due(task) ?? Infinity) < week.start.getTime())
    const thisWeek = tasks.filter((task) => {
      const at = due(task)
      return at !== undefined && at >= week.start.getTime() && at < week.end.getTime()
    })
    const undated = tasks.filter((task) => task.dueDate === null)
    const lastDay = new Date(week.end.getTime() - DAY).toISOString().slice(0, 10)
    const text = [
      `Plan my week (${week.start.toISOString().slice(0, 10)} to ${lastDay}) in the workspace "${ws.name}". I am ${you.name} <${you.email}>.`,
      section("Overdue tasks assigned to me", overdue),
      section("Tasks assigned to me due this week", thisWeek),
      section("Open tasks assigned to me without a due date", undated),
      "Meetings: Atrium holds no calendar for me yet, so ask me for this week's meetings before you place the work around them.",
      "Propose a day-by-day plan: overdue and urgent work first, respect the estimates, leave slack for meetings, and say which tasks should move to next week. " +
        "You may update tasks (updateTask: status, dueDate, priority) once I agree."
    ].join("\n\n")
    return { description: "Plan my week from my tasks and meetings", messages: [{ role: "user", content: { type: "text", text } }] }
  })
