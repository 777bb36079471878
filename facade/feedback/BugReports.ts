/**
 * feedback tag "Bug Report Resource" (9): bug reports of a board — steps to
 * reproduce, expected/actual, environment, severity level and bug status
 * level (with history), assignee, attachments — by id. Written through the
 * board's FeedbackDesk, read from its memory. With moderation on, a report
 * of someone outside the team waits in the queue (only the team and its
 * reporter see it).
 */
import { Effect, Schema } from "effect"
import { attachmentsOnBoard, bugHistory } from "../../actors/feedback/DeskQueries.ts"
import { bugReferenceOf } from "../../actors/feedback/BoardKeys.ts"
import { BugHistoryEntry, BugReport, Environment } from "../../actors/feedback/DeskRecords.ts"
import { Id, Name } from "../../actors/Fields.ts"
import { Workspace } from "../../actors/identity/Workspace.ts"
import { orDieStore } from "../../runtime/ActorStore.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { reject } from "../../runtime/Rejection.ts"
import { tagGroup } from "../Operation.ts"
import { type BoardCaller, checkOption, heldFor, onBoard, onBug } from "./DeskAccess.ts"

import { bugReportsExamples } from "./BugReports.examples.ts"
import { desk } from "./BoardAsk.ts"
const read = ["feedback:read"]
const write = ["feedback:write"]

const LongText = Schema.String.check(Schema.isMaxLength(20_000))
export const BugBody = {
  title: Name(300),
  stepsToReproduce: Schema.optionalKey(LongText),
  expected: Schema.optionalKey(LongText),
  actual: Schema.optionalKey(LongText),
  environment: Schema.optionalKey(Environment),
  severityLevelId: Schema.optionalKey(Schema.NullOr(Id)),
  bugStatusLevelId: Schema.optionalKey(Schema.NullOr(Id)),
  categoryId: Schema.optionalKey(Schema.NullOr(Id)),
  attachmentIds: Schema.optionalKey(Schema.Array(Id).check(Schema.isMaxLength(20)))
}

const BoardParams = Schema.Struct({ boardId: Id })
const BugParams = Schema.Struct({ bugReportId: Id })

/** A report as answered: the desk's record and the reference that names it in the whole workspace. */
const BugReportView = Schema.Struct({
  ...BugReport.fields,
  reference: Schema.String.annotate({ description: "<board key>-B<n> (e.g. MOBILE-B12): names this report in the whole workspace" })
}).annotate({ identifier: "BugReport" })

/** What the caller may see of a report: the reporter's e-mail is the team's only. */
export const shownTo = (caller: BoardCaller, bug: BugReport): typeof BugReportView.Type => ({
  ...bug,
  reference: bugReferenceOf(caller.view.board.key, bug.shortId),
  reporterEmail: caller.team ? bug.reporterEmail : null
})

/** Visible: approved, or pending to the team and its reporter; declined and spam to the team only. */
export const visibleBug = (caller: BoardCaller, bug: BugReport) =>
  caller.team || (bug.moderation === "approved" && !bug.spam) || (bug.moderation === "pending" && bug.reporterId === caller.userId)

/** The report (from the desk's memory) and the caller's standing; 404 when they may not see it. */
export const bugFor = (context: Parameters<typeof onBug>[0], bugReportId: string, need: Parameters<typeof onBug>[2]) =>
  Effect.gen(function* () {
    const caller = yield* onBug(context, bugReportId, need)
    const bug = (yield* desk(caller.view.board.id).bugs({})).find((b) => b.id === bugReportId)
    if (bug === undefined || !visibleBug(caller, bug)) return yield* reject("not_found", "No such bug report")
    return { caller, bug }
  })

/** Only its reporter and the team change a report. */
const mayEdit = (caller: BoardCaller, bug: BugReport) =>
  caller.team || (bug.reporterId !== null && bug.reporterId === caller.userId)
    ? Effect.void
    : Effect.fail(reject("forbidden", "Only the reporter and the board's team may change this bug report"))

/** Attachments a report points to must be stored on its board, else 400 naming the entry. */
export const checkAttachments = (caller: BoardCaller, ids: ReadonlyArray<string> | undefined, path: string) =>
  Effect.gen(function* () {
    if (ids === undefined) return
    const stored = yield* orDieStore(attachmentsOnBoard(caller.view.board.id, ids))
    const missing = ids.findIndex((id) => !stored.has(id))
    if (missing >= 0) {
      return yield* reject("invalid", `Invalid ${path}.${missing}: no such attachment on this board`, [
        { path: `${path}.${missing}`, message: "no such attachment on this board" }
      ])
    }
  })

export const checkLevels = (
  caller: BoardCaller,
  body: { severityLevelId?: string | null; bugStatusLevelId?: string | null; categoryId?: string | null }
) =>
  Effect.all([
    checkOption(caller, "severity", body.severityLevelId, "body.severityLevelId"),
    checkOption(caller, "bug_status", body.bugStatusLevelId, "body.bugStatusLevelId"),
    checkOption(caller, "category", body.categoryId, "body.categoryId")
  ])

type BugInput = Schema.Struct<typeof BugBody>["Type"]

/** A new report on a board, held for moderation when the board says so; levels are the team's to set. */
export const fileBug = (caller: BoardCaller, body: BugInput) =>
  Effect.gen(function* () {
    const { severityLevelId: _severity, bugStatusLevelId: _status, ...rest } = body
    const given: BugInput = caller.team ? body : rest
    // New reports start at the board's first bug status level ("New") unless the team says otherwise.
    const first = caller.view.options.filter((o) => o.kind === "bug_status").sort((a, b) => a.position - b.position)[0]
    const input = given.bugStatusLevelId === undefined && first !== undefined ? { ...given, bugStatusLevelId: first.id } : given
    yield* checkLevels(caller, input)
    yield* checkAttachments(caller, input.attachmentIds, "body.attachmentIds")
    const moderation = yield* heldFor(caller)
    return yield* desk(caller.view.board.id).createBug({
      by: caller.userId,
      input: {
        ...input,
        workspaceId: caller.view.board.workspaceId,
        moderation
      }
    })
  })

const setField = (field: "bugStatusLevel" | "severityLevel" | "assignee") => (bugReportId: string, value: string | null, context: any) =>
  Effect.gen(function* () {
    const { caller, bug } = yield* bugFor(context, bugReportId, "team")
    const kind = field === "bugStatusLevel" ? "bug_status" : "severity"
    if (field === "assignee") {
      if (value !== null) {
        const role = yield* Workspace.client(yield* ActorSystem)(caller.view.board.workspaceId)
          .roleOf({ userId: value })
          .pipe(Effect.option)
        if (role._tag === "None") {
          return yield* reject("invalid", "Invalid body.assigneeId: not a member of this workspace", [
            { path: "body.assigneeId", message: "not a member of this workspace" }
          ])
        }
      }
    } else yield* checkOption(caller, kind, value, `body.${field}Id`)
    return shownTo(
      caller,
      yield* desk(caller.view.board.id).setBugField({ by: caller.userId, input: { bugReportId: bug.id, field, value } })
    )
  })

const Sort = Schema.Literals(["new", "old", "severity", "updated"])
const severityRank = (caller: BoardCaller, id: string | null) => {
  const levels = caller.view.options.filter((o) => o.kind === "severity").sort((a, b) => a.position - b.position)
  const index = levels.findIndex((o) => o.id === id)
  return index < 0 ? levels.length : index
}

const { operation } = tagGroup("feedback", "Bug Report Resource", bugReportsExamples)

export const bugReportOperations = [
  operation({
    operationId: "createBugReport",
    method: "POST",
    path: "/v1/boards/{boardId}/bug-reports",
    summary: "Report a bug on a board: steps to reproduce, expected and actual behaviour, environment, severity",
    description:
      "Gets the board's next short id (B-12). Severity and bug status levels are set by the team (others' values are ignored). With moderation on, a report from outside the team waits in the moderation queue.",
    auth: "both",
    scopes: write,
    params: BoardParams,
    body: Schema.Struct(BugBody),
    responses: { 201: { description: "The report", schema: BugReportView } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onBoard(context, params.boardId, "post")
        return shownTo(caller, yield* fileBug(caller, body))
      })
  }),
  operation({
    operationId: "listBugReports",
    method: "GET",
    path: "/v1/boards/{boardId}/bug-reports",
    summary: "The board's bug reports, filtered by level, assignee or text",
    auth: "both",
    scopes: read,
    params: BoardParams,
    query: Schema.Struct({
      bugStatusLevelId: Schema.optionalKey(Id),
      severityLevelId: Schema.optionalKey(Id),
      assigneeId: Schema.optionalKey(Id),
      q: Schema.optionalKey(
        Schema.String.check(Schema.isMaxLength(200)).annotate({ description: "Words in the title, steps or behaviour" })
      ),
      sort: Schema.optionalKey(Sort.annotate({ description: "new (default), old, severity (most severe first), updated" })),
      limit: Schema.optionalKey(Schema.FiniteFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 200 }))),
      offset: Schema.optionalKey(Schema.FiniteFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 0, maximum: 1_000_000 })))
    }),
    responses: { 200: { description: "Reports", schema: Schema.Struct({ items: Schema.Array(BugReportView), total: Schema.Number }) } },
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        const caller = yield* onBoard(context, params.boardId, "see")
        const words = (query.q ?? "")
          .toLowerCase()
          .split(/\s+/)
          .filter((w) => w.length > 0)
        const matching = (yield* desk(params.boardId).bugs({})).filter(
          (b) =>
            visibleBug(caller, b) &&
            (query.bugStatusLevelId === undefined || b.bugStatusLevelId === query.bugStatusLevelId) &&
            (query.severityLevelId === undefined || b.severityLevelId === query.severityLevelId) &&
            (query.assigneeId === undefined || b.assigneeId === query.assigneeId) &&
            words.every((w) => `${b.shortId} ${b.title} ${b.stepsToReproduce} ${b.expected} ${b.actual}`.toLowerCase().includes(w))
        )
        const sort = query.sort ?? "new"
        const sorted = [...matching].sort((a, b) =>
          sort === "old"
            ? a.createdAt.localeCompare(b.createdAt)
            : sort === "severity"
              ? severityRank(caller, a.severityLevelId) - severityRank(caller, b.severityLevelId) || b.createdAt.localeCompare(a.createdAt)
              : sort === "updated"
                ? b.updatedAt.localeCompare(a.updatedAt)
                : b.createdAt.localeCompare(a.createdAt)
        )
        const offset = query.offset ?? 0
        return { items: sorted.slice(offset, offset + (query.limit ?? 50)).map((b) => shownTo(caller, b)), total: sorted.length }
      })
  }),
  operation({
    operationId: "getBugReport",
    method: "GET",
    path: "/v1/bug-reports/{bugReportId}",
    summary: "A bug report",
    auth: "both",
    scopes: read,
    params: BugParams,
    responses: { 200: { description: "The report", schema: BugReportView } },
    handler: ({ params }, context) => Effect.map(bugFor(context, params.bugReportId, "see"), ({ caller, bug }) => shownTo(caller, bug))
  }),
  operation({
    operationId: "updateBugReport",
    method: "PATCH",
    path: "/v1/bug-reports/{bugReportId}",
    summary: "Change a bug report's text, environment, category or attachments (its reporter or the team)",
    description: "Fields left out are unchanged. Levels and the assignee have their own operations.",
    auth: "both",
    scopes: write,
    params: BugParams,
    body: Schema.Struct({
      title: Schema.optionalKey(Name(300)),
      stepsToReproduce: Schema.optionalKey(LongText),
      expected: Schema.optionalKey(LongText),
      actual: Schema.optionalKey(LongText),
      environment: Schema.optionalKey(Environment),
      categoryId: Schema.optionalKey(Schema.NullOr(Id)),
      attachmentIds: Schema.optionalKey(Schema.Array(Id).check(Schema.isMaxLength(20)))
    }),
    responses: { 200: { description: "The report", schema: BugReportView } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { caller, bug } = yield* bugFor(context, params.bugReportId, "see")
        yield* mayEdit(caller, bug)
        yield* checkOption(caller, "category", body.categoryId, "body.categoryId")
        yield* checkAttachments(caller, body.attachmentIds, "body.attachmentIds")
        return shownTo(caller, yield* desk(caller.view.board.id).updateBug({ by: caller.userId, input: { bugReportId: bug.id, ...body } }))
      })
  }),
  operation({
    operationId: "deleteBugReport",
    method: "DELETE",
    path: "/v1/bug-reports/{bugReportId}",
    summary: "Delete a bug report (its reporter or the team)",
    auth: "both",
    scopes: write,
    params: BugParams,
    responses: { 204: { description: "Deleted" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const { caller, bug } = yield* bugFor(context, params.bugReportId, "see")
        yield* mayEdit(caller, bug)
        yield* desk(caller.view.board.id).deleteBug({ by: caller.userId, input: { bugReportId: bug.id } })
      })
  }),
  operation({
    operationId: "setBugReportStatusLevel",
    method: "PUT",
    path: "/v1/bug-reports/{bugReportId}/bug-status-level",
    summary: "Move a bug report to one of the board's bug status levels (team); null clears",
    auth: "both",
    scopes: write,
    params: BugParams,
    body: Schema.Struct({ bugStatusLevelId: Schema.NullOr(Id) }),
    responses: { 200: { description: "The report", schema: BugReportView } },
    handler: ({ params, body }, context) => setField("bugStatusLevel")(params.bugReportId, body.bugStatusLevelId, context)
  }),
  operation({
    operationId: "setBugReportSeverityLevel",
    method: "PUT",
    path: "/v1/bug-reports/{bugReportId}/severity-level",
    summary: "Set a bug report's severity level (team); null clears",
    auth: "both",
    scopes: write,
    params: BugParams,
    body: Schema.Struct({ severityLevelId: Schema.NullOr(Id) }),
    responses: { 200: { description: "The report", schema: BugReportView } },
    handler: ({ params, body }, context) => setField("severityLevel")(params.bugReportId, body.severityLevelId, context)
  }),
  operation({
    operationId: "assignBugReport",
    method: "PUT",
    path: "/v1/bug-reports/{bugReportId}/assignee",
    summary: "Assign a bug report to a workspace member (team); null unassigns",
    auth: "both",
    scopes: write,
    params: BugParams,
    body: Schema.Struct({ assigneeId: Schema.NullOr(Id) }),
    responses: { 200: { description: "The report", schema: BugReportView } },
    handler: ({ params, body }, context) => setField("assignee")(params.bugReportId, body.assigneeId, context)
  }),
  operation({
    operationId: "listBugReportHistory",
    method: "GET",
    path: "/v1/bug-reports/{bugReportId}/history",
    summary: "How a bug report's status level, severity and assignee changed, oldest first",
    auth: "both",
    scopes: read,
    params: BugParams,
    responses: { 200: { description: "Changes", schema: Schema.Struct({ items: Schema.Array(BugHistoryEntry) }) } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const { bug } = yield* bugFor(context, params.bugReportId, "see")
        return { items: yield* orDieStore(bugHistory(bug.id)) }
      })
  })
]
