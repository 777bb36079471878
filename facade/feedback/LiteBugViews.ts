/**
 * Bug reports as Bug Reports (Lite) shows them — names and e-mails instead
 * of ids — how a short id is found among the boards the caller may see
 * (404 / 409 naming the field), and the shared triage steps.
 */
import { Effect, Schema } from "effect"
import { bugReferenceOf, parseReference } from "../../actors/feedback/BoardKeys.ts"
import { type BugReport, Environment } from "../../actors/feedback/DeskRecords.ts"
import { usersByIds } from "../../actors/identity/IdentityQueries.ts"
import { orDieStore } from "../../runtime/ActorStore.ts"
import { reject } from "../../runtime/Rejection.ts"
import type { RequestContext } from "../Operation.ts"
import { visibleBug } from "./BugReports.ts"
import type { BoardCaller } from "./DeskAccess.ts"
import { ex } from "./deskExamples.ts"
import { boardsFor, exactlyOne, Id, optionByName } from "./LiteRefs.ts"
import { desk } from "./BoardAsk.ts"

export const BugRef = Schema.String.check(
  Schema.isPattern(/^(B-\d{1,9}|[a-z][a-z0-9]{1,9}-B\d{1,9}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i, {
    expected: "a short id like B-12, a reference like MOBILE-B12, or an id"
  })
)
export const RefParams = Schema.Struct({ bugRef: BugRef })
export const LongText = Schema.String.check(Schema.isMaxLength(20_000))
export const Title = Schema.String.check(Schema.isMaxLength(300), Schema.isPattern(/\S/, { expected: "a non-blank title" }))

export const LiteBugReport = Schema.Struct({
  id: Id,
  shortId: Schema.String,
  reference: Schema.String.annotate({ description: "<board key>-B<n> (e.g. MOBILE-B12): names this report in the whole workspace" }),
  boardSlug: Schema.String.annotate({ description: "Board slug" }),
  title: Schema.String,
  stepsToReproduce: Schema.String,
  expected: Schema.String,
  actual: Schema.String,
  environment: Environment,
  status: Schema.NullOr(Schema.String).annotate({ description: "Bug status level name" }),
  severity: Schema.NullOr(Schema.String).annotate({ description: "Severity level name" }),
  category: Schema.NullOr(Schema.String),
  reporterName: Schema.NullOr(Schema.String),
  reporterEmail: Schema.NullOr(Schema.String).annotate({ description: "Shown to the board's team only" }),
  assigneeEmail: Schema.NullOr(Schema.String),
  moderation: Schema.Literals(["pending", "approved", "declined"]),
  commentCount: Schema.Number,
  createdAt: Schema.String,
  updatedAt: Schema.String
}).annotate({ identifier: "LiteBugReport" })
export type LiteBugReport = typeof LiteBugReport.Type

export const exampleLite: LiteBugReport = {
  id: ex.bugReportId,
  shortId: "B-12",
  reference: "PRODUCTIDE-B12",
  boardSlug: ex.slug,
  title: "Export button does nothing on Safari",
  stepsToReproduce: "1. Open a board\n2. Click Export",
  expected: "A CSV downloads",
  actual: "Nothing happens",
  environment: { browser: "Safari 18" },
  status: "New",
  severity: "High",
  category: null,
  reporterName: "Alice",
  reporterEmail: "alice@example.com",
  assigneeEmail: null,
  moderation: "approved",
  commentCount: 0,
  createdAt: ex.at,
  updatedAt: ex.at
}

export const liteBugs = (caller: BoardCaller, bugs: ReadonlyArray<BugReport>) =>
  Effect.gen(function* () {
    const users = yield* orDieStore(usersByIds(bugs.flatMap((b) => [b.reporterId, b.assigneeId]).filter((id): id is string => id !== null)))
    const name = (id: string | null) => (id === null ? null : (caller.view.options.find((o) => o.id === id)?.name ?? null))
    return bugs.map(
      (b): LiteBugReport => ({
        id: b.id,
        shortId: b.shortId,
        reference: bugReferenceOf(caller.view.board.key, b.shortId),
        boardSlug: caller.view.board.slug,
        title: b.title,
        stepsToReproduce: b.stepsToReproduce,
        expected: b.expected,
        actual: b.actual,
        environment: b.environment,
        status: name(b.bugStatusLevelId),
        severity: name(b.severityLevelId),
        category: name(b.categoryId),
        reporterName: (b.reporterId === null ? null : users.get(b.reporterId)?.name) ?? b.reporterName,
        reporterEmail: caller.team ? ((b.reporterId === null ? null : users.get(b.reporterId)?.email) ?? b.reporterEmail) : null,
        assigneeEmail: b.assigneeId === null ? null : (users.get(b.assigneeId)?.email ?? null),
        moderation: b.moderation,
        commentCount: b.commentCount,
        createdAt: b.createdAt,
        updatedAt: b.updatedAt
      })
    )
  })
export const liteOne = (caller: BoardCaller, bug: BugReport) => Effect.map(liteBugs(caller, [bug]), (items) => items[0]!)

/**
 * A report by reference (MOBILE-B12: one board, by its key), short id (B-12)
 * or id, on the named board or any board the caller sees; 404 / 409 naming
 * the field.
 */
export const bugByRef = (context: RequestContext, where: { workspaceId: string; board?: string }, ref: string, boardPath: string) =>
  Effect.gen(function* () {
    const all = yield* boardsFor(context, where.workspaceId, where.board, boardPath)
    const reference = parseReference(ref, "bug")
    const boards = reference === undefined ? all : all.filter((b) => b.view.board.key === reference.key)
    const key = reference === undefined ? ref.toUpperCase() : `B-${reference.number}`
    const found: Array<{ caller: BoardCaller; bug: BugReport }> = []
    for (const caller of boards) {
      for (const bug of yield* desk(caller.view.board.id).bugs({})) {
        if ((bug.shortId === key || bug.id === ref.toLowerCase()) && visibleBug(caller, bug)) found.push({ caller, bug })
      }
    }
    return yield* exactlyOne(
      found,
      "bug report",
      ref.toUpperCase(),
      "path.bugRef",
      (f) => `${f.bug.shortId} on ${f.caller.view.board.slug}`
    )
  })

export const levelId = (
  caller: BoardCaller,
  kind: "bug_status" | "severity" | "category",
  name: string | null | undefined,
  path: string
) =>
  name === undefined
    ? Effect.succeed(undefined)
    : name === null
      ? Effect.succeed(null)
      : Effect.map(optionByName(caller, kind, name, path), (o) => o.id)

/** Only the reporter and the team change a report. */
export const mayEdit = (caller: BoardCaller, bug: BugReport) =>
  caller.team || bug.reporterId === caller.userId
    ? Effect.void
    : Effect.fail(reject("forbidden", "Only the reporter and the board's team may change this bug report"))

export const teamOnly = (caller: BoardCaller) =>
  caller.team ? Effect.void : Effect.fail(reject("forbidden", "Only the board's team may triage bug reports"))

export const setLevel =
  (field: "bugStatusLevel" | "severityLevel", kind: "bug_status" | "severity", path: string) =>
  (
    { params, body }: { params: { bugRef: string }; body: { workspaceId: string; board?: string; name: string | null } },
    context: RequestContext
  ) =>
    Effect.gen(function* () {
      const { caller, bug } = yield* bugByRef(context, body, params.bugRef, "body.board")
      yield* teamOnly(caller)
      const value = yield* levelId(caller, kind, body.name, path)
      return yield* liteOne(
        caller,
        yield* desk(caller.view.board.id).setBugField({ by: caller.userId, input: { bugReportId: bug.id, field, value: value ?? null } })
      )
    })
