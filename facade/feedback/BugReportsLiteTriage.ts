/**
 * feedback tag "Bug Reports (Lite)", triage and discussion (5 of 10): bug
 * status level and severity by name, assignee by e-mail, comments by short
 * id — the team's work on a report.
 */
import { Effect, Schema } from "effect"
import { bugComments } from "../../actors/feedback/DeskQueries.ts"
import { usersByIds } from "../../actors/identity/IdentityQueries.ts"
import { Workspace } from "../../actors/identity/Workspace.ts"
import { orDieStore } from "../../runtime/ActorStore.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { reject } from "../../runtime/Rejection.ts"
import { tagGroup } from "../Operation.ts"
import { commentOnBug, CommentBody, visibleComments } from "./BugComments.ts"

import { Id, LiteEmail, NameRef, userByEmail, Where } from "./LiteRefs.ts"

import { LiteBugReport, RefParams, bugByRef, liteOne, mayEdit, setLevel, teamOnly } from "./LiteBugViews.ts"
import { bugReportsLiteTriageExamples } from "./BugReportsLiteTriage.examples.ts"
import { desk } from "./BoardAsk.ts"
const read = ["feedback:read"]
const write = ["feedback:write"]

const { operation } = tagGroup("feedback", "Bug Reports (Lite)", bugReportsLiteTriageExamples)

export const bugReportsLiteTriageOperations = [
  operation({
    operationId: "setBugReportStatusLite",
    method: "POST",
    path: "/v1/lite/bug-reports/{bugRef}/status",
    summary: "Move a bug report to a bug status level by name (team); null clears",
    auth: "both",
    scopes: write,
    params: RefParams,
    body: Schema.Struct({ ...Where, name: Schema.NullOr(NameRef) }),
    responses: { 200: { description: "The report", schema: LiteBugReport } },
    handler: setLevel("bugStatusLevel", "bug_status", "body.name")
  }),
  operation({
    operationId: "setBugReportSeverityLite",
    method: "POST",
    path: "/v1/lite/bug-reports/{bugRef}/severity",
    summary: "Set a bug report's severity level by name (team); null clears",
    auth: "both",
    scopes: write,
    params: RefParams,
    body: Schema.Struct({ ...Where, name: Schema.NullOr(NameRef) }),
    responses: { 200: { description: "The report", schema: LiteBugReport } },
    handler: setLevel("severityLevel", "severity", "body.name")
  }),
  operation({
    operationId: "assignBugReportLite",
    method: "POST",
    path: "/v1/lite/bug-reports/{bugRef}/assignee",
    summary: "Assign a bug report to a workspace member by e-mail (team); null unassigns",
    auth: "both",
    scopes: write,
    params: RefParams,
    body: Schema.Struct({ ...Where, email: Schema.NullOr(LiteEmail) }),
    responses: { 200: { description: "The report", schema: LiteBugReport } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { caller, bug } = yield* bugByRef(context, body, params.bugRef, "body.board")
        yield* teamOnly(caller)
        let assigneeId: string | null = null
        if (body.email !== null) {
          const user = yield* userByEmail(body.email, "body.email")
          const role = yield* Workspace.client(yield* ActorSystem)(caller.view.board.workspaceId)
            .roleOf({ userId: user.id })
            .pipe(Effect.option)
          if (role._tag === "None")
            return yield* reject("invalid", `${body.email} is not a member of this workspace`, [
              { path: "body.email", message: "not a member" }
            ])
          assigneeId = user.id
        }
        return yield* liteOne(
          caller,
          yield* desk(caller.view.board.id).setBugField({
            by: caller.userId,
            input: { bugReportId: bug.id, field: "assignee", value: assigneeId }
          })
        )
      })
  }),
  operation({
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
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        const { caller, bug } = yield* bugByRef(context, query, params.bugRef, "query.board")
        const comments = visibleComments(caller, yield* orDieStore(bugComments(bug.id)))
        const users = yield* orDieStore(usersByIds(comments.map((c) => c.authorId)))
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
    operationId: "deleteBugReportLite",
    method: "DELETE",
    path: "/v1/lite/bug-reports/{bugRef}",
    summary: "Delete a bug report by short id (its reporter or the team)",
    auth: "both",
    scopes: write,
    params: RefParams,
    query: Schema.Struct(Where),
    responses: { 204: { description: "Deleted" } },
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        const { caller, bug } = yield* bugByRef(context, query, params.bugRef, "query.board")
        yield* mayEdit(caller, bug)
        yield* desk(caller.view.board.id).deleteBug({ by: caller.userId, input: { bugReportId: bug.id } })
      })
  })
]
