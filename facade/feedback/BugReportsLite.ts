/**
 * feedback tag "Bug Reports (Lite)" (10): bug reports for AI agents — by
 * short id (B-12), boards by slug or name, severity and bug status levels
 * by name, people by e-mail, searched with name filters and a cursor.
 * Same rules and the same desk actor as the Bug Report Resource.
 */
import { Effect, Schema } from "effect"
import { bugComments } from "../../actors/feedback/DeskQueries.ts"
import { type BugReport, Environment } from "../../actors/feedback/DeskRecords.ts"
import { deskRead, deskSend } from "../../actors/feedback/FeedbackDesk.ts"
import { usersByIds } from "../../actors/identity/IdentityQueries.ts"
import { Workspace } from "../../actors/identity/Workspace.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { reject } from "../../runtime/Rejection.ts"
import { operation, type RequestContext } from "../Operation.ts"
import { commentOnBug, CommentBody, visibleComments } from "./BugComments.ts"
import { fileBug, visibleBug } from "./BugReports.ts"
import { type BoardCaller, onBoard, orDieSql } from "./DeskAccess.ts"
import { ex } from "./deskExamples.ts"
import {
  boardByRef,
  boardsFor,
  Cursor,
  csv,
  cursorPage,
  exactlyOne,
  Id,
  LiteEmail,
  LiteLimit,
  NameRef,
  optionByName,
  userByEmail
} from "./LiteRefs.ts"

const service = "feedback"
const tag = "Bug Reports (Lite)"
const read = ["feedback:read"]
const write = ["feedback:write"]

const BugRef = Schema.String.check(
  Schema.isPattern(/^(B-\d{1,9}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i, {
    expected: "a short id like B-12, or an id"
  })
)
const RefParams = Schema.Struct({ bugRef: BugRef })
const Where = {
  workspaceId: Id,
  board: Schema.optionalKey(NameRef.annotate({ description: "Board slug or name; needed only when the short id is on several boards" }))
}
const LongText = Schema.String.check(Schema.isMaxLength(20_000))
const Title = Schema.String.check(Schema.isMaxLength(300), Schema.isPattern(/\S/, { expected: "a non-blank title" }))

const LiteBugReport = Schema.Struct({
  id: Id,
  shortId: Schema.String,
  board: Schema.String,
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
type LiteBugReport = typeof LiteBugReport.Type

const exampleLite: LiteBugReport = {
  id: ex.bugReportId,
  shortId: "B-12",
  board: ex.slug,
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

const liteBugs = (caller: BoardCaller, bugs: ReadonlyArray<BugReport>) =>
  Effect.gen(function* () {
    const users = yield* orDieSql(usersByIds(bugs.flatMap((b) => [b.reporterId, b.assigneeId]).filter((id): id is string => id !== null)))
    const name = (id: string | null) => (id === null ? null : (caller.view.options.find((o) => o.id === id)?.name ?? null))
    return bugs.map(
      (b): LiteBugReport => ({
        id: b.id,
        shortId: b.shortId,
        board: caller.view.board.slug,
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
const liteOne = (caller: BoardCaller, bug: BugReport) => Effect.map(liteBugs(caller, [bug]), (items) => items[0]!)

/** A report by short id (or id) on the named board or any board the caller sees; 404 / 409 naming the field. */
const bugByRef = (context: RequestContext, where: { workspaceId: string; board?: string }, ref: string, boardPath: string) =>
  Effect.gen(function* () {
    const boards = yield* boardsFor(context, where.workspaceId, where.board, boardPath)
    const key = ref.toUpperCase()
    const found: Array<{ caller: BoardCaller; bug: BugReport }> = []
    for (const caller of boards) {
      for (const bug of yield* deskRead(caller.view.board.id, "bugs")) {
        if ((bug.shortId === key || bug.id === ref.toLowerCase()) && visibleBug(caller, bug)) found.push({ caller, bug })
      }
    }
    return yield* exactlyOne(found, "bug report", key, "path.bugRef", (f) => `${f.bug.shortId} on ${f.caller.view.board.slug}`)
  })

const levelId = (caller: BoardCaller, kind: "bug_status" | "severity" | "category", name: string | null | undefined, path: string) =>
  name === undefined
    ? Effect.succeed(undefined)
    : name === null
      ? Effect.succeed(null)
      : Effect.map(optionByName(caller, kind, name, path), (o) => o.id)

/** Only the reporter and the team change a report. */
const mayEdit = (caller: BoardCaller, bug: BugReport) =>
  caller.team || bug.reporterId === caller.userId
    ? Effect.void
    : Effect.fail(reject("forbidden", "Only the reporter and the board's team may change this bug report"))

const teamOnly = (caller: BoardCaller) =>
  caller.team ? Effect.void : Effect.fail(reject("forbidden", "Only the board's team may triage bug reports"))

const setLevel =
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
        yield* deskSend(caller.view.board.id, "setBugField", caller.userId, { bugReportId: bug.id, field, value: value ?? null })
      )
    })

const SearchQuery = Schema.Struct({
  ...Where,
  status: Schema.optionalKey(
    Schema.String.check(Schema.isMaxLength(500)).annotate({ description: "Bug status level names, comma-separated" })
  ),
  severity: Schema.optionalKey(
    Schema.String.check(Schema.isMaxLength(500)).annotate({ description: "Severity level names, comma-separated" })
  ),
  reporterEmail: Schema.optionalKey(LiteEmail),
  assigneeEmail: Schema.optionalKey(LiteEmail),
  q: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(200))),
  limit: Schema.optionalKey(LiteLimit),
  cursor: Schema.optionalKey(Cursor)
})

const refExample = { bugRef: "B-12" }

export const bugReportsLiteOperations = [
  operation({
    service,
    tag,
    operationId: "createBugReportLite",
    method: "POST",
    path: "/v1/lite/bug-reports",
    summary: "Report a bug on a board named by slug or name; severity, status and category by name (levels: team only)",
    auth: "both",
    scopes: write,
    body: Schema.Struct({
      workspaceId: Id,
      board: NameRef,
      title: Title,
      stepsToReproduce: Schema.optionalKey(LongText),
      expected: Schema.optionalKey(LongText),
      actual: Schema.optionalKey(LongText),
      environment: Schema.optionalKey(Environment),
      severity: Schema.optionalKey(NameRef),
      status: Schema.optionalKey(NameRef),
      category: Schema.optionalKey(NameRef)
    }),
    responses: {
      201: { description: "Reported", schema: LiteBugReport },
      404: { description: "A name not found" },
      409: { description: "An ambiguous name" }
    },
    examples: [
      {
        name: "report",
        request: {
          body: {
            workspaceId: ex.workspaceId,
            board: ex.slug,
            title: "Export button does nothing on Safari",
            stepsToReproduce: "1. Open a board\n2. Click Export",
            expected: "A CSV downloads",
            actual: "Nothing happens",
            environment: { browser: "Safari 18" }
          }
        },
        response: { status: 201, body: exampleLite }
      }
    ],
    handler: ({ body }, context) =>
      Effect.gen(function* () {
        const found = yield* boardByRef(context, body.workspaceId, body.board, "body.board")
        const caller = yield* onBoard(context, found.view.board.id, "post")
        if ((body.severity !== undefined || body.status !== undefined) && !caller.team)
          return yield* reject("forbidden", "Only the board's team sets levels")
        const severityLevelId = yield* levelId(caller, "severity", body.severity, "body.severity")
        const bugStatusLevelId = yield* levelId(caller, "bug_status", body.status, "body.status")
        const categoryId = yield* levelId(caller, "category", body.category, "body.category")
        const { workspaceId: _w, board: _b, severity: _s, status: _st, category: _c, ...text } = body
        const bug = yield* fileBug(caller, {
          ...text,
          ...(severityLevelId !== undefined ? { severityLevelId } : {}),
          ...(bugStatusLevelId !== undefined ? { bugStatusLevelId } : {}),
          ...(categoryId !== undefined ? { categoryId } : {})
        })
        return yield* liteOne(caller, bug)
      })
  }),
  operation({
    service,
    tag,
    operationId: "getBugReportLite",
    method: "GET",
    path: "/v1/lite/bug-reports/{bugRef}",
    summary: "A bug report by short id (B-12) or id, with names instead of ids",
    auth: "both",
    scopes: read,
    params: RefParams,
    query: Schema.Struct(Where),
    responses: { 200: { description: "The report", schema: LiteBugReport } },
    examples: [
      { name: "get", request: { params: refExample, query: { workspaceId: ex.workspaceId } }, response: { status: 200, body: exampleLite } }
    ],
    handler: ({ params, query }, context) =>
      Effect.flatMap(bugByRef(context, query, params.bugRef, "query.board"), ({ caller, bug }) => liteOne(caller, bug))
  }),
  operation({
    service,
    tag,
    operationId: "updateBugReportLite",
    method: "PATCH",
    path: "/v1/lite/bug-reports/{bugRef}",
    summary: "Change a bug report's text, environment or category by name (its reporter or the team)",
    auth: "both",
    scopes: write,
    params: RefParams,
    body: Schema.Struct({
      ...Where,
      title: Schema.optionalKey(Title),
      stepsToReproduce: Schema.optionalKey(LongText),
      expected: Schema.optionalKey(LongText),
      actual: Schema.optionalKey(LongText),
      environment: Schema.optionalKey(Environment),
      category: Schema.optionalKey(Schema.NullOr(NameRef))
    }),
    responses: { 200: { description: "The report", schema: LiteBugReport } },
    examples: [
      {
        name: "clarify",
        request: { params: refExample, body: { workspaceId: ex.workspaceId, actual: "Nothing happens; a CSP error is logged" } },
        response: { status: 200, body: { ...exampleLite, actual: "Nothing happens; a CSP error is logged" } }
      }
    ],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { caller, bug } = yield* bugByRef(context, body, params.bugRef, "body.board")
        yield* mayEdit(caller, bug)
        const categoryId = yield* levelId(caller, "category", body.category, "body.category")
        const { workspaceId: _w, board: _b, category: _c, ...text } = body
        const updated = yield* deskSend(caller.view.board.id, "updateBug", caller.userId, {
          bugReportId: bug.id,
          ...text,
          ...(categoryId !== undefined ? { categoryId } : {})
        })
        return yield* liteOne(caller, updated)
      })
  }),
  operation({
    service,
    tag,
    operationId: "searchBugReportsLite",
    method: "GET",
    path: "/v1/lite/bug-reports",
    summary: "Search bug reports by board, status and severity names, reporter or assignee e-mail and text; paged by cursor",
    description: "Oldest first (then by id); `nextCursor` continues after the last item and is null on the last page.",
    auth: "both",
    scopes: read,
    query: SearchQuery,
    responses: {
      200: {
        description: "A page",
        schema: Schema.Struct({ items: Schema.Array(LiteBugReport), nextCursor: Schema.NullOr(Schema.String) })
      },
      404: { description: "A name or e-mail not found" },
      409: { description: "An ambiguous name" }
    },
    examples: [
      {
        name: "critical",
        request: { query: { workspaceId: ex.workspaceId, board: ex.slug, severity: "High" } },
        response: { status: 200, body: { items: [exampleLite], nextCursor: null } }
      }
    ],
    handler: ({ query: q }, context) =>
      Effect.gen(function* () {
        const boards = yield* boardsFor(context, q.workspaceId, q.board, "query.board")
        const reporter = q.reporterEmail === undefined ? undefined : yield* userByEmail(q.reporterEmail, "query.reporterEmail")
        const assignee = q.assigneeEmail === undefined ? undefined : yield* userByEmail(q.assigneeEmail, "query.assigneeEmail")
        const words = (q.q ?? "")
          .toLowerCase()
          .split(/\s+/)
          .filter((w) => w.length > 0)
        const items: Array<LiteBugReport> = []
        for (const caller of boards) {
          const statuses =
            q.status === undefined
              ? undefined
              : yield* Effect.forEach(csv(q.status) ?? [], (n) =>
                  Effect.map(optionByName(caller, "bug_status", n, "query.status"), (o) => o.id)
                )
          const severities =
            q.severity === undefined
              ? undefined
              : yield* Effect.forEach(csv(q.severity) ?? [], (n) =>
                  Effect.map(optionByName(caller, "severity", n, "query.severity"), (o) => o.id)
                )
          const bugs = (yield* deskRead(caller.view.board.id, "bugs")).filter(
            (b) =>
              visibleBug(caller, b) &&
              (statuses === undefined || (b.bugStatusLevelId !== null && statuses.includes(b.bugStatusLevelId))) &&
              (severities === undefined || (b.severityLevelId !== null && severities.includes(b.severityLevelId))) &&
              (reporter === undefined || b.reporterId === reporter.id) &&
              (assignee === undefined || b.assigneeId === assignee.id) &&
              words.every((w) => `${b.shortId} ${b.title} ${b.stepsToReproduce} ${b.expected} ${b.actual}`.toLowerCase().includes(w))
          )
          items.push(...(yield* liteBugs(caller, bugs)))
        }
        return yield* cursorPage(items, q, q.cursor, q.limit ?? 20)
      })
  }),
  operation({
    service,
    tag,
    operationId: "setBugReportStatusLite",
    method: "POST",
    path: "/v1/lite/bug-reports/{bugRef}/status",
    summary: "Move a bug report to a bug status level by name (team); null clears",
    auth: "both",
    scopes: write,
    params: RefParams,
    body: Schema.Struct({ ...Where, name: Schema.NullOr(NameRef) }),
    responses: { 200: { description: "The report", schema: LiteBugReport } },
    examples: [
      {
        name: "confirm",
        request: { params: refExample, body: { workspaceId: ex.workspaceId, name: "Confirmed" } },
        response: { status: 200, body: { ...exampleLite, status: "Confirmed" } }
      }
    ],
    handler: setLevel("bugStatusLevel", "bug_status", "body.name")
  }),
  operation({
    service,
    tag,
    operationId: "setBugReportSeverityLite",
    method: "POST",
    path: "/v1/lite/bug-reports/{bugRef}/severity",
    summary: "Set a bug report's severity level by name (team); null clears",
    auth: "both",
    scopes: write,
    params: RefParams,
    body: Schema.Struct({ ...Where, name: Schema.NullOr(NameRef) }),
    responses: { 200: { description: "The report", schema: LiteBugReport } },
    examples: [
      {
        name: "severity",
        request: { params: refExample, body: { workspaceId: ex.workspaceId, name: "Critical" } },
        response: { status: 200, body: { ...exampleLite, severity: "Critical" } }
      }
    ],
    handler: setLevel("severityLevel", "severity", "body.name")
  }),
  operation({
    service,
    tag,
    operationId: "assignBugReportLite",
    method: "POST",
    path: "/v1/lite/bug-reports/{bugRef}/assignee",
    summary: "Assign a bug report to a workspace member by e-mail (team); null unassigns",
    auth: "both",
    scopes: write,
    params: RefParams,
    body: Schema.Struct({ ...Where, email: Schema.NullOr(LiteEmail) }),
    responses: { 200: { description: "The report", schema: LiteBugReport } },
    examples: [
      {
        name: "assign",
        request: { params: refExample, body: { workspaceId: ex.workspaceId, email: "bob@example.com" } },
        response: { status: 200, body: { ...exampleLite, assigneeEmail: "bob@example.com" } }
      }
    ],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { caller, bug } = yield* bugByRef(context, body, params.bugRef, "body.board")
        yield* teamOnly(caller)
        let assigneeId: string | null = null
        if (body.email !== null) {
          const user = yield* userByEmail(body.email, "body.email")
          const role = yield* (yield* ActorSystem)
            .ask(Workspace, caller.view.board.workspaceId, "roleOf", { userId: user.id })
            .pipe(Effect.option)
          if (role._tag === "None")
            return yield* reject("invalid", `${body.email} is not a member of this workspace`, [
              { path: "body.email", message: "not a member" }
            ])
          assigneeId = user.id
        }
        return yield* liteOne(
          caller,
          yield* deskSend(caller.view.board.id, "setBugField", caller.userId, { bugReportId: bug.id, field: "assignee", value: assigneeId })
        )
      })
  }),
  operation({
    service,
    tag,
    operationId: "commentOnBugReportLite",
    method: "POST",
    path: "/v1/lite/bug-reports/{bugRef}/comments",
    summary: "Comment on a bug report by short id; the team may add internal notes",
    auth: "both",
    scopes: write,
    params: RefParams,
    body: Schema.Struct({ ...Where, body: CommentBody, internal: Schema.optionalKey(Schema.Boolean) }),
    responses: {
      201: {
        description: "Posted",
        schema: Schema.Struct({
          id: Id,
          shortId: Schema.String,
          body: Schema.String,
          internal: Schema.Boolean,
          moderation: Schema.String,
          createdAt: Schema.String
        })
      }
    },
    examples: [
      {
        name: "comment",
        request: { params: refExample, body: { workspaceId: ex.workspaceId, body: "Reproduced on Safari 18.1" } },
        response: {
          status: 201,
          body: {
            id: ex.bugCommentId,
            shortId: "B-12",
            body: "Reproduced on Safari 18.1",
            internal: false,
            moderation: "approved",
            createdAt: ex.at
          }
        }
      }
    ],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { bug } = yield* bugByRef(context, body, params.bugRef, "body.board")
        const comment = yield* commentOnBug(context, bug.id, body.body, body.internal ?? false)
        return {
          id: comment.id,
          shortId: bug.shortId,
          body: comment.body,
          internal: comment.internal,
          moderation: comment.moderation,
          createdAt: comment.createdAt
        }
      })
  }),
  operation({
    service,
    tag,
    operationId: "listBugReportCommentsLite",
    method: "GET",
    path: "/v1/lite/bug-reports/{bugRef}/comments",
    summary: "The comments on a bug report, oldest first, authors by name and e-mail",
    auth: "both",
    scopes: read,
    params: RefParams,
    query: Schema.Struct(Where),
    responses: {
      200: {
        description: "Comments",
        schema: Schema.Struct({
          items: Schema.Array(
            Schema.Struct({
              id: Id,
              authorName: Schema.NullOr(Schema.String),
              authorEmail: Schema.NullOr(Schema.String),
              body: Schema.String,
              internal: Schema.Boolean,
              createdAt: Schema.String
            })
          )
        })
      }
    },
    examples: [
      {
        name: "comments",
        request: { params: refExample, query: { workspaceId: ex.workspaceId } },
        response: {
          status: 200,
          body: {
            items: [
              {
                id: ex.bugCommentId,
                authorName: "Bob",
                authorEmail: "bob@example.com",
                body: "Reproduced",
                internal: false,
                createdAt: ex.at
              }
            ]
          }
        }
      }
    ],
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        const { caller, bug } = yield* bugByRef(context, query, params.bugRef, "query.board")
        const comments = visibleComments(caller, yield* orDieSql(bugComments(bug.id)))
        const users = yield* orDieSql(usersByIds(comments.map((c) => c.authorId)))
        return {
          items: comments.map((c) => ({
            id: c.id,
            authorName: users.get(c.authorId)?.name ?? null,
            authorEmail: caller.team ? (users.get(c.authorId)?.email ?? null) : null,
            body: c.body,
            internal: c.internal,
            createdAt: c.createdAt
          }))
        }
      })
  }),
  operation({
    service,
    tag,
    operationId: "deleteBugReportLite",
    method: "DELETE",
    path: "/v1/lite/bug-reports/{bugRef}",
    summary: "Delete a bug report by short id (its reporter or the team)",
    auth: "both",
    scopes: write,
    params: RefParams,
    query: Schema.Struct(Where),
    responses: { 204: { description: "Deleted" } },
    examples: [{ name: "delete", request: { params: refExample, query: { workspaceId: ex.workspaceId } }, response: { status: 204 } }],
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        const { caller, bug } = yield* bugByRef(context, query, params.bugRef, "query.board")
        yield* mayEdit(caller, bug)
        yield* deskSend(caller.view.board.id, "deleteBug", caller.userId, { bugReportId: bug.id })
      })
  })
]
