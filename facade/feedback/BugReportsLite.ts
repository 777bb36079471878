/**
 * feedback tag "Bug Reports (Lite)" (10): bug reports for AI agents — by
 * short id (B-12), boards by slug or name, severity and bug status levels
 * by name, people by e-mail, searched with name filters and a cursor.
 * Same rules and the same desk actor as the Bug Report Resource.
 */
import { Effect, Schema } from "effect"
import { Environment } from "../../actors/feedback/DeskRecords.ts"
import { reject } from "../../runtime/Rejection.ts"
import { tagGroup } from "../Operation.ts"
import { fileBug, visibleBug } from "./BugReports.ts"
import { onBoard } from "./DeskAccess.ts"

import {
  boardByRef,
  boardsFor,
  Id,
  LiteEmail,
  liteSearch,
  NameRef,
  Paging,
  optionIdsByName,
  searchPage,
  userByEmail,
  Where
} from "./LiteRefs.ts"

import { LiteBugReport, LongText, RefParams, Title, bugByRef, levelId, liteBugs, liteOne, mayEdit } from "./LiteBugViews.ts"
import { bugReportsLiteExamples } from "./BugReportsLite.examples.ts"
import { desk } from "./BoardAsk.ts"
const read = ["feedback:read"]
const write = ["feedback:write"]

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
  ...Paging
})

const { operation } = tagGroup("feedback", "Bug Reports (Lite)", bugReportsLiteExamples)

export const bugReportsLiteOperations = [
  operation({
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
    operationId: "getBugReportLite",
    method: "GET",
    path: "/v1/lite/bug-reports/{bugRef}",
    summary: "A bug report by reference (MOBILE-B12), short id (B-12) or id, with names instead of ids",
    auth: "both",
    scopes: read,
    params: RefParams,
    query: Schema.Struct(Where),
    responses: { 200: { description: "The report", schema: LiteBugReport } },
    handler: ({ params, query }, context) =>
      Effect.flatMap(bugByRef(context, query, params.bugRef, "query.board"), ({ caller, bug }) => liteOne(caller, bug))
  }),
  operation({
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
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { caller, bug } = yield* bugByRef(context, body, params.bugRef, "body.board")
        yield* mayEdit(caller, bug)
        const categoryId = yield* levelId(caller, "category", body.category, "body.category")
        const { workspaceId: _w, board: _b, category: _c, ...text } = body
        const updated = yield* desk(caller.view.board.id).updateBug({
          by: caller.userId,
          input: {
            bugReportId: bug.id,
            ...text,
            ...(categoryId !== undefined ? { categoryId } : {})
          }
        })
        return yield* liteOne(caller, updated)
      })
  }),
  operation({
    operationId: "searchBugReportsLite",
    path: "/v1/lite/bug-reports",
    summary: "Search bug reports by board, status and severity names, reporter or assignee e-mail and text; paged by cursor",
    query: SearchQuery,
    ...liteSearch(LiteBugReport),
    handler: ({ query: q }, context) =>
      Effect.gen(function* () {
        const boards = yield* boardsFor(context, q.workspaceId, q.board, "query.board")
        const reporter = q.reporterEmail === undefined ? undefined : yield* userByEmail(q.reporterEmail, "query.reporterEmail")
        const assignee = q.assigneeEmail === undefined ? undefined : yield* userByEmail(q.assigneeEmail, "query.assigneeEmail")
        const words = (q.q ?? "")
          .toLowerCase()
          .split(/\s+/)
          .filter((w) => w.length > 0)
        return yield* searchPage(boards, q, (caller) =>
          Effect.gen(function* () {
            const statuses = yield* optionIdsByName(caller, "bug_status", q.status, "query.status")
            const severities = yield* optionIdsByName(caller, "severity", q.severity, "query.severity")
            const bugs = (yield* desk(caller.view.board.id).bugs({})).filter(
              (b) =>
                visibleBug(caller, b) &&
                (statuses === undefined || (b.bugStatusLevelId !== null && statuses.includes(b.bugStatusLevelId))) &&
                (severities === undefined || (b.severityLevelId !== null && severities.includes(b.severityLevelId))) &&
                (reporter === undefined || b.reporterId === reporter.id) &&
                (assignee === undefined || b.assigneeId === assignee.id) &&
                words.every((w) => `${b.shortId} ${b.title} ${b.stepsToReproduce} ${b.expected} ${b.actual}`.toLowerCase().includes(w))
            )
            return yield* liteBugs(caller, bugs)
          })
        )
      })
  })
]
