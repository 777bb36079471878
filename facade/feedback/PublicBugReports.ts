/**
 * feedback tag "Public Board Resource", part 4 (5 of 33): a public board's
 * approved bug reports as a visitor sees them — no reporter, no e-mail, no
 * environment, no internal notes — and its bug status and severity levels.
 * No authentication.
 */
import { Effect, Schema } from "effect"
import type { BoardView } from "../../actors/feedback/Board.ts"
import { bugComments } from "../../actors/feedback/DeskQueries.ts"
import type { BugReport } from "../../actors/feedback/DeskRecords.ts"
import { Id, Timestamp } from "../../actors/Fields.ts"
import { orDieStore } from "../../runtime/ActorStore.ts"
import { reject } from "../../runtime/Rejection.ts"
import { publicOperation } from "./PublicBoard.ts"
import { exampleStatus, slugParams } from "./PublicBoard.examples.ts"
import {
  displayNames,
  PublicComment,
  PublicOption,
  PublicRef,
  publicBoard,
  publicOptions,
  ShortBugId,
  SlugParams,
  WorkspaceQuery
} from "./PublicViews.ts"
import { desk } from "./BoardAsk.ts"

const PublicBugReport = Schema.Struct({
  id: Id,
  shortId: Schema.String,
  title: Schema.String,
  stepsToReproduce: Schema.String,
  expected: Schema.String,
  actual: Schema.String,
  bugStatusLevel: PublicRef,
  severityLevel: PublicRef,
  category: PublicRef,
  commentCount: Schema.Number,
  createdAt: Timestamp
}).annotate({ identifier: "PublicBugReport" })

const ref = (view: BoardView, id: string | null) => {
  const o = id === null ? undefined : view.options.find((x) => x.id === id)
  return o === undefined ? null : { name: o.name, color: o.color }
}

const publicBug = (view: BoardView, b: BugReport): typeof PublicBugReport.Type => ({
  id: b.id,
  shortId: b.shortId,
  title: b.title,
  stepsToReproduce: b.stepsToReproduce,
  expected: b.expected,
  actual: b.actual,
  bugStatusLevel: ref(view, b.bugStatusLevelId),
  severityLevel: ref(view, b.severityLevelId),
  category: ref(view, b.categoryId),
  commentCount: b.commentCount,
  createdAt: b.createdAt
})

const publicBugs = (view: BoardView) =>
  Effect.map(desk(view.board.id).bugs({}), (bugs) => bugs.filter((b) => b.moderation === "approved" && !b.spam))

const bugByShortId = (view: BoardView, shortId: string) =>
  Effect.flatMap(publicBugs(view), (bugs) => {
    const bug = bugs.find((b) => b.shortId === shortId.toUpperCase() || b.id === shortId.toLowerCase())
    return bug === undefined
      ? Effect.fail(reject("not_found", `No bug report ${shortId.toUpperCase()} on this board`))
      : Effect.succeed(bug)
  })

/** Published entries only, with their requests as short ids (only approved ones). */
const BugParams = Schema.Struct({ slug: SlugParams.fields.slug, shortId: ShortBugId })
export const publicBugReportOperations = [
  publicOperation({
    operationId: "listPublicBugReports",
    method: "GET",
    path: "/v1/public/boards/{slug}/bug-reports",
    summary: "The public board's bug reports, newest first (no reporter, no environment; no authentication)",
    auth: "public",
    scopes: [],
    params: SlugParams,
    query: WorkspaceQuery,
    responses: { 200: { description: "Reports", schema: Schema.Struct({ items: Schema.Array(PublicBugReport) }) } },
    handler: ({ params, query: q }) =>
      Effect.gen(function* () {
        const view = yield* publicBoard(params.slug, q.workspaceId)
        const bugs = yield* publicBugs(view)
        return { items: [...bugs].reverse().map((b) => publicBug(view, b)) }
      })
  }),
  publicOperation({
    operationId: "getPublicBugReport",
    method: "GET",
    path: "/v1/public/boards/{slug}/bug-reports/{shortId}",
    summary: "One bug report of the public board by short id (no authentication)",
    auth: "public",
    scopes: [],
    params: BugParams,
    query: WorkspaceQuery,
    responses: { 200: { description: "The report", schema: PublicBugReport }, 404: { description: "No such report" } },
    handler: ({ params, query: q }) =>
      Effect.gen(function* () {
        const view = yield* publicBoard(params.slug, q.workspaceId)
        return publicBug(view, yield* bugByShortId(view, params.shortId))
      })
  }),
  publicOperation({
    operationId: "listPublicBugReportComments",
    method: "GET",
    path: "/v1/public/boards/{slug}/bug-reports/{shortId}/comments",
    summary: "The public comments on a bug report (no internal notes; no authentication)",
    auth: "public",
    scopes: [],
    params: BugParams,
    query: WorkspaceQuery,
    responses: { 200: { description: "Comments", schema: Schema.Struct({ items: Schema.Array(PublicComment) }) } },
    handler: ({ params, query: q }) =>
      Effect.gen(function* () {
        const view = yield* publicBoard(params.slug, q.workspaceId)
        const bug = yield* bugByShortId(view, params.shortId)
        const comments = (yield* orDieStore(bugComments(bug.id))).filter((c) => !c.internal && c.moderation === "approved")
        const nameOf = yield* displayNames(comments.map((c) => c.authorId))
        return {
          items: comments.map((c) => ({
            id: c.id,
            parentId: null,
            authorName: nameOf(c.authorId),
            body: c.body,
            edited: false,
            createdAt: c.createdAt
          }))
        }
      })
  }),
  ...(
    [
      ["bug_status", "listPublicBugStatusLevels", "bug-status-levels", "bug status levels"],
      ["severity", "listPublicSeverityLevels", "severity-levels", "severity levels"]
    ] as const
  ).map(([kind, operationId, segment, what]) =>
    publicOperation({
      operationId,
      method: "GET",
      path: `/v1/public/boards/{slug}/${segment}`,
      summary: `The public board's ${what}, in order (no authentication)`,
      auth: "public",
      scopes: [],
      params: SlugParams,
      query: WorkspaceQuery,
      responses: { 200: { description: what, schema: Schema.Struct({ items: Schema.Array(PublicOption) }) } },
      examples: [
        {
          name: "levels",
          request: { params: slugParams },
          response: { status: 200, body: { items: [{ ...exampleStatus, type: undefined }].map(({ type: _t, ...o }) => o) } }
        }
      ],
      handler: ({ params, query: q }: { params: typeof SlugParams.Type; query: typeof WorkspaceQuery.Type }) =>
        Effect.map(publicBoard(params.slug, q.workspaceId), (view) => ({ items: publicOptions(view, kind) }))
    })
  )
]
